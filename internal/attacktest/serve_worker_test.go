//go:build linux

package attacktest

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// workerPrelude reads one request line into $line, its request id into
// $id and its "probe" field into $probe; reply answers for this call.
const workerPrelude = `#!/bin/sh
reply() { echo "{\"action\":\"block\",\"message\":\"probe-$probe\",\"hermes_hooks_request_id\":$1}"; }
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"hermes_hooks_request_id": *\([0-9]*\).*/\1/p')
  probe=$(printf '%s' "$line" | sed -n 's/.*"probe": *"\([a-z0-9]*\)".*/\1/p')
`

// Hostile workers behind serve, each a fail_closed guard: whatever the
// worker does, each call ends within the hook's timeout (never a hang),
// blocks when the worker gave no answer of its own (fail_closed), and is
// never given the answer meant for another call.
func TestServeHostileWorkers(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		big        bool // the payload is larger than a pipe holds
	}{
		{"good", `  reply "$id"`, false},
		{"other-id", `  reply $((id + 1))`, false},
		{"twice", `  reply "$id"; reply "$id"`, false},
		{"ahead", `  reply "$id"; reply $((id + 1))`, false},
		{"writes-forever", `  while :; do printf 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done`, false},
		{"dies-mid-reply", `  printf '{"action":"block","message":"probe-%s' "$probe"; exit 1`, false},
		{"forks-and-exits", `  sleep 3600 & exit 0`, false},
		{"never-reads", `  exec sleep 3600`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			script := workerPrelude + tc.body + "\ndone\n"
			if tc.name == "never-reads" {
				script = "#!/bin/sh\nexec sleep 3600\n"
			}
			e.write("w.sh", script, 0o755)
			e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("w.sh")+
				"\n      worker: true\n      fail_closed: true\n      timeout: 3\n", 0o644)
			e.run("", "approve", e.path("w.sh"))
			s := e.serve(shortSock(t))
			c := &http.Client{Transport: s.client.Transport, Timeout: 60 * time.Second}
			pad := ""
			if tc.big {
				pad = strings.Repeat("x", 1<<20)
			}
			for _, probe := range []string{"one", "two", "three"} {
				start := time.Now()
				resp, err := c.Post("http://x/v1/dispatch/pre_tool_call", "application/json",
					strings.NewReader(`{"tool_name":"terminal","probe":"`+probe+`","pad":"`+pad+`"}`))
				if err != nil {
					t.Fatalf("call %s: %v", probe, err)
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				body := string(data)
				t.Logf("call %s (%v): %.200s", probe, time.Since(start).Round(time.Millisecond), body)
				if !strings.Contains(body, `"decision":"block"`) {
					t.Fatalf("call %s was not blocked (fail_closed): %s", probe, body)
				}
				for _, other := range []string{"one", "two", "three"} {
					if other != probe && strings.Contains(body, "probe-"+other) {
						t.Fatalf("call %s was given call %s's answer: %s", probe, other, body)
					}
				}
				if tc.name == "good" && !strings.Contains(body, "probe-"+probe) {
					t.Fatalf("the good worker's own answer is missing: %s", body)
				}
				if tc.name == "other-id" && strings.Contains(body, "probe-") {
					t.Fatalf("an answer for another request id was taken: %s", body)
				}
			}
		})
	}
}
