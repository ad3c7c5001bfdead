package hookconfig

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// manyEntries is a repository's hooks file of n pre_tool_call entries,
// the last one's fail_closed set to last.
func manyEntries(n int, last string) string {
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    - command: ./h%d.sh\n", i)
	}
	if last != "" {
		b.WriteString("      " + last + "\n")
	}
	return b.String()
}

// TestVanishingGuardYAML: a fail_closed entry a YAML file would drop whole
// (under a name that is no event, in a hooks: that is no mapping, past a
// repository's cap) makes the file one that does not load, at the line of
// what was dropped; the same file without fail_closed loads with its
// warning, as before.
func TestVanishingGuardYAML(t *testing.T) {
	cases := []struct {
		name, yaml string
		limit      int
		line       int    // 0: it loads
		want       string // in the error
	}{
		{"misspelt hermes event", "hooks:\n  pre_tool_cal:\n    - command: /bin/false\n      fail_closed: true\n", 0, 2,
			"hooks.pre_tool_cal holds a fail_closed guard, but 'pre_tool_cal' is no event (did you mean 'pre_tool_call'?): fix the name"},
		{"misspelt claude event", "hooks:\n  PreToolUs:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: /bin/false, fail_closed: true}\n", 0, 2,
			"'PreToolUs' is no event (did you mean 'PreToolUse'?)"},
		{"misspelt, onFailure block", "hooks:\n  pre_tool_cal:\n    - command: /bin/false\n      onFailure: block\n", 0, 2, "is no event"},
		{"misspelt, aliased guard", "g: &g {command: /bin/false, fail_closed: true}\nhooks:\n  pre_tool_cal: [*g]\n", 0, 3, "is no event"},
		{"misspelt, no close name", "hooks:\n  zzzz:\n    - command: /bin/false\n      fail_closed: true\n", 0, 2,
			"hooks.zzzz holds a fail_closed guard, but 'zzzz' is no event: fix the name"},
		{"misspelt, repository's", "hooks:\n  pre_tool_cal:\n    - command: ./g.sh\n      fail_closed: true\n", MaxProjectEntries, 2, "is no event"},
		{"misspelt without fail_closed", "hooks:\n  pre_tool_cal:\n    - command: /bin/false\n", 0, 0, ""},
		{"misspelt, fail_closed false", "hooks:\n  pre_tool_cal:\n    - command: /bin/false\n      fail_closed: false\n", 0, 0, ""},
		{"hooks a list", "hooks:\n  - pre_tool_call:\n      - command: /bin/false\n        fail_closed: true\n", 0, 2,
			"hooks: is a list, not a mapping of event names, and holds a fail_closed guard"},
		{"hooks a string", "hooks: \"pre_tool_call: [{command: /bin/false, fail_closed: true}]\"\n", 0, 1,
			"hooks: is a string, not a mapping of event names, and holds a fail_closed guard"},
		{"hooks a list, repository's", "hooks:\n  - command: ./g.sh\n    failClosed: true\n", MaxProjectEntries, 2, "holds a fail_closed guard"},
		{"hooks a list without fail_closed", "hooks:\n  - command: /bin/false\n", 0, 0, ""},
		{"past the cap", manyEntries(MaxProjectEntries+1, "fail_closed: true"), MaxProjectEntries, 2 + MaxProjectEntries + 1,
			"declares more than 256 hooks, and one from hooks.pre_tool_call[256] on asks to fail closed: a guard past the cap cannot be trusted to run"},
		// A later event where a Hermes hook may fail closed (under
		// post_tool_call it is no guard: TestPastCapByEvent).
		{"past the cap, a later event", manyEntries(MaxProjectEntries+1, "") + "  pre_gateway_dispatch:\n    - command: x\n      fail_closed: true\n",
			MaxProjectEntries, 261, "one from hooks.pre_tool_call[256] on asks to fail closed"},
		{"past the cap, a claude group", manyEntries(MaxProjectEntries, "") + "  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: x, fail_closed: true}\n",
			MaxProjectEntries, 262, "one from hooks.PreToolUse[0].hooks[0] on asks to fail closed"},
		{"past the cap, aliased groups", "g: &g\n  - {type: command, command: x}\n  - {type: command, command: y, onFailure: block}\nhooks:\n  PreToolUse:\n" +
			strings.Repeat("    - {matcher: Bash, hooks: *g}\n", MaxProjectEntries), MaxProjectEntries, 3, "asks to fail closed"},
		{"past the cap, none fail_closed", manyEntries(MaxProjectEntries+1, ""), MaxProjectEntries, 0, ""},
		{"at the cap", manyEntries(MaxProjectEntries, "fail_closed: true"), MaxProjectEntries, 0, ""},
		// fail_closed, when present, decides even false; else failClosed;
		// else onFailure (as parseFailClosed reads an entry).
		{"misspelt, fail_closed false over onFailure", "hooks:\n  pre_tool_cal:\n    - {command: x, fail_closed: false, onFailure: block}\n", 0, 0, ""},
		{"misspelt, fail_closed false over failClosed", "hooks:\n  pre_tool_cal:\n    - {command: x, fail_closed: false, failClosed: true}\n", 0, 0, ""},
		{"misspelt, failClosed false over onFailure", "hooks:\n  pre_tool_cal:\n    - {command: x, failClosed: false, onFailure: block}\n", 0, 0, ""},
		{"misspelt, fail_closed not a boolean", "hooks:\n  pre_tool_cal:\n    - {command: x, fail_closed: maybe, onFailure: block}\n", 0, 0, ""},
		{"misspelt, failClosed true", "hooks:\n  pre_tool_cal:\n    - {command: x, failClosed: true, onFailure: allow}\n", 0, 2, "is no event"},
		// A guard written as text where a hook or a list of them belongs.
		{"event's value text", "hooks:\n  pre_tool_call: \"command: x\\nfail_closed: true\"\n", 0, 2,
			"hooks.pre_tool_call is a string, not a hook, and spells a fail_closed guard that cannot be read: write the hook as a mapping (command: …, fail_closed: true), not as text"},
		{"event's item text", "hooks:\n  pre_tool_call:\n    - command: ./ok.sh\n    - \"{command: x, fail_closed: true}\"\n", 0, 4,
			"hooks.pre_tool_call[1] is a string, not a hook, and spells a fail_closed guard"},
		{"claude event's item text", "hooks:\n  PreToolUse: [\"{matcher: Bash, hooks: [{command: x, failClosed: true}]}\"]\n", 0, 2, "is a string, not a hook"},
		{"misspelt, value text", "hooks:\n  pre_tool_cal: \"command: x\\nfail_closed: true\"\n", 0, 2, "'pre_tool_cal' is no event"},
		{"misspelt, item text", "hooks:\n  pre_tool_cal: [\"{command: x, fail_closed: true}\"]\n", 0, 2, "'pre_tool_cal' is no event"},
		{"hooks a list of text", "hooks:\n  - \"pre_tool_call: [{command: x, fail_closed: true}]\"\n", 0, 2, "hooks: is a list"},
		{"event's value text without fail_closed", "hooks:\n  pre_tool_call: \"command: x\"\n", 0, 0, ""},
		{"event's item text without fail_closed", "hooks:\n  pre_tool_call: [\"{command: x}\"]\n", 0, 0, ""},
		// Text past a repository's cap, in an event the reader stops
		// before (its leftovers are lists of lists).
		{"past the cap, a later event's text", manyEntries(MaxProjectEntries+1, "") + "  post_tool_call: \"command: x\\nfail_closed: true\"\n",
			MaxProjectEntries, 2 + MaxProjectEntries + 2, "one from hooks.pre_tool_call[256] on asks to fail closed"},
		{"past the cap, a later event's item text", manyEntries(MaxProjectEntries+1, "") + "  post_tool_call:\n    - \"{command: x, failClosed: true}\"\n",
			MaxProjectEntries, 2 + MaxProjectEntries + 3, "one from hooks.pre_tool_call[256] on asks to fail closed"},
		{"past the cap, a later claude group's text", manyEntries(MaxProjectEntries+1, "") + "  PreToolUse:\n    - matcher: Bash\n      hooks: [\"{command: x, fail_closed: true}\"]\n",
			MaxProjectEntries, 2 + MaxProjectEntries + 4, "asks to fail closed"},
		{"past the cap, text after the cap's last hook", manyEntries(MaxProjectEntries, "") + "    - \"{command: x, fail_closed: true}\"\n",
			MaxProjectEntries, 2 + MaxProjectEntries + 1, "fail_closed"},
		{"past the cap, a later event's text without fail_closed", manyEntries(MaxProjectEntries+1, "") + "  post_tool_call: [\"{command: x}\"]\n",
			MaxProjectEntries, 0, ""},
		{"past the cap, a later reserved key's text", manyEntries(MaxProjectEntries+1, "") + "  outbound: \"fail_closed\"\n",
			MaxProjectEntries, 0, ""},
		// Text where a Claude matcher group's handlers belong.
		{"claude group's handler text", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: ./ok.sh}\n        - \"{type: command, command: x, fail_closed: true}\"\n", 0, 6,
			"hooks.PreToolUse[0].hooks[1] is a string, not a hook, and spells a fail_closed guard that cannot be read"},
		{"claude group's hooks text", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: \"[{type: command, command: x, failClosed: true}]\"\n", 0, 4,
			"hooks.PreToolUse[0].hooks is a string, not a hook"},
		{"claude lone group's handler text", "hooks:\n  PreToolUse:\n    matcher: Bash\n    hooks: [\"{command: x, fail_closed: true}\"]\n", 0, 4,
			"hooks.PreToolUse.hooks[0] is a string, not a hook"},
		{"claude group on a hermes event, handler text", "hooks:\n  pre_tool_call:\n    - hooks: [\"{command: x, fail_closed: true}\"]\n", 0, 3,
			"hooks.pre_tool_call[0].hooks[0] is a string"},
		{"claude group, aliased handler text", "t: &t \"{command: x, fail_closed: true}\"\nhooks:\n  PreToolUse:\n    - {matcher: Bash, hooks: [*t]}\n", 0, 1,
			"hooks.PreToolUse[0].hooks[0] is a string"},
		{"misspelt, claude group's handler text", "hooks:\n  PreToolUs:\n    - {matcher: Bash, hooks: [\"{command: x, fail_closed: true}\"]}\n", 0, 2, "'PreToolUs' is no event"},
		// One anchored list, named first where a group's handlers belong
		// (where a {hooks: …} is a handler, not a group), then where an
		// event's hooks do: asked again there.
		{"anchored list, handlers then an event's hooks", "b: &b [{hooks: [\"{command: x, fail_closed: true}\"]}]\nhooks:\n  PreToolUse:\n    - {matcher: Bash, hooks: *b}\n  PostToolUse: *b\n", 0, 1,
			"hooks.PostToolUse[0].hooks[0] is a string"},
		{"claude group's handler text without fail_closed", "hooks:\n  PreToolUse:\n    - {matcher: Bash, hooks: [\"{command: x}\"]}\n", 0, 0, ""},
		{"a hook's command text stays what it says", "hooks:\n  PreToolUse:\n    - {matcher: Bash, hooks: [{command: echo fail_closed}]}\n", 0, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseConfig([]byte(c.yaml), "/c.yaml", c.limit)
			if c.line == 0 {
				if err != nil {
					t.Fatalf("want it to load, got %v", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("want a ConfigError (the file does not load), got %v", err)
			}
			if ce.Line != c.line || ce.Path != "/c.yaml" || !strings.Contains(ce.Err.Error(), c.want) {
				t.Fatalf("got %s:%d: %v\nwant line %d with %q", ce.Path, ce.Line, ce.Err, c.line, c.want)
			}
		})
	}
}

