// Package backtrack compiles the dispatcher's backtracking matchers with
// dlclark/regexp2.
//
// Contract: Compile returns a regexp2 regex in ECMAScript mode or in its
// default (.NET, close to Python's re) mode, bounded by timeout per match;
// the error of a pattern regexp2 rejects is regexp2's. Package dispatcher
// does not import this package (see dispatcher.Engines).
package backtrack

import (
	"time"

	"github.com/dlclark/regexp2"
)

// Compile compiles expr. Its result type is dispatcher.Backtracker's
// (spelt out: this package does not import the dispatcher).
func Compile(expr string, ecmaScript bool, timeout time.Duration) (interface {
	MatchRunes(input []rune) (bool, error)
}, error) {
	opts := regexp2.None
	if ecmaScript {
		opts = regexp2.ECMAScript
	}
	re, err := regexp2.Compile(expr, opts)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = timeout
	return re, nil
}
