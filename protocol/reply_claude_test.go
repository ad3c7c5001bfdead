package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// Claude Code reference (spec/claude-code-hooks.md): the §7.2 compatibility
// cases that concern reply parsing (named C01… by their §7.2 number), then
// the §4.1–§4.5 rules on stdout, exit codes, hookSpecificOutput and the
// legacy forms.

func deny(msg string) *Contribution { return &Contribution{Decision: DecisionBlock, Message: msg} }

var claudeCompatCases = []replyCase{
	{name: "C01_exit2_multiline_stderr_blocks_verbatim", event: "PreToolUse", exit: 2,
		stderr: "Dangerous command:\n  • rm -rf /\n  • use trash instead\n",
		want:   deny("Dangerous command:\n  • rm -rf /\n  • use trash instead")},
	{name: "C02_exit2_json_on_stderr_is_raw_reason", event: "PreToolUse", exit: 2,
		stderr: `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}`,
		want:   deny(`{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}`)},
	{name: "C03_exit0_empty_object_is_noop", event: "PreToolUse", stdout: "{}", want: nil, noteEmpty: true},
	{name: "C03_exit0_empty_object_noop_on_stop", event: "Stop", stdout: "{}\n", want: nil, noteEmpty: true},
	{name: "C04_continue_true_is_noop", event: "PreToolUse", stdout: `{"continue": true}`, want: nil, noteEmpty: true},
	{name: "C05_deny_without_reason_default_and_system_message", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"systemMessage":"rule X matched"}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "Blocked by hook", SystemMessage: "rule X matched"}},
	{name: "C06_hook_event_name_mismatch_ignored", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","additionalContext":"x"}}`,
		want:   nil, noteHas: `hookSpecificOutput.hookEventName "PreToolUse" does not match PostToolUse`},
	{name: "C06_hookify_pretooluse_keys_under_posttooluse_ignored", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"},"systemMessage":"warned"}`,
		want:   &Contribution{SystemMessage: "warned"}},
	{name: "C07_legacy_decision_approve_allows", event: "PreToolUse", stdout: `{"decision":"approve"}`,
		want: &Contribution{Decision: DecisionAllow}},
	{name: "C07_legacy_decision_block_denies", event: "PreToolUse", stdout: `{"decision":"block","reason":"not on main"}`,
		want: deny("not on main")},
	{name: "C07_empty_reason_is_noop", event: "PreToolUse", stdout: `{"reason": ""}`, want: nil},
	{name: "C08_stop_block_reason_is_the_continuation", event: "Stop",
		stdout:   `{"decision":"block","reason":"keep looping","systemMessage":"iteration 2"}`,
		want:     &Contribution{Decision: DecisionBlock, Message: "keep looping", SystemMessage: "iteration 2"},
		wantWire: `{"action":"continue","message":"keep looping"}`},
	// C09: a hook that never reads stdin (heredoc/echo) and exits 0 is a
	// success; only its stdout and exit status count.
	{name: "C09_never_reads_stdin_heredoc_context", event: "SessionStart",
		stdout: "{\n  \"hookSpecificOutput\": {\n    \"hookEventName\": \"SessionStart\",\n    \"additionalContext\": \"explanatory mode\"\n  }\n}\n",
		want:   &Contribution{Context: "explanatory mode"}, noteEmpty: true},
	{name: "C09_never_reads_stdin_silent_success", event: "PreToolUse", stdout: "", want: nil, noteEmpty: true},
	{name: "C10_plain_stdout_context_on_user_prompt_submit", event: "UserPromptSubmit",
		stdout: "Remember: tests first.\n", want: &Contribution{Context: "Remember: tests first."}},
	{name: "C10_plain_stdout_context_on_session_start", event: "SessionStart",
		stdout: "branch: main\nstatus: clean\n", want: &Contribution{Context: "branch: main\nstatus: clean"}},
	{name: "C10_plain_stdout_ignored_on_pre_tool_use", event: "PreToolUse", stdout: "hello", want: nil},
	{name: "C10_plain_stdout_ignored_on_stop", event: "Stop", stdout: "all done", want: nil},
	// Issue 13, item 3: a Stop or SubagentStop reply with only
	// additionalContext continues the turn with that context.
	{name: "stop_additional_context_only_continues", event: "Stop",
		stdout:   `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"the tests still fail"}}`,
		want:     deny("the tests still fail"),
		wantWire: `{"action":"continue","message":"the tests still fail"}`},
	{name: "subagent_stop_additional_context_only_continues", event: "SubagentStop",
		stdout: `{"hookSpecificOutput":{"hookEventName":"SubagentStop","additionalContext":"also lint"}}`,
		want:   deny("also lint")},
	{name: "stop_block_reason_wins_over_additional_context", event: "Stop",
		stdout: `{"decision":"block","reason":"keep going","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"ctx"}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "keep going", Context: "ctx"}},
	{name: "C10_plain_stdout_ignored_on_post_tool_use", event: "PostToolUse", stdout: "formatted", want: nil},
	{name: "C10_plain_stdout_not_context_on_exit1", event: "UserPromptSubmit", exit: 1, stdout: "ctx",
		want: nil, noteHas: "Failed with non-blocking status code"},
	{name: "C10_json_array_is_plain_text_context", event: "UserPromptSubmit", stdout: `["a"]`,
		want: &Contribution{Context: `["a"]`}},
	{name: "C14_two_json_objects_invalid", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}` + "\n" + `{"continue":true}`,
		want:   nil, noteHas: "not valid JSON"},
	{name: "C14_two_json_objects_not_context_either", event: "UserPromptSubmit",
		stdout: `{"continue":true}{"continue":true}`, want: nil, noteHas: "not valid JSON"},
}

