package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type logOptions struct {
	file           string
	since, until   string
	event, session string
	decision, hook string
	would          string
	json, follow   bool
	// last, when more than 0, keeps only the newest last records (of
	// those already there, with -f).
	last int
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
(1h, 30m, 7d); --event takes any event name (PreToolUse too); --decision none,
allow, ask or block (deny and approve too; block also selects an ask the
agent got as a refusal where it cannot ask: the line says "delivered as
block"). -f keeps following the journal until interrupted. Both say on stderr where the hash chain is broken (-f for
each break it reads, at most ten). -n N shows the newest N records that pass
the filters (with -f, the newest N already there, then each new one).
--would DECISION selects the records where an entry in mode: shadow would
have decided DECISION (none: it answered and would have decided nothing);
with --hook, that entry is one --hook names.

'hermes-hooks log verify' checks the hash chain.`,
		Example: `  hermes-hooks log -n 20
  hermes-hooks log --since 1h --decision block
  hermes-hooks log --event pre_tool_call --hook guard.sh --json | jq .hooks
  hermes-hooks log --hook team/no-force-push   # a rule, by its id: (else its file:line)
  hermes-hooks log --would block --since 7d     # what entries in mode: shadow would have blocked
  hermes-hooks log -f
  hermes-hooks log verify`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			warnOldFileFlag(a, cmd)
			return runLog(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.since, "since", "", "only records at or after this time (RFC 3339, or a duration back from now: 1h, 7d)")
	f.StringVar(&o.until, "until", "", "only records before this time (RFC 3339, or a duration back from now)")
	f.StringVar(&o.event, "event", "", "only this event (any name test accepts: pre_tool_call, PreToolUse, …)")
	f.StringVar(&o.decision, "decision", "", "only this outcome decision: block, allow, ask or none (deny and approve are accepted too)")
	f.StringVar(&o.session, "session", "", "only this session id")
	f.StringVar(&o.would, "would", "", "only records where an entry in mode: shadow would have decided this: block, ask, allow or none")
	f.StringVar(&o.hook, "hook", "", "only dispatches that ran a hook whose command, or a rule whose name (id:, else file:line), contains this text")
	f.BoolVar(&o.json, "json", false, "print the records as they are written (JSON Lines)")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing new records until interrupted")
	f.IntVarP(&o.last, "last", "n", 0, "only the newest N records that pass the filters (0: every one)")
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
			return runLogVerify(a, o.file)
		},
	}
}

// runLogVerify is `log verify`: the journal's chain checked, exit 1 at its
// first bad line.
func runLogVerify(a *app, file string) error {
	path, err := a.journalPath(file)
	if err != nil {
		return err
	}
	if missing, err := a.journalMissing(path, file, "nothing to verify"); missing || err != nil {
		return err
	}
	res, err := journal.Verify(path)
	if err != nil {
		return fmt.Errorf("verify journal: %w", err)
	}
	if res.Bad != nil {
		return withHint(errors.New("journal chain broken at "+show(res.Bad.String())),
			"the lines before it are intact; everything from it on cannot be trusted")
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
}

// warnOldFileFlag says on stderr (stdout may be a --json pipe) that --file
// is now --journal.
func warnOldFileFlag(a *app, cmd *cobra.Command) {
	if f := cmd.Flags().Lookup("file"); f != nil && f.Changed {
		a.Warn("--file is deprecated: use --journal, the name log and replay share")
	}
}

// journalPath is --journal, else the config's journal path. A config that
// does not load has no journal: block to read, and the refusals made
// meanwhile go to the default journal (cli.App.journalRefusal): that is
// the one read then, with a warning — when the config is broken is when
// its user most needs to see what was refused.
func (a *app) journalPath(file string) (string, error) {
	if file != "" {
		return file, nil
	}
	home, err := a.Home()
	if err != nil {
		return "", err
	}
	cfg, err := a.LoadConfig()
	if err != nil {
		fmt.Fprintf(a.Err, "hermes-hooks: warning: the config does not load (%s); reading the default journal, where the refusals made meanwhile are\n", show(err.Error()))
		return journal.PathFor(hookconfig.JournalConfig{}, home), nil
	}
	return journal.PathFor(cfg.Journal, home), nil
}

// journalMissing reports a journal that has no file at all. The config's
// own journal is simply not there yet (no dispatch ran a hook): a note on
// stderr, so that an empty output is not a puzzle, and missing. One that
// --journal names is most likely a mistyped path: an error, as replay
// gives. A journal that cannot be listed is left to the reader, which
// reports it.
func (a *app) journalMissing(path, named, what string) (missing bool, err error) {
	if files, err := journal.Files(path); err != nil || len(files) > 0 {
		return false, nil
	}
	if named != "" {
		return true, withHint(errors.New("no journal at "+path),
			"check the path given to --journal ('hermes-hooks installs --paths' names the default journal)")
	}
	fmt.Fprintf(a.Err, "hermes-hooks: no journal yet at %s: %s\n", show(path), what)
	return true, nil
}

// newLogFilter reads the filter options (log, replay): the times are
// taken back from one now.
func newLogFilter(o logOptions) (*journal.Filter, error) {
	f, err := journal.NewFilter(journal.FilterSpec{Since: o.since, Until: o.until, Event: o.event,
		Decision: o.decision, Session: o.session, Hook: o.hook, Would: o.would}, time.Now())
	var fe *journal.FilterError
	if errors.As(err, &fe) {
		return nil, usageErr(fe.Hint, "%s", fe.Msg)
	}
	return f, err
}

func runLog(ctx context.Context, a *app, o logOptions) error {
	if o.last < 0 {
		return usageErr("", "-n must be 0 (every record) or more, not %d", o.last)
	}
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
	// newest holds the last o.last lines shown of what is there (-n), to
	// be written once it is read; nil: each is written as it comes.
	var newest *lastLines
	if o.last > 0 {
		newest = &lastLines{n: o.last}
	}
	read, kept := 0, 0
	would := newLogShadowWould(lf)
	print := func(line []byte, e *journal.Entry) {
		read++
		would.see(e)
		if !lf.Keep(e) {
			return
		}
		kept++
		var shown []byte
		if o.json {
			// As written, but for what a terminal would act on: a line
			// the journal did not write (an older version's, or one
			// added by hand) may hold it raw. JSON's escape keeps the
			// value for jq.
			shown = termsafe.EscapeJSON(line)
		} else {
			shown = []byte(journalLine(e))
		}
		if newest != nil {
			newest.add(bytes.Clone(shown)) // line's bytes are the reader's to reuse
			return
		}
		out.Write(shown)
		out.WriteByte('\n')
	}
	flushNewest := func() {
		if newest != nil {
			newest.writeTo(out)
			newest = nil
		}
	}
	warnUnread := unreadWarnings(a)
	if !o.follow {
		if missing, err := a.journalMissing(path, o.file, "each dispatch that runs a hook adds a record"); missing || err != nil {
			return err
		}
		warnChain := checkChain(a, path)
		warnUnread.hold = true
		err := journal.ScanUnread(path, func(l journal.Line, e *journal.Entry) bool { print(l.Bytes, e); return true },
			func(l journal.Line, e *journal.Entry, err error) {
				if lf.Keep(e) { // as far as it decoded
					warnUnread.unreadAt(l, err)
				}
			})
		if err != nil {
			return fmt.Errorf("read journal: %w", err)
		}
		flushNewest()
		out.Flush()
		warnUnread.flush()
		warnChain()
		if kept == 0 && read > 0 {
			noneKept(a, read, o.hook != "")
		}
		would.note(a)
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	warn := chainWarnings(a)
	// Before Follow reads: the end of its first read is judged against
	// this head record.
	check := journal.NewFollowCheck(path)
	err = journal.Follow(ctx, path, func(l journal.Line) {
		warn.breakAt(check.Next(l))
		if e, err := l.Entry(); err == nil {
			print(l.Bytes, e)
		} else if !errors.Is(err, journal.ErrNotRecord) && lf.Keep(e) {
			warnUnread.unreadAt(l, err)
		}
		out.Flush()
	}, func() {
		warn.breakAt(check.CaughtUp())
		flushNewest()
		out.Flush()
	})
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	return nil
}

// noneKept says on stderr that the filters passed none of the journal's
// read records, as journalMissing says there is no journal: an empty output
// is otherwise a puzzle (a mistyped filter, or nothing recorded?). A rule
// with an id: is named by its id alone, so its file:line selects nothing:
// --hook's note says what it matches.
func noneKept(a *app, read int, hook bool) {
	msg := "no record passes the filters (" + report.Count(read, "record", "records") + " read)"
	if hook {
		msg += "; --hook matches a part of a hook's command or of a rule's name as log shows it (its id: when it has one, else its file:line; the journal keeps the first 160 bytes of a rule)"
	}
	fmt.Fprintf(a.Err, "hermes-hooks: %s\n", msg)
}

// checkChain starts checking the journal's chain beside the reading
// (log shows and replay fires every record that parses, and a line a
// local process edited or added reads like any other), and returns what
// says on stderr where the chain is broken, if it is, once the reading is
// done. Only a warning (the exit status is the reader's): 'log verify' is
// the check that fails. Beside, not after: a second pass over the files
// made log half as slow again on one core.
func checkChain(a *app, path string) (warn func()) {
	bad := make(chan *journal.Location, 1)
	go func() {
		res, err := journal.Verify(path)
		if err != nil {
			res.Bad = nil
		}
		bad <- res.Bad
	}()
	return func() {
		if l := <-bad; l != nil {
			a.Warn(chainBroken(l))
		}
	}
}

// chainBroken is the warning of a break of the journal's chain at l.
func chainBroken(l *journal.Location) string {
	return "the journal's chain is broken at " + textutil.CutRunes(l.String(), 2*maxFieldShown) +
		": the records from there on may have been edited, added or removed ('hermes-hooks log verify' checks it)"
}

// lastLines keeps the newest n lines added (log -n), in a ring.
type lastLines struct {
	n     int
	lines [][]byte
	next  int // where the next line goes once the ring is full
}

func (l *lastLines) add(line []byte) {
	if len(l.lines) < l.n {
		l.lines = append(l.lines, line)
		return
	}
	l.lines[l.next] = line
	l.next = (l.next + 1) % l.n
}

// writeTo writes the lines kept, oldest first, a newline after each.
func (l *lastLines) writeTo(w *bufio.Writer) {
	for i := range l.lines {
		w.Write(l.lines[(l.next+i)%len(l.lines)])
		w.WriteByte('\n')
	}
}
