package hookconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func mustParse(t *testing.T, yml string) *Config {
	t.Helper()
	cfg, err := ParseConfig([]byte(yml), "config.yaml")
	if err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	cfg.finish()
	return cfg
}

func warningsText(cfg *Config) string {
	var b strings.Builder
	for _, w := range cfg.Warnings {
		b.WriteString(w.String())
		b.WriteString("\n")
	}
	return b.String()
}

// Hermes checklist section E (TestParseHooksBlock, TestFailClosedParsing).
func TestE46_EntryWithMatcherTimeout(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: /tmp/hook.sh\n      timeout: 30\n")
	if len(cfg.Entries) != 1 {
		t.Fatalf("want 1 entry, got %d", len(cfg.Entries))
	}
	e := cfg.Entries[0]
	if e.Event.Name != "pre_tool_call" || e.Matcher != "terminal" || e.Command != "/tmp/hook.sh" || e.Timeout != 30*time.Second {
		t.Fatalf("entry = %+v", e)
	}
	if e.Dialect != protocol.Hermes || e.FailClosed {
		t.Fatalf("dialect %s fail_closed %v", e.Dialect, e.FailClosed)
	}
}

func TestE47_UnknownEventDidYouMean(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tools_call:\n    - command: /tmp/h.sh\n")
	if len(cfg.Entries) != 0 {
		t.Fatalf("want no entries, got %d", len(cfg.Entries))
	}
	if w := warningsText(cfg); !strings.Contains(w, "unknown hook event 'pre_tools_call'") || !strings.Contains(w, "did you mean 'pre_tool_call'?") {
		t.Fatalf("warning = %q", w)
	}
}

func TestE47b_UnknownEventFarOffListsValid(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  zzzzqqqq:\n    - command: /tmp/h.sh\n")
	if w := warningsText(cfg); !strings.Contains(w, "(valid: agent_loop_stopped, ") {
		t.Fatalf("warning = %q", w)
	}
}

func TestE48_EntryWithoutCommand(t *testing.T) {
	for _, yml := range []string{
		"hooks:\n  pre_tool_call:\n    - matcher: terminal\n",
		"hooks:\n  pre_tool_call:\n    - command: '   '\n",
		"hooks:\n  pre_tool_call:\n    - command: 42\n",
		"hooks:\n  pre_tool_call:\n    - command: [a, b]\n",
	} {
		cfg := mustParse(t, yml)
		if len(cfg.Entries) != 0 {
			t.Fatalf("%q: want no entries", yml)
		}
		if w := warningsText(cfg); !strings.Contains(w, "hooks.pre_tool_call[0] is missing a non-empty 'command' field") {
			t.Fatalf("%q: warning = %q", yml, w)
		}
	}
}

func TestE49_TimeoutClampedTo300(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      timeout: 9999\n")
	if cfg.Entries[0].Timeout != 300*time.Second {
		t.Fatalf("timeout = %v", cfg.Entries[0].Timeout)
	}
	if w := warningsText(cfg); !strings.Contains(w, "hooks.pre_tool_call[0].timeout=9999s exceeds max 300s; clamping") {
		t.Fatalf("warning = %q", w)
	}
}

func TestE50_TimeoutNotAnInt(t *testing.T) {
	cases := map[string]time.Duration{
		`"thirty"`: 60 * time.Second,
		`"30.5"`:   60 * time.Second,
		`[1]`:      60 * time.Second,
		`"30"`:     30 * time.Second,
		`" 30 "`:   30 * time.Second,
		`30.9`:     30 * time.Second,
		`true`:     1 * time.Second,
		`0`:        60 * time.Second,
		`-5`:       60 * time.Second,
		`"1_000"`:  300 * time.Second,
	}
	for val, want := range cases {
		cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      timeout: "+val+"\n")
		if got := cfg.Entries[0].Timeout; got != want {
			t.Errorf("timeout %s: got %v want %v (warnings %q)", val, got, want, warningsText(cfg))
		}
	}
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      timeout: thirty\n")
	if w := warningsText(cfg); !strings.Contains(w, ".timeout must be an int (got 'thirty'); using default 60s") {
		t.Fatalf("warning = %q", w)
	}
}

