package protocol

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// specValidHooks is Hermes reference §1.4 verbatim (the list `hermes hooks
// test` prints after "Valid events: ").
const specValidHooks = `agent_loop_stopped, api_request_error, gateway_platform_event, kanban_task_blocked,
kanban_task_claimed, kanban_task_completed, on_interim_message, on_kanban_dispatch_tick,
on_kanban_task_updated, on_kanban_worker_exited, on_kanban_worker_spawned,
on_kanban_worker_stale_claim, on_room_member_activity, on_session_end, on_session_finalize,
on_session_reset, on_session_start, on_skill_lifecycle, on_stream_delta, on_stream_end,
on_stream_start, post_api_request, post_approval_response, post_auxiliary_call, post_llm_call,
post_tool_call, pre_api_request, pre_approval_request, pre_auxiliary_call, pre_command,
pre_gateway_dispatch, pre_llm_call, pre_tool_call, pre_transcription, pre_verify, subagent_start,
subagent_stop, transform_api_error_classification, transform_llm_output,
transform_terminal_output, transform_tool_result`

func specHermesEvents() []string {
	flat := strings.ReplaceAll(specValidHooks, "\n", " ")
	var out []string
	for _, n := range strings.Split(flat, ",") {
		out = append(out, strings.TrimSpace(n))
	}
	return out
}

func TestHermesEventNamesAre41InSpecOrder(t *testing.T) {
	want := specHermesEvents()
	if len(want) != 41 {
		t.Fatalf("spec list parsed into %d names; the test itself is wrong", len(want))
	}
	got := HermesEventNames()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("HermesEventNames() =\n%v\nwant (§1.4)\n%v", got, want)
	}
	// The printed form ("Valid events: " + joined with ", ") is the spec text.
	if j := strings.Join(got, ", "); j != strings.ReplaceAll(specValidHooks, ",\n", ", ") {
		t.Fatalf("joined list differs from §1.4:\n%s", j)
	}
	if !sort.StringsAreSorted(got) {
		t.Fatalf("HermesEventNames is not sorted")
	}
}

func TestHermesEventsResolveToThemselves(t *testing.T) {
	for _, name := range specHermesEvents() {
		e, ok := Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q) failed", name)
			continue
		}
		if e.Name != name || !e.Hermes || e.ClaudeOnly {
			t.Errorf("Lookup(%q) = {Name:%q Hermes:%v ClaudeOnly:%v}", name, e.Name, e.Hermes, e.ClaudeOnly)
		}
	}
}

func TestOnlyTransformAPIErrorClassificationIsShellUnsupported(t *testing.T) {
	e, ok := Lookup("transform_api_error_classification")
	if !ok || !e.ShellUnsupported || !e.Hermes {
		t.Fatalf("transform_api_error_classification: ok=%v %+v; want a Hermes event that is ShellUnsupported", ok, e)
	}
	for _, e := range Events() {
		if e.ShellUnsupported && e.Name != "transform_api_error_classification" {
			t.Errorf("%s is ShellUnsupported; §1.4 lists only transform_api_error_classification", e.Name)
		}
	}
}

func TestClaudeNamesResolveToCanonicalEvents(t *testing.T) {
	twins := map[string]string{
		"PreToolUse":       "pre_tool_call",
		"PostToolUse":      "post_tool_call",
		"UserPromptSubmit": "pre_llm_call",
		"Stop":             "pre_verify",
		"SubagentStop":     "subagent_stop",
		"SubagentStart":    "subagent_start",
		"SessionStart":     "on_session_start",
		"SessionEnd":       "on_session_end",
	}
	for claude, canonical := range twins {
		e, ok := Lookup(claude)
		if !ok || e.Name != canonical {
			t.Errorf("Lookup(%q) = %v, %v; want %s", claude, e, ok, canonical)
			continue
		}
		if e.ClaudeOnly || !e.Hermes {
			t.Errorf("%s must be a Hermes event with a Claude twin", canonical)
		}
		if e.ClaudeName() != claude {
			t.Errorf("%s.ClaudeName() = %q, want %q", canonical, e.ClaudeName(), claude)
		}
		if !IsClaudeName(claude) {
			t.Errorf("IsClaudeName(%q) = false", claude)
		}
		if IsClaudeName(canonical) {
			t.Errorf("IsClaudeName(%q) = true for a Hermes name", canonical)
		}
		if c, _ := Lookup(canonical); c != e {
			t.Errorf("%s and %s resolve to different events", claude, canonical)
		}
	}
}

