package hookconfig

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRuleEntryManyKeysLinear: a rule entry's keys are checked for one
// given twice. A repository's hooks file is parsed at every dispatch, even
// before anything in it is approved, so the check must be linear: pairwise,
// one entry of 300,000 one-letter keys (under 1 MiB as flow YAML) took
// minutes of CPU per tool call.
func TestRuleEntryManyKeysLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n    - {rule: 'true', decision: block, message: m")
	for i := 0; i < 300_000; i++ {
		b.WriteString(",k" + strconv.FormatInt(int64(i), 36))
	}
	b.WriteString("}\n")
	done := make(chan error, 1)
	go func() {
		_, err := parseConfig([]byte(b.String()), "/repo/.hermes/hooks.yaml", MaxProjectEntries)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("refused: %v", err) // refusing is fine; taking minutes is not
		}
	case <-time.After(2 * time.Minute): // a hang guard: linear takes about a second
		t.Fatal("a rule entry of 300,000 keys was still being parsed after 2 minutes")
	}
}

// TestRuleEntryKeyTwiceStillRefused: the linear check finds what the
// pairwise one found.
func TestRuleEntryKeyTwiceStillRefused(t *testing.T) {
	_, err := parseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: m\n      decision: allow\n"), "/c.yaml", 0)
	if err == nil || !strings.Contains(err.Error(), "key 'decision' is given twice (lines 4 and 6)") || !strings.Contains(err.Error(), ":6") {
		t.Fatalf("err = %v", err)
	}
}
