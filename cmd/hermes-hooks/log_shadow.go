package main

// log --decision beside entries in mode: shadow: what the filter passes
// over.

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// logShadowWould counts the records that log's --decision passes over while
// an entry in mode: shadow of theirs would have decided that (the record
// decided none): a team lead watching a rule in shadow mode with
// log --decision block otherwise reads "no record passes the filters" of
// a journal full of the blocks it would have given. Nil when --decision
// is not given (or is none, which shadow entries always decide).
type logShadowWould struct {
	others journal.Filter // the filters but --decision
	want   string
	n      int
	name   string // the first such hook's name, as log --hook finds it
}

func newLogShadowWould(lf *journal.Filter) *logShadowWould {
	if lf == nil || lf.Decision == "" || lf.Decision == "none" {
		return nil
	}
	others := *lf
	others.Decision = ""
	return &logShadowWould{others: others, want: lf.Decision}
}

// see counts e when the other filters pass it and it did not decide what
// --decision wants, but a shadow entry of it would have.
func (s *logShadowWould) see(e *journal.Entry) {
	if s == nil || e.Decision == s.want || e.Delivered == s.want || !s.others.Keep(e) {
		return
	}
	for _, h := range e.Hooks {
		if verdict, _, _ := strings.Cut(h.Would, ":"); h.Shadow && verdict == s.want {
			s.n++
			if s.name == "" {
				s.name = cmp.Or(h.Rule, h.Command)
			}
			return
		}
	}
}

// note says on stderr how many records hold such a would-be decision, and
// how to see them.
func (s *logShadowWould) note(a *app) {
	if s == nil || s.n == 0 {
		return
	}
	fmt.Fprintf(a.Err, "hermes-hooks: note: %s a would-be %s of an entry in mode: shadow (%s), which decided nothing there: --decision selects what was decided; hermes-hooks log --would %s shows them\n",
		report.Count(s.n, "record holds", "records hold"), s.want, showCut(s.name), s.want)
}