// Claude reference §3: 31 event names as of v2.1.240, 33 in v2.1.330 (its
// own list adds PreModelSwitch and PostModelSwitch), 34 in v2.1.332 (adds
// PreSkillShellCommand); those without a Hermes twin stay Claude-only.
func TestClaudeOnlyEventsStayClaudeOnly(t *testing.T) {
	claudeOnly := []string{"PostToolUseFailure", "Notification", "PreCompact", "PostCompact", "PermissionRequest",
		"PermissionDenied", "Setup", "TeammateIdle", "TaskCreated", "TaskCompleted", "ConfigChange",
		"WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "Elicitation", "ElicitationResult",
		"StopFailure", "CwdChanged", "FileChanged", "MessageDisplay", "UserPromptExpansion", "PostToolBatch",
		"DirectoryAdded", "PreModelSwitch", "PostModelSwitch", "PreSkillShellCommand"}
	hermes := map[string]bool{}
	for _, n := range HermesEventNames() {
		hermes[n] = true
	}
	valid := map[string]bool{}
	for _, n := range ValidEventNames() {
		valid[n] = true
	}
	for _, name := range claudeOnly {
		e, ok := Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q) failed", name)
			continue
		}
		if !e.ClaudeOnly || e.Hermes || e.Name != name || e.ClaudeName() != name || !IsClaudeName(name) {
			t.Errorf("%s: %+v; want a Claude-only event named by its Claude name", name, e)
		}
		if hermes[name] || valid[name] {
			t.Errorf("%s leaked into the Hermes/valid name lists", name)
		}
	}
	claudeNames := 0
	for _, e := range Events() {
		if e.Claude != "" {
			claudeNames++
		}
	}
	if claudeNames != 34 {
		t.Errorf("catalog has %d Claude names, want 34 (Claude Code 2.1.332)", claudeNames)
	}
}

func TestLookupAliasesAndCaseSensitivity(t *testing.T) {
	for alias, canonical := range map[string]string{"before_llm_call": "pre_llm_call", "intercept_tool_call": "pre_tool_call"} {
		if e, ok := Lookup(alias); !ok || e.Name != canonical {
			t.Errorf("Lookup(%q) = %v, %v; want %s", alias, e, ok, canonical)
		}
		if IsClaudeName(alias) {
			t.Errorf("IsClaudeName(%q) = true", alias)
		}
	}
	for _, bad := range []string{"PRE_TOOL_CALL", "pretooluse", "preToolUse", " pre_tool_call", "pre_tool_call ", "", "outbound"} {
		if e, ok := Lookup(bad); ok {
			t.Errorf("Lookup(%q) = %s; names are exact and case-sensitive", bad, e.Name)
		}
	}
}

