package hookconfig

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// Each everyday YAML mistake is reported at the line where it is, in plain
// words — not where yaml.v3 gave up (noted per row: often another line).
func TestYAMLHint(t *testing.T) {
	for _, tc := range []struct {
		name, yml string
		line      int
		want      string
	}{
		{"tab indenting an item", "hooks:\n  pre_tool_call:\n\t- command: /g.sh\n", 3, "a tab is used for indentation"},
		// yaml.v3: line 3.
		{"tab after spaces", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n    \tmatcher: terminal\n", 4, "a tab is used for indentation"},
		// yaml.v3: line 2.
		{"key one space short", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n     matcher: terminal\n", 4,
			"the indentation does not line up: this line is indented 5 spaces, the lines it belongs with 6 spaces: one space short"},
		// yaml.v3: line 1.
		{"event key one space too many", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      timeout: 5\n   post_tool_call:\n    - command: /h.sh\n", 5,
			"this line is indented 3 spaces, the lines it belongs with 2 spaces: one space too many"},
		{"event key one space short", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n post_tool_call:\n    - command: /h.sh\n", 4,
			"this line is indented 1 space, the lines around it 0 or 2 spaces: indent it exactly as the lines it belongs with"},
		{"item one space short", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n   - command: /h.sh\n", 4,
			"indented 3 spaces, the lines it belongs with 4 spaces: one space short"},
		{"key one space too deep", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n       matcher: terminal\n", 4,
			"this line is indented 7 spaces, more than the line above it (6 spaces), which opens no block: one space too many"},
		{"unclosed double quote", "hooks:\n  pre_tool_call:\n    - command: \"/g.sh\n      matcher: terminal\n", 3,
			"the quote \" opened on this line is never closed"},
		{"unclosed single quote", "hooks:\n  pre_tool_call:\n    - command: '/g.sh\n      matcher: terminal\n", 3,
			"the quote ' opened on this line is never closed"},
		// yaml.v3: line 4.
		{"missing space in an item", "hooks:\n  pre_tool_call:\n    - command:/g.sh\n      matcher: terminal\n", 3,
			"missing space after ':' — write `command: /g.sh`"},
		{"missing space in a key", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher:terminal\n      timeout: 5\n", 4,
			"write `matcher: terminal`"},
		{"missing space at the top", "hooks:\n  pre_tool_call:\n    - command: /g.sh\nhooks_auto_accept:true\nx: 1\n", 4,
			"write `hooks_auto_accept: true`"},
		{"unclosed bracket", "hooks:\n  pre_tool_call:\n   - command: [\n", 3, "the [ opened on this line is never closed: close it with ]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n yaml.Node
			if yaml.Unmarshal([]byte(tc.yml), &n) == nil {
				t.Fatalf("the case is valid YAML")
			}
			_, err := ParseConfig([]byte(tc.yml), "c.yaml")
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Line != tc.line || !strings.Contains(ce.Err.Error(), tc.want) {
				t.Fatalf("err = %v, want line %d with %q", err, tc.line, tc.want)
			}
			if !strings.Contains(ce.Err.Error(), "(YAML parser: ") {
				t.Fatalf("the parser's own words are gone: %v", err)
			}
		})
	}
}

// Valid YAML the scan must not object to: block scalars, flow collections
// over several lines, quoted values over several lines, items at their
// key's indentation, URLs, comments, plain values continued on the next
// line.
func TestYAMLHintQuietOnValidYAML(t *testing.T) {
	for _, yml := range []string{
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: terminal\n  post_tool_call:\n    - command: /h.sh\n",
		"hooks:\n  pre_tool_call:\n  - command: /g.sh\n    matcher: terminal\n",
		"hooks:\n  pre_tool_call:\n    - command: |\n        echo a\n          echo b\n      timeout: 5\n",
		"hooks:\n  pre_tool_call:\n    - command: >-\n         folded\n      timeout: 5\n",
		"hooks:\n  pre_tool_call: [\n      {command: /g.sh},\n   {command: /h.sh}\n  ]\nx: 1\n",
		"hooks:\n  pre_tool_call:\n    - command: \"/g.sh\n        --flag\"\n      timeout: 5\n",
		"hooks:\n  pre_tool_call:\n    - command: 'it''s'\n      url: http://x:80/y\n",
		"# comment\n\t# tab before a comment\nhooks:\n  pre_tool_call:\n    - command: a long\n        plain value\n      timeout: 5\n",
		"hooks:\n  pre_tool_call:\n    -   command: /g.sh\n        timeout: 5\n",
		"args:\n  - - a\n    - b\n  - c\n",
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(yml), &n); err != nil {
			t.Fatalf("%q is not valid YAML: %v", yml, err)
		}
		if line, hint, ok := yamlHint([]byte(yml)); ok {
			t.Errorf("%q: hint at line %d: %s", yml, line, hint)
		}
	}
}

