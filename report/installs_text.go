package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/install"
)

// PrintInstalls is `hermes-hooks installs`: one paragraph per
// installation the registry (at registry) records, the stale and the
// misplaced ones marked. Every path is escaped: a registry may have been
// edited by anyone who can write the user's files.
func PrintInstalls(w io.Writer, registry string, list []install.Installation) {
	if len(list) == 0 {
		fmt.Fprintf(w, "no installation recorded (%s)\n", show(registry))
		return
	}
	stale := 0
	for _, in := range list {
		where := "your home directory"
		if in.Agent == install.TargetHermes {
			where = "HERMES_HOME"
		}
		if !in.User() {
			where = "project " + show(in.Root)
		}
		if in.Local {
			where += ", this checkout only"
		}
		fmt.Fprintf(w, "%s  %s  (%s)\n", show(in.Agent), show(in.Path), where)
		fmt.Fprintf(w, "  installed %s", in.InstalledAt.UTC().Format(time.DateTime))
		if !in.UpdatedAt.Equal(in.InstalledAt) {
			fmt.Fprintf(w, ", rewritten %s", in.UpdatedAt.UTC().Format(time.DateTime))
		}
		fmt.Fprintf(w, " UTC by hermes-hooks %s (%s)\n", show(in.Version), show(in.Binary))
		fmt.Fprintf(w, "  wrote %s\n", wroteSummary(&in.Record))
		switch {
		case in.Misplaced != "":
			stale++
			fmt.Fprintf(w, "  NOT INSTALL'S: %s\n", show(in.Misplaced))
		case in.Stale != "":
			stale++
			fmt.Fprintf(w, "  %s\n", in.Stale)
		}
	}
	fmt.Fprintf(w, "%d installation(s) recorded in %s", len(list), show(registry))
	if stale > 0 {
		fmt.Fprintf(w, "; %d stale or not install's (uninstall --all drops a stale record and touches nothing of that file)", stale)
	}
	fmt.Fprintln(w, "\nTake them all out: hermes-hooks uninstall --all (--dry-run first to see what changes)")
}

// wroteSummary is a record's Wrote in one line: the events of its
// entries (installs --json has their command lines), or its files.
func wroteSummary(r *install.Record) string {
	if r.Kind != install.KindEntries {
		return fmt.Sprintf("%d file(s) it owns outright: %s", len(r.Wrote), show(strings.Join(r.Wrote, ", ")))
	}
	events := make([]string, 0, len(r.Wrote))
	for _, w := range r.Wrote {
		ev, _, _ := strings.Cut(w, ": ")
		events = append(events, ev)
	}
	return fmt.Sprintf("%d entries, for %s (installs --json: their command lines)", len(r.Wrote), show(strings.Join(events, ", ")))
}

// PathLine is one place hermes-hooks keeps something (installs --paths).
type PathLine struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Note string `json:"note"`
}

// PrintPaths is `installs --paths`: name, path and what it is, aligned.
func PrintPaths(w io.Writer, ps []PathLine) {
	width := 0
	for _, p := range ps {
		width = max(width, len(p.Name))
	}
	for _, p := range ps {
		fmt.Fprintf(w, "%-*s  %s  # %s\n", width, p.Name, show(p.Path), p.Note)
	}
}
