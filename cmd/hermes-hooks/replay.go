package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

type replayOptions struct {
	journal             string
	since, until, event string
	json                bool
	anyCwd              bool
}

func newReplayCmd(a *app) *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Fire the journal's recorded events again through the config and show which decisions would change",
		Long: `Fire the recorded events of the decision journal again, oldest first, through
the current config (or the one --config names: try a new guard on past
traffic before you enable it), and print what would now be decided
differently: "N events, M decisions differ (K not replayable)" ("1 event",
"1 decision differs" for one), then one line per difference: when, the
event, tool, session and the agent it answered (agent=codex: an ask is a
refusal where the agent cannot ask), the recorded → the new decision, and the hook(s) that
decided each (now: …, recorded: …; a rule as log names it: with its id:,
or a long one without an id by its start and file:line), and on the
recorded side what an entry in mode: shadow would have decided then
("recorded: - (shadow: team/x would block: …)"; --json: "would"). A note says on how many replayed events
a hook failed (a rule's error, a script that did not answer): a failed hook
decides nothing unless fail_closed, so those events did not test it (--json:
"failed", "first_failure"). An entry in mode: shadow decides nothing here
either: a note says how many there are and on how many replayed events one
would have decided (--json: "shadow_entries", "shadow_would"); replay a
copy without mode: shadow to see those decisions as differences.

Only records written with journal: {include_payload: true} hold the event's
fields; the others are counted as not replayable. The journal holds only
dispatches that ran a hook, so an event that ran none back then is not there.
Records of async hooks run after their dispatch ("async": true) are skipped.

Replay runs your approved hooks for real, with consent as usual: an
unapproved hook never runs (approve a new guard before replaying with it),
so replay only hooks that are safe to run again. It changes nothing else:
no journal records, no session state (the replay starts from an empty state
of its own), async hooks are not started. The project's .hermes/hooks.yaml
is found from the working directory. Each record is fired as it was made:
for the agent it answered (hook claude, …: its own hooks are left out again,
and a rule sees the same agent) and, when the host sent no cwd, in the
directory it was decided in, if that is still a directory (a rule's cwd, a
Claude-dialect hook's start). Only records decided in the working directory
or below it are fired: the journal is no proof of where a dispatch ran (a
line rewritten by hand can name any directory, where a hook approved by its
text only would run what that directory holds); the others are counted as
not replayable, and a note says how many (--any-cwd fires them too, for a
journal no one else can write). Run from the home directory or a
filesystem's root, below which every project is, replay refuses (exit 2)
unless --any-cwd is given: cd into the project instead. The journal is the
one --journal names, else the config's: a candidate (--config) whose
journal: block names no path replays the journal your own config writes.

Exit status: 0 whatever differs (it is a report), 2 when run from the home
directory or a filesystem's root without --any-cwd, 1 when the journal or the
config cannot be read, or when no record could be replayed (none selected, or
none holding a payload: it says which).`,
		Example: `  hermes-hooks replay --config ~/.hermes/config.new.yaml
  hermes-hooks replay --config candidate-rules.yaml --json | jq '.differences[] | {seq, now}'
  hermes-hooks replay --since 24h --event pre_tool_call
  hermes-hooks replay --journal /var/log/hermes/journal.jsonl --json | jq '.differences[]'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error { return runReplay(a, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.journal, "journal", "", "the journal file (default: from the config)")
	f.StringVar(&o.since, "since", "", "only records at or after this time (RFC 3339, or a duration back from now: 1h, 7d)")
	f.StringVar(&o.until, "until", "", "only records before this time (RFC 3339, or a duration back from now)")
	f.StringVar(&o.event, "event", "", "only this event (any name test accepts: pre_tool_call, PreToolUse, …)")
	f.BoolVar(&o.json, "json", false, "print the report as one JSON object")
	f.BoolVar(&o.anyCwd, "any-cwd", false, "fire records decided outside the working directory too, in the directory each names (only for a journal no one else can write)")
	return cmd
}

func runReplay(a *app, o replayOptions) error {
	lf, err := newLogFilter(logOptions{since: o.since, until: o.until, event: o.event})
	if err != nil {
		return err
	}
	// Refused before anything is read or fired.
	root := cli.Cwd()
	if o.anyCwd {
		root = ""
	}
	if what := tooBroadRoot(root); what != "" {
		return usageErr("cd into the project the records were decided in ('hermes-hooks log --json' shows each record's cwd), or pass --any-cwd if no one else can write the journal",
			"replay will not confine itself to %s (%s): every project below it would count as where a record was decided, and the journal is no proof of that", what, show(root))
	}
	cfg, err := a.LoadConfig()
	if err != nil {
		return err
	}
	store, err := a.Store()
	if err != nil {
		return err
	}
	path := o.journal
	if path == "" {
		path = journal.PathFor(cfg.Journal, store.Home())
		if a.ConfigPath != "" && cfg.Journal.Path == "" {
			path = cmp.Or(yourJournal(), path)
		}
	}
	// A journal that is not there is most likely a wrong path: saying
	// "0 events" would read as "nothing would change".
	if files, err := journal.Files(path); err != nil || len(files) == 0 {
		msg := "no journal at " + path
		if err != nil {
			msg = "read journal: " + err.Error()
		}
		return withHint(errors.New(msg), "pass --journal FILE, or record with journal: {include_payload: true} first")
	}
	// A Recorder that writes nothing (it keeps the ids of the rules that
	// decide, for the report's names), and a throwaway session store: a
	// replay leaves the journal and the agents' sessions as they were.
	names := &journal.ReplayNames{}
	d, err := dispatcher.New(cfg, dispatcher.Options{
		Gate:     dispatcher.ConsentGate(a.Policy(cfg, store)),
		Cwd:      cli.Cwd(),
		Warn:     a.Warn,
		Recorder: names,
		Sessions: sessions.NewMemory(),
		// Async hooks cannot change the decision of the dispatch that
		// fires them; handing them to a background process would only
		// run them behind the report's back.
		Async: dispatcher.AsyncExternal,
	})
	if err != nil {
		return err
	}
	defer d.Close()
	// Interrupting kills the running hooks' process groups and ends the
	// replay.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	warnChain := checkChain(a, path)
	var seen replaySeen
	keep := func(e *journal.Entry) bool { return seen.count(e, lf.Keep(e)) }
	other := newOtherProjects(cli.Cwd())
	rep, err := journal.Replay(ctx, path, journal.ReplayOptions{Keep: keep, Fire: other.fire(d.Fire), Root: root, Names: names, Delivered: replayDelivered})
	rep.OtherProject, rep.FirstOtherProject = other.n, other.first
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("replay interrupted")
		}
		return fmt.Errorf("replay: %w", err)
	}
	for _, e := range cfg.Entries {
		if e.Shadow {
			rep.ShadowEntries++
		}
	}
	out := bufio.NewWriter(a.Out)
	defer out.Flush()
	if o.json {
		rep.NoPayload, rep.PayloadOmitted = seen.noPayload, seen.omitted
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		out.Write(b)
		out.WriteByte('\n')
	} else {
		printReplay(out, &rep, seen.noPayload, seen.omitted)
	}
	out.Flush()
	warnChain()
	if rep.Replayed == 0 {
		// "0 decisions differ" would read as "nothing would change"
		// when nothing was tried at all.
		out.Flush()
		return seen.nothingReplayed(path, &rep)
	}
	return nil
}

// yourJournal is the journal your own config ($HERMES_HOME/config.yaml)
// names in its journal: block, "" when it names none or cannot be read:
// what a candidate config (--config) that names no journal of its own
// replays, as "replay --config candidate.yaml" replays a candidate rule
// set against your journal. Only the journal: block is read.
func yourJournal() string {
	own, err := hookconfig.DefaultConfigPath()
	if err != nil {
		return ""
	}
	j, err := hookconfig.JournalOf(own)
	if err != nil {
		return ""
	}
	return j.Path
}

// tooBroadRoot names the directory dir when it is too broad to confine a
// replay to: the home directory or a filesystem's root, below which are
// all the user's projects (a forged record naming any of them would be
// fired there). "" for any other directory, and for no confinement at all.
// The same directory through a link is the same (SameFile).
func tooBroadRoot(dir string) string {
	if dir == "" {
		return ""
	}
	st, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if hs, err := os.Stat(home); err == nil && os.SameFile(st, hs) {
			return "your home directory"
		}
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = filepath.Clean(dir)
	if filepath.Dir(dir) == dir {
		return "the filesystem's root"
	}
	return ""
}

// replaySeen counts the records a replay passed over, to say why nothing
// was replayed.
type replaySeen struct {
	total     int // records in the journal
	noPayload int // selected records without a payload
	// omitted counts those of noPayload written with include_payload
	// whose payload was left out for its size ("payload_omitted").
	omitted int
}

func (s *replaySeen) count(e *journal.Entry, kept bool) bool {
	s.total++
	if kept && e.Payload == nil {
		s.noPayload++
		if e.PayloadOmitted > 0 {
			s.omitted++
		}
	}
	return kept
}

// nothingReplayed is the error of a replay that fired no record: exit 1,
// saying why.
func (s *replaySeen) nothingReplayed(path string, rep *journal.ReplayReport) error {
	switch {
	case s.total == 0 && rep.Unreadable == 0:
		return withHint(errors.New("nothing to replay: the journal "+path+" holds no records"),
			"a dispatch that runs a hook is recorded; record with journal: {include_payload: true} so that it can be replayed")
	case rep.Events == 0:
		return withHint(fmt.Errorf("nothing to replay: none of the %d records matches --since, --until and --event", s.total),
			"widen the filters; 'hermes-hooks log' with the same ones lists what they select")
	case rep.Elsewhere > 0 && rep.Elsewhere+s.noPayload >= rep.Events:
		msg := fmt.Sprintf("nothing replayed: %d of the %d records selected were decided outside %s", rep.Elsewhere, rep.Events, cli.Cwd())
		if s.noPayload > 0 {
			// The two causes are apart (only a record with a payload is
			// placed), and the note on payloads prints only after a replay.
			msg += fmt.Sprintf("; the other %d hold no payload (the event's fields), which replay needs", s.noPayload)
		}
		return withHint(errors.New(msg),
			"run replay in the directory they were decided in (log --json shows each record's cwd), or pass --any-cwd if no one else can write the journal")
	case rep.Unreadable > 0:
		return s.unreadable(rep)
	case s.noPayload == 0:
		return fmt.Errorf("nothing replayable: the %d records selected are of events this version does not know", rep.Events)
	}
	msg := fmt.Sprintf("nothing replayable: none of the %d records selected holds a payload (the event's fields), which replay needs", rep.Events)
	if s.noPayload < rep.Events {
		msg = fmt.Sprintf("nothing replayable: %d of the %d records selected hold no payload (the event's fields), which replay needs; the others are of events this version does not know", s.noPayload, rep.Events)
	}
	if s.omitted > 0 {
		msg += fmt.Sprintf("; %d of them were written with include_payload, but their payload was too large to keep (\"payload_omitted\")", s.omitted)
	}
	if s.omitted == s.noPayload {
		// include_payload is set already: saying to set it would send
		// the user looking for a mistake they did not make.
		return errors.New(msg)
	}
	return withHint(errors.New(msg),
		"set journal: {include_payload: true} in the config: the dispatches recorded from then on can be replayed")
}

// unreadable is nothingReplayed's error when some records could not be
// read as records (journal.ScanUnread). The others are not counted by
// cause: the unreadable ones are counted among those without a payload
// when they decoded none.
func (s *replaySeen) unreadable(rep *journal.ReplayReport) error {
	msg := fmt.Sprintf("nothing replayable: %d of the %d records selected cannot be read as records (a field of another type; 'hermes-hooks log' names their lines)", rep.Unreadable, rep.Events)
	if rep.Unreadable < rep.Events {
		msg += "; the others hold no payload (the event's fields), which replay needs, or are of events this version does not know"
	}
	if s.noPayload == 0 {
		return errors.New(msg)
	}
	return withHint(errors.New(msg), "set journal: {include_payload: true} in the config: the dispatches recorded from then on can be replayed")
}

// replayDelivered is what the agent that record e answered would make of
// o where that is not o's decision (an ask Codex cannot put before a
// tool is a refusal): the agent's event as recorded, else every event of
// that agent's that maps to e's, when they agree.
func replayDelivered(e *journal.Entry, o *protocol.Outcome) (protocol.Decision, string) {
	deliver := agents.DeliveredBy(protocol.FirstCaller(e.Agent), "", e.AgentEvent, e.Event)
	if deliver == nil {
		return "", ""
	}
	return deliver(o)
}
