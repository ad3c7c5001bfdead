package agents

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// HookFile is where an agent keeps its hooks and how an entry that runs
// `hermes-hooks hook AGENT EVENT` is spelled there: what `install` edits.
// Edits are pure functions of the decoded document (objects in their
// order, pyjson.OrderedObject), so that everything else in the file stays
// as it was.
type HookFile struct {
	// Project is the file's path inside a project; User its path inside
	// the home directory.
	Project, User string
	// Events are the agent's events install registers.
	Events []string
	// Layout is how the file holds hooks.
	Layout Layout
	// Typed says a Flat entry carries "type": "command" too (Grouped
	// handlers always do).
	Typed bool
	// NoVersion says a Flat file has no "version" key (Windsurf's hooks
	// file, Kiro CLI's agent files; Cursor's hooks.json has one).
	NoVersion bool
	// Extra are members every entry carries after its command: a timeout
	// where the agent's default is short and a timed-out hook lets the
	// tool call through.
	Extra []pyjson.Member
	// EventExtra replaces Extra for the events it names (Codex clamps a
	// SessionEnd hook's timeout to 3 s and says so on every run).
	EventExtra map[string][]pyjson.Member
	// TimeoutMS says the "timeout" of Extra is in milliseconds (Gemini
	// CLI), not seconds.
	TimeoutMS bool
	// Local is the file's path inside a project for settings of this
	// checkout only, which teams do not commit ("" when the agent has
	// none): install --local writes it.
	Local string
	// Notice is what the user must still do after install (""), printed
	// by install.
	Notice string
	// UserEnv names the variable that moves the agent's folder in the
	// home directory (User's first element) elsewhere, or the home
	// directory itself (homeVars: GEMINI_CLI_HOME): where it is set,
	// the agent reads its user file there, and install writes it there
	// (UserHookFile). "": none.
	UserEnv string
	// WindowsKey is the handler key whose command the agent runs on
	// Windows instead of "command" ("": none), and WindowsShell the shell
	// it runs it with: install writes WindowsHookCommand there.
	WindowsKey   string
	WindowsShell WindowsShell
	// CommandShellWindows is the shell the agent runs "command" itself
	// with on Windows, where it has no WindowsKey (NoWindowsKey: the POSIX
	// form runs there, as through Git Bash). Gemini CLI runs it through
	// PowerShell: install on Windows writes that shell's form into
	// "command" (HookCommandOn).
	CommandShellWindows WindowsShell
	// CommandShellKey is the handler key that makes the agent run
	// "command" with CommandShellWindows ("": it always does there, as
	// Gemini CLI). Qwen Code runs it with PowerShell only under "shell":
	// "powershell" (else with %ComSpec%, where a PowerShell line fails):
	// install writes the key beside the PowerShell form, and never beside
	// the POSIX one, whose shell is the agent's default (commandshell.go).
	CommandShellKey string
	// POSIXOnWindows is how the agent runs the POSIX form on Windows,
	// where it has no Windows shell of its own.
	POSIXOnWindows POSIXWindows
	// WindowsAliases are other spellings of WindowsKey the agent reads
	// (Codex's command_windows).
	WindowsAliases []string
	// Init are the members a file install creates starts with, beside
	// "hooks" (Kiro CLI gives an agent file without "tools" no tools);
	// uninstall takes them out again when nothing else is left.
	Init []pyjson.Member
	// Off reads doc, a file of the agent's, once, for why the agent would
	// not run command, a line install writes for an event ("": it would):
	// the file's own switch (off.go). nil: the agent has none.
	// lookup is the environment, for an agent that expands variables in
	// its settings' strings (nil: none is set).
	Off func(doc pyjson.OrderedObject, lookup func(string) (string, bool)) func(command string) string
}

// POSIXWindows is how an agent runs the POSIX form of "command" on
// Windows (HookFile.POSIXOnWindows).
type POSIXWindows uint8

