package hookconfig

import (
	"fmt"
	"runtime/debug"
)

// recoveredPanic is a parser's panic, recovered as the ConfigError's
// cause: a config must never take the dispatcher down. Its own type (the
// message is the one people read) lets the fuzz targets tell a panic from
// a refusal; without it, "no input panics" could never fail.
type recoveredPanic struct {
	what  string // what could not be parsed: YAML, settings, hooks file
	value any
	stack []byte // where it panicked, for the test that sees it
}

func (p *recoveredPanic) Error() string { return fmt.Sprintf("cannot parse %s: %v", p.what, p.value) }

// recovered is the cause of the ConfigError a recovered panic becomes;
// called in the deferred function, so the stack is the panic's.
func recovered(what string, value any) error {
	return &recoveredPanic{what: what, value: value, stack: debug.Stack()}
}
