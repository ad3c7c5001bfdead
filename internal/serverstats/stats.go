// Package serverstats keeps the live per-hook records of a long-running
// server and renders them, for `hermes-hooks serve`'s GET /v1/stats and
// GET /metrics.
//
// Its contract: the records are read from answered outcomes only (their
// HookReports), so the dispatcher needs no hook of its own for them and a
// Go host that embeds it pays nothing. The server hands it each loaded
// configuration (NewTable, which takes over the records of the hooks the
// previous one kept), each answered dispatch (Table.Record,
// Live.CountDispatch), and at a scrape what it knows itself (Scrape). It
// knows no HTTP routing, consent file or reload: which repository hooks
// are approved is asked of Scrape.Allowlist. Everything here is safe for
// concurrent use; memory is bounded by the configured hooks and the event
// catalog, never by what a request names.
package serverstats

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// window is how many of a hook's most recent run durations are kept for
// its percentiles: a fixed ring, so memory stays bounded however long the
// server runs (8 bytes a sample), and the percentiles follow what the hook
// does now rather than averaging over days.
const window = 256

// durationBuckets are the upper bounds (seconds) of the duration
// histogram /metrics exports: from a cached worker's reply (a millisecond)
// to the longest timeout a hook may have (600 s).
var durationBuckets = [...]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}

// statKey identifies a hook in a report: what protocol.HookReport carries
// of its entry. Entries equal in all of it are told apart by their order
// within one firing (see Table.Record).
type statKey struct {
	event, command, matcher, source string
	dialect                         protocol.Dialect
}

func entryKey(e *hookconfig.Entry) statKey {
	return statKey{e.DeclaredAs, e.Text(), e.Matcher, e.Source, e.Dialect}
}

func reportKey(r *protocol.HookReport) statKey {
	return statKey{r.Event, r.Command, r.Matcher, r.Source, r.Dialect}
}

// hookStats are one hook's counters. They are shared by pointer between
// generations that keep the hook, so a dispatch still running on the
// replaced generation counts where the new one reads.
type hookStats struct {
	mu                                                       sync.Mutex
	matched, ran, background, skipped, blocks, errs, timeout int64
	lastFired                                                time.Time
	lastSkip, lastError                                      string
	// ring holds the last min(samples, window) durations (ms); samples
	// counts them all.
	ring    [window]float64
	samples int64
	// buckets[i] counts the runs of at most durationBuckets[i] seconds
	// (not cumulative); the last one those above every bound.
	buckets [len(durationBuckets) + 1]uint64
	sumSec  float64
}

// asyncReplyNote starts the note of a late report: the reply of an async
// hook fired on an earlier event, delivered with this outcome. It is not a
// run of this firing and must not count as one.
const asyncReplyNote = "reply of an async hook"

func (h *hookStats) record(r *protocol.HookReport, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.matched++
	blocked := r.Contribution != nil && r.Contribution.Decision == protocol.DecisionBlock
	switch {
	case r.Ran:
		h.ran++
		h.lastFired = now
		h.ring[h.samples%window] = r.ElapsedMS
		h.samples++
		sec := r.ElapsedMS / 1000
		i, _ := slices.BinarySearch(durationBuckets[:], sec)
		h.buckets[i]++
		h.sumSec += sec
	case strings.HasPrefix(r.Skipped, "async:"):
		// Handed to the background: it was started, but its run ends
		// outside this dispatch, unseen.
		h.background++
		h.lastFired = now
	case r.Skipped != "":
		h.skipped++
		h.lastSkip = r.Skipped
	}
	if blocked {
		h.blocks++
	}
	switch {
	case r.TimedOut:
		// A rule past its time bound is one too (the dispatcher sets
		// the field for it): its error says how it stopped (past its
		// bound, or never started).
		h.timeout++
		h.lastError = r.Error
		if h.lastError == "" {
			h.lastError = "timed out after " + strconv.FormatFloat(r.ElapsedMS, 'f', -1, 64) + " ms"
		}
	case r.Error != "":
		h.errs++
		h.lastError = r.Error
	case r.Ran && r.ExitCode != nil && *r.ExitCode != 0 && !blocked:
		// The exit status only: the report's note quotes the hook's
		// stderr, which may hold anything the hook read (a token, a
		// file), and /v1/stats is read by whoever can connect. The
		// journal and `hermes-hooks test` show the stderr.
		h.errs++
		h.lastError = "exit status " + strconv.Itoa(*r.ExitCode)
	}
}

// snapshot fills the counters of out.
func (h *hookStats) snapshot(out *report.HookStats) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out.Matched, out.Ran, out.Background, out.Skipped = h.matched, h.ran, h.background, h.skipped
	out.Blocks, out.Errors, out.Timeouts = h.blocks, h.errs, h.timeout
	out.LastSkip, out.LastError = h.lastSkip, h.lastError
	if !h.lastFired.IsZero() {
		t := h.lastFired
		out.LastFired = &t
	}
	if n := int(min(h.samples, window)); n > 0 {
		s := slices.Clone(h.ring[:n])
		slices.Sort(s)
		out.ElapsedMS = &report.Elapsed{P50: percentile(s, 0.50), P99: percentile(s, 0.99), Max: s[n-1], Samples: n}
	}
}

