package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Hermes reference (spec/hermes-shell-hooks.md) §6 checklist section A
// (response parsing, 1–18) and section H (result evaluation, 69–83), plus
// the §2.4/§2.5 rules they exercise. Every case is named after its checklist
// number.

func block(msg string) *Contribution { return &Contribution{Decision: DecisionBlock, Message: msg} }

var hermesSectionA = []replyCase{
	{name: "A01_decision_block_reason", event: "pre_tool_call",
		stdout: `{"decision":"block","reason":"nope"}`,
		want:   block("nope"), wantWire: `{"action":"block","message":"nope"}`},
	{name: "A02_action_block_message", event: "pre_tool_call",
		stdout: `{"action":"block","message":"nope"}`,
		want:   block("nope"), wantWire: `{"action":"block","message":"nope"}`},
	{name: "A03_action_message_wins_over_decision_reason", event: "pre_tool_call",
		stdout: `{"action":"block","message":"canonical","decision":"block","reason":"claude"}`,
		want:   block("canonical"), wantWire: `{"action":"block","message":"canonical"}`},
	{name: "A04_empty_stdout", event: "pre_tool_call", stdout: "", want: nil, wantWire: `{}`, noteEmpty: true},
	{name: "A04_blank_stdout", event: "pre_tool_call", stdout: "   ", want: nil, wantWire: `{}`, noteEmpty: true},
	{name: "A05_not_json", event: "pre_tool_call", stdout: "not json", want: nil, wantWire: `{}`,
		noteHas: "shell hook stdout was not valid JSON (event=pre_tool_call): not json"},
	{name: "A06_json_array", event: "pre_tool_call", stdout: "[1, 2]", want: nil, wantWire: `{}`},
	{name: "A07_decision_allow", event: "pre_tool_call", stdout: `{"decision":"allow"}`, want: nil, wantWire: `{}`},
	{name: "A08_pre_llm_call_context", event: "pre_llm_call", stdout: `{"context":"today is Friday"}`,
		want: &Contribution{Context: "today is Friday"}, wantWire: `{"context":"today is Friday"}`},
	{name: "A09_subagent_stop_context", event: "subagent_stop", stdout: `{"context":"child role=leaf"}`,
		want: &Contribution{Context: "child role=leaf"}, wantWire: `{"context":"child role=leaf"}`},
	{name: "A10_pre_llm_call_block_ignored", event: "pre_llm_call", stdout: `{"decision":"block","reason":"no"}`,
		want: nil, wantWire: `{}`},
	{name: "A11_pre_verify_action_continue", event: "pre_verify", stdout: `{"action":"continue","message":"run checks"}`,
		want: block("run checks"), wantWire: `{"action":"continue","message":"run checks"}`},
	{name: "A12_pre_verify_decision_block_reason", event: "pre_verify", stdout: `{"decision":"block","reason":"run the formatter"}`,
		want: block("run the formatter"), wantWire: `{"action":"continue","message":"run the formatter"}`},
	{name: "A13_pre_verify_continue_without_message", event: "pre_verify", stdout: `{"action":"continue"}`, want: nil, wantWire: `{}`},
	{name: "A13_pre_verify_decision_allow", event: "pre_verify", stdout: `{"decision":"allow"}`, want: nil, wantWire: `{}`},
	{name: "A14_action_block_without_message", event: "pre_tool_call", stdout: `{"action":"block"}`,
		want: block("Blocked by shell hook."), wantWire: `{"action":"block","message":"Blocked by shell hook."}`},
	{name: "A15_decision_block_without_reason", event: "pre_tool_call", stdout: `{"decision":"block"}`,
		want: block("Blocked by shell hook.")},
	{name: "A16_action_block_empty_message", event: "pre_tool_call", stdout: `{"action":"block","message":""}`,
		want: block("Blocked by shell hook.")},
	{name: "A17_action_block_non_string_message", event: "pre_tool_call", stdout: `{"action":"block","message":42}`,
		want: block("Blocked by shell hook.")},
	// §2.4 "primary or secondary" quirk: a truthy non-string primary hides a
	// good secondary.
	{name: "A17_truthy_non_string_message_hides_reason", event: "pre_tool_call",
		stdout: `{"action":"block","message":42,"reason":"good reason"}`, want: block("Blocked by shell hook.")},
	{name: "A18_approve_trimmed", event: "pre_tool_call", stdout: `{"action":"approve","message":"  why ","rule_key":"k"}`,
		want:     &Contribution{Decision: DecisionAsk, Message: "why", RuleKey: "k"},
		wantWire: `{"action":"approve","message":"why","rule_key":"k"}`},
	{name: "A18_decision_approve_not_mapped", event: "pre_tool_call", stdout: `{"decision":"approve"}`, want: nil, wantWire: `{}`},

	// Further §2.4 rules around the checklist.
	{name: "A_s24_falsy_message_falls_back_to_reason", event: "pre_tool_call",
		stdout: `{"action":"block","message":0,"reason":"from reason"}`, want: block("from reason")},
	{name: "A_s24_decision_block_prefers_reason", event: "pre_tool_call",
		stdout: `{"decision":"block","reason":"r","message":"m"}`, want: block("r")},
	{name: "A_s24_block_message_not_trimmed", event: "pre_tool_call",
		stdout: `{"action":"block","message":"  spaced  "}`, want: block("  spaced  ")},
	{name: "A_s24_verbs_case_sensitive_on_pre_tool_call", event: "pre_tool_call",
		stdout: `{"action":"Block","message":"x"}`, want: nil},
	{name: "A_s24_action_modify_args", event: "pre_tool_call",
		stdout: `{"action":"modify","args":{"path":"/safe"}}`,
		want:   &Contribution{Args: map[string]any{"path": "/safe"}}, wantWire: `{"action":"modify","args":{"path":"/safe"}}`},
	{name: "A_s24_decision_modify_tool_input", event: "pre_tool_call",
		stdout:   `{"decision":"modify","tool_input":{"content":"safe","n":1}}`,
		want:     &Contribution{Args: map[string]any{"content": "safe", "n": json.Number("1")}},
		wantWire: `{"action":"modify","args":{"content":"safe","n":1}}`},
	{name: "A_s24_modify_with_non_mapping_args_ignored", event: "pre_tool_call",
		stdout: `{"action":"modify","args":"not a dict"}`, want: nil},
	{name: "A_s24_action_modify_bad_args_falls_to_decision_modify", event: "pre_tool_call",
		stdout: `{"action":"modify","args":[1],"decision":"modify","tool_input":{"a":"b"}}`,
		want:   &Contribution{Args: map[string]any{"a": "b"}}},
	{name: "A_s24_block_beats_modify_in_one_reply", event: "pre_tool_call",
		stdout: `{"decision":"block","reason":"no","action":"modify","args":{"a":"b"}}`, want: block("no")},
	{name: "A_s24_approve_blank_strings_dropped", event: "pre_tool_call",
		stdout: `{"action":"approve","message":"   ","rule_key":7}`,
		want:   &Contribution{Decision: DecisionAsk}, wantWire: `{"action":"approve"}`},
	{name: "A_s24_context_ignored_on_pre_tool_call", event: "pre_tool_call",
		stdout: `{"context":"x"}`, want: nil},
	{name: "A_s24_context_untrimmed", event: "post_tool_call",
		stdout: `{"context":"  keep spaces \n"}`, want: &Contribution{Context: "  keep spaces \n"}},
	{name: "A_s24_blank_context_nothing", event: "pre_llm_call", stdout: `{"context":"  \t"}`, want: nil},
	{name: "A_s24_non_string_context_nothing", event: "pre_llm_call", stdout: `{"context":42}`, want: nil},
	{name: "A_s24_block_on_post_tool_call_ignored", event: "post_tool_call",
		stdout: `{"action":"block","message":"no"}`, want: nil},
	{name: "A_s24_pre_verify_verb_lowercased_and_trimmed", event: "pre_verify",
		stdout: `{"action":"  CONTINUE ","message":"  again  "}`, want: block("again")},
	{name: "A_s24_pre_verify_falsy_action_uses_decision", event: "pre_verify",
		stdout: `{"action":"","decision":"block","message":"","reason":"fix it"}`, want: block("fix it")},
	{name: "A_s24_pre_verify_blank_message_nothing", event: "pre_verify",
		stdout: `{"action":"continue","message":"   "}`, want: nil},
	{name: "A_s24_pre_verify_non_string_message_nothing", event: "pre_verify",
		stdout: `{"action":"continue","message":["x"]}`, want: nil},
	{name: "A_s24_stdout_surrounding_whitespace_stripped", event: "pre_tool_call",
		stdout: "\n\t {\"action\":\"block\",\"message\":\"ws\"}  \n", want: block("ws")},
	{name: "A_s24_trailing_garbage_invalid", event: "pre_tool_call",
		stdout: `{"action":"block","message":"a"} {"x":1}`, want: nil, noteHas: "not valid JSON"},
	// json.loads reads NaN and the infinities (Python's json.dumps writes
	// them): a reply holding one is a reply, its block a block.
	{name: "A_s24_nan_in_reply_is_read", event: "pre_tool_call",
		stdout: `{"decision":"block","reason":"risky","score":NaN}`, want: block("risky")},
	{name: "A_s24_infinities_in_reply_are_read", event: "pre_tool_call",
		stdout: `{"action":"block","message":"m","hi":Infinity,"lo":[-Infinity]}`, want: block("m")},
	{name: "A_s24_nan_in_a_string_only_still_invalid", event: "pre_tool_call",
		stdout: `{"action":"block","message":"m"} NaN`, want: nil, noteHas: "not valid JSON"},
	{name: "A_s24_invalid_json_note_cut_to_200", event: "pre_llm_call",
		stdout: "x" + strings.Repeat("y", 300), want: nil,
		noteHas: "(event=pre_llm_call): x" + strings.Repeat("y", 199)},
}

