package hookconfig

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestTextGuardByEvent: text spelling a fail_closed key under a known
// event stops its file from loading only where, written as a mapping, it
// could be read as a guard (failClosedHonored): under an event whose hooks
// cannot fail closed the mapping loads with a warning, so the text does
// too, rather than refuse every gating call. A name that is no event
// keeps its rule (any guard there refuses). agent "" is the YAML config.
func TestTextGuardByEvent(t *testing.T) {
	cases := []struct {
		agent, file string
		want        string // "": it loads
	}{
		// The YAML config: an entry there may be Hermes or Claude
		// dialect (dialect: claude), so text refuses where either fails
		// closed.
		{"", "hooks:\n  on_session_start: [\"command: x, fail_closed: true\"]\n", ""},
		{"", "hooks:\n  on_session_start: \"command: x, fail_closed: true\"\n", ""},
		{"", "hooks:\n  SessionStart:\n    - matcher: x\n      hooks: [\"{command: x, failClosed: true}\"]\n", ""},
		{"", "hooks:\n  pre_tool_call: [\"command: x, fail_closed: true\"]\n", "hooks.pre_tool_call[0] is a string"},
		{"", "hooks:\n  post_tool_call: [\"command: x, dialect: claude, fail_closed: true\"]\n", "hooks.post_tool_call[0] is a string"},
		{"", "hooks:\n  on_sesion_start: [\"command: x, fail_closed: true\"]\n", "is no event"},
		// Claude Code's settings: its dialect.
		{"claude", `{"hooks":{"Notification":"see failClosed docs"}}`, ""},
		{"claude", `{"hooks":{"SessionStart":[{"hooks":["{\"command\":\"x\",\"failClosed\":true}"]}]}}`, ""},
		{"claude", `{"hooks":{"PreToolUse":"see failClosed docs"}}`, "hooks.PreToolUse is a string"},
		{"claude", `{"hooks":{"Notificaton":"see failClosed docs"}}`, "is no event"},
		// A flat file: its codec's events that refuse.
		{"cursor", `{"version":1,"hooks":{"sessionStart":["{\"command\":\"x\",\"failClosed\":true}"]}}`, ""},
		{"cursor", `{"version":1,"hooks":{"preToolUse":["{\"command\":\"x\",\"failClosed\":true}"]}}`, "hooks.preToolUse[0] is a string"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.agent), func(t *testing.T) {
			checkRefusal(t, parseAs(c.agent, c.file), c.want)
		})
	}
}

// TestTextGuardGaps: text spelling a fail_closed key wherever a matcher
// group's handlers or an event's hooks belong, at any depth the reader
// skips with a warning, stops its file from loading (for a gating event).
func TestTextGuardGaps(t *testing.T) {
	cases := []struct {
		agent, file string
		want        string
	}{
		{"", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: \"{command: x, fail_closed: true}\"\n", "hooks.PreToolUse[0].hooks is a string"},
		{"", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: [\"{command: x, fail_closed: true}\"]\n", "hooks.PreToolUse[0].hooks[0] is a string"},
		{"", "hooks:\n  pre_tool_call:\n    - [\"command: x, fail_closed: true\"]\n", "hooks.pre_tool_call[0][0] is a string"},
		{"", "hooks:\n  pre_tool_call:\n    - [\"command: x\"]\n", ""},
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":"{\"command\":\"x\",\"failClosed\":true}"}]}}`, "hooks.PreToolUse[0].hooks is a string"},
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":["{\"command\":\"x\",\"failClosed\":true}"]}]}}`, "hooks.PreToolUse[0].hooks[0] is a string"},
		{"claude", `{"hooks":{"PreToolUse":[["{\"hooks\":[{\"command\":\"x\",\"failClosed\":true}]}"]]}}`, "hooks.PreToolUse[0][0] is a string"},
		{"cursor", `{"version":1,"hooks":{"preToolUse":[["{\"command\":\"x\",\"failClosed\":true}"]]}}`, "hooks.preToolUse[0][0] is a string"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.agent), func(t *testing.T) {
			checkRefusal(t, parseAs(c.agent, c.file), c.want)
		})
	}
}

