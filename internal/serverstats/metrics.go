package serverstats

import (
	"bytes"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/VictoriaMetrics/metrics"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/promtext"
)

// GET /metrics: the live stats in Prometheus' text format, written with
// VictoriaMetrics/metrics rather than prometheus/client_golang. The server
// lives in the one binary every hook event starts, and Go runs the init of
// every package a binary links at each start: client_golang's (default
// registry, Go and process collectors, procfs, protobuf, expvar) took
// ~0.9 ms of ~1.8 ms of package init, VictoriaMetrics' (with the
// runtime/metrics it links) takes ~0.35 ms — it reads the cgroup's
// pressure files at init (bench section 10, issue 25).
//
// A metrics.Set of the server's own (never the package's default one),
// so an embedding host's metrics and ours never collide, and two servers
// in one process each report their own.
//
// The per-hook series are made at scrape time from the records of the
// configuration in service (a metrics writer, not counters kept per label
// set): a hook removed by a reload disappears from /metrics with nothing
// to unregister, and the label sets are bounded by the configured hooks —
// never by what a request names. A repository's hooks are exported only
// once approved for it: what a repository merely proposes does not reach
// the scrape.

// Family is a metric family's name, TYPE and HELP text, written once
// before its samples. The families are exported for the server's tests,
// which check a scrape against them.
type Family struct{ Name, Type, Help string }

func (f Family) header(b *promtext.Buffer) { b.Family(f.Name, f.Type, f.Help) }

var (
	FamMatched    = Family{"hermes_hooks_hook_matched_total", "counter", "Firings that selected the hook (its matcher fit)."}
	FamRuns       = Family{"hermes_hooks_hook_runs_total", "counter", "Firings in which the hook was started."}
	FamBackground = Family{"hermes_hooks_hook_background_total", "counter", "Firings in which an async hook was handed to the background."}
	FamSkipped    = Family{"hermes_hooks_hook_skipped_total", "counter", "Firings in which the hook matched but was not started (not approved, changed since approval, safe mode, once per session, ...)."}
	FamBlocks     = Family{"hermes_hooks_hook_blocks_total", "counter", "Firings in which the hook's contribution was a block."}
	FamErrors     = Family{"hermes_hooks_hook_errors_total", "counter", "Firings in which the hook could not start, was cancelled, or exited non-zero without blocking."}
	FamTimeouts   = Family{"hermes_hooks_hook_timeouts_total", "counter", "Firings in which the hook ran past its timeout."}
	FamDuration   = Family{"hermes_hooks_hook_duration_seconds", "histogram", "How long the hook's runs took."}
	FamDispatches = Family{"hermes_hooks_dispatches_total", "counter", "Dispatches answered (200), per canonical event."}
	FamDecisions  = Family{"hermes_hooks_decisions_total", "counter", "Dispatches answered (200), per canonical event and folded decision (none, allow, ask, block)."}
	FamUnapproved = Family{"hermes_hooks_unapproved_skipped_total", "counter", "Repository hooks passed over because nobody approved them as they are now (their matchers are not run), per canonical event; such hooks have no per-hook series."}
	FamGeneration = Family{"hermes_hooks_config_generation", "gauge", "Configurations loaded so far (GET /healthz's generation)."}
	FamInFlight   = Family{"hermes_hooks_dispatches_in_flight", "gauge", "Dispatches being run now."}
	FamJournal    = Family{"hermes_hooks_journal_records_lost_total", "counter", "Decision journal records that could not be written (lock stuck, disk full, queue full) since the journal was opened."}
	FamExportSent = Family{"hermes_hooks_export_sent_total", "counter", "Journal records delivered to an export sink (otlp, syslog, file; spool: one-shot records sent by this server's spool flushes)."}
	FamExportDrop = Family{"hermes_hooks_export_dropped_total", "counter", "Journal records an export sink dropped (its queue was full, or every retry failed; spool: dropped from the one-shot spool). The journal still has them."}
)

