package report

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/journal"
)

// doctor's smoke run tries a hook on a made-up call; what it did on the
// real ones is in the journal. A rule that meets a key real calls lack, a
// guard that times out on the real workload, each decide nothing on those
// calls (unless fail_closed, when they refuse them), and doctor said
// "healthy". NoteJournalFailures adds what the journal's recent records
// say of each configured hook.

// RecentWindow is how far back doctor reads the journal for the runs of
// each hook.
const RecentWindow = 24 * time.Hour

// runTally is what the recent journal says of one hook.
type runTally struct {
	runs, failed int
	// last is the newest failure's error and when it was; newestFailed
	// whether the hook's newest run failed.
	last         string
	lastAt       time.Time
	newestAt     time.Time
	newestFailed bool
}

// runKey names a configured hook in journal records: its event, its text
// (a rule's by the SHA-256 of its "rule: …", as a record cuts it), the file it is configured in, a rule's
// id and whether it is in mode: shadow. A shadow copy beside its
// enforcing twin has the same text and file, and so may two rules with
// ids of their own: their runs were counted together, each hook
// reported with the other's failures and twice its runs.
type runKey struct {
	event, command, source, id string
	shadow                     bool
}

// runKeyOf is e's runKey.
func runKeyOf(e *hookconfig.Entry) runKey {
	k := runKey{event: e.Event.Name, command: e.Text(), source: e.Source, shadow: e.Shadow}
	if r := e.Rule(); r != nil {
		k.id, k.command = r.ID, journal.RuleTextSHA256(k.command)
	}
	return k
}

// recordKey is the runKey of h, a hook of a record of event. The record
// names a rule by its id, else by its file and line (RuleSpec.Identity),
// which is no id.
func recordKey(event string, h *journal.HookEntry) runKey {
	k := runKey{event: event, command: h.Command, source: h.Source, shadow: h.Shadow, id: h.Rule}
	if h.Rule != "" {
		k.command = h.RuleDigest()
	}
	if h.Rule == h.Source || strings.HasPrefix(h.Rule, h.Source+":") {
		k.id = ""
	}
	return k
}

// NoteJournalFailures adds to each result what the journal at path holds
// of its hook's runs since now minus RecentWindow: a warning when its
// newest run failed (it fails now), a note when only older ones did. The
// files are read newest first, and none last written before the window.
func NoteJournalFailures(results []DoctorResult, path string, now time.Time) {
	if path == "" || len(results) == 0 {
		return
	}
	files, err := journal.Files(path)
	if err != nil {
		return
	}
	since := now.Add(-RecentWindow)
	tallies := map[runKey]*runTally{}
	for i := range results {
		e := results[i].Status.Entry
		if !e.Duplicate {
			tallies[runKeyOf(e)] = &runTally{}
		}
	}
	for i := len(files) - 1; i >= 0; i-- {
		if st, err := os.Stat(files[i]); err == nil && st.ModTime().Before(since) {
			break
		}
		_, _ = journal.ScanFile(files[i], func(_ journal.Line, r *journal.Entry) bool {
			if !r.Time.Before(since) {
				tallyRecord(tallies, r)
			}
			return true
		})
	}
	for i := range results {
		e := results[i].Status.Entry
		if t := tallies[runKeyOf(e)]; t != nil && !e.Duplicate && t.failed > 0 {
			results[i].noteFailures(t)
		}
	}
}

// tallyRecord counts the runs record r holds of the tallied hooks.
func tallyRecord(tallies map[runKey]*runTally, r *journal.Entry) {
	for i := range r.Hooks {
		h := &r.Hooks[i]
		t := tallies[recordKey(r.Event, h)]
		if t == nil || !h.Ran && h.Error == "" && !h.TimedOut {
			continue // not one of ours, or not run (skipped, not approved)
		}
		t.runs++
		failed := h.Error != "" || h.TimedOut
		if !r.Time.Before(t.newestAt) {
			t.newestAt, t.newestFailed = r.Time, failed
		}
		if !failed {
			continue
		}
		t.failed++
		if !r.Time.Before(t.lastAt) {
			why := h.Error
			if why == "" {
				why = "timed out"
			}
			t.last, t.lastAt = why, r.Time
		}
	}
}

// noteFailures says what t found of r's hook.
func (r *DoctorResult) noteFailures(t *runTally) {
	msg := fmt.Sprintf("failed on %d of its %d runs the journal holds from the last %g h (the newest failure, %s: %s)",
		t.failed, t.runs, RecentWindow.Hours(), t.lastAt.Local().Format("2006-01-02 15:04"), textutil.Truncate(firstLine(t.last), 200))
	if t.newestFailed {
		then := "it decides nothing on such calls"
		switch e := r.Status.Entry; {
		case e.FailClosed && e.Shadow:
			// mode: shadow keeps a failed-closed block out of the
			// outcome too: the journal only says it would refuse.
			then = "in mode: shadow it decides nothing on such calls (fail_closed: once enforced, it refuses them)"
		case e.FailClosed:
			then = "fail_closed, it refuses such calls"
		}
		r.add(CheckWarn, msg+": its newest run failed, and "+then+" ("+logHookHint(r.Status.Entry)+")")
		return
	}
	r.add(CheckInfo, msg+"; its newest run did not fail")
}

// logHookHint is the log command that lists a hook's runs: a rule by its
// name (its id:, else its file and line), which log --hook finds as it is,
// where its expression may be long and span lines; any other hook by a
// part of its text.
func logHookHint(e *hookconfig.Entry) string {
	if r := e.Rule(); r != nil {
		return "hermes-hooks log --hook " + shquote.Quote(r.Identity(e.Source)) + " lists them"
	}
	return "'hermes-hooks log --hook' with its text shows them"
}

// shadowText is doctor's note on an entry in mode: shadow: it decides
// nothing (a fail_closed guard refuses nothing), how to watch what it
// would decide (log --hook with the name the journal gives it: a rule's
// id, else its file and line; any other hook's command) and how to
// enforce it.
func shadowText(e *hookconfig.Entry) string {
	name := e.Text()
	if r := e.Rule(); r != nil {
		name = r.Identity(e.Source)
	}
	return "mode: shadow: it decides nothing; what it would decide goes to the journal (hermes-hooks log --hook " +
		shquote.IfNeeded(name) + "); drop mode: shadow to enforce it"
}