var hermesSectionH = []replyCase{
	{name: "H69_exit2_stderr_blocks", event: "pre_tool_call", exit: 2, stderr: "policy violation\n",
		want: block("policy violation"), wantWire: `{"action":"block","message":"policy violation"}`},
	{name: "H70_exit2_no_output_default_message", event: "pre_tool_call", exit: 2,
		want: block("Blocked by shell hook.")},
	{name: "H71_exit2_stdout_block_wins_over_stderr", event: "pre_tool_call", exit: 2,
		stdout: `{"action":"block","message":"from stdout"}`, stderr: "from stderr", want: block("from stdout")},
	{name: "H72_exit2_on_session_start_nothing", event: "on_session_start", exit: 2, stderr: "boom", want: nil},
	{name: "H73_exit1_stdout_block", event: "pre_tool_call", exit: 1,
		stdout: `{"action":"block","message":"nope"}`, want: block("nope"), noteHas: "exited with status 1"},
	{name: "H74_exit1_stderr_only_nothing", event: "pre_tool_call", exit: 1, stderr: "oops", want: nil,
		noteHas: "hook exited with status 1"},
	{name: "H75_spawn_error_fail_open", event: "pre_tool_call", spawnErr: "No such file or directory",
		want: nil, noteHas: "No such file"},
	{name: "H76_spawn_error_fail_closed", event: "pre_tool_call", spawnErr: "No such file or directory", failClosed: true,
		want:     block("hook /hooks/guard.sh --strict failed closed: No such file or directory"),
		wantWire: `{"action":"block","message":"hook /hooks/guard.sh --strict failed closed: No such file or directory"}`},
	{name: "H77_timeout_fail_open", event: "pre_tool_call", timedOut: true, timeout: 60, want: nil,
		noteHas: "timed out after 60s"},
	{name: "H78_timeout_fail_closed", event: "pre_tool_call", timedOut: true, timeout: 60, failClosed: true,
		want: block("hook /hooks/guard.sh --strict failed closed: timed out after 60s")},
	{name: "H79_fail_closed_unparseable_stdout", event: "pre_tool_call", failClosed: true, exit: 1,
		stdout: "Traceback (most recent call last): ...",
		want:   block("hook /hooks/guard.sh --strict failed closed: unparseable stdout (expected a JSON object)")},
	{name: "H79_fail_closed_unparseable_stdout_exit0", event: "pre_tool_call", failClosed: true,
		stdout: "Traceback (most recent call last): ...",
		want:   block("hook /hooks/guard.sh --strict failed closed: unparseable stdout (expected a JSON object)")},
	{name: "H79_fail_closed_json_not_an_object", event: "pre_tool_call", failClosed: true, stdout: "[1, 2]",
		want: block("hook /hooks/guard.sh --strict failed closed: unparseable stdout (expected a JSON object)")},
	{name: "H80_unparseable_stdout_fail_open", event: "pre_tool_call", exit: 1,
		stdout: "Traceback (most recent call last): ...", want: nil},
	{name: "H81_fail_closed_empty_object", event: "pre_tool_call", failClosed: true, stdout: "{}", want: nil},
	{name: "H81_fail_closed_object_without_directive", event: "pre_tool_call", failClosed: true,
		stdout: `{"decision":"allow"}`, want: nil},
	{name: "H81_fail_closed_empty_object_nonzero_exit", event: "pre_tool_call", failClosed: true, exit: 1,
		stdout: "{}", want: nil},
	{name: "H82_fail_closed_empty_stdout", event: "pre_tool_call", failClosed: true, stdout: "", want: nil},
	{name: "H83_fail_closed_on_session_start_spawn_error", event: "on_session_start", failClosed: true,
		spawnErr: "No such file or directory", want: nil},
	{name: "H83_fail_closed_on_session_start_timeout", event: "on_session_start", failClosed: true,
		timedOut: true, timeout: 5, want: nil},
	{name: "H83_fail_closed_on_post_tool_call_unparseable", event: "post_tool_call", failClosed: true,
		stdout: "garbage", want: nil},

	// §2.5 step 2: a modify on stdout with exit 2 is ignored; the call is blocked.
	{name: "H_s25_exit2_beats_modify", event: "pre_tool_call", exit: 2,
		stdout: `{"action":"modify","args":{"a":"b"}}`, stderr: "no rewrite for you", want: block("no rewrite for you")},
	{name: "H_s25_exit2_beats_approve", event: "pre_tool_call", exit: 2,
		stdout: `{"action":"approve","message":"ask"}`, want: block("Blocked by shell hook.")},
	{name: "H_s25_exit2_blank_stderr_default", event: "pre_tool_call", exit: 2, stderr: " \n\t\n",
		want: block("Blocked by shell hook.")},
	{name: "H_s25_exit2_stderr_stripped", event: "pre_tool_call", exit: 2, stderr: "\n  multi\nline  \n",
		want: block("multi\nline")},
	{name: "H_s25_exit2_under_fail_closed_uses_stderr", event: "pre_tool_call", exit: 2, failClosed: true,
		stderr: "policy", want: block("policy")},
	// §2.5 step 3: exit 2 on a non-blocking event parses stdout normally.
	{name: "H_s25_exit2_on_pre_llm_call_context_kept", event: "pre_llm_call", exit: 2,
		stdout: `{"context":"still here"}`, want: &Contribution{Context: "still here"}, noteHas: "exited with status 2"},
	{name: "H_s25_exit2_on_pre_verify_parsed_normally", event: "pre_verify", exit: 2, stderr: "ignored",
		stdout: `{"action":"continue","message":"go on"}`, want: block("go on")},
	{name: "H_s25_exit1_modify_kept", event: "pre_tool_call", exit: 1,
		stdout: `{"action":"modify","args":{"a":"b"}}`, want: &Contribution{Args: map[string]any{"a": "b"}}},

	// Our deliberate fix of Hermes' open bug #102405 (§2.5 step 4, §7 #21;
	// DESIGN §4.2): a fail_closed guard that crashes with empty stdout
	// blocks; the fail-open twin still contributes nothing.
	{name: "H_fix102405_fail_closed_nonzero_exit_empty_stdout_blocks", event: "pre_tool_call", failClosed: true, exit: 1,
		want: block("hook /hooks/guard.sh --strict failed closed: exited with status 1 and printed nothing")},
	{name: "H_fix102405_fail_closed_blank_stdout_blocks", event: "pre_tool_call", failClosed: true, exit: 3,
		stdout: " \n", stderr: "segfault",
		want: block("hook /hooks/guard.sh --strict failed closed: exited with status 3 and printed nothing: segfault")},
	{name: "H_fix102405_fail_closed_signal_empty_stdout_blocks", event: "pre_tool_call", failClosed: true, exit: -9,
		want: block("hook /hooks/guard.sh --strict failed closed: was killed by signal 9 and printed nothing")},
	{name: "H_fix102405_fail_open_nonzero_exit_empty_stdout_nothing", event: "pre_tool_call", exit: 1, want: nil},
	{name: "H_fix102405_fail_closed_non_gating_event_nothing", event: "on_session_end", failClosed: true, exit: 1, want: nil},

	// A fail_closed guard's verb the event does not read (another agent's
	// word, another case, another type) is no "no objection": it blocks,
	// naming it. Hermes' reading (nothing) stays for the others.
	{name: "H_unread_verb_claude_deny", event: "pre_tool_call", failClosed: true, stdout: `{"decision":"deny","reason":"no"}`,
		want: block(`hook /hooks/guard.sh --strict failed closed: its reply's decision "deny" is not one pre_tool_call reads`)},
	{name: "H_unread_verb_capitals", event: "pre_tool_call", failClosed: true, stdout: `{"action":"Block"}`,
		want: block(`hook /hooks/guard.sh --strict failed closed: its reply's action "Block" is not one pre_tool_call reads`)},
	{name: "H_unread_verb_number", event: "pre_tool_call", failClosed: true, stdout: `{"decision":1}`,
		want: block(`hook /hooks/guard.sh --strict failed closed: its reply's decision 1 is not one pre_tool_call reads`)},
	{name: "H_unread_verb_object", event: "pre_tool_call", failClosed: true, stdout: `{"action":{"block":true}}`,
		want: block(`hook /hooks/guard.sh --strict failed closed: its reply's action {"block":true} is not one pre_tool_call reads`)},
	{name: "H_unread_verb_beside_a_modify", event: "pre_tool_call", failClosed: true, stdout: `{"action":"modify","args":{},"decision":"DENY"}`,
		want: block(`hook /hooks/guard.sh --strict failed closed: its reply's decision "DENY" is not one pre_tool_call reads`)},
	{name: "H_unread_verb_block_still_its_own", event: "pre_tool_call", failClosed: true, stdout: `{"action":"block","message":"m","decision":"deny"}`,
		want: block("m")},
	{name: "H_unread_verb_null_is_absent", event: "pre_tool_call", failClosed: true, stdout: `{"decision":null}`, want: nil},
	{name: "H_unread_verb_pass_is_no_opinion", event: "pre_tool_call", failClosed: true, stdout: `{"action":"pass","state":{"k":1}}`,
		want: &Contribution{State: map[string]any{"k": json.Number("1")}}},
	{name: "H_unread_verb_approve_is_no_objection", event: "pre_tool_call", failClosed: true, stdout: `{"decision":"approve"}`, want: nil},
	{name: "H_unread_verb_fail_open_nothing", event: "pre_tool_call", stdout: `{"decision":"deny"}`, want: nil},
	{name: "H_unread_verb_gateway_tool_form", event: "pre_gateway_dispatch", failClosed: true, stdout: `{"action":"block"}`,
		want: block(`hook /hooks/guard.sh --strict failed closed: its reply's action "block" is not one pre_gateway_dispatch reads`)},
	{name: "H_unread_verb_gateway_allow", event: "pre_gateway_dispatch", failClosed: true, stdout: `{"action":"allow"}`,
		want: &Contribution{Decision: DecisionAllow}},
	{name: "H_unread_verb_not_checked_where_nothing_fails_closed", event: "pre_llm_call", failClosed: true, stdout: `{"action":"deny"}`, want: nil},
}