func checkRefusal(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("want it to load, got %v", err)
		}
		return
	}
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(ce.Err.Error(), want) {
		t.Fatalf("got %v\nwant a ConfigError with %q", err, want)
	}
}

// TestListGuard: a list where one hook, matcher group or handler belongs
// is skipped by the reader with a warning; a fail_closed hook inside it
// stops its file from loading where a hook there may fail closed
// (listGuard), rather than vanish.
func TestListGuard(t *testing.T) {
	cases := []struct {
		agent, file string
		want        string
	}{
		{"", "hooks:\n  pre_tool_call:\n    - [{command: x, fail_closed: true}]\n", "hooks.pre_tool_call[0] is a list, not a hook"},
		{"", "g: &g [{command: x, fail_closed: true}]\nhooks:\n  pre_tool_call: [*g]\n", "hooks.pre_tool_call[0] is a list, not a hook"},
		{"", "hooks:\n  PreToolUse:\n    - [{hooks: [{command: x, fail_closed: true}]}]\n", "hooks.PreToolUse[0] is a list, not a hook"},
		{"", "hooks:\n  PreToolUse:\n    - {hooks: [[{command: x, fail_closed: true}]]}\n", "hooks.PreToolUse[0].hooks[0] is a list, not a hook"},
		{"", "hooks:\n  pre_tool_call:\n    - [{command: x}]\n", ""},
		{"", "hooks:\n  SessionStart:\n    - {hooks: [[{command: x, fail_closed: true}]]}\n", ""},
		{"", "hooks:\n  on_session_start:\n    - [{command: x, fail_closed: true}]\n", ""},
		// Each hook found is decided by its own dialect: key, else the
		// event name's, as the reader would read it.
		{"", "hooks:\n  post_tool_call:\n    - [{command: x, fail_closed: true}]\n", ""},
		{"", "hooks:\n  PostToolUse:\n    - [{command: x, dialect: hermes, fail_closed: true}]\n", ""},
		{"", "hooks:\n  post_tool_call:\n    - [{command: x, dialect: claude, fail_closed: true}]\n", "hooks.post_tool_call[0] is a list, not a hook"},
		{"", "hooks:\n  PostToolUse:\n    - [{command: x, fail_closed: true}]\n", "hooks.PostToolUse[0] is a list, not a hook"},
		// One anchor named under an event where it is no guard, then
		// under one where it is: the second still refuses.
		{"", "g: &g [{command: x, fail_closed: true}]\nhooks:\n  post_tool_call: [*g]\n  pre_tool_call: [*g]\n", "hooks.pre_tool_call[0] is a list, not a hook"},
		// A matcher group where a handler or a flat hook belongs.
		{"", "hooks:\n  PreToolUse:\n    - hooks: [{hooks: [{command: x, failClosed: true}]}]\n", "hooks.PreToolUse[0].hooks[0] is a matcher group, not a hook"},
		{"", "hooks:\n  PreToolUse:\n    - hooks: [{hooks: [{command: x}]}]\n", ""},
		{"claude", `{"hooks":{"PreToolUse":[{"hooks":[{"hooks":[{"command":"x","failClosed":true}]}]}]}}`, "hooks.PreToolUse[0].hooks[0] is a matcher group, not a hook"},
		{"claude", `{"hooks":{"Notification":[{"hooks":[{"hooks":[{"command":"x","failClosed":true}]}]}]}}`, ""},
		{"cursor", `{"version":1,"hooks":{"preToolUse":[{"hooks":[{"command":"x","failClosed":true}]}]}}`, "hooks.preToolUse[0] is a matcher group, not a hook"},
		{"cursor", `{"version":1,"hooks":{"preToolUse":[{"hooks":[{"command":"x"}]}]}}`, ""},
		{"claude", `{"hooks":{"PreToolUse":[[{"hooks":[{"command":"x","failClosed":true}]}]]}}`, "hooks.PreToolUse[0] is a list, not a hook"},
		{"claude", `{"hooks":{"PreToolUse":[{"hooks":[[{"command":"x","failClosed":true}]]}]}}`, "hooks.PreToolUse[0].hooks[0] is a list, not a hook"},
		{"claude", `{"hooks":{"Notification":[[{"hooks":[{"command":"x","failClosed":true}]}]]}}`, ""},
		{"cursor", `{"version":1,"hooks":{"preToolUse":[[{"command":"x","failClosed":true}]]}}`, "hooks.preToolUse[0] is a list, not a hook"},
		{"cursor", `{"version":1,"hooks":{"preToolUse":[[{"command":"x"}]]}}`, ""},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.agent), func(t *testing.T) {
			checkRefusal(t, parseAs(c.agent, c.file), c.want)
		})
	}
}

