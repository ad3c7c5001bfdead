package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A dispatch reads the config as it is on disk, and a config file being
// rewritten in place (truncated, then written) is on disk half written:
// read then, a guard not yet written back did not exist, and the call it
// guards went through. serve never applies such a read (it waits for its
// files to settle, server/settle.go) and refuses the calls forwarded
// meanwhile — which their caller then dispatched by itself, from the
// half-written file. So a dispatch's read counts only when none of the
// files it came from changed while it read them and none is still open
// for writing (a writer paused half-way keeps it open); else it reads
// again once the writer is done, and if that takes longer than
// settleLimit it refuses what a failing guard refuses.

// settleLimit bounds the wait for a file still being written; past it the
// config reads as one that does not load.
const settleLimit = 2 * time.Second

// settlePoll is how often a waiting dispatch looks again.
const settlePoll = 25 * time.Millisecond

// changeSlack widens "changed while read": a file system stamps a write
// with a coarse clock (a few ms on Linux), so a write during the read can
// bear a time a little before the read began.
const changeSlack = 10 * time.Millisecond

// unsettledError: a config file was still being written when the
// dispatch had to answer. Not a ConfigError: there is nothing in the file
// to fix, only a writer to let finish.
type unsettledError struct{ path, why string }

func (e *unsettledError) Error() string {
	return fmt.Sprintf("%s %s, so what a hook reads of it now may be half a file (a guard in the other half would be missed); let the program writing it finish", e.path, e.why)
}

// loadSettled is load, read again until no file it came from was being
// written; ctx's deadline shortens the wait. A config that does not load
// is looked at too: its error may be half a file's.
func (a *App) loadSettled(ctx context.Context, projectDir string) (*hookconfig.Config, error) {
	until := time.Now().Add(settleLimit)
	if d, ok := ctx.Deadline(); ok && d.Before(until) {
		until = d
	}
	for {
		began := time.Now()
		cfg, err := a.load(projectDir)
		file, why := a.unsettled(cfg, err, began)
		if file == "" {
			return cfg, err
		}
		if !time.Now().Add(settlePoll).Before(until) {
			return nil, &unsettledError{file, why}
		}
		select {
		case <-ctx.Done():
			return nil, &unsettledError{file, why}
		case <-time.After(settlePoll):
		}
	}
}

// unsettled is the first file a load that began at began read (cfg's
// sources, or the file its error names) that changed since then or is
// open for writing, and why; "" when there is none.
func (a *App) unsettled(cfg *hookconfig.Config, err error, began time.Time) (string, string) {
	var files []string
	if cfg != nil {
		files = cfg.SourceFiles()
	} else {
		if p, perr := a.Config(); perr == nil {
			files = append(files, p)
		}
		if ce := (*hookconfig.ConfigError)(nil); errors.As(err, &ce) && ce.Path != "" {
			files = append(files, ce.Path)
		}
	}
	now := time.Now()
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			continue
		}
		if fsutil.LastWrite(fi, now).After(began.Add(-changeSlack)) {
			return f, "was written to while it was read"
		}
		if fsutil.BeingWritten(f) {
			return f, "stays open for writing"
		}
	}
	return "", ""
}
