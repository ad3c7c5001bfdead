package hookconfig

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWarningsPerFileBounded: one entry of a repository's hooks file with
// 100,000 unknown keys (600 KB) made as many warnings, 8 MB printed at every
// dispatch. A file's warnings stop at maxWarningsPerFile, the last saying
// that more were left out; another file's are still all there.
func TestWarningsPerFileBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n    - {command: x")
	for i := 0; i < 100_000; i++ {
		b.WriteString(",k" + strconv.Itoa(i))
	}
	b.WriteString("}\n")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": b.String(),
		"home/config.yaml":        "hooks:\n  pre_tool_call:\n    - {command: y, timeout: nope}\n",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: filepath.Join(dir, "repo")})
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, w := range cfg.Warnings {
		per[w.File]++
	}
	proj := filepath.Join(dir, "repo", ".hermes", "hooks.yaml")
	if n := per[proj]; n > maxWarningsPerFile+1 {
		t.Errorf("%d warnings about the project's file (at most %d)", n, maxWarningsPerFile+1)
	}
	if last := cfg.Warnings[len(cfg.Warnings)-1]; !strings.Contains(last.String(), "not shown") {
		t.Errorf("the last warning does not say more were left out: %s", last)
	}
	if per[filepath.Join(dir, "home", "config.yaml")] != 1 {
		t.Errorf("the user's own warning went missing: %v", per)
	}
}

// TestManyUnknownEventsLinear: every unknown event name was compared with
// every event's names for a did-you-mean, 0.1 ms each, so a repository's
// hooks file (or Claude settings) of 100,000 names cost 9-11 s at every
// dispatch. Past the warnings shown no did-you-mean is worked out.
func TestManyUnknownEventsLinear(t *testing.T) {
	var y, j strings.Builder
	y.WriteString("hooks: {")
	j.WriteString(`{"hooks": {`)
	for i := 0; i < 400_000; i++ {
		if i > 0 {
			y.WriteString(",")
			j.WriteString(",")
		}
		y.WriteString("e" + strconv.Itoa(i) + ": []")
		j.WriteString(`"e` + strconv.Itoa(i) + `": []`)
	}
	y.WriteString("}\n")
	j.WriteString("}}")
	for name, parse := range map[string]func() int{
		"yaml": func() int {
			cfg, err := parseConfig([]byte(y.String()), "/repo/.hermes/hooks.yaml", MaxProjectEntries)
			if err != nil {
				t.Error(err)
				return 0
			}
			return len(cfg.Warnings)
		},
		"claude settings": func() int {
			_, ws, err := parseClaudeSettings([]byte(j.String()), "/repo/.claude/settings.json")
			if err != nil {
				t.Error(err)
			}
			return len(ws)
		},
	} {
		t.Run(name, func(t *testing.T) {
			done := make(chan int, 1)
			go func() { done <- parse() }()
			select {
			case n := <-done:
				if n < 400_000 {
					t.Errorf("%d warnings before the bound (every name is one)", n)
				}
			case <-time.After(120 * time.Second): // a hang guard: linear takes a second, 8 s under -race on a loaded machine; quadratic, hours
				t.Fatal("400,000 unknown event names were still being read after 120 s")
			}
		})
	}
}

// TestNearMissesLookedForBounded: a key unlike any known one is no warning
// (it may be a newer Claude Code's), but finding that out compares it with
// every known key, 0.05 ms each: a repository's Claude settings of 50,000
// such keys in one handler cost 3.7 s at every dispatch while printing
// nothing. A file gets a bounded number of did-you-mean searches.
func TestNearMissesLookedForBounded(t *testing.T) {
	var j strings.Builder
	j.WriteString(`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"`)
	for i := 0; i < 400_000; i++ {
		j.WriteString(`, "` + strconv.Itoa(i) + `commandtimeoutmatch": 1`)
	}
	j.WriteString("}]}]}}")
	done := make(chan int, 1)
	go func() {
		_, ws, err := parseClaudeSettings([]byte(j.String()), "/repo/.claude/settings.json")
		if err != nil {
			t.Error(err)
		}
		done <- len(ws)
	}()
	select {
	case <-done:
	case <-time.After(120 * time.Second): // a hang guard: bounded takes a second, several under -race on a loaded machine
		t.Fatal("400,000 unknown handler keys were still being read after 120 s")
	}
	// A near miss is still found while the file is within its searches.
	_, ws, err := parseClaudeSettings([]byte(`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeOut": 5}]}]}}`), "/s.json")
	if err != nil || len(ws) != 1 || !strings.Contains(ws[0].Message, "did you mean 'timeout'") {
		t.Errorf("warnings %v, err %v", ws, err)
	}
}