// TestVanishingGuardJSON: the same in an agent's JSON hook file, in
// Claude Code's shape and in a flat one (Cursor's).
func TestVanishingGuardJSON(t *testing.T) {
	many := func(n int, key string) string {
		var hs []string
		for i := 0; i < n; i++ {
			hs = append(hs, fmt.Sprintf(`{"type":"command","command":"./h%d.sh"}`, i))
		}
		hs = append(hs, `{"type":"command","command":"./g.sh",`+key+`}`)
		return `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[` + strings.Join(hs, ",") + `]}]}}`
	}
	cases := []struct {
		agent, json string
		limit       int
		want        string // "": it loads
	}{
		{"claude", `{"hooks":{"PreToolUs":[{"hooks":[{"type":"command","command":"/bin/false","fail_closed":true}]}]}}`, 0,
			"hooks.PreToolUs holds a fail_closed guard, but 'PreToolUs' is no event (did you mean 'PreToolUse'?): fix the name"},
		{"claude", `{"hooks":{"PreToolUs":[{"hooks":[{"type":"command","command":"/bin/false"}]}]}}`, 0, ""},
		{"claude", `{"hooks":[{"PreToolUse":[{"hooks":[{"type":"command","command":"/bin/false","fail_closed":true}]}]}]}`, 0,
			"hooks: is a list, not a mapping of event names, and holds a fail_closed guard"},
		{"claude", `{"hooks":"PreToolUse failClosed"}`, 0, "hooks: is a string"},
		{"claude", `{"hooks":[]}`, 0, ""},
		{"claude", many(MaxProjectEntries, `"fail_closed":true`), MaxProjectEntries, "on asks to fail closed: a guard past the cap cannot be trusted to run"},
		{"claude", many(MaxProjectEntries, `"timeout":5`), MaxProjectEntries, ""},
		{"cursor", `{"version":1,"hooks":{"beforeShellExecutio":[{"command":"/bin/false","failClosed":true}]}}`, 0,
			"'beforeShellExecutio' is no event (did you mean 'beforeShellExecution'?)"},
		{"cursor", `{"version":1,"hooks":[{"command":"/bin/false","failClosed":true}]}`, 0, "hooks: is a list"},
		{"cursor", `{"version":1,"hooks":{"beforeShellExecutio":[{"command":"/bin/false"}]}}`, 0, ""},
		// fail_closed, when present, decides even false (parseFailClosed).
		{"claude", `{"hooks":{"PreToolUs":[{"hooks":[{"type":"command","command":"x","fail_closed":false,"onFailure":"block"}]}]}}`, 0, ""},
		{"claude", `{"hooks":{"PreToolUs":[{"hooks":[{"type":"command","command":"x","failClosed":false,"onFailure":"block"}]}]}}`, 0, ""},
		{"claude", `{"hooks":{"PreToolUs":[{"hooks":[{"type":"command","command":"x","fail_closed":"yes","failClosed":true}]}]}}`, 0, ""},
		{"cursor", `{"version":1,"hooks":{"beforeShellExecutio":[{"command":"x","fail_closed":false,"failClosed":true}]}}`, 0, ""},
		// A guard written as text where a hook or a list of them belongs.
		{"claude", `{"hooks":{"PreToolUse":"{\"hooks\":[{\"command\":\"x\",\"fail_closed\":true}]}"}}`, 0, "hooks.PreToolUse is a string, not a hook, and spells a fail_closed guard"},
		{"claude", `{"hooks":{"PreToolUse":["{\"hooks\":[{\"command\":\"x\",\"fail_closed\":true}]}"]}}`, 0, "hooks.PreToolUse[0] is a string, not a hook"},
		{"claude", `{"hooks":{"PreToolUs":["{\"hooks\":[{\"command\":\"x\",\"failClosed\":true}]}"]}}`, 0, "'PreToolUs' is no event"},
		{"claude", `{"hooks":{"PreToolUse":["{\"hooks\":[{\"command\":\"x\"}]}"]}}`, 0, ""},
		{"cursor", `{"version":1,"hooks":{"beforeShellExecution":["{\"command\":\"x\",\"failClosed\":true}"]}}`, 0, "hooks.beforeShellExecution[0] is a string, not a hook"},
		{"cursor", `{"version":1,"hooks":{"beforeShellExecution":"{\"command\":\"x\",\"failClosed\":true}"}}`, 0, "hooks.beforeShellExecution is a string, not a hook"},
		// Text where a matcher group's handlers belong.
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":["{\"type\":\"command\",\"command\":\"x\",\"failClosed\":true}"]}]}}`, 0,
			"hooks.PreToolUse[0].hooks[0] is a string, not a hook, and spells a fail_closed guard"},
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":"{\"type\":\"command\",\"command\":\"x\",\"fail_closed\":true}"}]}}`, 0,
			"hooks.PreToolUse[0].hooks is a string, not a hook"},
		{"claude", `{"hooks":{"PreToolUse":{"matcher":"Bash","hooks":["{\"command\":\"x\",\"fail_closed\":true}"]}}}`, 0,
			"hooks.PreToolUse.hooks[0] is a string, not a hook"},
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":7,"hooks":["{\"command\":\"x\",\"fail_closed\":true}"]}]}}`, 0,
			"hooks.PreToolUse[0].hooks[0] is a string, not a hook"},
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":["{\"command\":\"x\"}"]}]}}`, 0, ""},
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo failClosed"}]}]}}`, 0, ""},
		// ... and past a repository's cap.
		{"claude", strings.Replace(many(MaxProjectEntries, `"timeout":5`), `]}]}}`, `,"{\"command\":\"x\",\"failClosed\":true}"]}]}}`, 1), MaxProjectEntries,
			"hooks.PreToolUse[0].hooks[257] is a string, not a hook"},
		{"cursor", `{"version":1,"hooks":{"beforeShellExecution":[` + strings.Repeat(`{"command":"x"},`, MaxProjectEntries) + `"{\"command\":\"x\",\"failClosed\":true}"]}}`, MaxProjectEntries,
			"hooks.beforeShellExecution[256] is a string, not a hook"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.agent), func(t *testing.T) {
			a, _ := agents.Lookup(c.agent)
			_, _, err := parseAgentFile(a, []byte(c.json), "/f.json", c.limit)
			if c.want == "" {
				if err != nil {
					t.Fatalf("want it to load, got %v", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Path != "/f.json" || !strings.Contains(ce.Err.Error(), c.want) {
				t.Fatalf("got %v\nwant a ConfigError of /f.json with %q", err, c.want)
			}
		})
	}
}

