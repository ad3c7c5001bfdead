package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/journal"
)

// A record keeps a rule's first bytes and the SHA-256 of its whole text;
// doctor finds the runs of a long rule by that digest, in records written
// before it (whole command, no rule_sha256) as in today's.
func TestLongRuleRunsAreFoundByDigest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	long := `args.command contains "x"` + strings.Repeat(` || args.command contains "never"`, 20)
	yaml := "hooks:\n  pre_tool_call:\n    - id: team/long\n      rule: '" + long + "'\n      decision: block\n      message: no\n" +
		"    - rule: '" + long + ` || false'` + "\n      decision: block\n      message: no\n"
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var lines []string
	for _, old := range []bool{true, false} {
		var hooks []journal.HookEntry
		for _, e := range cfg.Entries {
			h := journal.HookEntry{Command: e.Text(), Source: e.Source, Rule: e.Rule().Identity(e.Source), Error: "no such key"}
			if !old {
				h.RuleSHA256, h.Command = journal.RuleTextSHA256(h.Command), h.Command[:160]+"… (cut)"
			}
			hooks = append(hooks, h)
		}
		b, err := json.Marshal(journal.Entry{Seq: int64(len(lines) + 1), Time: now, Event: "pre_tool_call", Decision: "none", Hooks: hooks})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	jp := filepath.Join(dir, journal.DefaultFile)
	if err := os.WriteFile(jp, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	results := make([]DoctorResult, len(cfg.Entries))
	for i, e := range cfg.Entries {
		results[i].Status.Entry = e
	}
	NoteJournalFailures(results, jp, now.Add(time.Minute))
	for i, r := range results {
		if len(r.Checks) != 1 || !strings.Contains(r.Checks[0].Text, "failed on 2 of its 2 runs") {
			t.Errorf("entry %d: %+v", i, r.Checks)
		}
	}
}