const (
	// GitBashElseSh: through Git Bash, else the sh on PATH.
	GitBashElseSh POSIXWindows = iota
	// GitBashElsePowerShell: through Git Bash found by the agent's own
	// rules, else PowerShell (Claude Code), where the line does not parse:
	// the hook errs, and the agent lets the call through.
	GitBashElsePowerShell
	// ComSpecOutsideGitBash: through %ComSpec% (cmd.exe, or PowerShell
	// where it names one) unless the agent was started from Git Bash
	// (MSYSTEM, TERM; Qwen Code's getShellConfiguration): in either the
	// line fails, and the agent lets the call through.
	ComSpecOutsideGitBash
)

// Layout is the shape of an agent's hooks object.
type Layout int

const (
	// Grouped: {"hooks": {EVENT: [{"matcher": …, "hooks": [{"type":
	// "command", "command": …}]}]}} — Claude Code's settings.
	Grouped Layout = iota
	// Flat: {"version": 1, "hooks": {EVENT: [{"command": …}]}} — Cursor's
	// hooks.json.
	Flat
	// Scripts: a folder holding one executable per event, named after it
	// (Cline's hooks folder); Project and User name the folder. Install
	// writes Script(command) there for each event.
	Scripts
)

// scriptMarker is the line that marks a script install wrote: uninstall
// removes a file only when it holds this line and our command.
const scriptMarker = "# Written by `hermes-hooks install`; `hermes-hooks uninstall` removes it.\n"

// Script is the executable install writes for one event of a Scripts
// layout: a shell script that runs command in its place, so the agent's
// stdin, stdout, stderr and exit code are hermes-hooks' own. HookCommand's
// forms end in exec themselves, behind the prologue that answers when the
// program cannot be run; a bare path (an older install's) gets exec.
func Script(command string) []byte {
	if Guarded(command) {
		return []byte("#!/bin/sh\n" + scriptMarker + command + "\n")
	}
	return []byte("#!/bin/sh\n" + scriptMarker + "exec " + command + "\n")
}

// IsOwnScript reports whether data is a script install wrote for agent
// (for any agent when agent is ""): the marker line, then a command of
// ours behind its prologue, or exec of an older install's bare path,
// exactly. Anything else in a file of that name is the user's, and
// install and uninstall leave it alone.
func IsOwnScript(data []byte, agent string) bool {
	s, ok := strings.CutPrefix(string(data), "#!/bin/sh\n"+scriptMarker)
	if !ok {
		return false
	}
	if !Guarded(s) {
		// exec of a bare path; exec before a prologue is not ours.
		if s, ok = strings.CutPrefix(s, "exec "); !ok || Guarded(s) {
			return false
		}
	}
	cmd, ok := strings.CutSuffix(s, "\n")
	return ok && !strings.Contains(cmd, "\n") && IsOwnCommand(cmd, agent)
}

// Install adds, for every event of the hook file, an entry running
// command(event), unless an entry of ours is there already (whose command
// is then brought up to date). It returns the document and whether it
// changed; running it twice changes nothing the second time. A "hooks"
// that is not an object, or an event's hooks that are not a list, is an
// error: what the user wrote there is never replaced.
func (a *Agent) Install(doc pyjson.OrderedObject, command func(event string) string) (pyjson.OrderedObject, bool, error) {
	return a.InstallEnv(doc, command, nil)
}

