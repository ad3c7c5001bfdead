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
	s, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("commands reads a string, not %T", params[0])
	}
	forms, err := permrule.Commands(s)
	if err != nil {
		return nil, err
	}
	if len(forms) > maxPieces {
		return nil, fmt.Errorf("the command runs more than %d commands", maxPieces)
	}
	return forms, nil
}
