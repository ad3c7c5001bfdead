package agents

import (
	"path"
	"strings"
)

// DirRule is how an agent whose hooks are a folder of per-event files
// (Source.Dir) finds and starts them on one system, when that is not the
// default: a file named after its event that the system starts as a
// program (Unix: its execute bit; Windows: a %PATHEXT% extension).
type DirRule struct {
	// Ext is the extension the file of event E must have: E+Ext, its name
	// compared without case (Windows' file system finds it so).
	Ext string
	// Launcher is the program and its options the agent starts a hook
	// file with, the file's path after them, without a shell.
	Launcher []string
	// Runs words what the agent runs, for the reason a file named after
	// an event in another way is skipped: "<file>: <Runs>; skipped".
	Runs string
}

// DirRule is a's rule for its hooks folder on the system goos
// (runtime.GOOS), or nil for the default.
func (a *Agent) DirRule(goos string) *DirRule {
	if goos == "windows" {
		return a.Source.DirWindows
	}
	return nil
}

// Classify reads one name of the folder: the event (of events, in the
// agent's spelling) it is named after, "" when none (the file is none of
// the agent's); hook reports that the agent runs it as that event's hook.
// A file is named after event E when its name, or its name without its
// last extension, is E (without case): PreToolUse, PreToolUse.cmd.
func (r *DirRule) Classify(name string, events []string) (event string, hook bool) {
	base := strings.TrimSuffix(name, path.Ext(name))
	for _, e := range events {
		switch {
		case strings.EqualFold(name, e+r.Ext):
			return e, true
		case strings.EqualFold(name, e), strings.EqualFold(base, e):
			return e, false
		}
	}
	return "", false
}

// Argv is what the agent runs for the hook file at file.
func (r *DirRule) Argv(file string) []string {
	return append(append([]string(nil), r.Launcher...), file)
}

// Why is the reason a file named after event in another way than the
// rule's is skipped: what the agent runs instead.
func (r *DirRule) Why(event string) string {
	return strings.ReplaceAll(r.Runs, "<Event>", event)
}

// DirEvents are the names a's hooks folder holds hooks under (HookFile's
// events its Source reads).
func (a *Agent) DirEvents() []string {
	var out []string
	for _, e := range a.HookFile.Events {
		if _, ok := a.SourceEvent(e); ok {
			out = append(out, e)
		}
	}
	return out
}
