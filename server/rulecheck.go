package server

import (
	"errors"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
)

// logBrokenRules says, when a config goes into service, which of its rules
// do not compile. The dispatcher compiles a rule when its entry first
// fires (what spares a one-shot hook the rules its call does not reach),
// so until then serve's log said only "config reloaded … warnings=0": a
// rule file saved with a typo in a long-running serve looked loaded, and
// a rule without fail_closed stopped guarding without a word until a call
// came. Compiling is bounded (4 KiB, 256 nodes per rule) and runs nothing;
// d compiles them (CompileRules), so the compilation checked here is the
// one its firings use, not one more (but for a repository's rules, which
// it checks without keeping: see CompileRules).
func (s *Server) logBrokenRules(d *dispatcher.Dispatcher) {
	d.CompileRules(func(e *hookconfig.Entry, err error) {
		r := e.Rule()
		line, msg := r.Line, err.Error()
		var re *rule.Error
		if errors.As(err, &re) {
			msg = re.Msg
			if re.Line > 1 && line > 0 {
				line += re.Line - 1
			}
		}
		then := "it decides nothing"
		switch {
		case e.FailClosed && !e.Shadow && e.NeedsApproval():
			// A repository's: skipped until someone approves it (the
			// gate's to say at a firing, not the reload's).
			then = "fail_closed: once approved, it refuses every call it selects (until then it is skipped)"
		case e.FailClosed && !e.Shadow:
			then = "fail_closed: it refuses every call it selects"
		}
		s.log.Warn("rule does not compile", "file", e.Source, "line", line, "reason", msg, "then", then)
	})
}
