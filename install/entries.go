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
			p := filepath.Join(in.Path, ev)
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
	doc, err := parse(in.Path, data)
	if err != nil {
		return nil, mtime, err
	}
	var out []Entry
	for _, e := range ag.Entries(doc) {
		out = append(out, Entry{FileEntry: e})
	}
	return out, mtime, nil
}
