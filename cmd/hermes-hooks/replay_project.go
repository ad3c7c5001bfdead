package main

// replay beside the project hooks file: replay loads the working
// directory's .hermes/hooks.yaml, once, while each record was decided
// with the one of the directory it was decided in.

import (
	"context"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// otherProjects counts the replayed records decided where another
// project's hooks file applies than the one replay loaded (here): run
// above a project, replay fires its records (they lie below the working
// directory) without its .hermes/hooks.yaml, and the blocks of its rules
// read as "block → none".
type otherProjects struct {
	here  string            // the hooks file replay loaded ("" for none)
	found map[string]string // a directory's hooks file, by directory
	n     int
	first string // the first such record's project: its hooks file's folder, else its directory
}

func newOtherProjects(cwd string) *otherProjects {
	return &otherProjects{here: hookconfig.FindProjectHooks(cwd), found: map[string]string{}}
}

// fire wraps a dispatcher's Fire, counting f when the directory it is
// fired in (the host's cwd, else the recorded one replay put there; none:
// the working directory's, the same project) finds another hooks file.
func (o *otherProjects) fire(next func(context.Context, *protocol.Firing) (protocol.Outcome, error)) func(context.Context, *protocol.Firing) (protocol.Outcome, error) {
	return func(ctx context.Context, f *protocol.Firing) (protocol.Outcome, error) {
		o.see(f.HostCwd)
		return next(ctx, f)
	}
}

func (o *otherProjects) see(dir string) {
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		return
	}
	file, ok := o.found[dir]
	if !ok {
		file = hookconfig.FindProjectHooks(dir)
		o.found[dir] = file
	}
	if file == o.here {
		return
	}
	o.n++
	if o.first == "" {
		o.first = dir
		if file != "" {
			o.first = filepath.Dir(filepath.Dir(file))
		}
	}
}
