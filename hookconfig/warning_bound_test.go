package hookconfig

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestWarningsBoundWhatTheyEcho: a repository's files are read at every
// dispatch and their warnings printed each time, so a name, matcher,
// timeout or path of hundreds of kilobytes repeated in a warning (twice,
// sometimes) would make every tool call write a megabyte to the agent's
// stderr and validate's report. Each warning stays a line a person reads.
func TestWarningsBoundWhatTheyEcho(t *testing.T) {
	big := func(c string) string { return strings.Repeat(c, 200_000) }
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{
		big("E"): []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "x"}}}},
		"PreToolUse": []any{map[string]any{"matcher": "(" + big("M"), "hooks": []any{
			map[string]any{"type": "command", "command": "x", "timeout": big("T")},
			map[string]any{"type": "command", "command": "x", "timeout": json.Number(big("9"))},
		}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for name, files := range map[string]map[string]string{
		"claude settings": {
			"repo/.hermes/hooks.yaml":    "claude_settings: [.claude/settings.json]\n",
			"repo/.claude/settings.json": string(settings),
		},
		"hooks file": {
			"repo/.hermes/hooks.yaml": "hooks:\n  pre_tool_call:\n    - {command: x, matcher: '(" + big("M") + "', timeout: '" + big("T") + "'}\n" +
				"  " + strings.Repeat("e", 1000) + ": [{command: y}]\n",
		},
		"claude_settings path": {"repo/.hermes/hooks.yaml": "claude_settings: [" + big("C") + "]\n"},
		"rules path":           {"repo/.hermes/hooks.yaml": "rules: [" + strings.Repeat(strings.Repeat("R", 250)+"/", 150) + "r.yaml]\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			files["repo/.git/HEAD"] = "ref: refs/heads/main\n"
			files["home/config.yaml"] = ""
			writeFiles(t, dir, files)
			cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: filepath.Join(dir, "repo")})
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Warnings) == 0 {
				t.Fatal("no warning")
			}
			for _, w := range cfg.Warnings {
				for what, s := range map[string]string{"line": w.String(), "path": w.Path, "key": w.Key, "file": w.File} {
					if len(s) > maxWarningBytes {
						t.Errorf("a warning's %s is %d bytes (at most %d): %.200s", what, len(s), maxWarningBytes, s)
					}
				}
			}
		})
	}
}

// TestRefusalBoundsItsReason: the refusal of a gating event while a
// project's file cannot load goes to the model; the file's own text in
// its reason is cut as a warning's is.
func TestRefusalBoundsItsReason(t *testing.T) {
	ev, _ := protocol.Lookup("pre_tool_call")
	long := strings.Repeat("é", 300_000)
	for _, err := range []error{
		&ConfigError{Path: "/r/" + long, Line: 3, Err: errors.New("rules: " + long + ": not found")},
		errors.New("rules: " + long),
	} {
		out, ok := RefusalFor(ev, err)
		if !ok || len(out.Message) > 2*maxWarningBytes || !utf8.ValidString(out.Message) {
			t.Errorf("refusal of %d bytes (ok %v, valid UTF-8 %v)", len(out.Message), ok, utf8.ValidString(out.Message))
		}
		if !strings.Contains(out.Message, "not found") && strings.Contains(err.Error(), "not found") {
			t.Errorf("the reason's tail went missing: %.300s", out.Message)
		}
	}
}

// FuzzConfigWarningsBounded: whatever a config holds, each warning it gets
// is a line of at most maxWarningBytes (valid UTF-8 when the file is), and
// a file gets at most maxWarningsPerFile of them and the one that counts
// the rest.
func FuzzConfigWarningsBounded(f *testing.F) {
	for _, s := range []string{
		"hooks:\n  pre_tool_call:\n    - {command: x, matcher: '(" + strings.Repeat("M", 5000) + "', timeout: '" + strings.Repeat("T", 5000) + "'}\n",
		"hooks: {" + strings.Repeat("e: [], ", 300) + "}\n",
		"hooks:\n  pre_tool_call:\n    - {command: x" + strings.Repeat(", k", 300) + "}\n",
		"hooks:\n  pre_tool_call:\n    - {rule: 'true', decision: block, message: m" + strings.Repeat(", k", 300) + "}\n",
		"hooks:\n  " + strings.Repeat("é", 3000) + ": []\n",
		"x: &x {command: m}\nhooks:\n  pre_tool_call:\n    - <<: *x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data, "fuzz.yaml")
		if err != nil {
			checkNoPanic(t, err)
			return
		}
		per := map[string]int{}
		for _, w := range cfg.Warnings {
			if s := w.String(); len(s) > maxWarningBytes || (utf8.Valid(data) && !utf8.ValidString(s)) {
				t.Fatalf("warning of %d bytes (valid UTF-8 %v): %.200q", len(s), utf8.ValidString(s), s)
			}
			if per[w.File]++; per[w.File] > maxWarningsPerFile+1 {
				t.Fatalf("more than %d warnings about %s", maxWarningsPerFile+1, w.File)
			}
		}
	})
}
