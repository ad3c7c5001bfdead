package consent

import (
	"fmt"
	"io"
	"os"
	"testing"
)

// Helper actions let tests run real, separate processes from the test
// binary itself: the test starts os.Args[0] with CONSENT_HELPER set, and
// TestMain performs the action instead of running tests. Separate processes
// are the only honest test of the file lock and of atomic replacement under
// SIGKILL.
const helperEnv = "CONSENT_HELPER"

func TestMain(m *testing.M) {
	if action := os.Getenv(helperEnv); action != "" {
		os.Exit(runHelper(action))
	}
	os.Exit(m.Run())
}

func runHelper(action string) int {
	store := NewStore(os.Getenv("CONSENT_HOME"))
	event, command := os.Getenv("CONSENT_EVENT"), os.Getenv("CONSENT_COMMAND")
	switch action {
	case "approve":
		// Wait until the parent closes stdin, so that all helpers start
		// their approvals at (nearly) the same moment.
		if os.Getenv("CONSENT_BARRIER") != "" {
			_, _ = io.Copy(io.Discard, os.Stdin)
		}
		if _, err := store.Approve(event, command); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "revoke":
		if _, err := store.Revoke(command); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "loop":
		// Approve a new command per iteration, continuing after whatever
		// an earlier (killed) run left, and report each save once it is
		// complete. The parent kills this process at a random moment.
		f, err := store.Load()
		if err != nil || f.Invalid != nil {
			fmt.Fprintln(os.Stderr, "loop: bad allowlist at start:", err, f.Invalid)
			return 1
		}
		for i := len(f.Approvals); ; i++ {
			if _, err := store.Approve("pre_tool_call", loopCommand(i)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Println(i)
		}
	}
	fmt.Fprintln(os.Stderr, "unknown helper action", action)
	return 2
}

func loopCommand(i int) string { return fmt.Sprintf("/bin/hook-%05d.sh --flag=%d", i, i) }
