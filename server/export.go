package server

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/export"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// spoolEvery is how often serve looks for one-shot records in the export
// spool (hook processes that decided without it); a look is one readdir.
const spoolEvery = 30 * time.Second

// exporting is serve's export of its journal records (package export):
// the current Exporter, replaced when a reload changes the export: block,
// and the counts of those it replaced.
type exporting struct {
	mu      sync.Mutex // guards cfg, base, cfgSet
	cfg     hookconfig.ExportConfig
	export  export.Config
	cfgSet  bool
	cur     atomic.Pointer[export.Exporter]
	base    map[string][2]int64 // sink → sent, dropped of replaced exporters
	spool   export.Spool
	spooled atomic.Int64 // one-shot records this server sent from the spool
}

// exporterFor makes the exporter follow cfg's export: block. It runs under
// s.mu (recorder).
func (s *Server) exporterFor(cfg *hookconfig.Config) {
	x := &s.exp
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cfgSet && reflect.DeepEqual(x.cfg, cfg.Export) {
		return
	}
	x.cfg, x.cfgSet = cfg.Export, true
	x.spool = export.Spool{Dir: filepath.Join(s.opts.Store.Home(), export.SpoolDir)}
	resolved, err := cfg.Export.Resolve(os.Getenv)
	if err != nil {
		s.log.Warn("export", "detail", err.Error())
	}
	x.export = resolved
	old := x.cur.Swap(export.New(resolved, export.Options{
		Version: s.opts.Version,
		Warn:    func(msg string) { s.log.Warn("export", "detail", msg) },
	}))
	if old != nil {
		go func() {
			old.Close(5 * time.Second)
			x.mu.Lock()
			if x.base == nil {
				x.base = map[string][2]int64{}
			}
			sent := old.Sent()
			for k, d := range old.Dropped() {
				c := x.base[k]
				x.base[k] = [2]int64{c[0] + sent[k], c[1] + d}
			}
			x.mu.Unlock()
		}()
	}
}

// exportLine is the journal's OnAppend: the line goes to the exporter's
// queues, never waiting.
func (s *Server) exportLine(line []byte) { s.exp.cur.Load().Enqueue(line) }

// exportCounts are the sent and dropped counts per sink for /metrics; nil
// maps when nothing is or was exported.
func (s *Server) exportCounts() (sent, dropped map[string]int64) {
	x := &s.exp
	x.mu.Lock()
	defer x.mu.Unlock()
	cur := x.cur.Load()
	if cur == nil && x.base == nil {
		return nil, nil
	}
	sent, dropped = cur.Sent(), cur.Dropped()
	for k, c := range x.base {
		sent[k] += c[0]
		dropped[k] += c[1]
	}
	sent["spool"] = x.spooled.Load()
	dropped["spool"] = x.spool.Dropped()
	return sent, dropped
}

// inBackground runs loop on a goroutine of its own until the function it
// returns is called, which stops it and waits for it to end.
func inBackground(loop func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); loop(ctx) }()
	return func() { cancel(); <-done }
}

// flushSpool sends the one-shot records left in the spool now and every
// spoolEvery until ctx ends.
func (s *Server) flushSpool(ctx context.Context) {
	t := time.NewTicker(spoolEvery)
	defer t.Stop()
	for {
		s.flushSpoolOnce(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// flushSpoolOnce sends what the spool holds now, within spoolEvery, where
// this server's config exports.
func (s *Server) flushSpoolOnce(ctx context.Context) {
	s.exp.mu.Lock()
	cfg, spool := s.exp.export, s.exp.spool
	s.exp.mu.Unlock()
	if !cfg.Enabled() || !spool.Pending() {
		return
	}
	fctx, cancel := context.WithTimeout(ctx, spoolEvery)
	res, err := spool.Flush(fctx, cfg, export.Options{Version: s.opts.Version})
	cancel()
	s.exp.spooled.Add(int64(res.Sent))
	if err != nil {
		s.log.Warn("export spool", "detail", err.Error())
	}
}

// closeExport sends what the exporter still queues, within wait.
func (s *Server) closeExport(wait time.Duration) {
	if e := s.exp.cur.Load(); e != nil {
		e.Close(wait)
	}
}
