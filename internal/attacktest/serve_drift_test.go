//go:build linux

package attacktest

import (
	"os/exec"
	"strings"
	"testing"
)

// A repository's hook that serve has in service: changed on disk after its
// approval, the change is noticed by the very next dispatch (the changed
// script never runs), and an approval revoked while serve runs is honoured
// by the very next dispatch, for a one-shot hook and for a worker, with no
// restart and no wait for a reload.
func TestServeHonoursDriftAndRevocationAtOnce(t *testing.T) {
	for _, worker := range []bool{false, true} {
		name := map[bool]string{false: "command", true: "worker"}[worker]
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			if err := exec.Command("git", "init", "-q", e.dir).Run(); err != nil {
				t.Skip("git:", err)
			}
			script := "#!/bin/sh\nwhile IFS= read -r line || [ -n \"$line\" ]; do\n  id=$(printf '%s' \"$line\" | sed -n 's/.*\"hermes_hooks_request_id\": *\\([0-9]*\\).*/\\1/p')\n  echo \"{\\\"action\\\":\\\"block\\\",\\\"message\\\":\\\"v1\\\",\\\"hermes_hooks_request_id\\\":${id:-0}}\"\n  [ -n \"$HERMES_HOOKS_WORKER\" ] || exit 0\ndone\n"
			e.write("hooks/guard.sh", script, 0o755)
			entry := "    - command: hooks/guard.sh\n"
			if worker {
				entry += "      worker: true\n"
			}
			e.write(".hermes/hooks.yaml", "hooks:\n  pre_tool_call:\n"+entry, 0o644)
			e.write("home/config.yaml", "hooks: {}\n", 0o644)
			e.run("", "approve", "--project", e.dir, "--yes")
			s := e.serve(shortSock(t))
			call := `{"tool_name":"terminal","args":{"command":"ls"}}`
			if _, body := s.dispatch("pre_tool_call", call); !strings.Contains(body, `"block"`) {
				t.Fatalf("the approved hook did not run: %s", body)
			}
			// Drift: the script now says v2. It must not run unapproved.
			e.write("hooks/guard.sh", strings.Replace(script, "v1", "v2", 1), 0o755)
			// (Nor does a worker started from the approved text answer
			// for it: the file in service is no longer what was approved.)
			if _, body := s.dispatch("pre_tool_call", call); strings.Contains(body, `"block"`) {
				t.Fatalf("a hook whose script changed since its approval ran: %s", body)
			}
			// Approve the new text, then revoke it: the next call runs nothing.
			e.run("", "approve", "--project", e.dir, "--yes")
			if _, body := s.dispatch("pre_tool_call", call); !strings.Contains(body, "v2") {
				t.Fatalf("the re-approved script did not run: %s", body)
			}
			e.run("", "revoke", "hooks/guard.sh")
			if _, body := s.dispatch("pre_tool_call", call); strings.Contains(body, `"block"`) {
				t.Fatalf("a revoked hook still ran: %s", body)
			}
		})
	}
}
