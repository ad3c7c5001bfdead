package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type logOptions struct {
	file           string
	since, until   string
	event, session string
	decision, hook string
	json, follow   bool
}

// logFilter is a parsed set of log options.
type logFilter struct {
	o            logOptions
	since, until time.Time
}

func newLogCmd(a *app) *cobra.Command {
	var o logOptions
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Show the decision journal: what each dispatch decided, and which hooks said so",
		Long: `Show the decision journal ($HERMES_HOME/hook-journal.jsonl unless the
config's journal: block says otherwise, or --journal names another): one line
per dispatch that ran a hook, oldest first, across rotated files. Filters
combine. --since and --until take RFC 3339 times or durations back from now
(1h, 30m); --event takes any event name (PreToolUse too); --decision none,
allow, ask or block (deny and approve too). -f keeps following the journal
until interrupted.

'hermes-hooks log verify' checks the hash chain.`,
		Example: `  hermes-hooks log --since 1h --decision block
  hermes-hooks log --event pre_tool_call --hook guard.sh --json | jq .hooks
  hermes-hooks log -f
  hermes-hooks log verify`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			warnOldFileFlag(a, cmd)
			return runLog(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.since, "since", "", "only records at or after this time (RFC 3339, or a duration back from now: 1h)")
	f.StringVar(&o.until, "until", "", "only records before this time (RFC 3339, or a duration back from now)")
	f.StringVar(&o.event, "event", "", "only this event (any name test accepts: pre_tool_call, PreToolUse, …)")
	f.StringVar(&o.decision, "decision", "", "only this outcome decision: block, allow, ask or none (deny and approve are accepted too)")
	f.StringVar(&o.session, "session", "", "only this session id")
	f.StringVar(&o.hook, "hook", "", "only dispatches that ran a hook whose command contains this text")
	f.BoolVar(&o.json, "json", false, "print the records as they are written (JSON Lines)")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing new records until interrupted")
	pf := cmd.PersistentFlags()
	pf.StringVar(&o.file, "journal", "", "the journal file (default: from the config)")
	// --file was log's name for it, --journal replay's: one name now, the
	// old one kept working (hidden, with a notice) for existing scripts.
	pf.StringVar(&o.file, "file", "", "the journal file (deprecated: --journal)")
	_ = pf.MarkHidden("file")
	cmd.AddCommand(newLogVerifyCmd(a, &o))
	return cmd
}

func newLogVerifyCmd(a *app, o *logOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Check the journal's hash chain across its rotated files",
		Long: `Check that every line of the journal is a record, that the records are
numbered without a gap and that each chains to the SHA-256 of the line before,
from the oldest rotated file to the live one; and that the chain's ends agree
with its head record (the journal's path + .head, rewritten by every append):
the newest record is the one it names (so removing the newest records, or
removing them and appending others, is found), and a chain that starts after
record 1 starts a file where a recorded rotation began one (whole older files
may be removed; lines cut from one may not). Exit 0 when the chain is intact
(a torn last line, left by a write cut short, is reported but is not
tampering: the next record repairs it), 1 naming the first bad line.`,
		Example: "  hermes-hooks log verify\n  hermes-hooks log verify --journal /var/log/hermes/journal.jsonl",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			warnOldFileFlag(a, cmd)
			path, err := a.journalPath(o.file)
			if err != nil {
				return err
			}
			res, err := journal.Verify(path)
			if err != nil {
				return &exitError{Code: 1, Msg: "verify journal: " + err.Error()}
			}
			if res.Bad != nil {
				return &exitError{Code: 1, Msg: "journal chain broken at " + show(res.Bad.String()),
					Hint: "the lines before it are intact; everything from it on cannot be trusted"}
			}
			fmt.Fprintf(a.Out, "journal intact: %s in %s (%s)\n", report.Count(int(res.Records), "record", "records"), report.Count(len(res.Files), "file", "files"), show(path))
			if res.FirstSeq > 1 {
				fmt.Fprintf(a.Out, "note: the chain starts at record %d, where a rotation began a file: the older rotated files were removed\n", res.FirstSeq)
			}
			if res.Torn != nil {
				fmt.Fprintf(a.Out, "note: %s\n", show(res.Torn.String()))
			}
			if res.AfterHead > 0 {
				fmt.Fprintf(a.Out, "note: %s after the one the head record names (a writer stopped before updating it, or an older version wrote them); the next append moves it on\n", report.Count(int(res.AfterHead), "record", "records"))
			}
			return nil
		},
	}
}

// warnOldFileFlag says on stderr (stdout may be a --json pipe) that --file
// is now --journal.
func warnOldFileFlag(a *app, cmd *cobra.Command) {
	if f := cmd.Flags().Lookup("file"); f != nil && f.Changed {
		a.Warn("--file is deprecated: use --journal, the name log and replay share")
	}
}

