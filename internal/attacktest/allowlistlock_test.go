//go:build linux

package attacktest

import (
	"strings"
	"testing"
)

// A process stuck while holding the allowlist's lock must not hold up a
// dispatch that records an approval (an accept channel here): the wait is
// bounded, and the hook runs on an approval kept for that process, with a
// warning (issue 23, item 9). The old code waited on a blocking flock for
// as long as the holder lived.
func TestAcceptedApprovalDoesNotWaitForAStuckLockHolder(t *testing.T) {
	e := newEnv(t)
	e.write("hook.sh", "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"accepted guard\"}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("hook.sh")+"\n", 0o644)
	holdLock(t, e.path("home/shell-hooks-allowlist.json.lock"))

	out, stderr := e.dispatchGuarded(t, []string{"HERMES_ACCEPT_HOOKS=1"})
	if !strings.Contains(out, `"message":"accepted guard"`) {
		t.Fatalf("the accepted hook did not run:\n%s\nstderr: %s", out, stderr)
	}
	if !strings.Contains(stderr, "Failed to persist shell hook allowlist") {
		t.Fatalf("no warning that the approval was not saved:\n%s", stderr)
	}
}