// BenchmarkPastCapAliases: a repository's file of 50,000 groups past the
// cap, each naming one anchored list of 20,000 handlers: what is left
// unread is asked whether it holds a guard once per node, not once per
// group (which would be 10^9 visits).
// go test -run XXX -bench BenchmarkPastCapAliases -benchmem ./hookconfig
func BenchmarkPastCapAliases(b *testing.B) {
	d := []byte(pastCapAliases(20_000, 50_000))
	for b.Loop() {
		if _, err := parseConfig(d, "/c.yaml", MaxProjectEntries); err != nil {
			b.Fatal(err)
		}
	}
}

func pastCapAliases(handlers, groups int) string {
	var s strings.Builder
	s.WriteString("big: &b [" + strings.Repeat("{type: command, command: x}, ", handlers) + "]\nhooks:\n  PreToolUse:\n")
	s.WriteString(strings.Repeat("    - {hooks: *b}\n", groups))
	return s.String()
}

// TestPastCapAliasesOnce: BenchmarkPastCapAliases' file loads, with the
// cap's one warning, and each of its nodes is asked about once.
func TestPastCapAliasesOnce(t *testing.T) {
	cfg, err := parseConfig([]byte(pastCapAliases(2_000, 5_000)), "/c.yaml", MaxProjectEntries)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != MaxProjectEntries {
		t.Fatalf("%d entries, want %d", len(cfg.Entries), MaxProjectEntries)
	}
	// The list, its 2,000 handlers and their keys and values, and one
	// look at the list per group: about 20,000, never 5,000 × 2,000.
	if cfg.failClosedVisits > 100_000 {
		t.Fatalf("%d visits", cfg.failClosedVisits)
	}
}