// A document built to explode when parsed (aliases of aliases) costs the
// scan one pass over its bytes; so does a huge line.
func TestYAMLHintBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n")
	for i := 0; i < 30; i++ {
		prev := string(rune('a' + i%26))
		if i >= 26 {
			prev = "z" + strings.Repeat("z", i-25)
		}
		next := string(rune('a' + (i+1)%26))
		if i+1 >= 26 {
			next = "z" + strings.Repeat("z", i+1-25)
		}
		b.WriteString(next + ": &" + next + " [*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + "]\n")
	}
	b.WriteString("hooks:\n  pre_tool_call:\n    - command: /g.sh\n     matcher: " + strings.Repeat("x", 1<<20) + "\n")
	data := []byte(strings.Repeat(b.String(), 8))
	start := time.Now()
	line, _, ok := yamlHint(data)
	if !ok || line != 35 {
		t.Fatalf("hint at %d (%v), want line 35", line, ok)
	}
	// A hang guard, not a benchmark: one pass over 8 MiB takes
	// milliseconds.
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("the scan took %v", d)
	}
}

// Millions of lines cost the scan no slice of them: what it allocates
// stays far below a line table's 24 bytes a line.
func TestYAMLHintMemory(t *testing.T) {
	data := append(bytes.Repeat([]byte("\n"), 8<<20), "hooks:\n\t- x\n"...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line, _, ok := yamlHint(data)
	runtime.ReadMemStats(&after)
	if !ok || line != 8<<20+2 {
		t.Fatalf("hint at %d (%v)", line, ok)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Fatalf("the scan of %d lines allocated %d bytes", 8<<20, n)
	}
}

func FuzzYAMLHint(f *testing.F) {
	for _, s := range []string{
		"hooks:\n  pre_tool_call:\n\t- command: /g.sh\n",
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n     matcher: terminal\n",
		"hooks:\n  pre_tool_call:\n    - command: \"/g.sh\n",
		"hooks:\n  pre_tool_call:\n    - command:/g.sh\n",
		"a: [\n  {b: 'c''d\"'},\n]\n",
		"a: |\n  x\n b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		line, hint, ok := yamlHint(data)
		lines := strings.Count(string(data), "\n") + 1
		if ok && (line < 1 || line > lines || hint == "") {
			t.Fatalf("hint %q at line %d of %d", hint, line, lines)
		}
		if !ok && (line != 0 || hint != "") {
			t.Fatalf("no hint, yet %d %q", line, hint)
		}
	})
}

// An entry of one key written without the space after its ':' is valid
// YAML (one piece of text, not a mapping), so no parse error points at
// it: the warning that skips the entry says what was meant, as the parse
// error of a longer entry does. Text that is no key of an entry gets no
// such advice.
func TestEntryMissingSpaceHint(t *testing.T) {
	for _, tc := range []struct{ item, want string }{
		{"command:/g.sh", "got str; missing space after ':' — write `command: /g.sh`"},
		{"opa:http://127.0.0.1:8181/v1/data/hermes", "got str; missing space after ':' — write `opa: http://127.0.0.1:8181/v1/data/hermes`"},
		// The URL as every other message shows it: its password and
		// query values are the request's, not the warning's.
		{"opa:https://alice:s3cret@opa.example/v1", "got str; missing space after ':' — write `opa: https://alice:xxxxx@opa.example/v1`"},
		{"opa:https://opa.example/v1/data?t=s3cret", "got str; missing space after ':' — write `opa: https://opa.example/v1/data?t=xxxxx`"},
		{"/g.sh", "got str"},
		{"echo:hi", "got str"},
	} {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - "+tc.item+"\n"), "c.yaml")
		if err != nil {
			t.Fatal(err)
		}
		got := warningsText(cfg)
		if !strings.Contains(got, "hooks.pre_tool_call[0] must be a mapping with a 'command' key; "+tc.want) {
			t.Errorf("%s: warnings %q; want %q", tc.item, got, tc.want)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("%s: the hint shows the URL's secret: %q", tc.item, got)
		}
		if !strings.Contains(tc.want, "missing") && strings.Contains(got, "missing space") {
			t.Errorf("%s: advice for text that is no entry's key: %q", tc.item, got)
		}
	}
}
