package hookconfig

import (
	"strings"
	"testing"
)

// A top-level key indented under hooks: (the README puts rules: "beside
// hooks:"; two spaces too many put it inside) was reported as an unknown
// event followed by a kilobyte of event names, which never says the key
// is right and its place is wrong.
func TestTopLevelKeyUnderHooks(t *testing.T) {
	for _, key := range []string{"rules", "journal", "export", "tool_aliases", "hooks_auto_accept"} {
		cfg := mustParse(t, "hooks:\n  pre_tool_call: []\n  "+key+": x\n")
		w := warningsText(cfg)
		want := "'" + key + "' is a top-level key, not an event: move it out of hooks: to the left margin, beside hooks:"
		if !strings.Contains(w, want) || strings.Contains(w, "(valid:") {
			t.Errorf("%s under hooks: warning = %q, want %q", key, w, want)
		}
	}
}
