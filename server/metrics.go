package server

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// GET /metrics: the live stats in Prometheus' text format. A registry of
// the server's own (not the process-global default one), so an embedding
// host's metrics and ours never collide, and two servers in one process
// each report their own.
//
// The per-hook series are made at scrape time from the records of the
// configuration in service (a collector, not counters kept per label set):
// a hook removed by a reload disappears from /metrics with nothing to
// unregister, and the label sets are bounded by the configured hooks —
// never by what a request names. A repository's hooks are exported only
// once approved for it: what a repository merely proposes does not reach
// the scrape.

var (
	hookLabels = []string{"event", "command"}

	descMatched    = prometheus.NewDesc("hermes_hooks_hook_matched_total", "Firings that selected the hook (its matcher fit).", hookLabels, nil)
	descRuns       = prometheus.NewDesc("hermes_hooks_hook_runs_total", "Firings in which the hook was started.", hookLabels, nil)
	descBackground = prometheus.NewDesc("hermes_hooks_hook_background_total", "Firings in which an async hook was handed to the background.", hookLabels, nil)
	descSkipped    = prometheus.NewDesc("hermes_hooks_hook_skipped_total", "Firings in which the hook matched but was not started (not approved, changed since approval, safe mode, once per session, ...).", hookLabels, nil)
	descBlocks     = prometheus.NewDesc("hermes_hooks_hook_blocks_total", "Firings in which the hook's contribution was a block.", hookLabels, nil)
	descErrors     = prometheus.NewDesc("hermes_hooks_hook_errors_total", "Firings in which the hook could not start, was cancelled, or exited non-zero without blocking.", hookLabels, nil)
	descTimeouts   = prometheus.NewDesc("hermes_hooks_hook_timeouts_total", "Firings in which the hook ran past its timeout.", hookLabels, nil)
	descDuration   = prometheus.NewDesc("hermes_hooks_hook_duration_seconds", "How long the hook's runs took.", hookLabels, nil)
	descDispatches = prometheus.NewDesc("hermes_hooks_dispatches_total", "Dispatches answered (200), per canonical event.", []string{"event"}, nil)
	descGeneration = prometheus.NewDesc("hermes_hooks_config_generation", "Configurations loaded so far (GET /healthz's generation).", nil, nil)
	descInFlight   = prometheus.NewDesc("hermes_hooks_dispatches_in_flight", "Dispatches being run now.", nil, nil)
	descJournal    = prometheus.NewDesc("hermes_hooks_journal_records_lost_total", "Decision journal records that could not be written (lock stuck, disk full, queue full) since the journal was opened.", nil, nil)
)

// metricsCollector reads the server's live stats at each scrape.
type metricsCollector struct{ s *Server }

func (c metricsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descMatched, descRuns, descBackground, descSkipped, descBlocks,
		descErrors, descTimeouts, descDuration, descDispatches, descGeneration, descInFlight, descJournal} {
		ch <- d
	}
}

// hookSeries is one label set's sums: entries that share an event and a
// command (declared under two aliases, or from two files) add up, because
// a label set may be exported once.
type hookSeries struct {
	event, command                                          string
	matched, runs, background, skipped, blocks, errs, tmout uint64
	buckets                                                 [len(durationBuckets) + 1]uint64
	sum                                                     float64
}

func (c metricsCollector) Collect(ch chan<- prometheus.Metric) {
	g := c.s.cur.Load()
	ch <- prometheus.MustNewConstMetric(descGeneration, prometheus.GaugeValue, float64(g.n))
	ch <- prometheus.MustNewConstMetric(descInFlight, prometheus.GaugeValue, float64(c.s.inflight.Load()))
	if g.journal != nil {
		ch <- prometheus.MustNewConstMetric(descJournal, prometheus.CounterValue, float64(g.journal.Failures()))
	}
	for ev, n := range c.s.live.dispatchCounts() {
		ch <- prometheus.MustNewConstMetric(descDispatches, prometheus.CounterValue, float64(n), ev)
	}
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
				allow, _ = c.s.opts.Store.Load() // unreadable: approves nothing
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
	for _, sr := range order {
		l := []string{sr.event, sr.command}
		for _, m := range []struct {
			d *prometheus.Desc
			v uint64
		}{{descMatched, sr.matched}, {descRuns, sr.runs}, {descBackground, sr.background}, {descSkipped, sr.skipped},
			{descBlocks, sr.blocks}, {descErrors, sr.errs}, {descTimeouts, sr.tmout}} {
			ch <- prometheus.MustNewConstMetric(m.d, prometheus.CounterValue, float64(m.v), l...)
		}
		// Prometheus buckets are cumulative; ours are not.
		cum := make(map[float64]uint64, len(durationBuckets))
		var total uint64
		for j, bound := range durationBuckets {
			total += sr.buckets[j]
			cum[bound] = total
		}
		total += sr.buckets[len(durationBuckets)]
		ch <- prometheus.MustNewConstHistogram(descDuration, total, sr.sum, cum, l...)
	}
}

// newMetricsHandler serves the server's registry: its own collector, and
// the Go runtime's and the process's standard ones.
func (s *Server) newMetricsHandler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(metricsCollector{s},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorLog:      slogPrinter{s.log},
		ErrorHandling: promhttp.ContinueOnError,
		// Scrapes are rare and small; no compression spares a client
		// (curl, a test) from having to undo it.
		DisableCompression: true,
	})
}

// slogPrinter hands promhttp's errors to the server's logger.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Println(v ...any) {
	parts := make([]string, len(v))
	for i, x := range v {
		if s, ok := x.(string); ok {
			parts[i] = s
		} else if e, ok := x.(error); ok {
			parts[i] = e.Error()
		}
	}
	p.log.Warn("metrics", "detail", strings.Join(parts, " "))
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	s.metrics.ServeHTTP(w, r)
}
