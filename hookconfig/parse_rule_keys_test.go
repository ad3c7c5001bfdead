package hookconfig

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/rule"
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

// A rule's timeout is seconds with fractions, as its bound is below a
// second: 0.2 shortens the bound (read as Hermes' whole seconds it was
// refused, "must be >=1", and a rule could never be given less than its
// 0.5 s); one above the bound is kept and said to change nothing.
func TestRuleTimeoutIsSecondsWithFractions(t *testing.T) {
	for _, tc := range []struct {
		timeout string
		want    time.Duration
		warn    string
	}{
		{"0.2", 200 * time.Millisecond, ""},
		{"0.5", 500 * time.Millisecond, ""},
		{"30", 30 * time.Second, "timeout=30s is above a rule's bound of 0.5s, which a timeout can only shorten"},
		{"0", DefaultTimeoutSeconds * time.Second, "is not above 0s"},
	} {
		cfg, err := parseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: m\n      timeout: "+tc.timeout+"\n"), "/c.yaml", 0)
		if err != nil {
			t.Fatal(err)
		}
		e := cfg.Entries[0]
		if e.Timeout != tc.want {
			t.Errorf("timeout %s: %v; want %v", tc.timeout, e.Timeout, tc.want)
		}
		got := fmt.Sprint(cfg.Warnings)
		if tc.warn == "" && len(cfg.Warnings) > 0 || !strings.Contains(got, tc.warn) {
			t.Errorf("timeout %s: warnings %s; want %q", tc.timeout, got, tc.warn)
		}
	}
}

// TestRuleTimeoutWarningsNameTheRuleBound: a rule's timeout that cannot be
// taken leaves the rule decided within its own 0.5 s bound, and the
// warning says so and names the form the key takes (seconds with
// fractions): a command's wording ("must be an int", "using default 60s")
// had people think the rule could run for a minute and that 0.2 was
// refused. A command entry keeps Hermes' own words.
func TestRuleTimeoutWarningsNameTheRuleBound(t *testing.T) {
	for _, tc := range []struct {
		timeout string
		warn    string
	}{
		{"0", ".timeout=0s is not above 0s; using a rule's bound of 0.5s"},
		{"-1.5", ".timeout=-1.5s is not above 0s; using a rule's bound of 0.5s"},
		{`"0"`, ".timeout=0s is not above 0s; using a rule's bound of 0.5s"},
		{`"fast"`, ".timeout must be a number of seconds, fractions allowed (such as 0.2) (got 'fast'); using a rule's bound of 0.5s"},
		{".inf", ".timeout must be a number of seconds, fractions allowed (such as 0.2) (got inf); using a rule's bound of 0.5s"},
		{"[1]", ".timeout must be a number of seconds, fractions allowed (such as 0.2) (got […]); using a rule's bound of 0.5s"},
		{"9999", ".timeout=9999s is above a rule's bound of 0.5s, which a timeout can only shorten: the rule is decided within 0.5s"},
	} {
		cfg, err := parseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: m\n      timeout: "+tc.timeout+"\n"), "/c.yaml", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].Message, tc.warn) {
			t.Errorf("timeout %s: warnings %v; want one: %q", tc.timeout, cfg.Warnings, tc.warn)
		}
		if got := min(cfg.Entries[0].Timeout, rule.DefaultTimeout); got != rule.DefaultTimeout {
			t.Errorf("timeout %s: the rule is decided within %v; want its bound %v", tc.timeout, got, rule.DefaultTimeout)
		}
	}
	// A command entry's warnings stay Hermes' own.
	cfg, err := parseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: /bin/true\n      timeout: fast\n"), "/c.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	if w := fmt.Sprint(cfg.Warnings); !strings.Contains(w, ".timeout must be an int (got 'fast'); using default 60s") {
		t.Errorf("command entry: warnings %s", w)
	}
}