// A plain no/yes/on/off is a bool to Hermes' PyYAML: as a matcher it is
// no string, ignored with Hermes' warning (the hook runs on every tool,
// where the text "no" matched none); as a command it is none. Quoted, it
// is the text.
func TestYAML11BoolsAreNoMatcherOrCommand(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      matcher: no\n    - command: /h2\n      matcher: 'no'\n    - command: yes\n")
	if len(cfg.Entries) != 2 || cfg.Entries[0].Matcher != "" || cfg.Entries[1].Matcher != "no" {
		t.Fatalf("entries: %+v", cfg.Entries)
	}
	w := warningsText(cfg)
	if !strings.Contains(w, "hooks.pre_tool_call[0].matcher must be a string regex; ignoring") ||
		!strings.Contains(w, "hooks.pre_tool_call[2] is missing a non-empty 'command' field") {
		t.Fatalf("warnings = %q", w)
	}
}

func TestE51_EventValueNotAList(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call: \"not a list\"\n")
	if len(cfg.Entries) != 0 {
		t.Fatal("want no entries")
	}
	if w := warningsText(cfg); !strings.Contains(w, "hooks.pre_tool_call must be a list of hook definitions; got str") {
		t.Fatalf("warning = %q", w)
	}
}

func TestE52_HooksNotAMapping(t *testing.T) {
	for _, yml := range []string{"hooks: null\n", "hooks: \"string\"\n", "hooks: []\n", "model: x\n", ""} {
		cfg := mustParse(t, yml)
		if len(cfg.Entries) != 0 {
			t.Fatalf("%q: want no entries", yml)
		}
	}
}

func TestE53_MatcherOnNonToolEventDropped(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_llm_call:\n    - command: /h\n      matcher: terminal\n")
	if len(cfg.Entries) != 1 || cfg.Entries[0].Matcher != "" {
		t.Fatalf("entries = %+v", cfg.Entries)
	}
	w := warningsText(cfg)
	if !strings.Contains(w, "only honored for pre_tool_call") || !strings.Contains(w, "pre_llm_call") {
		t.Fatalf("warning = %q", w)
	}
	// Dropped means it fires on every occurrence.
	if !cfg.Entries[0].Matches(map[string]any{"tool_name": "web_search"}, cfg.Tools) {
		t.Fatal("dropped matcher must match everything")
	}
}

func TestE54_PythonPluginOnlyEventRefused(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  transform_api_error_classification:\n    - command: /h\n")
	if len(cfg.Entries) != 0 {
		t.Fatal("want no entries")
	}
	if w := warningsText(cfg); !strings.Contains(w, "Python-plugin-only") {
		t.Fatalf("warning = %q", w)
	}
}

func TestE55to60_FailClosed(t *testing.T) {
	cases := []struct {
		name, event, keys string
		want              bool
		warn              []string
	}{
		{"E55 fail_closed true", "pre_tool_call", "fail_closed: true", true, nil},
		{"E56 absent", "pre_tool_call", "", false, nil},
		{"E57 failClosed true", "pre_tool_call", "failClosed: true", true, nil},
		{"E58 fail_closed false wins over failClosed", "pre_tool_call", "fail_closed: false\n      failClosed: true", false, nil},
		{"E59 quoted yes is not a boolean", "pre_tool_call", `fail_closed: "yes"`, false, []string{"fail_closed must be a boolean"}},
		{"E60 ignored off pre_tool_call", "on_session_start", "fail_closed: true", false, []string{"fail_closed", "ignored"}},
		{"PyYAML plain yes is a boolean", "pre_tool_call", "fail_closed: yes", true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			yml := "hooks:\n  " + c.event + ":\n    - command: /h\n"
			if c.keys != "" {
				yml += "      " + c.keys + "\n"
			}
			cfg := mustParse(t, yml)
			if len(cfg.Entries) != 1 {
				t.Fatalf("entries: %d", len(cfg.Entries))
			}
			if cfg.Entries[0].FailClosed != c.want {
				t.Fatalf("FailClosed = %v, want %v", cfg.Entries[0].FailClosed, c.want)
			}
			w := warningsText(cfg)
			for _, s := range c.warn {
				if !strings.Contains(w, s) {
					t.Fatalf("warning %q lacks %q", w, s)
				}
			}
			if c.warn == nil && w != "" {
				t.Fatalf("unexpected warning %q", w)
			}
		})
	}
}

