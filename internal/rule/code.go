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

// lastCode keeps the last line code() read and its result: every rule of
// a ready-made file that reads the line's text calls it on the same
// args.command, and the parse is the cost (comparing the same string
// again is a pointer comparison).
var lastCode codeCache

type codeCache struct {
	mu       sync.Mutex
	line, is string
}

func (c *codeCache) of(s string) string {
	c.mu.Lock()
	if c.line == s && s != "" {
		is := c.is
		c.mu.Unlock()
		return is
	}
	c.mu.Unlock()
	is := permrule.Code(s)
	c.mu.Lock()
	c.line, c.is = s, is
	c.mu.Unlock()
	return is
}