func TestHermesReplySectionA(t *testing.T) {
	for _, tc := range hermesSectionA {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Hermes, tc) })
	}
}

func TestHermesReplySectionH(t *testing.T) {
	for _, tc := range hermesSectionH {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Hermes, tc) })
	}
}

// The checklist numbers must all be present: a renamed or dropped case
// fails here.
func TestHermesChecklistCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range append(append([]replyCase{}, hermesSectionA...), hermesSectionH...) {
		seen[tc.name[:3]] = true
	}
	for i := 1; i <= 18; i++ {
		if k := "A" + twoDigits(i); !seen[k] {
			t.Errorf("checklist case %s has no table row", k)
		}
	}
	for i := 69; i <= 83; i++ {
		if k := "H" + twoDigits(i); !seen[k] {
			t.Errorf("checklist case %s has no table row", k)
		}
	}
}

func twoDigits(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// H69/H70 detail: the exit-2 block message is the first 400 characters of
// the stripped stderr (§2.5 step 2), counted in characters, not bytes.
func TestHermesExit2StderrCutTo400Characters(t *testing.T) {
	cases := []struct {
		name   string
		stderr string
		want   string
	}{
		{"ascii_10KiB", strings.Repeat("abcdefghij", 1024), strings.Repeat("abcdefghij", 40)},
		{"two_byte_runes", strings.Repeat("é", 1000), strings.Repeat("é", 400)},
		{"four_byte_runes", strings.Repeat("😀", 401), strings.Repeat("😀", 400)},
		{"mixed", strings.Repeat("aé😀", 200), strings.Repeat("aé😀", 133) + "a"},
		{"leading_whitespace_stripped_first", "\n\n   " + strings.Repeat("x", 500), strings.Repeat("x", 400)},
		{"exactly_400", strings.Repeat("z", 400), strings.Repeat("z", 400)},
		{"short_kept_whole", "short", "short"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"), Command: testCommand,
				ExitCode: 2, Stderr: []byte(tc.stderr)})
			if got == nil || got.Decision != DecisionBlock {
				t.Fatalf("got %s, want a block", contribString(got))
			}
			if n := utf8.RuneCountInString(got.Message); n != utf8.RuneCountInString(tc.want) {
				t.Errorf("message has %d characters, want %d", n, utf8.RuneCountInString(tc.want))
			}
			if got.Message != tc.want {
				t.Errorf("message = %.40q…, want %.40q…", got.Message, tc.want)
			}
			if !utf8.ValidString(got.Message) {
				t.Errorf("cut produced invalid UTF-8")
			}
		})
	}
}