// TestVanishingGuardHostileName: the name a repository writes is shown
// escaped and bounded in the refusal (which reaches the model and the
// agent's screen), and a megabyte of it costs no did-you-mean.
func TestVanishingGuardHostileName(t *testing.T) {
	// An explicit key (? …): YAML allows no longer implicit one.
	for _, name := range []string{"\"pre_tool_cal\\e]0;pwn\\a\\r\"", strings.Repeat("p", 1<<20)} {
		_, err := parseConfig([]byte("hooks:\n  ? "+name+"\n  : [{command: ./g.sh, fail_closed: true}]\n"), "/r/.hermes/hooks.yaml", MaxProjectEntries)
		msg := RefusalOn(nil, err)
		if !strings.Contains(msg, "is no event") || len(msg) > 2*maxShown+400 {
			t.Fatalf("refusal of %d bytes: %.300q", len(msg), msg)
		}
		if strings.ContainsAny(msg, "\x1b\x07\r\n") {
			t.Fatalf("unescaped: %q", msg)
		}
	}
}

// FuzzNoEventGuard: a fail_closed entry under any name either is read as
// an entry of that name, or its file does not load: never dropped
// behind a warning. ("<<" is YAML's merge key, not a name; the reserved
// keys under hooks: are no events by design.)
func FuzzNoEventGuard(f *testing.F) {
	for _, s := range []string{"pre_tool_cal", "PreToolUs", "zzzz", "pre_tool_call", "Stop", "outbound", "hooks", "journal", "", "gateway:mesage"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, name string, list bool) {
		if name == "<<" || reservedHookKeys[name] {
			return
		}
		entry := map[string]any{"command": "x", "fail_closed": true}
		var hooks any = map[string]any{name: []any{entry}}
		if list {
			hooks = []any{map[string]any{name: []any{entry}}}
		}
		data, err := yaml.Marshal(map[string]any{"hooks": hooks})
		if err != nil {
			return
		}
		cfg, err := parseConfig(data, "/f.yaml", MaxProjectEntries)
		if err != nil {
			checkNoPanic(t, err)
			return
		}
		if list {
			t.Fatalf("hooks: as a list with a guard loaded:\n%s", data)
		}
		for _, e := range cfg.Entries {
			if e.DeclaredAs == name {
				return
			}
		}
		t.Fatalf("the guard under %q vanished:\n%s\nwarnings: %v", name, data, cfg.Warnings)
	})
}