// F61/F62: the same entry twice registers once; the same command under two
// matchers registers twice.
func TestF61_DuplicateEntryOnce(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      matcher: terminal\n    - command: /h\n      matcher: terminal\n")
	if len(cfg.Entries) != 1 {
		t.Fatalf("want 1 entry, got %d", len(cfg.Entries))
	}
}

// Two Claude guards that differ only in their `if` rule are two guards:
// folding them into one dropped the second guard (found in issue 23,
// item 11: a ~/.ssh guard never ran).
func TestSameCommandTwoIfRulesAreTwoEntries(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  PreToolUse:\n    - matcher: Bash|Read\n      hooks:\n"+
		"        - {type: command, command: /g, if: \"Bash(rm *)\"}\n"+
		"        - {type: command, command: /g, if: \"Read(~/.ssh/**)\"}\n")
	if len(cfg.Entries) != 2 {
		t.Fatalf("want 2 entries, got %d", len(cfg.Entries))
	}
}

// Two http hooks (or opa: entries) whose URLs differ only in the token or
// password they carry are two hooks, though both are shown with it
// redacted: folding them by the text shown dropped the second, here the
// fail_closed guard.
func TestURLsThatDifferInTheirSecretAreTwoEntries(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  PreToolUse:\n    - hooks:\n"+
		"        - {type: http, url: \"http://tokA@127.0.0.1:9/hook\"}\n"+
		"        - {type: http, url: \"http://tokB@127.0.0.1:9/hook\", onFailure: block}\n"+
		"  pre_tool_call:\n    - opa: http://a:pw1@127.0.0.1:9/v1/data/x\n    - opa: http://a:pw2@127.0.0.1:9/v1/data/x\n      fail_closed: true\n")
	if len(cfg.Entries) != 4 || !cfg.Entries[1].FailClosed || !cfg.Entries[3].FailClosed {
		t.Fatalf("want 4 entries, the second and fourth fail_closed; got %d", len(cfg.Entries))
	}
	// The same URL twice is one.
	cfg = mustParse(t, "hooks:\n  PreToolUse:\n    - hooks:\n"+
		"        - {type: http, url: \"http://tokA@127.0.0.1:9/hook\"}\n"+
		"        - {type: http, url: \"http://tokA@127.0.0.1:9/hook\"}\n")
	if len(cfg.Entries) != 1 {
		t.Fatalf("the same URL twice: want 1 entry, got %d", len(cfg.Entries))
	}
}

func TestF62_SameCommandTwoMatchers(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      matcher: terminal\n    - command: /h\n      matcher: web_search\n")
	if len(cfg.Entries) != 2 {
		t.Fatalf("want 2 entries, got %d", len(cfg.Entries))
	}
}

func TestReservedKeysSkippedSilently(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  outbound:\n    - url: https://x\n  output_spill: {max: 1}\n  pre_tool_call:\n    - command: /h\n")
	if len(cfg.Entries) != 1 || len(cfg.Warnings) != 0 {
		t.Fatalf("entries %d warnings %q", len(cfg.Entries), warningsText(cfg))
	}
}

