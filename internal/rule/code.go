package rule

import (
	"fmt"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// code(s) is the shell command line s with the text that only mentions
// commands blanked (permrule.Code): a commit message, a pull request's
// body, echo's words, a literal here-document cat writes to a notes file
// — data no command of the line runs — become spaces, and the rest keeps
// its bytes and places. A rule that matches the line's text reads
// `code(args.command) matches "…"`, and commands(code(args.command))
// leaves the message's words out of git commit's form, so that a line
// that only names curl | sh or .env is not refused as one that runs it.
// What could still run, or be made to run (a pipe, $(…) in the message,
// a script written, a function or PATH the line sets), is left whole. Its
// result is as long as s, so it is no builder.
func code(params ...any) (any, error) {
	if len(params) != 1 {
		return nil, fmt.Errorf("invalid number of arguments for code (expected 1, got %d)", len(params))
	}
	s, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("code reads a string, not %T", params[0])
	}
	return lastCode.of(s), nil
}

// codeFn names the function the guard puts in place of code(s):
// #code($env, s), which keeps the line and its result in `$env`, the
// evaluation's own copy of the Input (stop.go), so that a rule reading
// code() on every step of a loop parses the line once, however busy the
// cache the process shares (lastCode) is with other calls' lines. A rule
// cannot spell it.
const codeFn = "#code"

// codeOfEnv is codeFn.
func codeOfEnv(params ...any) (any, error) {
	if len(params) != 2 {
		return nil, fmt.Errorf("invalid number of arguments for code (expected 1, got %d)", len(params)-1)
	}
	s, ok := params[1].(string)
	if !ok {
		return nil, fmt.Errorf("code reads a string, not %T", params[1])
	}
	in, ok := params[0].(*Input)
	if !ok || cap(in.stop) == 0 {
		return lastCode.of(s), nil // not an evaluation's own copy
	}
	if in.codeOf != s || in.codeOf == "" {
		in.codeOf, in.code = s, lastCode.of(s)
	}
	return in.code, nil
}

// lastCode keeps the last line code() read and its result: every rule of
// a ready-made file that reads the line's text calls it on the same
// args.command, and the parse is the cost (comparing the same string
// again is a pointer comparison).
var lastCode codeCache

// parseCode and shareCode are what tests change: the parse, and whether
// lastCode is read.
var (
	parseCode = permrule.Code
	shareCode = true
)

type codeCache struct {
	mu       sync.Mutex
	line, is string
}

func (c *codeCache) of(s string) string {
	c.mu.Lock()
	if shareCode && c.line == s && s != "" {
		is := c.is
		c.mu.Unlock()
		return is
	}
	c.mu.Unlock()
	is := parseCode(s)
	c.mu.Lock()
	c.line, c.is = s, is
	c.mu.Unlock()
	return is
}