// TestVanishAgreesWithReader: a hook under a name that is no event makes
// its file fail to load exactly when, under the right name, the reader
// reads it as a guard: the two read fail_closed, failClosed and onFailure
// by one rule (asksFailClosed).
func TestVanishAgreesWithReader(t *testing.T) {
	var keys []string
	for _, fc := range []string{"", "fail_closed: true", "fail_closed: false", "fail_closed: maybe"} {
		for _, fcc := range []string{"", "failClosed: true", "failClosed: false"} {
			for _, of := range []string{"", "onFailure: block", "onFailure: ' Block '", "onFailure: allow"} {
				var k []string
				for _, s := range []string{fc, fcc, of} {
					if s != "" {
						k = append(k, s)
					}
				}
				keys = append(keys, strings.Join(k, ", "))
			}
		}
	}
	for _, k := range keys {
		entry := "{command: x"
		if k != "" {
			entry += ", " + k
		}
		entry += "}"
		if !agreesWithReader(t, entry) {
			t.Fatalf("%s: not read as one entry", entry)
		}
	}
}

// agreesWithReader parses entry under pre_tool_call and under
// pre_tool_cal, and fails t unless the second refuses its file exactly
// when the first reads a guard; false: the first is not one entry.
func agreesWithReader(t *testing.T, entry string) bool {
	t.Helper()
	cfg, err := parseConfig([]byte("hooks:\n  pre_tool_call: ["+entry+"]\n"), "/c.yaml", 0)
	checkNoPanic(t, err)
	if err != nil || len(cfg.Entries) != 1 {
		return false
	}
	_, err = parseConfig([]byte("hooks:\n  pre_tool_cal: ["+entry+"]\n"), "/c.yaml", 0)
	checkNoPanic(t, err)
	if guard, refused := cfg.Entries[0].FailClosed, err != nil; guard != refused {
		t.Errorf("%s: a guard under pre_tool_call: %v; its file refused under pre_tool_cal: %v (%v)", entry, guard, refused, err)
	}
	return true
}

