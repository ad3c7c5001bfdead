package server

import (
	"bytes"
	"io"
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

// family is a metric family's name, TYPE and HELP text, written once
// before its samples.
type family struct{ name, typ, help string }

func (f family) header(b *promtext.Buffer) { b.Family(f.name, f.typ, f.help) }

var (
	famMatched    = family{"hermes_hooks_hook_matched_total", "counter", "Firings that selected the hook (its matcher fit)."}
	famRuns       = family{"hermes_hooks_hook_runs_total", "counter", "Firings in which the hook was started."}
	famBackground = family{"hermes_hooks_hook_background_total", "counter", "Firings in which an async hook was handed to the background."}
	famSkipped    = family{"hermes_hooks_hook_skipped_total", "counter", "Firings in which the hook matched but was not started (not approved, changed since approval, safe mode, once per session, ...)."}
	famBlocks     = family{"hermes_hooks_hook_blocks_total", "counter", "Firings in which the hook's contribution was a block."}
	famErrors     = family{"hermes_hooks_hook_errors_total", "counter", "Firings in which the hook could not start, was cancelled, or exited non-zero without blocking."}
	famTimeouts   = family{"hermes_hooks_hook_timeouts_total", "counter", "Firings in which the hook ran past its timeout."}
	famDuration   = family{"hermes_hooks_hook_duration_seconds", "histogram", "How long the hook's runs took."}
	famDispatches = family{"hermes_hooks_dispatches_total", "counter", "Dispatches answered (200), per canonical event."}
	famGeneration = family{"hermes_hooks_config_generation", "gauge", "Configurations loaded so far (GET /healthz's generation)."}
	famInFlight   = family{"hermes_hooks_dispatches_in_flight", "gauge", "Dispatches being run now."}
	famJournal    = family{"hermes_hooks_journal_records_lost_total", "counter", "Decision journal records that could not be written (lock stuck, disk full, queue full) since the journal was opened."}
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

// hookSeriesNow sums the records of g's hooks per label set, sorted by
// label values (command, then event: the labels in name order).
func (s *Server) hookSeriesNow(g *generation) []*hookSeries {
	index := map[[2]string]*hookSeries{}
	var order []*hookSeries
	var allow *consent.File // read at the first repository hook
	for i, e := range g.stats.listed {
		h := g.stats.stats[i]
		if h == nil {
			continue
		}
		if !e.Scope.Global() {
			// A repository's hook has series only once approved there:
			// its labels (event, command) are the repository's text, and
			// one cloned repository must not be able to grow every scrape
			// by the hundreds of hooks it lists.
			if allow == nil {
				allow, _ = s.opts.Store.Load() // unreadable: approves nothing
			}
			if _, ok := allow.LookupIn(e.DeclaredAs, e.Command, e.Scope); !ok {
				continue
			}
		}
		// A label value must be UTF-8; a command need not be.
		k := [2]string{e.Event.Name, strings.ToValidUTF8(e.Command, "\uFFFD")}
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

// writeMetrics writes the server's own families, read now: the gauges
// are what they are at this scrape, the counters the records of the
// configuration in service.
func (s *Server) writeMetrics(w io.Writer) {
	var b promtext.Buffer
	g := s.cur.Load()
	famGeneration.header(&b)
	b.Sample(famGeneration.name, nil, float64(g.n))
	famInFlight.header(&b)
	b.Sample(famInFlight.name, nil, float64(s.inflight.Load()))
	if g.journal != nil {
		famJournal.header(&b)
		b.Sample(famJournal.name, nil, float64(g.journal.Failures()))
	}
	counts := s.live.dispatchCounts()
	events := make([]string, 0, len(counts))
	for ev := range counts {
		events = append(events, ev)
	}
	slices.Sort(events)
	famDispatches.header(&b)
	for _, ev := range events {
		b.Sample(famDispatches.name, []string{"event", ev}, float64(counts[ev]))
	}
	series := s.hookSeriesNow(g)
	for _, c := range []struct {
		f family
		v func(*hookSeries) uint64
	}{
		{famMatched, func(sr *hookSeries) uint64 { return sr.matched }},
		{famRuns, func(sr *hookSeries) uint64 { return sr.runs }},
		{famBackground, func(sr *hookSeries) uint64 { return sr.background }},
		{famSkipped, func(sr *hookSeries) uint64 { return sr.skipped }},
		{famBlocks, func(sr *hookSeries) uint64 { return sr.blocks }},
		{famErrors, func(sr *hookSeries) uint64 { return sr.errs }},
		{famTimeouts, func(sr *hookSeries) uint64 { return sr.tmout }},
	} {
		c.f.header(&b)
		for _, sr := range series {
			b.Sample(c.f.name, []string{"command", sr.command, "event", sr.event}, float64(c.v(sr)))
		}
	}
	famDuration.header(&b)
	for _, sr := range series {
		l := []string{"command", sr.command, "event", sr.event, "le", ""}
		// Prometheus buckets are cumulative, and end with +Inf holding
		// every run; ours count each range apart.
		var total uint64
		for j, bound := range durationBuckets {
			total += sr.buckets[j]
			l[5] = promtext.FormatFloat(bound)
			b.Sample(famDuration.name+"_bucket", l, float64(total))
		}
		total += sr.buckets[len(durationBuckets)]
		l[5] = "+Inf"
		b.Sample(famDuration.name+"_bucket", l, float64(total))
		b.Sample(famDuration.name+"_sum", l[:4], sr.sum)
		b.Sample(famDuration.name+"_count", l[:4], float64(total))
	}
	_, _ = w.Write(b.Bytes())
}

// newMetricsHandler serves the server's set (its own families, through a
// metrics writer) followed by the Go runtime's and the process's metrics.
func (s *Server) newMetricsHandler() http.Handler {
	// The Go and process metrics carry TYPE (and an empty HELP) only with
	// this switch, which is process-wide in VictoriaMetrics/metrics: on,
	// as a Prometheus scrape expects every family typed.
	metrics.ExposeMetadata(true)
	set := metrics.NewSet()
	set.RegisterMetricsWriter(s.writeMetrics)
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

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	s.metrics.ServeHTTP(w, r)
}