// hookSeries is one label set's sums: entries that share an event and a
// command (declared under two aliases, or from two files) add up, because
// a label set may be exported once.
type hookSeries struct {
	event, command                                          string
	matched, runs, background, skipped, blocks, errs, tmout uint64
	buckets                                                 [len(durationBuckets) + 1]uint64
	sum                                                     float64
}

// hookSeriesNow sums the records of t's hooks per label set, sorted by
// label values (command, then event: the labels in name order).
func hookSeriesNow(t *Table, allowlist func() (*consent.File, error)) []*hookSeries {
	index := map[[2]string]*hookSeries{}
	var order []*hookSeries
	var allow *consent.File // read at the first repository hook
	for i, e := range t.listed {
		h := t.stats[i]
		if h == nil {
			continue
		}
		if !e.Scope.Global() {
			// A repository's hook has series only once approved there:
			// its labels (event, command) are the repository's text, and
			// one cloned repository must not be able to grow every scrape
			// by the hundreds of hooks it lists.
			if allow == nil {
				allow, _ = allowlist() // unreadable: approves nothing
			}
			if _, ok := allow.LookupIn(e.DeclaredAs, e.Text(), e.Scope); !ok {
				continue
			}
		}
		// A label value must be UTF-8; a command need not be.
		k := [2]string{e.Event.Name, strings.ToValidUTF8(e.Text(), "\uFFFD")}
		sr := index[k]
		if sr == nil {
			sr = &hookSeries{event: k[0], command: k[1]}
			index[k] = sr
			order = append(order, sr)
		}
		h.mu.Lock()
		sr.matched += uint64(h.matched)
		sr.runs += uint64(h.ran)
		sr.background += uint64(h.background)
		sr.skipped += uint64(h.skipped)
		sr.blocks += uint64(h.blocks)
		sr.errs += uint64(h.errs)
		sr.tmout += uint64(h.timeout)
		for j, n := range h.buckets {
			sr.buckets[j] += n
		}
		sr.sum += h.sumSec
		h.mu.Unlock()
	}
	slices.SortFunc(order, func(a, b *hookSeries) int {
		if c := strings.Compare(a.command, b.command); c != 0 {
			return c
		}
		return strings.Compare(a.event, b.event)
	})
	return order
}

// Scrape is what a server knows at a scrape: its gauges, read now, and
// the records of the configuration in service.
type Scrape struct {
	// Generation counts the configurations loaded so far.
	Generation int64
	// InFlight is the dispatches being run now.
	InFlight int64
	// JournalLost counts the decision journal's lost records; nil when
	// there is no journal (the family is then left out).
	JournalLost *int64
	// ExportSent and ExportDropped count exported and dropped records
	// per sink; nil when nothing is exported (the families are then left
	// out).
	ExportSent, ExportDropped map[string]int64
	// Live is the dispatches counted per event.
	Live *Live
	// Hooks is the records of the configuration in service.
	Hooks *Table
	// Allowlist reads the consent allowlist; it is called (at most once
	// a scrape, when a repository's hook is met) to export a repository's
	// hooks only once approved there.
	Allowlist func() (*consent.File, error)
}

