package hookconfig

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
