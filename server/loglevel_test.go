package server

import (
	"log/slog"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// One line per dispatch is a debug detail; what someone should hear about
// is logged at the default level (issue 28).
func TestDispatchLogLevel(t *testing.T) {
	one, three, zero := 1, 3, 0
	block := &protocol.Contribution{Decision: protocol.DecisionBlock, Message: "no"}
	cases := []struct {
		name    string
		status  int
		outcome string
		reports []protocol.HookReport
		want    slog.Level
	}{
		{"answered_none", 200, "none", nil, slog.LevelDebug},
		{"answered_allow_ran", 200, "allow", []protocol.HookReport{{Ran: true, ExitCode: &zero}}, slog.LevelDebug},
		{"skipped_unapproved", 200, "none", []protocol.HookReport{{Skipped: "not allowlisted"}}, slog.LevelDebug},
		{"block", 200, "block", []protocol.HookReport{{Ran: true, ExitCode: &zero, Contribution: block}}, slog.LevelInfo},
		{"exit2_block_is_no_failure", 200, "block", []protocol.HookReport{{Ran: true, ExitCode: &one, Contribution: block}}, slog.LevelInfo},
		{"hook_failed", 200, "none", []protocol.HookReport{{Ran: true, ExitCode: &three}}, slog.LevelInfo},
		{"hook_spawn_error", 200, "none", []protocol.HookReport{{Error: "exec: not found"}}, slog.LevelInfo},
		{"hook_timed_out", 200, "none", []protocol.HookReport{{Ran: true, TimedOut: true}}, slog.LevelInfo},
		{"refused_404", 404, "", nil, slog.LevelInfo},
		{"refused_409", 409, "", nil, slog.LevelInfo},
		{"client_went_away", 499, "", nil, slog.LevelInfo},
		{"busy_503", 503, "", nil, slog.LevelWarn},
		{"timeout_504", 504, "", nil, slog.LevelWarn},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := dispatchLog{status: tc.status, decision: tc.outcome}
			for i := range tc.reports {
				l.count(&tc.reports[i])
			}
			if got := l.level(); got != tc.want {
				t.Errorf("level %s, want %s (%+v)", got, tc.want, l)
			}
		})
	}
}