// WriteMetrics writes the server's own families from sc: the gauges are
// what they are at this scrape, the counters the records of the
// configuration in service.
func WriteMetrics(w io.Writer, sc *Scrape) {
	var b promtext.Buffer
	FamGeneration.header(&b)
	b.Sample(FamGeneration.Name, nil, float64(sc.Generation))
	FamInFlight.header(&b)
	b.Sample(FamInFlight.Name, nil, float64(sc.InFlight))
	if sc.JournalLost != nil {
		FamJournal.header(&b)
		b.Sample(FamJournal.Name, nil, float64(*sc.JournalLost))
	}
	if sc.ExportDropped != nil {
		for _, f := range []struct {
			fam Family
			m   map[string]int64
		}{{FamExportSent, sc.ExportSent}, {FamExportDrop, sc.ExportDropped}} {
			f.fam.header(&b)
			for _, sink := range slices.Sorted(maps.Keys(f.m)) {
				b.Sample(f.fam.Name, []string{"sink", sink}, float64(f.m[sink]))
			}
		}
	}
	writeLive(&b, sc.Live)
	series := hookSeriesNow(sc.Hooks, sc.Allowlist)
	for _, c := range []struct {
		f Family
		v func(*hookSeries) uint64
	}{
		{FamMatched, func(sr *hookSeries) uint64 { return sr.matched }},
		{FamRuns, func(sr *hookSeries) uint64 { return sr.runs }},
		{FamBackground, func(sr *hookSeries) uint64 { return sr.background }},
		{FamSkipped, func(sr *hookSeries) uint64 { return sr.skipped }},
		{FamBlocks, func(sr *hookSeries) uint64 { return sr.blocks }},
		{FamErrors, func(sr *hookSeries) uint64 { return sr.errs }},
		{FamTimeouts, func(sr *hookSeries) uint64 { return sr.tmout }},
	} {
		c.f.header(&b)
		for _, sr := range series {
			b.Sample(c.f.Name, []string{"command", sr.command, "event", sr.event}, float64(c.v(sr)))
		}
	}
	FamDuration.header(&b)
	for _, sr := range series {
		l := []string{"command", sr.command, "event", sr.event, "le", ""}
		// Prometheus buckets are cumulative, and end with +Inf holding
		// every run; ours count each range apart.
		var total uint64
		for j, bound := range durationBuckets {
			total += sr.buckets[j]
			l[5] = promtext.FormatFloat(bound)
			b.Sample(FamDuration.Name+"_bucket", l, float64(total))
		}
		total += sr.buckets[len(durationBuckets)]
		l[5] = "+Inf"
		b.Sample(FamDuration.Name+"_bucket", l, float64(total))
		b.Sample(FamDuration.Name+"_sum", l[:4], sr.sum)
		b.Sample(FamDuration.Name+"_count", l[:4], float64(total))
	}
	_, _ = w.Write(b.Bytes())
}

// writeLive writes the families counted per dispatch (Live), each sorted
// by its label values.
func writeLive(b *promtext.Buffer, l *Live) {
	perEvent := func(f Family, counts map[string]int64) {
		f.header(b)
		for _, ev := range slices.Sorted(maps.Keys(counts)) {
			b.Sample(f.Name, []string{"event", ev}, float64(counts[ev]))
		}
	}
	perEvent(FamDispatches, l.DispatchCounts())
	decisions := l.decisionCounts()
	FamDecisions.header(b)
	// Labels in name order: decision, then event.
	keys := slices.SortedFunc(maps.Keys(decisions), func(a, b [2]string) int {
		if c := strings.Compare(a[1], b[1]); c != 0 {
			return c
		}
		return strings.Compare(a[0], b[0])
	})
	for _, k := range keys {
		b.Sample(FamDecisions.Name, []string{"decision", k[1], "event", k[0]}, float64(decisions[k]))
	}
	perEvent(FamUnapproved, l.unapprovedCounts())
}

// NewHandler serves GET (and HEAD) /metrics: a set of its own with the
// server's families, written from what scrape returns at each scrape (a
// metrics writer), followed by the Go runtime's and the process's metrics.
// The caller checks the method.
func NewHandler(scrape func() *Scrape) http.Handler {
	// The Go and process metrics carry TYPE (and an empty HELP) only with
	// this switch, which is process-wide in VictoriaMetrics/metrics: on,
	// as a Prometheus scrape expects every family typed.
	metrics.ExposeMetadata(true)
	set := metrics.NewSet()
	set.RegisterMetricsWriter(func(w io.Writer) { WriteMetrics(w, scrape()) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Written whole first (a scrape is a few kB): HEAD gets the
		// length of what GET would send.
		var b bytes.Buffer
		set.WritePrometheus(&b)
		metrics.WriteProcessMetrics(&b)
		metrics.WriteFDMetrics(&b) // process_open_fds, process_max_fds
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
		if r.Method != http.MethodHead {
			_, _ = w.Write(b.Bytes())
		}
	})
}
