package dispatcher

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree"
)

// Engines are the two libraries the dispatcher runs on but does not link
// itself: a YAML parser for configs, and a backtracking regex engine for
// the matchers RE2 cannot run exactly (look-arounds, back-references …).
// Go runs every linked package's initialisation at each start, and these
// two cost a one-shot dispatch about a fifth of a Go program's start; the
// one-shot front goes without them (reading configs it has parsed before
// from a cache, and handing the rest to the complete program).
//
// A program that loads configs or runs such matchers imports package
// dispatcher/engines, which installs both:
//
//	import _ "github.com/hermes-hooks/hermes-hooks/dispatcher/engines"
//
// Without them, Load fails with ErrNoEngine on a YAML config (ParseConfig
// too), and an entry whose matcher only the backtracking engine can decide
// for a firing is selected and fails as a hook that cannot start (a
// fail_closed one blocks); nothing is skipped silently. A library host
// that builds its Config in code and uses plain matchers needs neither.
type Engines struct {
	// YAML parses one YAML document (nil root for an empty one).
	YAML func(text []byte) (*cfgtree.Node, error)
	// Backtrack compiles expr for a backtracking engine, in ECMAScript
	// mode when ecmaScript is set (else Python's default mode), with a
	// time bound per match.
	Backtrack func(expr string, ecmaScript bool, timeout time.Duration) (Backtracker, error)
}

// Backtracker is a compiled backtracking regex; MatchRunes fails when the
// match ran out of time. (An alias of the literal interface, so that an
// engine package can name the type without importing this one.)
type Backtracker = interface {
	MatchRunes(input []rune) (bool, error)
}

// ErrNoEngine is the error of a Load or a matcher that needs an engine this
// program does not have (see Engines).
var ErrNoEngine = errors.New("this program has no YAML parser or backtracking regex engine (import github.com/hermes-hooks/hermes-hooks/dispatcher/engines)")

var engines atomic.Pointer[Engines]

// UseEngines installs the engines (package dispatcher/engines calls it).
func UseEngines(e Engines) { engines.Store(&e) }

// InstalledEngines returns the engines UseEngines installed.
func InstalledEngines() Engines {
	if e := engines.Load(); e != nil {
		return *e
	}
	return Engines{}
}
