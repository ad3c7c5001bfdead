package server

import (
	"net/http"

	"github.com/hermes-hooks/hermes-hooks/internal/serverstats"
)

// scrape is what /metrics reports of this server now (see
// serverstats.Scrape).
func (s *Server) scrape() *serverstats.Scrape {
	g := s.cur.Load()
	sc := &serverstats.Scrape{
		Generation: g.n,
		InFlight:   s.inflight.Load(),
		Live:       s.live,
		Hooks:      g.stats,
		Allowlist:  s.opts.Store.Load,
	}
	sc.ExportSent, sc.ExportDropped = s.exportCounts()
	if g.journal != nil {
		lost := g.journal.Failures()
		sc.JournalLost = &lost
	}
	return sc
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	replyDeadline(w)
	s.metrics.ServeHTTP(w, r)
}
