package hookconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// An agent's hooks folder (agents.Source.Dir: Cline's), read as the agent
// reads it on this system: its own rule there (agents.DirRule: Cline on
// Windows runs <Event>.ps1 through PowerShell), else a file named after
// its event that the system starts as a program (fsutil.Executables).

// goos is the system whose rules a hooks folder is read by: a variable,
// so that tests read a folder as Windows does on every system.
var goos = runtime.GOOS

// dirFiles are the hooks of folder dir of kind k's agent: the files it
// runs, in name order; the others named after an event are skipped with a
// warning saying why. isDir is false when dir is not a folder.
func (cfg *Config) dirFiles(k agentFileKind, dir string) (files []string, isDir bool) {
	r := k.agent.DirRule(goos)
	if r == nil {
		files, skipped, isDir, err := fsutil.Executables(dir, func(n string) bool { _, ok := k.agent.SourceEvent(n); return ok })
		if err != nil {
			cfg.warn(k.key, dir+": "+err.Error()+"; skipped")
		}
		for _, f := range skipped {
			cfg.warn(k.key, f+": not an executable file; "+k.agent.Title+" does not run it; skipped")
		}
		return files, isDir
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, false
	}
	list, err := os.ReadDir(dir)
	if err != nil {
		cfg.warn(k.key, dir+": "+err.Error()+"; skipped")
		return nil, true
	}
	events := k.agent.DirEvents()
	at := map[string]int{} // event → its file's index in files
	for _, d := range list {
		ev, hook := r.Classify(d.Name(), events)
		f := filepath.Join(dir, d.Name())
		switch {
		case ev == "":
			continue
		case !hook:
			cfg.warn(k.key, f+": "+r.Why(ev)+"; skipped")
			continue
		}
		if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() {
			cfg.warn(k.key, f+": not a regular file; "+k.agent.Title+" does not run it; skipped")
			continue
		}
		i, seen := at[ev]
		if !seen {
			at[ev] = len(files)
			files = append(files, f)
			continue
		}
		// Two names that differ in case only (a case-sensitive folder):
		// the agent opens <Event><Ext> by that name.
		drop := f
		if d.Name() == ev+r.Ext {
			drop, files[i] = files[i], f
		}
		cfg.warn(k.key, drop+": "+r.Why(ev)+", by that name; skipped")
	}
	// In name order, as the folder lists them (a kept spelling took the
	// place of the one it replaced).
	slices.Sort(files)
	return files, true
}

// parseScriptFile reads one file of an agent's hooks folder (Source.Dir:
// Cline's) as the Claude-shaped file making it the one hook of the event
// it is named after (Handler and Codec then apply), run as the agent runs
// it: under its rule on this system (agents.DirRule), the rule's launcher
// with the file, no shell; else the file itself. One install wrote
// (agents.IsOwnScript) stands for the line of ours it runs, which
// parseAgentFileOwn sets apart: the agent runs the program it names.
func parseScriptFile(a *agents.Agent, data []byte, path string, limit int) ([]*Entry, []Warning, error) {
	var handler protocol.Object
	event := filepath.Base(path)
	if r := a.DirRule(goos); r != nil {
		ev, hook := r.Classify(event, a.DirEvents())
		if ev != "" && !hook {
			return nil, []Warning{{Path: path, Message: r.Why(ev) + "; skipped", File: path}}, nil
		}
		if hook {
			event = ev
		}
		// install writes no file there: none is read as ours.
		argv := r.Argv(path)
		args := make([]any, 0, len(argv)-1)
		for _, w := range argv[1:] {
			args = append(args, w)
		}
		handler = protocol.Object{{Key: "type", Value: "command"}, {Key: "command", Value: argv[0]}, {Key: "args", Value: args}}
	} else {
		command := shquote.Quote(path)
		if line := agents.ScriptCommand(data, ""); line != "" {
			command = line
		}
		handler = protocol.Object{{Key: "type", Value: "command"}, {Key: "command", Value: command}}
		// Named after its event; on Windows with a program extension
		// too (PreToolUse.cmd: see fsutil.Executables).
		event = fsutil.TrimProgramExt(event)
	}
	group := []any{protocol.Object{{Key: "hooks", Value: []any{handler}}}}
	return parseClaudeShaped(pyjson.Encode(protocol.Object{{Key: "hooks", Value: protocol.Object{{Key: event, Value: group}}}}, pyjson.Compact), path, a, limit)
}
