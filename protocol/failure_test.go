package protocol

import "testing"

// TestHookReportFailure: which reports are a failure to show the user
// (issue 31, item 10), and the reason each gives.
func TestHookReportFailure(t *testing.T) {
	code := func(n int) *int { return &n }
	cases := []struct {
		name string
		r    HookReport
		want string
	}{
		{"exit 0, a reply", HookReport{Ran: true, ExitCode: code(0), Contribution: &Contribution{Context: "c"}}, ""},
		{"exit 0, nothing", HookReport{Ran: true, ExitCode: code(0)}, ""},
		{"exit 1, its note", HookReport{Ran: true, ExitCode: code(1), Note: "Failed with non-blocking status code 1: boom"}, "Failed with non-blocking status code 1: boom"},
		{"exit 3, no note", HookReport{Ran: true, ExitCode: code(3)}, "exited with status 3"},
		{"killed by a signal", HookReport{Ran: true, ExitCode: code(-9)}, "was killed by signal 9"},
		{"exit 1 with a reply used", HookReport{Ran: true, ExitCode: code(1), Contribution: &Contribution{Context: "c"}}, ""},
		{"exit 2, a block", HookReport{Ran: true, ExitCode: code(2), Contribution: &Contribution{Decision: DecisionBlock}}, ""},
		{"fail_closed block", HookReport{Ran: true, TimedOut: true, Contribution: &Contribution{Decision: DecisionBlock}}, ""},
		{"timed out", HookReport{Ran: true, TimedOut: true}, "timed out"},
		{"could not start", HookReport{Error: "fork/exec ./x: permission denied"}, "fork/exec ./x: permission denied"},
		{"invalid JSON (Hermes)", HookReport{Ran: true, ExitCode: code(0), Note: "shell hook stdout was not valid JSON (event=x): {"}, "shell hook stdout was not valid JSON (event=x): {"},
		{"invalid JSON (Claude)", HookReport{Ran: true, ExitCode: code(0), Note: "hook stdout looks like a JSON object but is not valid JSON: {"}, "hook stdout looks like a JSON object but is not valid JSON: {"},
		{"a reply that fails validation", HookReport{Ran: true, ExitCode: code(0), Note: "hook output failed validation: continue must be a boolean"}, "hook output failed validation: continue must be a boolean"},
		{"an informative note", HookReport{Ran: true, ExitCode: code(0), Note: "decision \"block\" has no effect on SessionStart"}, ""},
		{"skipped", HookReport{Skipped: "not allowlisted", Error: "x"}, ""},
		{"shadow", HookReport{Ran: true, Shadow: true, ExitCode: code(1)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Failure(); got != tc.want {
				t.Errorf("Failure() = %q, want %q", got, tc.want)
			}
		})
	}
	o := Outcome{Hooks: []HookReport{{Command: "./a.sh", Ran: true, TimedOut: true}, {Command: "./b.sh", Ran: true, ExitCode: code(0)}}}
	if got := o.Failures(); len(got) != 1 || got[0] != "hermes-hooks: hook ./a.sh failed: timed out" {
		t.Errorf("Failures() = %q", got)
	}
}
