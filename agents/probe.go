package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// What `doctor` needs to prove an installed entry fires: the shell the
// agent hands a command line to, the entries a hook file holds, and the
// probe a `hook` process answers instead of dispatching.

// ProbeEnv names the variable doctor sets on a command line it runs to
// prove the entry fires: the path of a private file holding a token. A
// `hook` process answers a probe it can verify (the file is a regular file
// of this user, readable by nobody else) with the token and dispatches
// nothing; for a gating event that answer is the agent's own refusal, so
// that even a probe honoured by mistake can never let a tool call through.
const ProbeEnv = "HERMES_HOOKS_PROBE"

// ProbePrefix starts the reason of a probe's answer, before ProbeAnswer.
const ProbePrefix = "hermes-hooks doctor probe "

// ProbeDirPrefix and ProbeFile name the probe file doctor makes: a folder
// of its own (os.MkdirTemp with this prefix), then this name. `hook` takes
// no other file for a probe, so that a variable set by someone else cannot
// name a file of the user's (a token of theirs) as one.
const (
	ProbeDirPrefix = "hermes-hooks-probe-"
	ProbeFile      = "token"
)

// ProbeAnswer is what a probe with token is answered with: the token's
// SHA-256, not the token, so that an answer never shows a file's content.
func ProbeAnswer(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// shells are the agents that hand a command line to bash -c on Linux and
// macOS rather than sh -c: Gemini CLI and Qwen Code (spawn with bash), Kiro
// CLI ("the command runs under bash -c"), Copilot CLI (its "bash" field).
// Cline runs its hooks folder's files themselves (a Scripts layout).
var shells = map[string]string{"gemini": "bash", "qwen": "bash", "kiro": "bash", "copilot": "bash"}

// Shell is the program a runs its hook file's command lines with, on
// Linux and macOS: "sh" or "bash", called as SHELL -c COMMAND.
func (a *Agent) Shell() string {
	if s, ok := shells[a.Name]; ok {
		return s
	}
	return "sh"
}

// FileEntry is one handler of an agent's hook file: its event (the agent's
// name), its command line, and where it is: the index of its matcher group
// in the event's list (of the handler itself, in a Flat file) and of the
// handler in the group.
type FileEntry struct {
	Event, Command string
	// Windows is the handler's Windows command (HookFile.WindowsKey or an
	// alias of it; "" when it has none).
	Windows string
	// Shell is the shell the handler's HookFile.CommandShellKey asks the
	// agent to run "command" with (commandShellOf; "": the agent's own).
	Shell          string
	Group, Handler int
	// Altered says why the entry, if it is ours, is not as install writes
	// it ("" when it is): the agent may not run it as a guard (altered.go).
	Altered string
}

// Own reports whether e is an entry install writes for agent: exactly a
// form of HookCommand (or of HookCommandOn's Windows form, where the agent
// runs "command" through PowerShell there), for that agent. doctor runs
// nothing else.
// An entry whose "command" is ours but whose Windows command is someone
// else's is ours and Altered (altered.go): install writes it again, and
// doctor says so rather than run either line.
func (e FileEntry) Own(agent string) bool {
	return IsOwnHookCommand(e.Command, agent)
}

// Entries lists every command handler of doc, a's hook file (not a Scripts
// folder), in the file's order: events as the file orders them.
func (a *Agent) Entries(doc pyjson.OrderedObject) []FileEntry {
	hooks, _ := get(doc, "hooks").(pyjson.OrderedObject)
	var out []FileEntry
	for _, m := range hooks {
		list, ok := m.Value.([]any)
		if !ok {
			continue
		}
		for i, item := range list {
			obj, _ := item.(pyjson.OrderedObject)
			inner, group := []any{obj}, pyjson.OrderedObject(nil)
			if a.HookFile.Layout != Flat {
				inner, _ = get(obj, "hooks").([]any)
				group = obj
			}
			for j, h := range inner {
				ho, _ := h.(pyjson.OrderedObject)
				if c, ok := get(ho, "command").(string); ok {
					out = append(out, FileEntry{Event: m.Key, Command: c, Windows: a.windowsOf(ho), Shell: a.commandShellOf(ho), Group: i, Handler: j,
						Altered: a.altered(m.Key, group, ho)})
				}
			}
		}
	}
	return out
}

// ScriptCommand is the command line of a script install wrote for agent
// (IsOwnScript), "" when data is not one.
func ScriptCommand(data []byte, agent string) string {
	if !IsOwnScript(data, agent) {
		return ""
	}
	s := strings.TrimPrefix(string(data), "#!/bin/sh\n"+scriptMarker)
	return strings.TrimSuffix(strings.TrimPrefix(s, "exec "), "\n")
}

// IsProbeAnswer reports whether out (a process's stdout or stderr) carries
// the answer to the probe with token.
func IsProbeAnswer(out []byte, token string) bool {
	return token != "" && strings.Contains(string(out), ProbePrefix+ProbeAnswer(token))
}