var claudeRuleCases = []replyCase{
	// §4.2 exit codes.
	{name: "exit2_empty_stderr_default_reason", event: "PreToolUse", exit: 2,
		want: deny("No stderr output")},
	// Exit 2 with JSON: the JSON's own blocking reason, else stderr; a
	// block without a reason of its own takes stderr, not "Blocked by hook".
	{name: "exit2_json_block_without_reason_takes_stderr", event: "PreToolUse", exit: 2, stderr: "stderr reason",
		stdout: `{"decision":"block"}`, want: deny("stderr reason")},
	{name: "exit2_json_deny_without_reason_takes_stderr", event: "PreToolUse", exit: 2, stderr: "stderr reason",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, want: deny("stderr reason")},
	{name: "exit2_json_block_without_reason_on_stop", event: "Stop", exit: 2, stderr: "stderr reason",
		stdout: `{"decision":"block","systemMessage":"s"}`, want: &Contribution{Decision: DecisionBlock, Message: "stderr reason", SystemMessage: "s"}},
	{name: "exit2_json_block_without_reason_nor_stderr", event: "PreToolUse", exit: 2,
		stdout: `{"decision":"block"}`, want: deny("No stderr output")},
	{name: "exit2_json_block_reason_wins_over_stderr", event: "PreToolUse", exit: 2, stderr: "stderr reason",
		stdout: `{"decision":"block","reason":"json reason"}`, want: deny("json reason")},
	{name: "exit2_blocks_on_user_prompt_submit", event: "UserPromptSubmit", exit: 2, stderr: "prompt rejected",
		want: deny("prompt rejected")},
	{name: "exit2_blocks_on_stop", event: "Stop", exit: 2, stderr: "not yet", want: deny("not yet"),
		wantWire: `{"action":"continue","message":"not yet"}`},
	{name: "exit2_feedback_on_post_tool_use", event: "PostToolUse", exit: 2, stderr: "lint failed",
		want: deny("lint failed"), wantWire: `{"context":"lint failed"}`},
	{name: "exit2_json_reason_wins_over_stderr", event: "PreToolUse", exit: 2, stderr: "stderr reason",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json reason"}}`,
		want:   deny("json reason")},
	{name: "exit2_overrides_json_allow", event: "PreToolUse", exit: 2, stderr: "stderr reason",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine","additionalContext":"ctx"}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "stderr reason", Context: "ctx"}},
	{name: "exit2_with_invalid_json_still_blocks", event: "PreToolUse", exit: 2, stderr: "blocked",
		stdout: `{"decision": "maybe"}`, want: deny("blocked")},
	{name: "exit2_with_broken_json_still_blocks", event: "PreToolUse", exit: 2, stderr: "blocked",
		stdout: `{"decision": `, want: deny("blocked")},
	{name: "exit2_on_session_start_is_system_message_not_block", event: "SessionStart", exit: 2,
		stderr: "could not load context\n", want: &Contribution{SystemMessage: "could not load context"}},
	{name: "exit2_on_session_start_joins_json_system_message", event: "SessionStart", exit: 2,
		stdout: `{"systemMessage":"from json"}`, stderr: "from stderr",
		want: &Contribution{SystemMessage: "from json\nfrom stderr"}},
	{name: "exit2_on_session_start_empty_stderr_nothing", event: "SessionStart", exit: 2, want: nil},
	{name: "exit2_ignored_on_permission_request", event: "PermissionRequest", exit: 2, stderr: "no",
		want: nil, noteHas: "exit code 2 has no effect on PermissionRequest"},
	{name: "exit2_ignored_on_notification", event: "Notification", exit: 2, stderr: "no", want: nil,
		noteHas: "no effect on Notification"},
	{name: "exit1_json_honoured", event: "PreToolUse", exit: 1,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"via exit 1"}}`,
		want:   deny("via exit 1"), noteEmpty: true},
	{name: "exit1_plain_is_non_blocking_error", event: "PreToolUse", exit: 1, stderr: "oops\nsecond line",
		want: nil, noteHas: "non-blocking status code"},
	{name: "exit127_missing_script_fails_open", event: "PreToolUse", exit: 127, stderr: "sh: 1: ./guard.sh: not found",
		want: nil, noteHas: "./guard.sh: not found"},
	{name: "timeout_fails_open", event: "PreToolUse", timedOut: true, timeout: 600, want: nil, noteHas: "timed out after 600s"},
	{name: "spawn_error_fails_open", event: "PreToolUse", spawnErr: "fork: resource temporarily unavailable", want: nil},

	// §4.1 item 4: hookSpecificOutput needs the event's own hookEventName.
	{name: "hso_without_hook_event_name_ignored", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, want: nil,
		noteHas: "hookSpecificOutput without hookEventName ignored"},
	{name: "hso_hermes_name_is_not_the_claude_name", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"pre_tool_call","permissionDecision":"deny"}}`, want: nil,
		noteHas: "does not match PreToolUse"},
	{name: "hso_mismatch_keeps_top_level_fields", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny"},"systemMessage":"hi"}`,
		want:   &Contribution{SystemMessage: "hi"}, noteHas: "does not match"},
	// ... which a fail_closed guard's reply is not: its decision there was
	// not read (unless the reply refuses anyway).
	{name: "hso_without_hook_event_name_fail_closed", event: "PreToolUse", failClosed: true,
		stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "hook /hooks/guard.sh --strict failed closed: its reply's hookSpecificOutput has no hookEventName"}},
	{name: "hso_mismatch_fail_closed", event: "PreToolUse", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"allow"},"systemMessage":"hi"}`,
		want:   &Contribution{Decision: DecisionBlock, Message: `hook /hooks/guard.sh --strict failed closed: its reply's hookSpecificOutput.hookEventName "Stop" is not PreToolUse`}},
	{name: "hso_mismatch_fail_closed_top_level_block_kept", event: "PreToolUse", failClosed: true,
		stdout: `{"decision":"block","reason":"top","hookSpecificOutput":{"hookEventName":"Stop"}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "top"}},
	// Text where only JSON decides, under fail_closed: unparseable.
	{name: "fail_closed_banner_before_reply", event: "PreToolUse", failClosed: true,
		stdout: "Welcome\n" + `{"decision":"block","reason":"no"}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "hook /hooks/guard.sh --strict failed closed: unparseable stdout (expected a JSON object)"}},
	{name: "banner_before_reply_fail_open", event: "PreToolUse", stdout: "Welcome\n" + `{"decision":"block"}`, want: nil},
	// Text alone on exit 0 is a success in Claude Code, fail_closed or not.
	{name: "fail_closed_plain_text_is_success", event: "PreToolUse", failClosed: true, stdout: "checked: ok", want: nil},
	{name: "fail_closed_plain_context_still_context", event: "UserPromptSubmit", failClosed: true,
		stdout: "today is Friday", want: &Contribution{Context: "today is Friday"}},
	// PermissionRequest's decision.behavior is allow or deny (Claude Code's
	// schema): another value is a reply that fails validation.
	{name: "behavior_case_variant_fail_closed", event: "PermissionRequest", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"Deny"}}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: `hook /hooks/guard.sh --strict failed closed: its reply failed validation: hookSpecificOutput.decision.behavior must be "allow" or "deny"`}},
	// A reply that fails validation is no answer whatever the exit code
	// (but 2, which blocks by itself): exit 1 or 3 with it let a
	// fail_closed guard's call through (an attacker's re-read).
	{name: "invalid_reply_exit1_fail_closed", event: "PreToolUse", failClosed: true, exit: 1,
		stdout: `{"decision":"deny","reason":"rm -rf refused"}`,
		want:   &Contribution{Decision: DecisionBlock, Message: `hook /hooks/guard.sh --strict failed closed: its reply failed validation: decision must be "approve" or "block"`}},
	{name: "invalid_reply_exit3_fail_closed", event: "PreToolUse", failClosed: true, exit: 3,
		stdout: `{"continue":"false"}`, want: &Contribution{Decision: DecisionBlock, Message: "hook /hooks/guard.sh --strict failed closed: its reply failed validation: continue must be a boolean"}},
	{name: "invalid_reply_exit1_fail_open", event: "PreToolUse", exit: 1,
		stdout: `{"decision":"deny"}`, want: nil, noteHas: "failed validation"},
	{name: "behavior_case_variant", event: "PermissionRequest",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"Deny"}}}`,
		want:   nil, noteHas: "failed validation"},
	{name: "behavior_not_an_object_fail_closed", event: "PermissionRequest", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":"deny"}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: `hook /hooks/guard.sh --strict failed closed: its reply failed validation: hookSpecificOutput.decision.behavior must be "allow" or "deny"`}},
	{name: "hso_alias_fail_closed_read", event: "PreSkillShellCommand", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "r"}},

	// §4.4 PreToolUse permissionDecision.
	{name: "permission_decision_allow_with_reason", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe"}}`,
		want:   &Contribution{Decision: DecisionAllow, Message: "safe"}, wantWire: `{}`},
	{name: "permission_decision_deny_with_reason", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`,
		want:   deny("no rm"), wantWire: `{"action":"block","message":"no rm"}`},
	{name: "permission_decision_ask_with_reason", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touches .env"}}`,
		want:   &Contribution{Decision: DecisionAsk, Message: "touches .env"}, wantWire: `{"action":"approve","message":"touches .env"}`},
	{name: "permission_decision_defer_outranks_ask_and_allow", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"later"}}`,
		want:   &Contribution{Decision: DecisionDefer}, wantWire: `{}`},
	{name: "top_level_block_reason_wins_over_hso_allow_reason", event: "PreToolUse",
		stdout: `{"decision":"block","reason":"R","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"looks safe"}}`,
		want:   deny("R")},
	{name: "system_message_discarded_on_notification", event: "Notification",
		stdout: `{"systemMessage":"ignored here"}`,
		want:   nil, noteHas: "discarded"},
	{name: "permission_decision_deny_reason_falls_back_to_top_level_reason", event: "PreToolUse",
		stdout: `{"reason":"top","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
		want:   deny("top")},
	{name: "permission_decision_invalid_value_whole_json_ignored", event: "PreToolUse",
		stdout: `{"systemMessage":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block"}}`,
		want:   nil, noteHas: "failed validation"},
	{name: "updated_input_replaces_args", event: "PreToolUse",
		stdout:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`,
		want:     &Contribution{Decision: DecisionAllow, Args: map[string]any{"command": "ls -la"}, ReplaceArgs: true},
		wantWire: `{"action":"modify","args":{"command":"ls -la"}}`},
	{name: "updated_input_alone", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{}}}`,
		want:   &Contribution{Args: map[string]any{}, ReplaceArgs: true}},
	{name: "updated_input_not_object_whole_json_ignored", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","updatedInput":"rm"}}`,
		want:   nil, noteHas: "updatedInput must be an object"},
	{name: "additional_context_pre_tool_use", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"repo is read-only"}}`,
		want:   &Contribution{Context: "repo is read-only"}, wantWire: `{"context":"repo is read-only"}`},
	{name: "additional_context_user_prompt_submit", event: "UserPromptSubmit",
		stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"today is Friday"}}`,
		want:   &Contribution{Context: "today is Friday"}},
	{name: "additional_context_post_tool_use", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 lint warnings"}}`,
		want:   &Contribution{Context: "3 lint warnings"}},

	// §4.3 universal fields and §4.5 legacy top-level decision.
	{name: "top_level_decision_block_reason", event: "PreToolUse", stdout: `{"decision":"block","reason":"legacy"}`,
		want: deny("legacy")},
	{name: "top_level_decision_block_without_reason_default", event: "PreToolUse", stdout: `{"decision":"block"}`,
		want: deny("Blocked by hook")},
	{name: "top_level_decision_approve_reason", event: "PreToolUse", stdout: `{"decision":"approve","reason":"trusted"}`,
		want: &Contribution{Decision: DecisionAllow, Message: "trusted"}},
	{name: "top_level_block_and_hso_allow_most_restrictive", event: "PreToolUse",
		stdout: `{"decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		want:   deny("Blocked by hook")},
	{name: "top_level_approve_and_hso_deny_most_restrictive", event: "PreToolUse",
		stdout: `{"decision":"approve","reason":"r","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hso"}}`,
		want:   deny("hso")},
	{name: "top_level_approve_and_hso_ask_ask_wins", event: "PreToolUse",
		stdout: `{"decision":"approve","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`,
		want:   &Contribution{Decision: DecisionAsk}},
	{name: "top_level_decision_invalid_value_whole_json_ignored", event: "PreToolUse",
		stdout: `{"decision":"deny","systemMessage":"x"}`, want: nil, noteHas: `decision must be "approve" or "block"`},
	{name: "top_level_decision_block_no_effect_on_session_start", event: "SessionStart",
		stdout: `{"decision":"block","reason":"no"}`, want: nil, noteHas: `decision "block" has no effect on SessionStart`},
	{name: "continue_false_stop_reason", event: "PreToolUse", stdout: `{"continue":false,"stopReason":"budget exhausted"}`,
		want: &Contribution{Stop: true, StopReason: "budget exhausted"}},
	{name: "continue_false_without_reason", event: "Notification", stdout: `{"continue":false}`,
		want: &Contribution{Stop: true}},
	{name: "stop_reason_without_continue_false_ignored", event: "PreToolUse", stdout: `{"stopReason":"x"}`, want: nil},
	{name: "system_message", event: "PreToolUse", stdout: `{"systemMessage":"heads up"}`,
		want: &Contribution{SystemMessage: "heads up"}},
	{name: "flat_permission_decision_ignored", event: "PreToolUse", stdout: `{"permissionDecision":"deny"}`, want: nil},
	{name: "flat_additional_context_ignored", event: "UserPromptSubmit", stdout: `{"additionalContext":"x"}`, want: nil},
	{name: "stop_decision_block_reason", event: "Stop", stdout: `{"decision":"block","reason":"run the tests first"}`,
		want: deny("run the tests first"), wantWire: `{"action":"continue","message":"run the tests first"}`},
	{name: "subagent_stop_decision_block_reason", event: "SubagentStop", stdout: `{"decision":"block","reason":"finish"}`,
		want: deny("finish")},
	{name: "post_tool_use_decision_block_feedback", event: "PostToolUse",
		stdout: `{"decision":"block","reason":"file has lint errors"}`,
		want:   deny("file has lint errors"), wantWire: `{"context":"file has lint errors"}`},
	{name: "user_prompt_submit_decision_block", event: "UserPromptSubmit", stdout: `{"decision":"block","reason":"secret in prompt"}`,
		want: deny("secret in prompt")},
	{name: "wrong_types_continue_string_whole_json_ignored", event: "PreToolUse",
		stdout: `{"continue":"no","systemMessage":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
		want:   nil, noteHas: "continue must be a boolean"},
	{name: "wrong_types_system_message_number_ignored", event: "PreToolUse", stdout: `{"systemMessage":1,"decision":"block"}`,
		want: nil, noteHas: "systemMessage must be a string"},
	{name: "wrong_types_hso_not_object_ignored", event: "PreToolUse", stdout: `{"hookSpecificOutput":"deny"}`,
		want: nil, noteHas: "hookSpecificOutput must be an object"},
	{name: "wrong_types_not_context_on_user_prompt_submit", event: "UserPromptSubmit", stdout: `{"continue":"no"}`, want: nil},
	{name: "unknown_top_level_keys_ignored_unknown_hso_members_kept", event: "PreToolUse",
		stdout: `{"metrics":{"n":1},"rewakeSummary":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","extra":1}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "r", HookSpecific: map[string]any{"extra": json.Number("1")}}},
	// Issue 31, item 16: Claude Code 2.1.332's hookSpecificOutput members
	// hermes-hooks does not model are kept for the agent, as written.
	{name: "worktree_create_worktree_path_kept", event: "WorktreeCreate",
		stdout: `{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w/feature"}}`,
		want:   &Contribution{HookSpecific: map[string]any{"worktreePath": "/w/feature"}}},
	{name: "session_start_title_message_watch_paths_kept", event: "SessionStart",
		stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c","sessionTitle":"t","initialUserMessage":"go","watchPaths":["a","b"]}}`,
		want: &Contribution{Context: "c", HookSpecific: map[string]any{"sessionTitle": "t", "initialUserMessage": "go",
			"watchPaths": []any{"a", "b"}}}},
	{name: "prompt_suppress_original_kept", event: "UserPromptSubmit",
		stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","suppressOriginalPrompt":true,"sessionTitle":"t"}}`,
		want:   &Contribution{HookSpecific: map[string]any{"suppressOriginalPrompt": true, "sessionTitle": "t"}}},
	{name: "permission_denied_retry_kept", event: "PermissionDenied",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}`,
		want:   &Contribution{HookSpecific: map[string]any{"retry": true}}},
	{name: "another_events_hso_members_not_kept", event: "SessionStart",
		stdout: `{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w"}}`,
		want:   nil, noteHas: "does not match SessionStart"},
	{name: "broken_json_object_not_plain_context", event: "UserPromptSubmit", stdout: `{not json`, want: nil,
		noteHas: "looks like a JSON object but is not valid JSON"},
	{name: "updated_tool_output_replaces_result", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"redacted"}}`,
		want:   &Contribution{Result: ptr("redacted")}, wantWire: `{"result":"redacted"}`},
	// A value that is not a string: the text hosts that take text get,
	// and the value itself for the agents that read Claude Code's shape.
	{name: "updated_tool_output_object_kept_as_written", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"ok","n":1}}}`,
		want: &Contribution{Result: ptr(`{"n":1,"stdout":"ok"}`),
			HookSpecific: map[string]any{"updatedToolOutput": map[string]any{"stdout": "ok", "n": json.Number("1")}}}},
	{name: "updated_mcp_tool_output_array_kept_under_its_name", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[{"type":"text","text":"x"}]}}`,
		want: &Contribution{Result: ptr(`[{"text":"x","type":"text"}]`),
			HookSpecific: map[string]any{"updatedMCPToolOutput": []any{map[string]any{"type": "text", "text": "x"}}}}},
	{name: "updated_mcp_tool_output_string_kept_under_its_name", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"redacted"}}`,
		want:   &Contribution{Result: ptr("redacted"), HookSpecific: map[string]any{"updatedMCPToolOutput": "redacted"}}},
	{name: "updated_tool_output_wins_over_the_legacy_name", event: "PostToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"new","updatedMCPToolOutput":"old"}}`,
		want:   &Contribution{Result: ptr("new")}},
	// The members of PermissionRequest's decision beside behavior, message
	// and updatedInput reach the agent as written.
	{name: "permission_request_deny_interrupt_kept", event: "PermissionRequest",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope","interrupt":true}}}`,
		want:   &Contribution{Decision: DecisionBlock, Message: "nope", HookSpecific: map[string]any{"decision": map[string]any{"interrupt": true}}}},
	{name: "permission_request_allow_updated_permissions_kept", event: "PermissionRequest",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"x":"y"},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}`,
		want: &Contribution{Decision: DecisionAllow, Args: map[string]any{"x": "y"}, ReplaceArgs: true,
			HookSpecific: map[string]any{"decision": map[string]any{"updatedPermissions": []any{
				map[string]any{"type": "setMode", "mode": "acceptEdits", "destination": "session"}}}}}},
	// terminalSequence (§4.3) is Claude Code's to emit: kept as written.
	{name: "terminal_sequence_kept", event: "Notification", stdout: `{"terminalSequence":"\u001b]9;done\u0007"}`,
		want: &Contribution{TerminalSequence: "\x1b]9;done\x07"}},
	{name: "terminal_sequence_not_a_string_whole_json_ignored", event: "Notification", stdout: `{"terminalSequence":7}`,
		want: nil, noteHas: "terminalSequence must be a string"},
	// WorktreeCreate (§4.2, §4.4): the hook prints the path, and any
	// non-zero exit fails the creation.
	{name: "worktree_create_plain_stdout_is_the_path", event: "WorktreeCreate", stdout: "/w/feature\n",
		want: &Contribution{Result: ptr("/w/feature")}},
	{name: "worktree_create_exit1_fails", event: "WorktreeCreate", exit: 1, stderr: "cannot create\n",
		want: deny("cannot create")},
	{name: "worktree_create_exit2_fails", event: "WorktreeCreate", exit: 2, stderr: "cannot create", stdout: "/w/feature",
		want: deny("cannot create")},
	{name: "worktree_create_exit3_without_stderr_fails", event: "WorktreeCreate", exit: 3,
		want: deny("No stderr output")},
	{name: "worktree_create_signal_fails", event: "WorktreeCreate", exit: -9,
		want: deny("No stderr output")},
	{name: "permission_request_allow_updated_input", event: "PermissionRequest",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"x":"y"}}}}`,
		want:   &Contribution{Decision: DecisionAllow, Args: map[string]any{"x": "y"}, ReplaceArgs: true}},
	{name: "permission_request_deny_message", event: "PermissionRequest",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope"}}}`,
		want:   deny("nope")},

	// fail-closed entries (Claude onFailure: "block", §8/§9 item 9).
	{name: "fail_closed_spawn_error_blocks", event: "PreToolUse", failClosed: true, spawnErr: "permission denied",
		want: deny("hook /hooks/guard.sh --strict failed closed: permission denied")},
	{name: "fail_closed_timeout_blocks", event: "PreToolUse", failClosed: true, timedOut: true, timeout: 1.5,
		want: deny("hook /hooks/guard.sh --strict failed closed: timed out after 1.5s")},
	{name: "fail_closed_exit1_plain_blocks", event: "PreToolUse", failClosed: true, exit: 1,
		want: deny("hook /hooks/guard.sh --strict failed closed: exited with status 1")},
	{name: "fail_closed_broken_json_blocks", event: "PreToolUse", failClosed: true, stdout: `{"decision":`,
		want: deny("hook /hooks/guard.sh --strict failed closed: unparseable stdout (expected a JSON object)")},
	{name: "fail_closed_exit1_valid_json_decides", event: "PreToolUse", failClosed: true, exit: 1, stdout: `{}`, want: nil},
	{name: "fail_closed_exit0_silent_passes", event: "PreToolUse", failClosed: true, want: nil},
	{name: "fail_closed_exit2_uses_stderr", event: "PreToolUse", failClosed: true, exit: 2, stderr: "policy",
		want: deny("policy")},
	// JSON that fails Claude Code's validation is no reply: a guard's
	// failure, not an allow (issue 31, the matrix's invalid-reply row).
	{name: "fail_closed_invalid_reply_blocks", event: "PreToolUse", failClosed: true, stdout: `{"decision": 5}`,
		want: deny(`hook /hooks/guard.sh --strict failed closed: its reply failed validation: decision must be "approve" or "block"`)},
	{name: "fail_closed_invalid_hso_blocks", event: "PreToolUse", failClosed: true, stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": 7}}`,
		want: deny("hook /hooks/guard.sh --strict failed closed: its reply failed validation: permissionDecision must be allow, deny, ask or defer")},
	{name: "invalid_reply_without_fail_closed_passes", event: "PreToolUse", stdout: `{"decision": 5}`, want: nil},
}