func TestOtherTopLevelKeysIgnored(t *testing.T) {
	cfg := mustParse(t, "model: gpt\nagent:\n  max_turns: 3\nhooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: /h\n")
	if !cfg.AutoAccept || len(cfg.Entries) != 1 || len(cfg.Warnings) != 0 {
		t.Fatalf("cfg = %+v warnings %q", cfg, warningsText(cfg))
	}
}

func TestAutoAcceptStrict(t *testing.T) {
	cases := map[string]bool{
		"true": true, "false": false, `"false"`: false, `"no"`: false, `"true"`: true,
		`"  TRUE  "`: true, `"yes"`: true, `"on"`: true, `"1"`: true, "1": false, "null": false, "yes": true,
	}
	for val, want := range cases {
		cfg := mustParse(t, "hooks_auto_accept: "+val+"\n")
		if cfg.AutoAccept != want {
			t.Errorf("hooks_auto_accept: %s → %v, want %v", val, cfg.AutoAccept, want)
		}
		// Through an alias, the anchor's value (as PyYAML reads it).
		cfg = mustParse(t, "x: &v "+val+"\nhooks_auto_accept: *v\n")
		if cfg.AutoAccept != want {
			t.Errorf("hooks_auto_accept: *v (&v %s) → %v, want %v", val, cfg.AutoAccept, want)
		}
	}
}

func TestDialectFromClaudeEventName(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  PreToolUse:\n    - command: ./guard.sh\n      matcher: Bash\n  pre_tool_call:\n    - command: /h\n      dialect: claude\n  post_tool_call:\n    - command: /p\n")
	if len(cfg.Entries) != 3 {
		t.Fatalf("entries %d", len(cfg.Entries))
	}
	want := []protocol.Dialect{protocol.Claude, protocol.Claude, protocol.Hermes}
	for i, e := range cfg.Entries {
		if e.Dialect != want[i] {
			t.Errorf("entry %d (%s) dialect %s want %s", i, e.DeclaredAs, e.Dialect, want[i])
		}
	}
	if cfg.Entries[0].Event.Name != "pre_tool_call" || cfg.Entries[0].DeclaredAs != "PreToolUse" {
		t.Fatalf("alias not resolved: %+v", cfg.Entries[0])
	}
}

func TestClaudeGroupPastedIntoYAML(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./a.sh\n        - type: prompt\n          prompt: x\n")
	// The prompt handler is kept, marked as one that cannot run here
	// (issue 13: listed, and never a silently skipped guard).
	if len(cfg.Entries) != 2 || cfg.Entries[0].Matcher != "Bash" || cfg.Entries[0].Dialect != protocol.Claude ||
		cfg.Entries[1].Spec.Kind() != "prompt" || cfg.Entries[1].CannotRun() == "" || cfg.Entries[1].Matcher != "Bash" {
		t.Fatalf("entries %+v warnings %q", cfg.Entries, warningsText(cfg))
	}
	if !strings.Contains(warningsText(cfg), "type 'prompt'") {
		t.Fatalf("warnings %q", warningsText(cfg))
	}
}

func TestBrokenYAMLIsAnErrorWithLine(t *testing.T) {
	_, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: x\n  bad: [\n"), "/etc/h/config.yaml")
	if err == nil {
		t.Fatal("want error")
	}
	if msg := err.Error(); !strings.Contains(msg, "/etc/h/config.yaml:") || !strings.Contains(msg, ":4") && !strings.Contains(msg, ":5") {
		t.Fatalf("error %q lacks file:line", msg)
	}
}

func TestLoadMissingFileIsEmpty(t *testing.T) {
	cfg, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), LoadOptions{})
	if err != nil || len(cfg.Entries) != 0 {
		t.Fatalf("cfg %+v err %v", cfg, err)
	}
}

