package hookconfig

import (
	"strings"
	"testing"
	"time"
)

// A key given twice in a mapping hermes-hooks reads: PyYAML (Hermes) takes
// the last, yaml.v3's nodes keep both and a first-match reader took the
// first, so one file ran two different commands. Each such mapping is an
// error naming both lines; keys of the agent's own are not ours to judge.
func TestDuplicateKeysAreErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       string // "" for no error
	}{
		{"command twice", "hooks:\n  pre_tool_call:\n    - command: /bin/true\n      matcher: terminal\n      command: /bin/false\n",
			"/c.yaml:5: hooks.pre_tool_call[0]: key 'command' is given twice (lines 3 and 5)"},
		{"matcher twice, flow", "hooks:\n  pre_tool_call:\n    - {command: x, matcher: a,\n       matcher: b}\n",
			"/c.yaml:4: hooks.pre_tool_call[0]: key 'matcher' is given twice (lines 3 and 4)"},
		{"rule key twice", "hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: m\n      decision: context\n",
			"/c.yaml:6: hooks.pre_tool_call[0]: key 'decision' is given twice (lines 4 and 6)"},
		{"opa entry", "hooks:\n  pre_tool_call:\n    - opa: http://127.0.0.1:8181/v1/data/a\n      opa: http://127.0.0.1:8181/v1/data/b\n",
			"/c.yaml:4: hooks.pre_tool_call[0]: key 'opa' is given twice (lines 3 and 4)"},
		{"worker entry", "hooks:\n  pre_tool_call:\n    - command: w\n      worker: true\n      workers: 2\n      workers: 3\n",
			"/c.yaml:6: hooks.pre_tool_call[0]: key 'workers' is given twice (lines 5 and 6)"},
		{"event twice", "hooks:\n  pre_tool_call:\n    - command: a\n  pre_tool_call:\n    - command: b\n",
			"/c.yaml:4: hooks: key 'pre_tool_call' is given twice (lines 2 and 4)"},
		{"hooks twice", "hooks:\n  pre_tool_call:\n    - command: a\nhooks: {}\n",
			"/c.yaml:4: key 'hooks' is given twice (lines 1 and 4)"},
		{"journal twice", "journal: false\njournal: true\n", "/c.yaml:2: key 'journal' is given twice (lines 1 and 2)"},
		{"claude handler", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: a\n          command: b\n",
			"/c.yaml:7: hooks.PreToolUse[0].hooks[0]: key 'command' is given twice (lines 6 and 7)"},
		{"claude group", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      matcher: Edit\n      hooks:\n        - type: command\n          command: a\n",
			"/c.yaml:4: hooks.PreToolUse[0]: key 'matcher' is given twice (lines 3 and 4)"},
		{"otlp twice", "export:\n  otlp:\n    endpoint: http://a:4318\n    endpoint: http://b:4318\n",
			"/c.yaml:4: export.otlp: key 'endpoint' is given twice (lines 3 and 4)"},
		{"tool_aliases twice", "tool_aliases: {terminal: Bash, terminal: Read}\n", "/c.yaml:1: tool_aliases: key 'terminal' is given twice"},
		{"the agent's own key twice is not ours", "model: a\nmodel: b\nhooks:\n  pre_tool_call:\n    - command: a\n", ""},
		{"a nested mapping of the agent's", "model: {a: 1, a: 2}\n", ""},
		// A key given twice in a mapping merged into an entry is the
		// entry's: the file shows /bin/guard-a first, Hermes runs the last.
		{"twice in a merged anchor", "x: &b {command: /bin/guard-a, command: /bin/true}\nhooks:\n  pre_tool_call:\n    - <<: *b\n      matcher: terminal\n",
			"key 'command' is given twice (lines 1 and 1)"},
		{"quoted and plain are one key", "hooks:\n  pre_tool_call:\n    - command: a\n      \"command\": b\n",
			"key 'command' is given twice (lines 3 and 4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig([]byte(tc.yaml), "/c.yaml", 0)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// Merge keys read as PyYAML's safe_load reads them: explicit keys win
// over merged ones, and of a list of merges the earlier mapping wins.
func TestMergeKeys(t *testing.T) {
	for _, tc := range []struct {
		name, yaml       string
		command, matcher string
		timeout          time.Duration
		failClosed       bool
		entries          int
		warns            int // warnings that name <<
	}{
		{"one merge", "x: &d {command: /bin/guard, matcher: terminal, fail_closed: true}\nhooks:\n  pre_tool_call:\n    - <<: *d\n",
			"/bin/guard", "terminal", 60 * time.Second, true, 1, 0},
		{"explicit wins", "x: &d {command: /bin/guard, matcher: terminal, timeout: 5}\nhooks:\n  pre_tool_call:\n    - <<: *d\n      command: /bin/other\n",
			"/bin/other", "terminal", 5 * time.Second, false, 1, 0},
		{"explicit before the merge still wins", "x: &d {command: /bin/guard}\nhooks:\n  pre_tool_call:\n    - command: /bin/other\n      <<: *d\n",
			"/bin/other", "", 60 * time.Second, false, 1, 0},
		{"earlier of a list wins", "a: &a {command: /bin/a}\nb: &b {command: /bin/b, matcher: web}\nhooks:\n  pre_tool_call:\n    - <<: [*a, *b]\n",
			"/bin/a", "web", 60 * time.Second, false, 1, 0},
		{"inline mapping", "hooks:\n  pre_tool_call:\n    - <<: {command: /bin/in, timeout: 7}\n",
			"/bin/in", "", 7 * time.Second, false, 1, 0},
		{"a merge of a merge", "a: &a {command: /bin/a, timeout: 9}\nb: &b {<<: *a, matcher: web}\nhooks:\n  pre_tool_call:\n    - <<: *b\n",
			"/bin/a", "web", 9 * time.Second, false, 1, 0},
		{"two merge keys: the later wins", "a: &a {command: /bin/a}\nb: &b {command: /bin/b}\nhooks:\n  pre_tool_call:\n    - <<: *a\n      <<: *b\n",
			"/bin/b", "", 60 * time.Second, false, 1, 0},
		{"a quoted << is a key", "hooks:\n  pre_tool_call:\n    - '<<': {command: /bin/x}\n      command: /bin/y\n",
			"/bin/y", "", 60 * time.Second, false, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parseConfig([]byte(tc.yaml), "/c.yaml", 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Entries) != tc.entries {
				t.Fatalf("%d entries, warnings %v", len(cfg.Entries), cfg.Warnings)
			}
			e := cfg.Entries[0]
			if e.Command != tc.command || e.Matcher != tc.matcher || e.Timeout != tc.timeout || e.FailClosed != tc.failClosed {
				t.Fatalf("entry = command %q matcher %q timeout %v fail_closed %v", e.Command, e.Matcher, e.Timeout, e.FailClosed)
			}
			n := 0
			for _, w := range cfg.Warnings {
				if strings.Contains(w.Message, "<<") {
					n++
				}
			}
			if n != tc.warns {
				t.Fatalf("warnings %v", cfg.Warnings)
			}
		})
	}
}

// A merge that PyYAML refuses makes Hermes refuse the file: so do we.
func TestMergeKeysRefused(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"a scalar", "hooks:\n  pre_tool_call:\n    - command: x\n      <<: 5\n", "/c.yaml:4: "},
		{"a list of scalars", "hooks:\n  pre_tool_call:\n    - command: x\n      <<: [1]\n", "/c.yaml:4: "},
		// PyYAML reads this one (as {}); nothing a config needs.
		{"a merge of itself", "a: &a\n  <<: *a\n", "/c.yaml:2: "},
		{"a merge of a mapping that holds it", "a: &a\n  k:\n    <<: *a\n", "/c.yaml:3: "},
		{"anywhere in the file", "model:\n  x: {<<: 1}\n", "/c.yaml:2: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig([]byte(tc.yaml), "/c.yaml", 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "merge") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// A merged value keeps the line where it is written: a rule's errors and
// its compile errors point into the anchor, not at the <<.
func TestMergedValueLines(t *testing.T) {
	cfg, err := parseConfig([]byte("x: &d\n  rule: 'args.command contains \"rm\"'\n  decision: block\n  message: no\nhooks:\n  pre_tool_call:\n    - <<: *d\n"), "/c.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := cfg.Entries[0].Rule(); r == nil || r.Line != 2 {
		t.Fatalf("rule = %+v", r)
	}
	_, err = parseConfig([]byte("x: &d\n  rule: 'true'\n  decision: sometimes\n  message: no\nhooks:\n  pre_tool_call:\n    - <<: *d\n"), "/c.yaml", 0)
	if err == nil || !strings.Contains(err.Error(), "/c.yaml:3:") {
		t.Fatalf("err = %v", err)
	}
}

// What is approved is the entry as read: a merged entry's text (its
// approval key) follows the anchor it merges.
func TestMergedEntryApprovalFollowsAnchor(t *testing.T) {
	read := func(cmd string) string {
		cfg, err := parseConfig([]byte("x: &d {command: "+cmd+"}\nhooks:\n  pre_tool_call:\n    - <<: *d\n      matcher: terminal\n"), "/c.yaml", 0)
		if err != nil || len(cfg.Entries) != 1 {
			t.Fatalf("err = %v, entries %v", err, cfg)
		}
		return cfg.Entries[0].Text()
	}
	if a, b := read("/bin/one"), read("/bin/two"); a != "/bin/one" || b != "/bin/two" {
		t.Fatalf("texts %q, %q", a, b)
	}
}

// An alias bomb through merge keys stays cheap: each level merges the one
// below nine times, 9^9 pairs if expanded naively.
func TestMergeBombIsCheap(t *testing.T) {
	var b strings.Builder
	b.WriteString("l0: &l0 {command: x}\n")
	for i := 1; i <= 9; i++ {
		p := "*l" + string(rune('0'+i-1))
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " {<<: [" + strings.Repeat(p+", ", 8) + p + "], k" + string(rune('0'+i)) + ": v}\n")
	}
	b.WriteString("hooks:\n  pre_tool_call:\n")
	for i := 0; i < 1000; i++ {
		b.WriteString("    - <<: [*l9, *l9, *l9]\n")
	}
	done := make(chan error, 1)
	go func() {
		_, err := parseConfig([]byte(b.String()), "/repo/.hermes/hooks.yaml", MaxProjectEntries)
		done <- err
	}()
	select {
	case err := <-done:
		t.Logf("err = %v", err) // refusing is fine; expanding is not
	case <-time.After(time.Minute): // a hang guard: it takes milliseconds
		t.Fatal("a merge bomb was still being parsed after a minute")
	}
}

// Many keys merged many times: the work is bounded, and past the bound the
// file is refused rather than read slowly.
func TestMergeWideIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a {")
	for i := 0; i < 20_000; i++ {
		b.WriteString("k" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa(i) + ": 1, ")
	}
	b.WriteString("command: x}\nhooks:\n  pre_tool_call:\n")
	for i := 0; i < 2000; i++ {
		b.WriteString("    - <<: *a\n")
	}
	done := make(chan error, 1)
	go func() {
		_, err := parseConfig([]byte(b.String()), "/c.yaml", 0)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "merge") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("40 million merged keys were still being read after a minute")
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

// An example with a key given twice is an invalid example (it fails in
// validate and test), not a reason to refuse the file.
func TestExampleKeyTwice(t *testing.T) {
	cfg, err := parseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: /bin/g\n      examples:\n        - {tool: terminal, expect: block, expect: allow}\n"), "/c.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	if ex := cfg.Entries[0].Examples[0]; !strings.Contains(ex.Invalid, "key 'expect' is given twice (lines 5 and 5)") {
		t.Fatalf("example = %+v", ex)
	}
}

// An entry, a list of entries or the hooks: block written as an alias
// (- *guard) is its anchor's value, as for PyYAML: a guard written so was
// dropped with "must be a mapping …; got dict".
func TestAliasedEntries(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		commands   string
	}{
		{"an entry", "x: &g {command: /bin/g, matcher: terminal, fail_closed: true}\nhooks:\n  pre_tool_call:\n    - *g\n    - *g\n", "/bin/g /bin/g"},
		{"a list", "l: &l [{command: /bin/a}, {command: /bin/b}]\nhooks:\n  pre_tool_call: *l\n  post_tool_call: *l\n", "/bin/a /bin/b /bin/a /bin/b"},
		{"the hooks block", "h: &h {pre_tool_call: [{command: /bin/h}]}\nhooks: *h\n", "/bin/h"},
		{"a Claude handler", "x: &c {type: command, command: /bin/c}\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: [*c]\n", "/bin/c"},
		{"a scalar value", "c: &c /bin/s\nt: &t 5\nhooks:\n  pre_tool_call:\n    - {command: *c, timeout: *t}\n", "/bin/s"},
		{"a list that holds itself", "hooks:\n  pre_tool_call: &l [*l]\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parseConfig([]byte(tc.yaml), "/c.yaml", 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range cfg.Entries {
				got = append(got, e.Command)
			}
			if strings.Join(got, " ") != tc.commands {
				t.Fatalf("commands %q, warnings %v", got, cfg.Warnings)
			}
		})
	}
	cfg, err := parseConfig([]byte("x: &g {command: /bin/g, fail_closed: true}\nhooks:\n  pre_tool_call:\n    - *g\n"), "/c.yaml", 0)
	if err != nil || len(cfg.Entries) != 1 || !cfg.Entries[0].FailClosed {
		t.Fatalf("err %v, entries %+v", err, cfg.Entries)
	}
}

// One list aliased under many event names multiplies its entries: bounded.
func TestAliasedListsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("l: &l [")
	for i := 0; i < 2000; i++ {
		b.WriteString("{command: /bin/x" + itoa(i) + "}, ")
	}
	b.WriteString("]\nhooks:\n")
	for i := 0; i < 2000; i++ {
		b.WriteString("  command:c" + itoa(i) + ": *l\n")
	}
	done := make(chan error, 1)
	go func() {
		_, err := parseConfig([]byte(b.String()), "/c.yaml", 0)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "more than 10000 entries") || !strings.Contains(err.Error(), "/c.yaml:8:") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("4 million aliased entries were still being read after a minute")
	}
}
