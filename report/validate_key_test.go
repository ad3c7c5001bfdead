package report

import (
	"errors"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// TestLoadProblemKey: a problem that stops a config from loading carries the
// key path its message starts with, as validate --json's other problems do
// ("key"): a misspelt decision: blok gave a script a file, line and column,
// and the key only inside the message's text.
func TestLoadProblemKey(t *testing.T) {
	for _, c := range []struct{ msg, key string }{
		{"hooks.pre_tool_call[0].decision must be block, ask or context; got 'blok'", "hooks.pre_tool_call[0].decision"},
		{"hooks.pre_tool_call[0].message must be a non-empty string (the reason …)", "hooks.pre_tool_call[0].message"},
		{"hooks.pre_tool_call[2]: rule: beside command: is an error", "hooks.pre_tool_call[2]"},
		{"hooks.pre_tool_call[0].examples[1].expect must be one of block", "hooks.pre_tool_call[0].examples[1].expect"},
		{"hooks.pre_tool_call:terminal[0].id must be a name", "hooks.pre_tool_call:terminal[0].id"},
		{"hooks.pre_tool_call: must be a list of entries", "hooks.pre_tool_call"},
		{"journal.max_bytes must be a positive integer", "journal.max_bytes"},
		{"no such file or directory", ""},
		{"mapping values are not allowed in this context", ""},
	} {
		p := LoadProblem(&hookconfig.ConfigError{Path: "c.yaml", Line: 3, Err: errors.New(c.msg)})
		if p.Key != c.key {
			t.Errorf("LoadProblem(%q).Key = %q, want %q", c.msg, p.Key, c.key)
		}
	}
}
