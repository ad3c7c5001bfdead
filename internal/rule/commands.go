package rule

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// commands(s) is what the shell command line s runs, as the argv each
// command gets (permrule.Commands): `any(commands(args.command), # matches
// "^rm\\s")` sees rm however the line spells, quotes, continues or wraps
// it (r\m -r"f", sudo, xargs, sh -c, find -exec), and not an rm that is
// only text (echo rm, a commit message). A line that does not parse as
// Bash, or that the analysis cannot read to its end, is an evaluation
// error: with fail_closed, refused rather than judged on part of itself.
// It is a builder (its list can hold more text than its input: the
// wrappers' forms), so it is called once, outside a loop.
func commands(params ...any) (any, error) {
	if len(params) != 1 {
		return nil, fmt.Errorf("invalid number of arguments for commands (expected 1, got %d)", len(params))
	}
	return commandsOf(params[0], nil)
}

// commandsFn names the function the guard puts in place of commands(s):
// #commands($env, s), which ends the analysis once the evaluation's stop
// flag is set (its time bound passed), as a loop's step does (stop.go):
// a line of 64 KiB built to be slow would otherwise run on, the rule
// quarantined all that time. A rule cannot spell it.
const commandsFn = "#commands"

// commandsStopping is commandsFn.
func commandsStopping(params ...any) (any, error) {
	if len(params) != 2 {
		return nil, fmt.Errorf("invalid number of arguments for commands (expected 1, got %d)", len(params)-1)
	}
	var stop func() bool
	if in, ok := params[0].(*Input); ok && cap(in.stop) > 0 {
		stop = in.stop.isSet
	}
	return commandsOf(params[1], stop)
}

// commandsOf is commands of s, ended early once stop reports true.
func commandsOf(param any, stop func() bool) (any, error) {
	s, ok := param.(string)
	if !ok {
		return nil, fmt.Errorf("commands reads a string, not %T", param)
	}
	forms, err := permrule.CommandsUntil(s, stop)
	if err != nil {
		return nil, err
	}
	if len(forms) > maxPieces {
		return nil, fmt.Errorf("the command runs more than %d commands", maxPieces)
	}
	return forms, nil
}
