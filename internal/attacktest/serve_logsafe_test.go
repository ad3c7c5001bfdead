//go:build linux

package attacktest

import (
	"net/url"
	"strings"
	"testing"
)

// What a client or a hook controls never reaches serve's log raw: no
// terminal escape (ESC, CSI, BEL, a bare CR that rewrites the line) from
// an event name, a malformed body, a hook's stderr or its block message,
// at any level, in text or JSON; and a payload's values (a token in a
// tool call) are not logged at all.
func TestServeLogHoldsNoEscapesOrPayloads(t *testing.T) {
	const secret = "sk-live-SECRET0123456789"
	const evil = "\x1b]0;pwned\x07\x1b[2J\r\x9b31m"
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			e := newEnv(t)
			e.write("guard.sh", "#!/bin/sh\nprintf 'stderr \\033[2J\\033]0;x\\007\\r\\n' >&2\nprintf '{\"action\":\"block\",\"message\":\"no \\\\u001b[31m red \\\\r\"}'\n", 0o755)
			e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("guard.sh")+"\n", 0o644)
			e.run("", "approve", e.path("guard.sh"))
			s := e.serve(shortSock(t), "--log-level", "debug", "--log-format", format)
			s.dispatch("pre_tool_call", `{"tool_name":"terminal","args":{"command":"curl -H 'Authorization: Bearer `+secret+`'"}}`)
			s.dispatch(url.PathEscape("pre_tool_call"+evil), `{}`)
			s.dispatch("pre_tool_call", `{"tool_name":"`+evil+`"`)
			s.dispatch("pre_tool_call", "{\"tool_name\":\"x\x1b[2J\"}")
			// serve logs a request once it has answered it: wait for the
			// lines (the bound only catches a hang).
			logged := func() bool {
				log := s.log.String()
				return strings.Contains(log, "block") && strings.Contains(log, "unknown event") && strings.Count(log, "not valid JSON") >= 2
			}
			waitFor(t, "the dispatches logged at debug level", logged)
			log := s.log.String()
			for _, bad := range []string{"\x1b", "\x07", "\x9b", "\r", secret} {
				if i := strings.Index(log, bad); i >= 0 {
					t.Fatalf("the log holds %q: ...%q...", bad, log[max(0, i-120):min(len(log), i+40)])
				}
			}
		})
	}
}