// TestPastCapByEvent: past a repository's cap, hooks of an event whose
// hooks cannot fail closed are no guard (failClosedHonored), in text or as
// a mapping: the file loads with the cap's warning, as it does before
// the cap. A gating event's still refuses.
func TestPastCapByEvent(t *testing.T) {
	full := manyEntries(MaxProjectEntries, "")
	settings := func(event, handler string) string {
		return `{"hooks":{"PreToolUse":[{"hooks":[` + strings.Repeat(`{"type":"command","command":"x"},`, MaxProjectEntries) +
			`{"type":"command","command":"y"}]}],"` + event + `":[{"hooks":[` + handler + `]}]}}`
	}
	cases := []struct {
		agent, file string
		want        string
	}{
		{"", full + "  on_session_start:\n    - command: x\n      fail_closed: true\n", ""},
		{"", full + "  on_session_start: [\"command: x, fail_closed: true\"]\n", ""},
		{"", full + "  SessionStart:\n    - hooks: [{command: x, failClosed: true}]\n", ""},
		{"", full + "  pre_tool_call_x: [{command: x, fail_closed: true}]\n", "is no event"},
		{"", full + "  PreToolUse:\n    - hooks: [{command: x, failClosed: true}]\n", "asks to fail closed"},
		{"", full + "  post_tool_call:\n    - command: x\n      dialect: claude\n      fail_closed: true\n", "asks to fail closed"},
		{"", full + "  post_tool_call:\n    - command: x\n      fail_closed: true\n", ""},
		{"", full + "  PostToolUse:\n    - command: x\n      dialect: hermes\n      fail_closed: true\n", ""},
		{"", full + "  PostToolUse:\n    - command: x\n      fail_closed: true\n", "asks to fail closed"},
		// Events are read in name order: these come after PreToolUse.
		{"claude", settings("SessionStart", `{"type":"command","command":"x","failClosed":true}`), ""},
		{"claude", settings("SessionStart", `"{\"command\":\"x\",\"failClosed\":true}"`), ""},
		{"claude", settings("Stop", `{"type":"command","command":"x","failClosed":true}`), "asks to fail closed"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.agent), func(t *testing.T) {
			var err error
			if c.agent == "" {
				_, err = parseConfig([]byte(c.file), "/f", MaxProjectEntries)
			} else {
				a, _ := agents.Lookup(c.agent)
				_, _, err = parseAgentFile(a, []byte(c.file), "/f", MaxProjectEntries)
			}
			checkRefusal(t, err, c.want)
		})
	}
}

// parseAs parses file as the YAML config (agent "") or as agent's hooks
// file, with no cap: the error the reader gives.
func parseAs(agent, file string) error {
	if agent == "" {
		_, err := parseConfig([]byte(file), "/f", 0)
		return err
	}
	a, _ := agents.Lookup(agent)
	_, _, err := parseAgentFile(a, []byte(file), "/f", 0)
	return err
}