// journalPath is --journal, else the config's journal path.
func (a *app) journalPath(file string) (string, error) {
	if file != "" {
		return file, nil
	}
	cfg, err := a.LoadConfig()
	if err != nil {
		return "", err
	}
	home, err := a.Home()
	if err != nil {
		return "", err
	}
	return journal.PathFor(cfg.Journal, home), nil
}

func parseWhen(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return time.Time{}, usageErr("write an RFC 3339 time (2025-01-31T12:00:00Z) or a duration back from now (90m, 1h)", "cannot read the time %q", s)
	}
	return now.Add(-d), nil
}

// newLogFilter reads the filter options (log, replay): the times are
// taken back from one now.
func newLogFilter(o logOptions) (*logFilter, error) {
	lf := &logFilter{o: o}
	var err error
	now := time.Now()
	if lf.since, err = parseWhen(o.since, now); err != nil {
		return nil, err
	}
	if lf.until, err = parseWhen(o.until, now); err != nil {
		return nil, err
	}
	if lf.o.event, err = filterEvent(o.event); err != nil {
		return nil, err
	}
	if lf.o.decision, err = filterDecision(o.decision); err != nil {
		return nil, err
	}
	return lf, nil
}

func runLog(ctx context.Context, a *app, o logOptions) error {
	lf, err := newLogFilter(o)
	if err != nil {
		return err
	}
	path, err := a.journalPath(o.file)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(a.Out)
	defer out.Flush()
	print := func(line []byte, e *journal.Entry) {
		if !lf.keep(e) {
			return
		}
		if o.json {
			out.Write(line)
			out.WriteByte('\n')
			return
		}
		out.WriteString(report.JournalLine(e))
		out.WriteByte('\n')
	}
	if !o.follow {
		if err := journal.Scan(path, func(l journal.Line, e *journal.Entry) bool { print(l.Bytes, e); return true }); err != nil {
			return &exitError{Code: 1, Msg: "read journal: " + err.Error()}
		}
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return follow(ctx, path, func(line []byte) {
		var e journal.Entry
		if json.Unmarshal(line, &e) == nil {
			print(line, &e)
		}
		out.Flush()
	})
}

func (lf *logFilter) keep(e *journal.Entry) bool {
	o := lf.o
	switch {
	case !lf.since.IsZero() && e.Time.Before(lf.since),
		!lf.until.IsZero() && !e.Time.Before(lf.until),
		o.event != "" && e.Event != o.event,
		o.decision != "" && e.Decision != o.decision,
		o.session != "" && e.Session != o.session:
		return false
	}
	if o.hook == "" {
		return true
	}
	for _, h := range e.Hooks {
		if strings.Contains(h.Command, o.hook) {
			return true
		}
	}
	return false
}

// follow prints every complete line of the journal, then polls for more
// until ctx ends. The live file is opened first and read through that
// descriptor: a rotation is seen as the path naming another file, and the
// old one is read to its end before the new one is read from its start, so
// nothing appended meanwhile is missed. Polling (four times a second) is
// simpler than a watcher and plenty for a person watching.
func follow(ctx context.Context, path string, emit func([]byte)) error {
	f := openIfThere(path)
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	var live os.FileInfo
	if f != nil {
		live, _ = f.Stat()
	}
	files, err := journal.Files(path)
	if err != nil {
		return &exitError{Code: 1, Msg: "read journal: " + err.Error()}
	}
	for _, file := range files {
		if file == path {
			continue
		}
		if st, err := os.Stat(file); err == nil && live != nil && os.SameFile(st, live) {
			continue // rotated since we opened it: read below, through f
		}
		if _, err := journal.ScanFile(file, func(l journal.Line, _ *journal.Entry) bool { emit(l.Bytes); return true }); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &exitError{Code: 1, Msg: "read journal: " + err.Error()}
		}
	}
	var (
		off     int64
		partial []byte
		buf     = make([]byte, 64<<10)
	)
	readMore := func() {
		for f != nil {
			n, err := f.ReadAt(buf, off)
			off += int64(n)
			partial = append(partial, buf[:n]...)
			for {
				i := bytes.IndexByte(partial, '\n')
				if i < 0 {
					break
				}
				emit(partial[:i])
				partial = partial[i+1:]
			}
			if n == 0 || err != nil {
				return
			}
		}
	}
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		readMore()
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		cur, err := os.Stat(path)
		if err != nil {
			continue
		}
		var st os.FileInfo
		if f != nil {
			st, _ = f.Stat()
		}
		switch {
		case f == nil || st == nil || !os.SameFile(st, cur):
			// Rotated (or created): finish the old file, go on with the new.
			readMore()
			if f != nil {
				f.Close()
			}
			f, off, partial = openIfThere(path), 0, nil
		case st.Size() < off:
			// Truncated (a torn tail repaired): go on from the cut.
			off, partial = st.Size(), nil
		}
	}
}

func openIfThere(path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		return nil // not there yet: the next tick looks again
	}
	return f
}
