package server

import (
	"net/http"

	"github.com/hermes-hooks/hermes-hooks/report"
)

// Stats reports every hook of the configuration in service with its live
// record and consent state (the body of GET /v1/stats).
func (s *Server) Stats() report.Stats {
	g := s.cur.Load()
	allow, err := s.opts.Store.Load()
	if err != nil {
		s.log.Warn("read allowlist", "err", err)
	}
	statuses := report.Inspect(g.cfg, allow, s.opts.Cwd)
	st := report.Stats{
		Generation:      g.n,
		Config:          s.opts.ConfigPath,
		Since:           s.live.Since(),
		Dispatches:      s.live.DispatchCounts(),
		LogLinesDropped: s.logDropped(),
	}
	if e := s.reloadErr.Load(); e != nil {
		st.ReloadError = *e
	}
	st.Hooks = g.stats.Hooks(statuses, g.d.Workers())
	return st
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	st := s.Stats()
	s.log.Debug("stats", "status", http.StatusOK, "hooks", len(st.Hooks))
	writeJSON(w, http.StatusOK, marshal(st))
}