// A config named on purpose (--config) that is missing is an error, and
// CheckNamed says the same before a later load; an existing one is not.
func TestLoadMissingNamedFileIsError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	for what, err := range map[string]error{
		"Load":       second(Load(missing, LoadOptions{ConfigNamed: true})),
		"CheckNamed": CheckNamed(missing),
	} {
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Path != missing || !strings.Contains(err.Error(), "no such file (named by --config)") {
			t.Errorf("%s: err %v", what, err)
		}
	}
	here := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(here, []byte("hooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(here, LoadOptions{ConfigNamed: true}); err != nil || CheckNamed(here) != nil {
		t.Errorf("an existing named config: %v, %v", err, CheckNamed(here))
	}
}

func second[T any](_ T, err error) error { return err }

func TestLoadUnreadableIsError(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir, LoadOptions{}); err == nil {
		t.Fatal("reading a directory must fail")
	}
}

func TestToolAliasesOverride(t *testing.T) {
	cfg := mustParse(t, "tool_aliases:\n  terminal: Shell\n  my_tool: MyTool\n")
	if cfg.Tools.Claude("terminal") != "Shell" || cfg.Tools.Hermes("MyTool") != "my_tool" || cfg.Tools.Claude("read_file") != "Read" {
		t.Fatalf("tools %v", cfg.Tools.Pairs())
	}
}

func TestClaudeSettingsBrokenJSONHasLine(t *testing.T) {
	_, _, err := parseClaudeSettings([]byte("{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n"), "s.json")
	if err == nil || !strings.Contains(err.Error(), "s.json:3") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzParseConfig: no input may panic the config parser. It does no I/O,
// starts nothing and takes no lock; an input parses in microseconds (50 KB:
// 0.5 ms). Its long runs at 0 execs/s were Go's minimisation of each new
// input (up to -fuzzminimizetime, O(n^2) cuts, no execs reported): make
// fuzz bounds it (FUZZMINIMIZETIME).
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: /tmp/hook.sh\n      timeout: 30\n",
		"hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: x\n",
		"hooks: [1,2]\n", "hooks:\n  pre_tool_call:\n    - command: x\n      timeout: 1e999\n",
		"a: &a [*a]\n", "hooks_auto_accept: yes\ntool_aliases: {terminal: null}\nclaude_settings: [a, 1]\n",
		"hooks:\n  pre_tool_call:\n    - command: x\n      matcher: '(['\n      fail_closed: maybe\n      priority: -3\n",
		// YAML 1.1 scalars (pyyaml.Resolve) and a second document.
		"hooks:\n  pre_tool_call:\n    - command: 0o7\n      timeout: 1:30:00.5\n      priority: -0b1_0\n---\nx: 2026-01-02\n",
		// Merge keys and keys given twice (parse_yamlkeys.go).
		"d: &d {command: x, matcher: terminal}\nhooks:\n  pre_tool_call:\n    - <<: *d\n      timeout: 5\n",
		"a: &a {command: a}\nb: &b {<<: *a, matcher: web}\nhooks:\n  pre_tool_call:\n    - <<: [*b, *a]\n    - {<<: {command: y}, command: z}\n",
		"hooks:\n  pre_tool_call:\n    - command: a\n      command: b\n", "hooks: &h\n  pre_tool_call:\n    - <<: *h\n",
		"x: &x {<<: 1}\n", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {<<: {type: command, command: x}}\n",
		// Settings written as aliases (parse.go: the top level's values).
		"b: &b {include_payload: true}\nj: &j {<<: *b, path: /j}\njournal: *j\nexport: *j\ntool_aliases: *j\nrules: *j\n",
		"o: &o {endpoint: 'http://a:4318', headers: *o}\nexport: &e {otlp: *o, <<: *o}\njournal: *e\n",
		// Unreadable fail_closed entries and handlers (parse_unreadable.go).
		"hooks:\n  PreToolUse:\n    - matcher: [Bash]\n      hooks:\n        - {comand: x, onFailure: block, once: true}\n    - hooks: [{type: 7, fail_closed: true}]\n",
		// Guards with no event to stand on (vanish.go).
		"g: &g {command: x, fail_closed: true}\nhooks:\n  pre_tool_cal: [*g]\n  PreToolUs: [{hooks: [*g]}]\n",
		"hooks:\n  - pre_tool_call: [{command: x, onFailure: block}]\n", "hooks: 'fail_closed'\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data, "fuzz.yaml")
		again, errAgain := ParseConfig(data, "fuzz.yaml")
		if was, is := parsedAs(cfg, err), parsedAs(again, errAgain); was != is {
			t.Fatalf("the same bytes parsed as:\n%s\nthen as:\n%s", was, is)
		}
		if err != nil {
			checkNoPanic(t, err)
			checkRefusedAt(t, err, "fuzz.yaml", data)
			return
		}
		for _, e := range cfg.Entries {
			limit := time.Duration(MaxTimeoutSeconds) * time.Second
			if e.Dialect == protocol.Claude {
				limit = MaxClaudeTimeoutSeconds * time.Second
			}
			if e.Text() == "" || e.Timeout < time.Second || e.Timeout > limit {
				t.Fatalf("invalid entry survived validation: %+v", e)
			}
			checkUnreadable(t, e)
			e.Matches(map[string]any{"tool_name": "terminal"}, cfg.Tools)
		}
	})
}