func TestValidAndAllEventNames(t *testing.T) {
	valid := ValidEventNames()
	if !sort.StringsAreSorted(valid[:42]) || !sort.StringsAreSorted(valid[42:]) || valid[41] != "transform_user_input" {
		t.Errorf("ValidEventNames = %v; want Hermes' and ours sorted, then the gateway events sorted", valid)
	}
	if len(valid) != 50 || !contains(valid, "transform_user_input") || !contains(valid, "command:*") {
		t.Errorf("ValidEventNames = %d names; want Hermes' 41, its 8 gateway events and transform_user_input", len(valid))
	}
	all := AllEventNames()
	if !sort.StringsAreSorted(all) {
		t.Error("AllEventNames not sorted")
	}
	for _, n := range append(append([]string{"PreToolUse", "Stop", "before_llm_call"}, valid...), "Notification") {
		if !contains(all, n) {
			t.Errorf("AllEventNames lacks %q", n)
		}
	}
	for _, n := range all {
		if _, ok := Lookup(n); !ok {
			t.Errorf("AllEventNames lists %q which Lookup rejects", n)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestEventCapabilities(t *testing.T) {
	pre := ev("pre_tool_call")
	if !pre.Gating() || !pre.Can(CapBlock) || !pre.Can(CapModify) || !pre.Can(CapApprove) || !pre.Tool || !pre.HermesMatcher {
		t.Errorf("pre_tool_call capabilities wrong: %+v", pre)
	}
	for _, name := range []string{"post_tool_call", "pre_verify", "pre_llm_call", "on_session_start"} {
		if ev(name).Gating() {
			t.Errorf("%s must not be gating (Hermes §2.5: blocking = pre_tool_call)", name)
		}
	}
	if !ev("post_tool_call").HermesMatcher {
		t.Error("post_tool_call honours Hermes matchers (§1.2)")
	}
	for _, e := range Events() {
		if e.HermesMatcher && e.Name != "pre_tool_call" && e.Name != "post_tool_call" {
			t.Errorf("%s honours a Hermes matcher; §1.2 says only pre/post_tool_call", e.Name)
		}
	}
	if !ev("pre_verify").Can(CapContinue) || ev("pre_verify").Can(CapBlock) {
		t.Error("pre_verify continues, it does not block")
	}
	var nilEvent *Event
	if nilEvent.Can(CapBlock) || nilEvent.Gating() {
		t.Error("nil event has capabilities")
	}
	if got := (CapBlock | CapContext | CapTransform).Names(); !reflect.DeepEqual(got, []string{"block", "context", "transform"}) {
		t.Errorf("Names() = %v", got)
	}
	for _, e := range Events() {
		// post_tool_call's text is the tool output (Claude's
		// updatedToolOutput); pre_gateway_dispatch's is the message, which
		// the gateway rewrites itself with the first rewrite (not a chain).
		if e.Can(CapTransform) && e.TextField == "" && e.Name != "post_tool_call" && !e.FirstDecides {
			t.Errorf("%s can transform but names no text field", e.Name)
		}
	}
}

// Claude reference §2.2: what a Claude matcher compares against.
func TestClaudeMatchOnPerEvent(t *testing.T) {
	want := map[string]string{
		"PreToolUse": "tool_name", "PostToolUse": "tool_name", "PostToolUseFailure": "tool_name",
		"PermissionRequest": "tool_name", "PermissionDenied": "tool_name", "SessionStart": "source",
		"Setup": "trigger", "SessionEnd": "reason", "Notification": "notification_type", "PreCompact": "trigger",
		"PostCompact": "trigger", "SubagentStart": "agent_type", "SubagentStop": "agent_type",
		"UserPromptExpansion": "command_name", "StopFailure": "error", "ConfigChange": "source",
		"DirectoryAdded": "source", "InstructionsLoaded": "load_reason", "Elicitation": "mcp_server_name",
		"ElicitationResult": "mcp_server_name", "FileChanged": "file_path",
		"UserPromptSubmit": "", "Stop": "", "PostToolBatch": "", "TeammateIdle": "", "TaskCreated": "",
		"TaskCompleted": "", "WorktreeCreate": "", "WorktreeRemove": "", "MessageDisplay": "", "CwdChanged": "",
	}
	for name, field := range want {
		if got := ev(name).ClaudeMatchOn; got != field {
			t.Errorf("%s.ClaudeMatchOn = %q, want %q", name, got, field)
		}
	}
}

// Hermes §1.3: pre_tools_call → did you mean pre_tool_call.
func TestSuggestEvent(t *testing.T) {
	cases := map[string]string{
		"pre_tools_call":          "pre_tool_call",
		"pre_tool_cal":            "pre_tool_call",
		"post_tool_calls":         "post_tool_call",
		"on_sesion_start":         "on_session_start",
		"PreToolUser":             "PreToolUse",
		"pre_tool_call":           "pre_tool_call",
		"xyzzy":                   "",
		"completely_unrelated_qq": "",
		"":                        "",
	}
	for in, want := range cases {
		if got := SuggestEvent(in); got != want {
			t.Errorf("SuggestEvent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnknownEventMessage(t *testing.T) {
	if got, want := UnknownEventMessage("pre_tools_call"),
		"unknown hook event 'pre_tools_call' in hooks: config — did you mean 'pre_tool_call'?"; got != want {
		t.Errorf("near miss:\n got %q\nwant %q", got, want)
	}
	far := UnknownEventMessage("xyzzy")
	prefix := "unknown hook event 'xyzzy' in hooks: config (valid: "
	if !strings.HasPrefix(far, prefix) || !strings.HasSuffix(far, ")") {
		t.Fatalf("far miss = %q", far)
	}
	listed := strings.Split(strings.TrimSuffix(strings.TrimPrefix(far, prefix), ")"), ", ")
	if !reflect.DeepEqual(listed, ValidEventNames()) {
		t.Errorf("listing = %v, want the sorted valid names", listed)
	}
	for _, n := range HermesEventNames() {
		if !contains(listed, n) {
			t.Errorf("listing lacks %s", n)
		}
	}
	if strings.Contains(far, "did you mean") {
		t.Errorf("far miss suggests something: %q", far)
	}
}

// Every per-event rule is a catalog field (issue 14): this pins which events
// carry each rule, the lists the reply, payload and dispatch code used to
// spell out by name. Adding an event means adding its row and its line here.
func TestCatalogRules(t *testing.T) {
	with := func(rule func(e *Event) bool) []string {
		var out []string
		for _, e := range Events() {
			if rule(e) {
				out = append(out, e.ClaudeName())
			}
		}
		sort.Strings(out)
		return out
	}
	for _, tc := range []struct {
		rule string
		of   func(e *Event) bool
		want []string
	}{
		{"Gates", func(e *Event) bool { return e.gates }, []string{"PreSkillShellCommand", "PreToolUse"}},
		{"RefusesAsk", func(e *Event) bool { return e.RefusesAsk }, []string{"PreSkillShellCommand"}},
		{"RefusesInputChange", func(e *Event) bool { return e.RefusesInputChange }, []string{"PreSkillShellCommand"}},
		{"HSOAliases", func(e *Event) bool { return len(e.HSOAliases) > 0 }, []string{"PreSkillShellCommand"}},
		{"AlsoRunsPreToolUse", func(e *Event) bool { p, _ := Lookup("PreToolUse"); return e.Forwards(p) }, []string{"PreSkillShellCommand"}},
		{"AlsoRuns", func(e *Event) bool { return e.AlsoRuns != "" }, []string{"PreSkillShellCommand"}},
		{"Stops", func(e *Event) bool { return e.Stops }, []string{"Stop", "SubagentStop"}},
		{"EndsSession", func(e *Event) bool { return e.EndsSession }, []string{"SessionEnd", "on_session_finalize"}},
		{"PlainContext", func(e *Event) bool { return e.PlainContext }, []string{"SessionStart", "UserPromptExpansion", "UserPromptSubmit"}},
		{"PlainResult", func(e *Event) bool { return e.PlainResult }, []string{"WorktreeCreate"}},
		{"ExitNonZeroBlocks", func(e *Event) bool { return e.Exit2 == ExitNonZeroBlocks }, []string{"WorktreeCreate"}},
		{"SoftMissingScript", func(e *Event) bool { return e.SoftMissingScript }, []string{"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"}},
		{"DropsSystemMessage", func(e *Event) bool { return e.DropsSystemMessage },
			[]string{"InstructionsLoaded", "Notification", "PostCompact", "PreCompact", "SessionEnd", "StopFailure"}},
		{"Behavior", func(e *Event) bool { return e.Behavior }, []string{"PermissionRequest"}},
		{"ToolOutput", func(e *Event) bool { return e.ToolOutput }, []string{"PostToolUse"}},
		{"IfRule", func(e *Event) bool { return e.IfRule },
			[]string{"PermissionDenied", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "PreSkillShellCommand", "PreToolUse"}},
		{"ClaudeTimeout30", func(e *Event) bool { return e.ClaudeTimeout == 30 }, []string{"PostModelSwitch", "PreModelSwitch", "UserPromptSubmit"}},
		{"ClaudeTimeout10", func(e *Event) bool { return e.ClaudeTimeout == 10 }, []string{"MessageDisplay"}},
		{"ClaudeBudget", func(e *Event) bool { return e.ClaudeBudget != nil }, []string{"SessionEnd"}},
		{"ClaudeNarrowNames", func(e *Event) bool { return e.ClaudeNarrowNames }, []string{"FileChanged", "StopFailure"}},
		{"ReplyTool", func(e *Event) bool { return e.HermesReply == ReplyTool }, []string{"PreToolUse"}},
		{"ReplyVerify", func(e *Event) bool { return e.HermesReply == ReplyVerify }, []string{"Stop"}},
		{"ReplyInput", func(e *Event) bool { return e.HermesReply == ReplyInput }, []string{"transform_user_input"}},
		{"ReplyLLM", func(e *Event) bool { return e.HermesReply == ReplyLLM }, []string{"UserPromptSubmit"}},
		{"WireTool", func(e *Event) bool { return e.HermesWire == WireTool }, []string{"PreToolUse"}},
		{"WireContinue", func(e *Event) bool { return e.HermesWire == WireContinue }, []string{"Stop", "SubagentStop"}},
		{"WireBlock", func(e *Event) bool { return e.HermesWire == WireBlock }, []string{"UserPromptSubmit", "transform_user_input"}},
		{"ReplyGateway", func(e *Event) bool { return e.HermesReply == ReplyGateway }, []string{"pre_gateway_dispatch"}},
		{"WireGateway", func(e *Event) bool { return e.HermesWire == WireGateway }, []string{"pre_gateway_dispatch"}},
		{"FailClosedToo", func(e *Event) bool { return e.FailClosedToo }, []string{"pre_gateway_dispatch"}},
		{"FirstDecides", func(e *Event) bool { return e.FirstDecides }, []string{"pre_gateway_dispatch"}},
		// Every event a failing fail_closed guard blocks refuses something
		// a refusal can name.
		{"RefusesOwnWords", func(e *Event) bool { return e.Refuses != "" }, []string{"pre_gateway_dispatch"}},
		{"Gateway", func(e *Event) bool { return e.Gateway },
			[]string{"agent:end", "agent:start", "agent:step", "command:*", "gateway:startup", "session:end", "session:reset", "session:start"}},
		{"FamilyField", func(e *Event) bool { return e.FamilyField != "" }, []string{"command:*"}},
	} {
		if got := with(tc.of); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.rule, got, tc.want)
		}
	}
	// A stop event is one a block keeps going: it must be able to continue.
	for _, e := range Events() {
		if e.Stops && !e.Can(CapContinue) || e.gates && !e.Can(CapBlock) {
			t.Errorf("%s: rule without the capability", e.Name)
		}
	}
}
