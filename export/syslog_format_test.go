package export

import (
	"strings"
	"testing"
	"time"
)

// A SIEM filters syslog on the structured data, which said which event,
// decision and rule but not that a guard timed out: a fail-open guard that
// timed out decided nothing, and only the JSON line inside the message
// told. timed_out counts the record's hooks that timed out (a command
// killed at its timeout, a rule past its bound); none, no parameter.
func TestSyslogStructuredDataCountsTimeouts(t *testing.T) {
	const (
		late = `{"command":"slow.sh","ran":true,"exit_code":null,"timed_out":true,"decision":"none"}`
		ok   = `{"command":"rule: tool == \"terminal\"","ran":true,"exit_code":null,"timed_out":false,"decision":"none"}`
	)
	for _, tc := range []struct{ name, hooks, want string }{
		{"two late of three", late + "," + ok + "," + late, ` seq="1" timed_out="2"]`},
		{"none late", ok, ` seq="1"]`},
	} {
		it := newItem([]byte(`{"seq":1,"event":"pre_tool_call","decision":"none","hooks":[` + tc.hooks + `]}`))
		if !it.ok {
			t.Fatalf("%s: unreadable line", tc.name)
		}
		got := string(formatRFC5424(&it, "box", "1", time.Now()))
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: structured data of %q lacks %q", tc.name, got, tc.want)
		}
	}
}