// FuzzParseClaudeSettings: no settings file may panic the parser.
func FuzzParseClaudeSettings(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","timeout":1.5}]}]}}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"command":"x","timeout":"9"}]}]},"disableAllHooks":false}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"comand":"x","onFailure":"block"},{"type":"http","onFailure":"block"}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, warnings, err := parseClaudeSettings(data, "fuzz.json")
		again, warningsAgain, errAgain := parseClaudeSettings(data, "fuzz.json")
		if was, is := readAs(entries, warnings, err), readAs(again, warningsAgain, errAgain); was != is {
			t.Fatalf("the same bytes read as:\n%s\nthen as:\n%s", was, is)
		}
		if err != nil {
			checkNoPanic(t, err)
			checkRefusedAt(t, err, "fuzz.json", data)
			return
		}
		for _, e := range entries {
			if e.Dialect != protocol.Claude || e.Text() == "" {
				t.Fatalf("bad entry %+v", e)
			}
			checkUnreadable(t, e)
		}
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A matcher that is not a string makes Claude Code ignore its group; so do
// we, with a warning, rather than run it for every tool (issue 13, item 4).
// Claude-dialect entries get Claude Code's default timeouts: 600 s, 30 s on
// UserPromptSubmit; at most 600 s (issue 13, item 6). Hermes entries keep
// Hermes' 60 s and 300 s.
func TestClaudeDefaultTimeouts(t *testing.T) {
	entries, warnings, err := parseClaudeSettings([]byte(`{"hooks":{
	  "PreToolUse":[{"hooks":[{"type":"command","command":"a"},{"type":"command","command":"b","timeout":900}]}],
	  "UserPromptSubmit":[{"hooks":[{"type":"command","command":"c"}]}]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Duration{}
	for _, e := range entries {
		got[e.Command] = e.Timeout
	}
	if got["a"] != 600*time.Second || got["b"] != 600*time.Second || got["c"] != 30*time.Second {
		t.Fatalf("timeouts %v", got)
	}
	if !strings.Contains(fmt.Sprint(warnings), "timeout=900s exceeds max 600s") {
		t.Fatalf("warnings %v", warnings)
	}
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: h\n")
	if cfg.Entries[0].Timeout != 60*time.Second {
		t.Fatalf("Hermes default %v", cfg.Entries[0].Timeout)
	}
}

func TestClaudeNonStringMatcherIgnoresGroup(t *testing.T) {
	entries, warnings, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[
	  {"matcher":{"tools":["Bash"]},"hooks":[{"type":"command","command":"wide.sh"}]},
	  {"matcher":["Bash"],"hooks":[{"type":"command","command":"list.sh"}]},
	  {"matcher":null,"hooks":[{"type":"command","command":"all.sh"}]},
	  {"matcher":"Bash","hooks":[{"type":"command","command":"bash.sh"}]}]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, e := range entries {
		cmds = append(cmds, e.Command)
	}
	if strings.Join(cmds, ",") != "all.sh,bash.sh" {
		t.Fatalf("entries %v", cmds)
	}
	n := 0
	for _, w := range warnings {
		if strings.Contains(w.String(), "matcher must be a string; this group is ignored") {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("warnings %v", warnings)
	}
	cfg, err := ParseConfig([]byte("hooks:\n  PreToolUse:\n    - matcher: {tools: [Bash]}\n      hooks:\n        - command: wide.sh\n"), "c.yaml")
	if err != nil || len(cfg.Entries) != 0 || len(cfg.Warnings) != 1 {
		t.Fatalf("YAML group: %v %v %v", cfg.Entries, cfg.Warnings, err)
	}
}

// disableAllHooks and allowManagedHooksOnly (issue 13, item 6): honoured
// from managed settings and from the user's own settings files; a project's
// file turns off only its own hooks, never the user's guards; YAML hooks
// are never affected.
func TestClaudeDisableAllHooksAndManagedOnly(t *testing.T) {
	dir := t.TempDir()
	hook := func(cmd string) string {
		return `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"` + cmd + `"}]}]}}`
	}
	with := func(key, cmd string) string {
		return `{"` + key + `":true,"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"` + cmd + `"}]}]}}`
	}
	user := filepath.Join(dir, "user", "settings.json")
	proj := filepath.Join(dir, "proj", ".claude", "settings.json")
	managed := filepath.Join(dir, "etc", "managed-settings.json")
	load := func(files map[string]string) []string {
		t.Helper()
		var names []string
		for p, content := range files {
			writeFile(t, p, content)
			names = append(names, p)
		}
		cfgPath := filepath.Join(dir, "config.yaml")
		writeFile(t, cfgPath, "hooks:\n  pre_tool_call:\n    - command: yaml.sh\n")
		cfg, err := Load(cfgPath, LoadOptions{AgentFiles: AgentFiles{"claude": names}})
		if err != nil {
			t.Fatal(err)
		}
		var cmds []string
		for _, e := range cfg.Entries {
			cmds = append(cmds, e.Command)
		}
		sort.Strings(cmds)
		return cmds
	}
	if got := load(map[string]string{user: with("disableAllHooks", "u.sh"), proj: hook("p.sh"), managed: hook("m.sh")}); strings.Join(got, ",") != "m.sh,yaml.sh" {
		t.Fatalf("user disableAllHooks: %v", got)
	}
	if got := load(map[string]string{user: hook("u.sh"), proj: with("disableAllHooks", "p.sh"), managed: hook("m.sh")}); strings.Join(got, ",") != "m.sh,u.sh,yaml.sh" {
		t.Fatalf("a project's disableAllHooks must only turn its own hooks off: %v", got)
	}
	if got := load(map[string]string{user: hook("u.sh"), proj: hook("p.sh"), managed: with("allowManagedHooksOnly", "m.sh")}); strings.Join(got, ",") != "m.sh,yaml.sh" {
		t.Fatalf("managed allowManagedHooksOnly: %v", got)
	}
	if got := load(map[string]string{user: hook("u.sh"), proj: hook("p.sh"), managed: with("disableAllHooks", "m.sh")}); strings.Join(got, ",") != "yaml.sh" {
		t.Fatalf("managed disableAllHooks: %v", got)
	}
}