// InstallEnv is Install with lookup the environment the file's own switch
// is read in (HookFile.Off: Gemini CLI and Qwen Code expand variables in
// their settings' strings; nil: none is set).
func (a *Agent) InstallEnv(doc pyjson.OrderedObject, command func(event string) string, lookup func(string) (string, bool)) (pyjson.OrderedObject, bool, error) {
	changed := false
	if v, ok := doc.Get("hooks"); ok {
		if _, isObj := v.(pyjson.OrderedObject); !isObj {
			return doc, false, errors.New(`"hooks" is not an object`)
		}
	}
	if len(doc) == 0 && len(a.HookFile.Init) > 0 {
		doc = append(doc, a.HookFile.Init...)
		changed = true
	}
	if a.HookFile.Layout == Flat && !a.HookFile.NoVersion {
		if _, ok := doc.Get("version"); !ok {
			doc = append(pyjson.OrderedObject{{Key: "version", Value: int64(1)}}, doc...)
			changed = true
		}
	}
	hooks, _ := get(doc, "hooks").(pyjson.OrderedObject)
	off := a.off(doc, lookup)
	for _, ev := range a.HookFile.Events {
		want := command(ev)
		if why := off(want); why != "" {
			return doc, false, errors.New(why)
		}
		list, isList := get(hooks, ev).([]any)
		if _, ok := hooks.Get(ev); ok && !isList {
			return doc, false, fmt.Errorf(`"hooks"."%s" is not a list`, ev)
		}
		win, hasWin, err := a.windowsForPOSIX(want, ev)
		if err != nil {
			return doc, false, fmt.Errorf("%s: %v", a.HookFile.WindowsKey, err)
		}
		// An entry of ours that is not as install writes it (altered.go)
		// goes, and today's is added in its place.
		if kept, dropped := a.without(list, func(group, h pyjson.OrderedObject) bool {
			c, _ := get(h, "command").(string)
			return a.isOwn(c) && a.altered(ev, group, h) != ""
		}); dropped {
			list, changed = kept, true
			hooks = hooks.Set(ev, list)
		}
		found := false
		for _, h := range a.handlers(list) {
			if c, _ := get(h.obj, "command").(string); a.isOwn(c) {
				found = true
				obj, edited := h.obj, false
				if c != want {
					obj, edited = obj.Set("command", want), true
				}
				if o, ok := a.withCommandShell(obj, want); ok {
					obj, edited = o, true
				}
				// An entry of ours runs our Windows command too, whatever
				// a file edited since said there (or under an alias).
				if w, _ := get(obj, a.HookFile.WindowsKey).(string); hasWin && w != win {
					obj, edited = obj.Set(a.HookFile.WindowsKey, win), true
				}
				for _, k := range a.HookFile.WindowsAliases {
					if _, ok := obj.Get(k); ok {
						obj, edited = obj.Delete(k), true
					}
				}
				if edited {
					h.set(obj)
					changed = true
				}
			}
		}
		if found {
			continue
		}
		handler := pyjson.OrderedObject{{Key: "type", Value: "command"}, {Key: "command", Value: want}}
		if hasWin {
			handler = append(handler, pyjson.Member{Key: a.HookFile.WindowsKey, Value: win})
		}
		handler, _ = a.withCommandShell(handler, want)
		if a.HookFile.Layout == Flat && !a.HookFile.Typed {
			handler = handler[1:]
		}
		extra, ok := a.HookFile.EventExtra[ev]
		if !ok {
			extra = a.HookFile.Extra
		}
		handler = append(handler, extra...)
		var entry any = handler
		if a.HookFile.Layout == Grouped {
			entry = pyjson.OrderedObject{{Key: "hooks", Value: []any{handler}}}
		}
		hooks = hooks.Set(ev, append(list, entry))
		changed = true
	}
	if changed {
		doc = doc.Set("hooks", hooks)
	}
	return doc, changed, nil
}

// Uninstall removes every entry of ours, and the containers that held
// only ours: what Install added, and nothing else.
func (a *Agent) Uninstall(doc pyjson.OrderedObject) (pyjson.OrderedObject, bool) {
	hooks, ok := get(doc, "hooks").(pyjson.OrderedObject)
	if !ok {
		return doc, false
	}
	changed := false
	for i := 0; i < len(hooks); i++ {
		list, ok := hooks[i].Value.([]any)
		if !ok {
			continue
		}
		kept, removed := a.withoutOwn(list)
		if !removed {
			continue
		}
		changed = true
		if len(kept) == 0 {
			hooks = append(hooks[:i], hooks[i+1:]...)
			i--
			continue
		}
		hooks[i].Value = kept
	}
	if !changed {
		return doc, false
	}
	if len(hooks) == 0 {
		doc = doc.Delete("hooks")
		if a.HookFile.Layout == Flat && len(doc) == 1 && doc[0].Key == "version" {
			doc = doc[:0] // install made the file: nothing of it is left
		}
		if a.onlyInit(doc) {
			doc = doc[:0]
		}
	} else {
		doc = doc.Set("hooks", hooks)
	}
	return doc, true
}

