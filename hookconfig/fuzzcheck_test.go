package hookconfig

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// checkRefusedAt: a file the parser refuses is refused as a ConfigError
// naming it (path; "": any path), at a line it has (0: no line named),
// so the person can find what to fix.
func checkRefusedAt(t *testing.T, err error, path string, data []byte) {
	t.Helper()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Path == "" || path != "" && ce.Path != path {
		t.Fatalf("refused without naming %s: %T %v", path, err, err)
	}
	if n := maxLines(data); ce.Line < 0 || ce.Line > n {
		t.Fatalf("refused at line %d of a file of at most %d lines: %v", ce.Line, n, err)
	}
}

// maxLines is how many lines data has at most: YAML breaks a line at
// \n, \r, NEL, LS and PS (\r\n, one break, is counted twice here).
func maxLines(data []byte) int {
	s := string(data)
	n := 1 + strings.Count(s, "\n") + strings.Count(s, "\r")
	for _, r := range []string{"\u0085", "\u2028", "\u2029"} {
		n += strings.Count(s, r)
	}
	return n
}

// parsedAs is what a parse means, for telling two parses apart: every
// entry as listed, every warning, or the refusal.
func parsedAs(cfg *Config, err error) string {
	if err != nil {
		return "refused: " + err.Error()
	}
	return readAs(cfg.Listed, cfg.Warnings, nil)
}

// readAs is parsedAs for a hook file's parser.
func readAs(entries []*Entry, warnings []Warning, err error) string {
	if err != nil {
		return "refused: " + err.Error()
	}
	var b strings.Builder
	for _, e := range entries {
		ev := "(no event)"
		if e.Event != nil {
			ev = e.Event.Name
		}
		fmt.Fprintf(&b, "%s %q %d %q %q %v %v %v %d %q %v %v %v %v\n", ev, e.DeclaredAs, e.Index, e.Text(), e.Matcher,
			e.Timeout, e.FailClosed, e.Dialect, e.Priority, e.If, e.Async, e.Once, e.Duplicate, e.CannotRun())
	}
	for _, w := range warnings {
		fmt.Fprintf(&b, "warning %v %s\n", w.Minor, w)
	}
	return b.String()
}
