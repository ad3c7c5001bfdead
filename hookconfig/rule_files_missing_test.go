package hookconfig

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A rules: file that is not there is named once, with the reason in
// words and, for a relative name, the folder it was looked for in (the
// config's, not the working directory): Go's "rules: P: open P: no such
// file or directory" named the path twice and left "relative to what?"
// open.
func TestMissingRuleFileSaysWhere(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"home/config.yaml": "rules: [rules/team.yaml]\n"})
	_, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{})
	if err == nil {
		t.Fatal("a missing rule file loaded")
	}
	p := filepath.Join(dir, "home", "rules", "team.yaml")
	// The reason is the system's words (Windows says "path not found").
	named, where := "rules: "+p+": ", " (a relative path is read from the config's folder, "+filepath.Join(dir, "home")+")"
	if msg := err.Error(); !strings.Contains(msg, named) || !strings.HasSuffix(msg, where) || strings.Count(msg, p) != 1 {
		t.Errorf("err = %q, want it to name %q once and end %q", msg, named, where)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v: no longer fs.ErrNotExist", err)
	}
}