// percentile is the nearest-rank percentile of sorted samples.
func percentile(sorted []float64, p float64) float64 {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Table is the records of one configuration (a server's generation): one record per listed entry
// (nil for a duplicate, which never runs on its own).
type Table struct {
	listed []*hookconfig.Entry
	stats  []*hookStats
	// byKey lists each key's records in config order.
	byKey map[statKey][]*hookStats
}

// NewTable makes the table of cfg, taking over from prev the records
// of the hooks both have.
func NewTable(cfg *hookconfig.Config, prev *Table) *Table {
	listed := cfg.Listed
	if listed == nil {
		listed = cfg.Entries
	}
	t := &Table{listed: listed, stats: make([]*hookStats, len(listed)), byKey: map[statKey][]*hookStats{}}
	for i, e := range listed {
		if e.Duplicate {
			continue
		}
		k := entryKey(e)
		var h *hookStats
		if prev != nil {
			if old := prev.byKey[k]; len(old) > len(t.byKey[k]) {
				h = old[len(t.byKey[k])]
			}
		}
		if h == nil {
			h = &hookStats{}
		}
		t.stats[i] = h
		t.byKey[k] = append(t.byKey[k], h)
	}
	return t
}

// Record counts one answered dispatch's reports. A report is matched to
// its entry by what it carries of it (declared event, command, matcher,
// source, dialect); the n-th report of one key in a firing goes to the
// n-th entry of that key, which is exact unless such twins exist and only
// some of them matched. A report of no entry of this generation (none
// should occur) is dropped rather than guessed.
func (t *Table) Record(o *protocol.Outcome, now time.Time) {
	var seen map[statKey]int
	for i := range o.Hooks {
		r := &o.Hooks[i]
		if strings.HasPrefix(r.Note, asyncReplyNote) {
			continue
		}
		k := reportKey(r)
		list := t.byKey[k]
		if len(list) == 0 {
			continue
		}
		n := 0
		if len(list) > 1 {
			if seen == nil {
				seen = map[statKey]int{}
			}
			n = min(seen[k], len(list)-1)
			seen[k]++
		}
		list[n].record(r, now)
	}
}

// Hooks is /v1/stats' list: every listed hook of t's configuration, in
// config order (duplicates included), with its entry, its consent state
// from statuses (report.Inspect of the same configuration), its record,
// and, for a worker hook, its live workers.
func (t *Table) Hooks(statuses []report.HookStatus, workers []dispatcher.WorkerStatus) []report.HookStats {
	out := make([]report.HookStats, len(t.listed))
	for i, e := range t.listed {
		h := &out[i]
		*h = report.HookStats{
			Event: e.DeclaredAs, Canonical: e.Event.Name, Command: e.Text(), Matcher: e.Matcher,
			Dialect: string(e.Dialect), Source: e.Source, Timeout: report.TimeoutSeconds(e), Duplicate: e.Duplicate,
		}
		// Inspect reports cfg.Listed in the same order.
		if i < len(statuses) && statuses[i].Entry == e {
			h.Approved, h.Runs = statuses[i].Approved, statuses[i].Runs()
		}
		if rec := t.stats[i]; rec != nil {
			rec.snapshot(h)
		}
		if e.Worker() != nil {
			live := 0
			for _, w := range workers {
				if w.Event == e.DeclaredAs && w.Command == e.Text() {
					live, h.WorkerFailed = w.Live, w.Failed
				}
			}
			h.Workers = &live
		}
	}
	return out
}

// Live is what a server counts beside the per-hook records, since it
// started: dispatches per canonical event, per event and folded decision,
// and the repository hooks skipped unapproved per event.
type Live struct {
	since time.Time
	mu    sync.Mutex
	// Every map is bounded by the event catalog (only a known event is
	// dispatched) times the decisions (decisionLabel's few values): no
	// hook reply or repository text becomes a key.
	dispatches map[string]int64
	decisions  map[[2]string]int64
	unapproved map[string]int64
}

// NewLive starts counting at since.
func NewLive(since time.Time) *Live {
	return &Live{since: since, dispatches: map[string]int64{}, decisions: map[[2]string]int64{}, unapproved: map[string]int64{}}
}

// Since is when counting started.
func (l *Live) Since() time.Time { return l.since }

// decisionLabel is the label value of an outcome's decision: one of
// protocol's verdicts, "none" for no verdict. The fold only ever picks a
// ranked decision, but the label set is bounded here by construction
// rather than by that: anything else is "other".
func decisionLabel(d protocol.Decision) string {
	switch d {
	case protocol.DecisionAllow, protocol.DecisionAsk, protocol.DecisionBlock, protocol.DecisionNone:
		return string(d)
	case "", protocol.DecisionDefer:
		return string(protocol.DecisionNone)
	}
	return "other"
}

// CountDispatch counts one answered dispatch of the canonical event: its
// folded decision and the repository hooks it skipped unapproved
// (o.Unapproved, which have no per-hook series until approved).
func (l *Live) CountDispatch(event string, o *protocol.Outcome) {
	l.mu.Lock()
	l.dispatches[event]++
	l.decisions[[2]string{event, decisionLabel(o.Decision)}]++
	if o.Unapproved > 0 {
		l.unapproved[event] += int64(o.Unapproved)
	}
	l.mu.Unlock()
}

// DispatchCounts is a copy of the counts per canonical event.
func (l *Live) DispatchCounts() map[string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.dispatches)
}

// decisionCounts is a copy of the counts per event and decision.
func (l *Live) decisionCounts() map[[2]string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.decisions)
}

// unapprovedCounts is a copy of the unapproved skips per event.
func (l *Live) unapprovedCounts() map[string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.unapproved)
}