func TestClaudeReplyCompatibilityCases(t *testing.T) {
	for _, tc := range claudeCompatCases {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Claude, tc) })
	}
}

func TestClaudeReplyRules(t *testing.T) {
	for _, tc := range claudeRuleCases {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Claude, tc) })
	}
}

// The §7.2 numbers the brief requires must all have a row.
func TestClaudeCompatCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range claudeCompatCases {
		seen[tc.name[:3]] = true
	}
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 9, 10, 14} {
		if k := "C" + twoDigits(n); !seen[k] {
			t.Errorf("§7.2 case %s has no table row", k)
		}
	}
}

// The Claude name or the canonical name of the event give the same result:
// a reply is read against the event, not against the name it was fired as.
func TestClaudeReplySameForAnyEventName(t *testing.T) {
	stdout := []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`)
	for _, name := range []string{"PreToolUse", "pre_tool_call", "intercept_tool_call"} {
		c, _ := ParseReply(Reply{Dialect: Claude, Event: ev(name), Stdout: stdout})
		if c == nil || c.Decision != DecisionBlock || c.Message != "x" {
			t.Errorf("event %s: got %s, want deny x", name, contribString(c))
		}
	}
}

// Exit 2 blocks (or feeds back) exactly on the events §4.2 lists, shows
// stderr to the user on the session events, and is ignored elsewhere.
func TestClaudeExit2PerEvent(t *testing.T) {
	blocks := []string{"PreToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "PostToolUse", "PostToolUseFailure",
		"PreCompact", "TaskCreated", "TaskCompleted", "TeammateIdle", "ConfigChange", "Elicitation",
		"ElicitationResult", "UserPromptExpansion", "PostToolBatch"}
	user := []string{"SessionStart", "Setup", "SubagentStart", "SessionEnd", "CwdChanged", "FileChanged", "PostCompact"}
	ignored := []string{"PermissionRequest", "Notification", "PermissionDenied", "StopFailure", "InstructionsLoaded"}
	for _, name := range blocks {
		c, _ := ParseReply(Reply{Dialect: Claude, Event: ev(name), ExitCode: 2, Stderr: []byte("why")})
		if c == nil || c.Decision != DecisionBlock || c.Message != "why" {
			t.Errorf("%s exit 2: got %s, want block \"why\"", name, contribString(c))
		}
	}
	for _, name := range user {
		c, _ := ParseReply(Reply{Dialect: Claude, Event: ev(name), ExitCode: 2, Stderr: []byte("why")})
		if c == nil || c.Decision != "" || c.SystemMessage != "why" {
			t.Errorf("%s exit 2: got %s, want system message \"why\" and no decision", name, contribString(c))
		}
	}
	for _, name := range ignored {
		c, note := ParseReply(Reply{Dialect: Claude, Event: ev(name), ExitCode: 2, Stderr: []byte("why")})
		if c != nil || !strings.Contains(note, "no effect") {
			t.Errorf("%s exit 2: got %s (note %q), want nothing and a note", name, contribString(c), note)
		}
	}
}

// Plain stdout becomes context only on UserPromptSubmit, UserPromptExpansion
// and SessionStart with exit 0 (§4.2 table, first row).
func TestClaudePlainStdoutContextOnlyOnThreeEvents(t *testing.T) {
	for _, e := range Events() {
		c, _ := ParseReply(Reply{Dialect: Claude, Event: e, Stdout: []byte("plain words")})
		want := e.Name == "pre_llm_call" || e.Name == "on_session_start" || e.Name == "UserPromptExpansion"
		if got := c != nil && c.Context == "plain words"; got != want {
			t.Errorf("%s: plain stdout context = %v, want %v", e.ClaudeName(), got, want)
		}
	}
}

// §4.2: a non-blocking error reports the exit status and only the first
// stderr line.
func TestClaudeNonBlockingErrorNoteFirstStderrLine(t *testing.T) {
	c, note := ParseReply(Reply{Dialect: Claude, Event: ev("PreToolUse"), ExitCode: 1, Stderr: []byte("oops\nsecond line\n")})
	if c != nil {
		t.Fatalf("exit 1 without JSON contributed %s", contribString(c))
	}
	if !strings.Contains(note, "Failed with non-blocking status code") || !strings.Contains(note, "1") ||
		!strings.Contains(note, "oops") || strings.Contains(note, "second line") {
		t.Fatalf("note = %q, want the status code and only the first stderr line", note)
	}
}

// Claude reference §4.1 item 1: stdout is trimmed (JavaScript's trim, which
// also removes U+FEFF) before the "starts with {" test. A hook whose
// stdout begins with a UTF-8 byte-order mark (common from Windows
// PowerShell) is read as JSON by Claude Code.
func TestClaudeStdoutTrimmedLikeJavaScript(t *testing.T) {
	stdout := "\uFEFF" + `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"bom"}}` + "\r\n"
	c, note := ParseReply(Reply{Dialect: Claude, Event: ev("PreToolUse"), Stdout: []byte(stdout)})
	if c == nil || c.Decision != DecisionBlock || c.Message != "bom" {
		t.Fatalf("regression: Claude stdout is trimmed with strings.TrimSpace, which keeps a leading U+FEFF, so a BOM-prefixed deny is ignored (Claude ref §4.1 item 1, JS trim): got %s, note %q", contribString(c), note)
	}
	// Other JavaScript white space around the JSON is trimmed as well.
	c, _ = ParseReply(Reply{Dialect: Claude, Event: ev("PreToolUse"), Stdout: []byte("\u00a0\u2028" + `{"decision":"block","reason":"ws"}` + "\u3000")})
	if c == nil || c.Message != "ws" {
		t.Errorf("Unicode white space around the JSON: got %s", contribString(c))
	}
}

// Claude reference §4.2: since ~v2.1.2xx an exit 2 from Stop, SubagentStop,
// TaskCompleted or TeammateIdle with empty stdout and "No such file" /
// "can't open" on stderr (a missing script run as `sh script.sh`) is
// downgraded to a non-blocking error, so a typo cannot wedge the agent.
func TestClaudeExit2MissingScriptOnStopEventsIsNonBlocking(t *testing.T) {
	stderrs := []string{"sh: 0: cannot open /home/u/.claude/hooks/stop.sh: No such file", "sh: 0: can't open stop.sh"}
	var bugs []string
	for _, name := range []string{"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"} {
		for _, stderr := range stderrs {
			c, _ := ParseReply(Reply{Dialect: Claude, Event: ev(name), ExitCode: 2, Stderr: []byte(stderr)})
			if c != nil && c.Decision == DecisionBlock {
				bugs = append(bugs, name)
				break
			}
		}
	}
	// The special case is limited to those events and to empty stdout.
	c, _ := ParseReply(Reply{Dialect: Claude, Event: ev("PreToolUse"), ExitCode: 2, Stderr: []byte(stderrs[0])})
	if c == nil || c.Decision != DecisionBlock {
		t.Errorf("PreToolUse exit 2 must still block: %s", contribString(c))
	}
	c, _ = ParseReply(Reply{Dialect: Claude, Event: ev("Stop"), ExitCode: 2, Stdout: []byte("{}"), Stderr: []byte("No such file")})
	if c == nil || c.Decision != DecisionBlock {
		t.Errorf("Stop exit 2 with stdout must still block: %s", contribString(c))
	}
	if len(bugs) > 0 {
		t.Fatalf("regression: exit 2 + empty stdout + \"No such file\"/\"can't open\" stderr still blocks on %v (Claude ref §4.2 downgrades it to non-blocking)", bugs)
	}
}

// PreModelSwitch answers like PreToolUse (issue 13, item 6: the newer
// events); its matcher is compared with the model switched to.
func TestClaudePreModelSwitch(t *testing.T) {
	c, _ := ParseReply(Reply{Dialect: Claude, Event: ev("PreModelSwitch"),
		Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"stay on the cheap model"}}`)})
	if c == nil || c.Decision != DecisionBlock || c.Message != "stay on the cheap model" {
		t.Fatalf("%s", contribString(c))
	}
	q, ok := ClaudeMatchQuery(ev("PreModelSwitch"), map[string]any{"to_model": "claude-opus-4"}, DefaultTools())
	if !ok || q != "claude-opus-4" {
		t.Fatalf("match query %q %v", q, ok)
	}
	c, _ = ParseReply(Reply{Dialect: Claude, Event: ev("PostModelSwitch"),
		Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PostModelSwitch","additionalContext":"now on opus"}}`)})
	if c == nil || c.Context != "now on opus" {
		t.Fatalf("%s", contribString(c))
	}
}

// PreSkillShellCommand (Claude Code 2.1.332, its reply rules TWn in the
// shipped binary): deny blocks; ask and defer block with Claude's reason
// appended; an updatedInput blocks unless the reply already does; allow
// adds nothing; a PreToolUse-shaped hookSpecificOutput is read too;
// additionalContext is not among its fields.
func TestClaudePreSkillShellCommand(t *testing.T) {
	for _, tc := range []struct {
		name, stdout string
		exit         int
		want         Decision
		msg          string
		ctx          string
	}{
		{"deny", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no curl"}}`, 0, DecisionBlock, "no curl", ""},
		{"deny, top-level reason", `{"reason":"top","hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny"}}`, 0, DecisionBlock, "top", ""},
		{"ask", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, 0, DecisionBlock, "sure?; " + AskRefusedReason, ""},
		{"ask without reason", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask"}}`, 0, DecisionBlock, AskRefusedReason, ""},
		{"defer", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"defer"}}`, 0, DecisionBlock, AskRefusedReason, ""},
		{"allow", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow"}}`, 0, DecisionAllow, "", ""},
		{"updatedInput", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","updatedInput":{"command":"ls"}}}`, 0, DecisionBlock, InputChangeRefusedReason, ""},
		{"allow with updatedInput", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow","updatedInput":{}}}`, 0, DecisionBlock, InputChangeRefusedReason, ""},
		{"deny with updatedInput keeps its reason", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no","updatedInput":{}}}`, 0, DecisionBlock, "no", ""},
		{"top block with updatedInput keeps its reason", `{"decision":"block","reason":"top","hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","updatedInput":{}}}`, 0, DecisionBlock, "top", ""},
		{"PreToolUse-shaped", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"old hook"}}`, 0, DecisionBlock, "old hook", ""},
		{"other event's shape ignored", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}`, 0, "", "", ""},
		{"context is not a field here", `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","additionalContext":"x"}}`, 0, "", "", ""},
		{"exit 2 blocks", ``, 2, DecisionBlock, "stderr says no", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Reply{Dialect: Claude, Event: ev("PreSkillShellCommand"), ExitCode: tc.exit, Stdout: []byte(tc.stdout)}
			if tc.exit == 2 {
				r.Stderr = []byte("stderr says no")
			}
			c, _ := ParseReply(r)
			var got Decision
			var msg, ctx string
			if c != nil {
				got, msg, ctx = c.Decision, c.Message, c.Context
			}
			if got != tc.want || msg != tc.msg || ctx != tc.ctx {
				t.Fatalf("got %q %q ctx %q, want %q %q ctx %q", got, msg, ctx, tc.want, tc.msg, tc.ctx)
			}
			if c != nil && c.Args != nil {
				t.Fatalf("updatedInput applied: %v", c.Args)
			}
		})
	}
}
