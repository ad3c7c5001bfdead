package pattern

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2"
)

// MatchTimeout bounds one backtracking match, and DispatchBudget all the
// backtracking matches of one dispatch together (see Budget). A pattern
// such as (a+)+\1b can take exponential time; Python and JavaScript would
// hang, a dispatch must not — and a config (a repository's above all)
// must not make every decision slow by listing many such matchers. The
// budget is checked before each match, so one dispatch spends at most the
// budget plus one match's bound, plus the engine's clock granularity.
//
// They are variables so that tests can shorten them; set them before
// compiling (a Regex keeps the MatchTimeout it was compiled with), never
// while matches run.
var (
	MatchTimeout   = 100 * time.Millisecond
	DispatchBudget = 250 * time.Millisecond
)

// Regex is a compiled pattern. It holds up to two engines: re is Go's RE2
// (linear time, no allocation); slow is regexp2 set to the dialect's own
// regex language, for what RE2 cannot do or does differently. When both
// are set, re answers for plain input (printable ASCII, which every tool
// name is) and slow for the rest; see planPython and planJS for when RE2
// is trusted.
type Regex struct {
	re   *regexp.Regexp
	slow *regexp2.Regexp
}

// CompilePython compiles a Python re pattern for re.fullmatch: it must
// match the whole input. The error is what Python's re would reject, in
// its words, or what cannot be evaluated here.
func CompilePython(pattern string) (*Regex, error) {
	return compile(pattern, `^(?:`+pattern+`)$`, planPython, false, func(s string) string { return `\A(?:` + s + `)\z` })
}

// CompileJS compiles a JavaScript RegExp source as new RegExp(pattern)
// does, no flags: an unanchored search. The error is what JavaScript would
// reject.
func CompileJS(pattern string) (*Regex, error) {
	return compile(pattern, pattern, planJS, true, func(s string) string { return s })
}

// compile plans pattern for its dialect and compiles the engines the plan
// needs: RE2 on re2Expr (the pattern, anchored as the dialect wants) when
// RE2 means the same, the backtracking engine on the translated pattern
// (anchored by anchor) otherwise.
func compile(pattern, re2Expr string, plan func(string) (rxPlan, error), ecmaScript bool, anchor func(string) string) (*Regex, error) {
	p, err := plan(pattern)
	if err != nil {
		return nil, err
	}
	var re *regexp.Regexp
	if p.fast {
		if p.fastExpr != "" {
			re2Expr = p.fastExpr
		}
		re, _ = regexp.Compile(re2Expr) // nil: RE2 refuses it, the slow engine decides
	}
	if re != nil && p.exact {
		return &Regex{re: re}, nil
	}
	if p.onlyFast {
		if re == nil {
			return nil, rxError("the (?a) ASCII flag together with constructs RE2 lacks is not supported here")
		}
		return &Regex{re: re}, nil
	}
	opts := regexp2.None // .NET's mode, Python's re where the plan leaves it
	if ecmaScript {
		opts = regexp2.ECMAScript
	}
	slow, err := regexp2.Compile(anchor(p.slowExpr), opts)
	if err != nil {
		if re != nil {
			// RE2 agrees on plain input and the translation failed: keep
			// RE2 for every input rather than drop a valid pattern.
			return &Regex{re: re}, nil
		}
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		if i := strings.LastIndex(msg, " in `"); i > 0 {
			msg = msg[:i] // the translated pattern would only confuse
		}
		return nil, rxError(msg)
	}
	slow.MatchTimeout = MatchTimeout
	return &Regex{re: re, slow: slow}, nil
}

// Budget is the backtracking time one dispatch has left for all its
// matches (DispatchBudget); the zero value is a full budget. It is not
// safe for concurrent use.
type Budget struct {
	spent time.Duration
}

// Match reports whether s matches, running the engine that is exact for s.
// done is false when the answer is unknown: the backtracking engine ran
// out of time (MatchTimeout), or b was already spent and it was not run at
// all. b may be nil: no budget, only MatchTimeout.
func (r *Regex) Match(s string, b *Budget) (matched, done bool) {
	if r.re != nil && (r.slow == nil || isPlain(s)) {
		return r.re.MatchString(s), true
	}
	if b == nil {
		ok, err := matchSlow(r.slow, s)
		return ok, err == nil
	}
	if b.spent >= DispatchBudget {
		return false, false
	}
	start := time.Now()
	ok, err := matchSlow(r.slow, s)
	b.spent += time.Since(start)
	return ok, err == nil
}

// matchSlow runs the backtracking engine. regexp2 reads its deadline from a
// clock that a goroutine advances every 100 ms; on a loaded machine that
// goroutine runs late and the clock jumps, so a match of microseconds can
// be reported out of time (seen: 3 in 63 million, one 43 ms into a 100 ms
// bound). A timeout reported before MatchTimeout has really passed is such
// a jump: the match is tried again, once, so that a fail_closed guard is
// not blocked for nothing. A real timeout (the bound passed) stands.
func matchSlow(re *regexp2.Regexp, s string) (bool, error) {
	start := time.Now()
	ok, err := matchRunes(re, s)
	if err != nil && time.Since(start) < MatchTimeout {
		ok, err = matchRunes(re, s)
	}
	return ok, err
}

// isPlain reports printable ASCII, the input on which the RE2 fast path of
// a planned pattern is exact.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// runeBufs recycles the []rune regexp2 matches on: its MatchString
// allocates one per call, and a firing that matches no hook must not
// allocate. regexp2 drops its reference to the slice when the match ends.
// (A free list rather than a sync.Pool, which the race detector makes drop
// items at random.)
var runeBufs struct {
	sync.Mutex
	free [][]rune
}

func matchRunes(re *regexp2.Regexp, s string) (bool, error) {
	var b []rune
	runeBufs.Lock()
	if n := len(runeBufs.free); n > 0 {
		b = runeBufs.free[n-1][:0]
		runeBufs.free = runeBufs.free[:n-1]
	}
	runeBufs.Unlock()
	for _, r := range s {
		b = append(b, r)
	}
	ok, err := re.MatchRunes(b)
	if cap(b) <= 1024 {
		runeBufs.Lock()
		if len(runeBufs.free) < 64 {
			runeBufs.free = append(runeBufs.free, b[:0])
		}
		runeBufs.Unlock()
	}
	return ok, err
}
