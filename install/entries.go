package install

import (
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Entry is one entry of an installed hook file as doctor checks it: the
// event, the command line as written, and, for a Scripts layout, the
// script the agent runs itself.
type Entry struct {
	agents.FileEntry
	Script string
	// Off is the file's own setting that makes the agent skip the entry
	// (agents.Agent.OffIn; "" when it runs it): doctor's probe runs
	// the line itself, and would say it fires.
	Off string
}

// Entries lists the entries of in's file (every handler, ours or not:
// doctor runs only ours, and names the others) and when the file was last
// written, its install time as far as the file can tell.
func Entries(in Installed) ([]Entry, time.Time, error) {
	ag := in.Agent
	if ag.HookFile.Layout == agents.Scripts {
		var out []Entry
		var newest time.Time
		for _, ev := range ag.HookFile.Events {
			p, ok := scriptPath(in, filepath.Join(in.Path, ev))
			if !ok {
				// Outside the project, or a path that names another
				// file for each process: nobody's script of ours, and
				// not run (doctor names it, as any other not ours).
				out = append(out, Entry{FileEntry: agents.FileEntry{Event: ev}, Script: p})
				continue
			}
			data, err := fsutil.ReadRegular(p, "", 1<<20)
			if err != nil {
				continue
			}
			if fi, err := os.Stat(p); err == nil && fi.ModTime().After(newest) {
				newest = fi.ModTime()
			}
			c := agents.ScriptCommand(data, ag.Name)
			out = append(out, Entry{FileEntry: agents.FileEntry{Event: ev, Command: c, Altered: agents.ScriptAltered(ev, c)}, Script: p})
		}
		return out, newest, nil
	}
	data, err := fsutil.ReadRegular(in.Path, "", 16<<20)
	if err != nil {
		return nil, time.Time{}, err
	}
	var mtime time.Time
	if fi, err := os.Stat(in.Path); err == nil {
		mtime = fi.ModTime()
	}
	doc, err := parse(ag, in.Path, data)
	if err != nil {
		return nil, mtime, err
	}
	var out []Entry
	off := ag.OffIn(doc, os.LookupEnv)
	for _, e := range ag.Entries(doc) {
		out = append(out, Entry{FileEntry: e, Off: off(e.Command)})
	}
	return out, mtime, nil
}

// scriptPath is the script p of a Scripts layout with its symbolic links
// followed, once: doctor reads that file and runs that file, so that what
// it ran is what it read. Run by p, a link through /proc/self/cwd (or any
// link whose target differs between two processes) led doctor's read to
// one file (our script, in the folder doctor ran in) and the probe,
// started in the project's root, to another (the repository's program).
// For a project's install the file must stay inside the project (Within);
// ok false (p as given) when it does not.
func scriptPath(in Installed, p string) (string, bool) {
	if fsutil.ViaProcess(p) {
		// Through /proc/self/cwd (or the like) it names another file for
		// the agent, started in the project's root, than for doctor:
		// whatever doctor read there, the agent's is not known.
		return p, false
	}
	if in.User {
		return resolve(p), true
	}
	real, err := Within(in.Root, p)
	if err != nil {
		return p, false
	}
	return real, true
}