func TestHermesExit2TenKiBStderrIsExactly400Runes(t *testing.T) {
	stderr := strings.Repeat("ü", 10*1024/2) // 10 KiB of 2-byte runes
	got, _ := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"), ExitCode: 2, Stderr: []byte(stderr)})
	if got == nil {
		t.Fatal("no contribution")
	}
	if n := utf8.RuneCountInString(got.Message); n != 400 {
		t.Fatalf("message has %d runes, want 400", n)
	}
	if len(got.Message) != 800 {
		t.Fatalf("message has %d bytes, want 800", len(got.Message))
	}
}

// Hermes decodes hook output as UTF-8 with errors="replace" (§2.1), which
// turns every invalid byte of a run into its own U+FFFD.
func TestHermesInvalidUTF8StderrReplacedPerByte(t *testing.T) {
	got, _ := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"), ExitCode: 2, Stderr: []byte("bad \xff\xfe end")})
	if got == nil || !utf8.ValidString(got.Message) {
		t.Fatalf("got %s, want a valid-UTF-8 block", contribString(got))
	}
	if !strings.HasPrefix(got.Message, "bad \uFFFD") || !strings.HasSuffix(got.Message, " end") {
		t.Fatalf("message = %q, want the invalid bytes replaced by U+FFFD", got.Message)
	}
	want := "bad \uFFFD\uFFFD end" // Python: b"bad \xff\xfe end".decode("utf-8", "replace")
	if got.Message != want {
		t.Fatal("regression: toValidUTF8 collapses a run of invalid bytes into one U+FFFD; Python's errors=\"replace\" (Hermes §2.1) gives one per byte: got " + strings.ReplaceAll(got.Message, "\uFFFD", "<FFFD>"))
	}
}

