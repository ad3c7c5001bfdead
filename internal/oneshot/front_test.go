package oneshot

import (
	"strings"
	"testing"
)

// The front answers only the command lines the complete program would run
// without a word of its own (help, usage or flag errors); everything else
// is handed over untouched.
func TestParseFront(t *testing.T) {
	cases := []struct {
		args   string
		answer bool
	}{
		{"dispatch pre_tool_call", true},
		{"dispatch PreToolUse --format hermes --pretty", true},
		{"--config x.yaml dispatch pre_tool_call", true},
		{"dispatch --config=x.yaml --claude-settings a.json --claude-settings b.json pre_tool_call", true},
		{"--accept-hooks dispatch pre_tool_call --async-only --called-by claude", true},
		{"hook claude", true},
		{"hook claude PreToolUse --server unix:///tmp/s --no-server", true},
		{"--cursor-hooks c.json hook cursor", true},
		{"version", true},
		{"--config x.yaml version", true},
		{"", false},
		{"list", false},
		{"serve", false},
		{"help dispatch", false},
		{"dispatch", false},
		{"dispatch a b", false},
		{"dispatch pre_tool_call --help", false},
		{"dispatch pre_tool_call -h", false},
		{"dispatch pre_tool_call --no-server", false},
		{"dispatch pre_tool_call --bogus", false},
		{"dispatch pre_tool_call --format", false},
		{"hook", false},
		{"hook claude PreToolUse extra", false},
		{"hook claude --format hermes", false},
		{"version --pretty", false},
		{"version now", false},
		{"--version", false},
		{"-- dispatch pre_tool_call", false},
		{"--pretty dispatch pre_tool_call", false},
		{"--async-only dispatch pre_tool_call", false},
		{"--format hermes dispatch pre_tool_call", false},
		{"--no-server hook claude", false},
		{"--server=unix:///s hook claude", false},
		{"--config dispatch dispatch pre_tool_call", true},
		{"--accept-hooks dispatch pre_tool_call --pretty", true},
		{"dispatch -- pre_tool_call", false},
	}
	for _, c := range cases {
		a := &App{}
		_, ok := a.parseFront(strings.Fields(c.args))
		if ok != c.answer {
			t.Errorf("%q: front answers %v, want %v", c.args, ok, c.answer)
		}
	}
	a := &App{}
	if _, ok := a.parseFront(strings.Fields("--config x.yaml --claude-settings a.json --claude-settings b.json --accept-hooks dispatch e")); !ok ||
		a.ConfigPath != "x.yaml" || strings.Join(a.ClaudeSettings, ",") != "a.json,b.json" || !a.AcceptHooks {
		t.Fatalf("global flags: %+v", a)
	}
}

// The repeatable flags keep commas, as pflag's StringArray (the complete
// program's) does: a comma is part of a file name, not a separator.
func TestParseFrontRepeatableFlags(t *testing.T) {
	a := &App{}
	if _, ok := a.parseFront([]string{"--codex-hooks", "a,b.json", "--codex-hooks=c.json", "hook", "codex"}); !ok {
		t.Fatal("not answered")
	}
	if len(a.CodexHooks) != 2 || a.CodexHooks[0] != "a,b.json" || a.CodexHooks[1] != "c.json" {
		t.Fatalf("codex hooks %q", a.CodexHooks)
	}
}

// A hermes-hooks-full that is the front again (a link or a copy) would
// exec in a loop: a front started by a front refuses instead.
func TestExecFullRefusesItself(t *testing.T) {
	t.Setenv(FrontEnv, "/usr/local/bin/hermes-hooks")
	var stderr strings.Builder
	code, handed := execFull([]string{"hermes-hooks", "list"}, nil, &stderr)
	if handed || code != 1 || !strings.Contains(stderr.String(), "is this front again") {
		t.Fatalf("code %d, handed %v, stderr %q", code, handed, stderr.String())
	}
	stderr.Reset()
	if code, handed := execFull([]string{"hermes-hooks", "dispatch", "e"}, &NeedsFull{}, &stderr); handed || code != 1 || stderr.Len() != 0 {
		t.Fatalf("a dispatch hand-over that cannot be made is the caller's to report: code %d, handed %v, %q", code, handed, stderr.String())
	}
}