// withoutOwn drops our entries from an event's list (for Grouped, our
// handlers, and the groups left empty by that).
func (a *Agent) withoutOwn(list []any) ([]any, bool) {
	return a.without(list, func(_, h pyjson.OrderedObject) bool {
		c, _ := get(h, "command").(string)
		return a.isOwn(c)
	})
}

// without drops the handlers drop says go (given the handler's group, nil
// in a Flat file) from an event's list, and the groups left empty by that.
func (a *Agent) without(list []any, drop func(group, h pyjson.OrderedObject) bool) ([]any, bool) {
	var out []any
	removed := false
	for _, item := range list {
		obj, ok := item.(pyjson.OrderedObject)
		if !ok {
			out = append(out, item)
			continue
		}
		if a.HookFile.Layout == Flat {
			if drop(nil, obj) {
				removed = true
				continue
			}
			out = append(out, item)
			continue
		}
		inner, ok := get(obj, "hooks").([]any)
		if !ok {
			out = append(out, item)
			continue
		}
		var keep []any
		for _, h := range inner {
			if ho, ok := h.(pyjson.OrderedObject); ok && drop(obj, ho) {
				removed = true
				continue
			}
			keep = append(keep, h)
		}
		switch {
		case len(keep) == len(inner):
			out = append(out, item)
		case len(keep) > 0:
			out = append(out, obj.Set("hooks", keep))
		}
	}
	return out, removed
}

// handler is one hook object in an event's list, with a way to replace it.
type handler struct {
	obj pyjson.OrderedObject
	set func(pyjson.OrderedObject)
}

func (a *Agent) handlers(list []any) []handler {
	var out []handler
	for i, item := range list {
		obj, ok := item.(pyjson.OrderedObject)
		if !ok {
			continue
		}
		if a.HookFile.Layout == Flat {
			out = append(out, handler{obj, func(o pyjson.OrderedObject) { list[i] = o }})
			continue
		}
		inner, _ := get(obj, "hooks").([]any)
		for j, h := range inner {
			if ho, ok := h.(pyjson.OrderedObject); ok {
				out = append(out, handler{ho, func(o pyjson.OrderedObject) { inner[j] = o }})
			}
		}
	}
	return out
}

func get(o pyjson.OrderedObject, key string) any {
	v, _ := o.Get(key)
	return v
}

// onlyInit reports whether doc holds exactly the members install starts a
// new file with (HookFile.Init), and nothing else.
func (a *Agent) onlyInit(doc pyjson.OrderedObject) bool {
	init := a.HookFile.Init
	if len(init) == 0 || len(doc) != len(init) {
		return false
	}
	for i, m := range init {
		if doc[i].Key != m.Key || string(pyjson.Encode(doc[i].Value, pyjson.Compact)) != string(pyjson.Encode(m.Value, pyjson.Compact)) {
			return false
		}
	}
	return true
}

// UserHookFile is where the agent reads its user hook file, home being
// the user's home folder: User under the folder HookFile.UserEnv names
// when getenv gives it (the caller gives it absolute), else under home.
// "" when the agent has no user file.
func (a *Agent) UserHookFile(home string, getenv func(string) string) string {
	hf := a.HookFile
	if hf.User == "" {
		return ""
	}
	if hf.UserEnv != "" && getenv != nil {
		if dir := getenv(hf.UserEnv); dir != "" {
			return filepath.Join(dir, filepath.FromSlash(inEnvFolder(hf.UserEnv, "", hf.User)))
		}
	}
	return filepath.Join(home, filepath.FromSlash(hf.User))
}