func TestHermesInvalidUTF8StdoutIsStillParsed(t *testing.T) {
	got, _ := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"),
		Stdout: []byte("{\"action\":\"block\",\"message\":\"caf\xe9\"}")})
	if got == nil || got.Decision != DecisionBlock || !strings.HasPrefix(got.Message, "caf") || !utf8.ValidString(got.Message) {
		t.Fatalf("got %s, want a block with a repaired message", contribString(got))
	}
}

func TestHermesNilEventNoted(t *testing.T) {
	c, note := ParseReply(Reply{Dialect: Hermes, Stdout: []byte(`{"action":"block"}`)})
	if c != nil || note != "unknown event" {
		t.Fatalf("ParseReply with nil event = %s, %q; want nil, \"unknown event\"", contribString(c), note)
	}
}

// A failed-closed message names the full configured command (§2.5: "<command>
// in fail-closed messages is the full configured command string").
func TestHermesFailClosedMessageQuotesWholeCommand(t *testing.T) {
	cmd := `~/hooks/guard.py --policy "strict mode"`
	c, note := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"), Command: cmd,
		SpawnError: "command not found", FailClosed: true})
	want := "hook " + cmd + " failed closed: command not found"
	if c == nil || c.Message != want {
		t.Fatalf("got %s, want message %q", contribString(c), want)
	}
	if note != "command not found" {
		t.Errorf("note = %q, want the spawn error", note)
	}
}