// FuzzVanishAgreesWithReader: TestVanishAgreesWithReader for any plain
// values of fail_closed, failClosed and onFailure (absent when empty).
func FuzzVanishAgreesWithReader(f *testing.F) {
	for _, s := range [][3]string{{"false", "", "block"}, {"", "no", "Block"}, {"yes", "", ""}, {"maybe", "true", "block"}, {"", "", "allow"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, fc, fcc, of string) {
		entry := "{command: x"
		for _, kv := range [][2]string{{"fail_closed", fc}, {"failClosed", fcc}, {"onFailure", of}} {
			if strings.ContainsAny(kv[1], "{}[],:#\n\r&*!|>'\"%@`?-\\\t") || strings.TrimSpace(kv[1]) != kv[1] {
				return // plain scalars only: the entry stays one mapping
			}
			if kv[1] != "" {
				entry += ", " + kv[0] + ": " + kv[1]
			}
		}
		entry += "}"
		agreesWithReader(t, entry)
	})
}

// TestTextAliasesOnce: text where hooks belong, named by thousands of a
// repository's matcher groups, is asked about once per anchored node
// (textAsks), not once per group: else 5,000 × 2,000 here, and a file of
// a megabyte costs billions of steps.
func TestTextAliasesOnce(t *testing.T) {
	var s strings.Builder
	s.WriteString("big: &b [" + strings.Repeat("\"{command: x}\", ", 2_000) + "]\nhooks:\n  PreToolUse:\n")
	s.WriteString(strings.Repeat("    - {matcher: Bash, hooks: *b}\n", 5_000))
	cfg, err := parseConfig([]byte(s.String()), "/c.yaml", MaxProjectEntries)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.failClosedVisits > 100_000 {
		t.Fatalf("%d visits", cfg.failClosedVisits)
	}
}