// Spawn errors and timeouts win over whatever output was captured.
func TestHermesTimeoutIgnoresPartialOutput(t *testing.T) {
	c, _ := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"), TimedOut: true, Timeout: 2,
		ExitCode: 2, Stdout: []byte(`{"action":"block","message":"late"}`)})
	if c != nil {
		t.Fatalf("timed-out fail-open hook contributed %s", contribString(c))
	}
}

// §2.4: invalid JSON → warning with the first 200 characters of stdout.
func TestHermesInvalidJSONNoteExact(t *testing.T) {
	stdout := "x" + strings.Repeat("ÿ", 300)
	_, note := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_llm_call"), Stdout: []byte(stdout)})
	want := "shell hook stdout was not valid JSON (event=pre_llm_call): x" + strings.Repeat("ÿ", 199)
	if note != want {
		t.Fatalf("note = %q\nwant   %q", note, want)
	}
}

// §2.4: "stdout is stripped" — Python's str.strip(), which also removes the
// ASCII separator controls U+001C–U+001F (str.isspace is true for them).
func TestHermesStdoutStrippedLikePython(t *testing.T) {
	c, note := ParseReply(Reply{Dialect: Hermes, Event: ev("pre_tool_call"),
		Stdout: []byte("\x1f{\"action\":\"block\",\"message\":\"sep\"}\x1c\n")})
	if c == nil || c.Message != "sep" {
		t.Fatalf("regression: strings.TrimSpace keeps U+001C–U+001F that Python's strip() removes (Hermes §2.4): got %s, note %q", contribString(c), note)
	}
}
