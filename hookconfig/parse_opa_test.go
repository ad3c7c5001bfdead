package hookconfig

import (
	"strings"
	"testing"
)

// An opa: entry is an OPASpec, listed and approved by its URL; the keys
// every entry has are read as for a command; another kind's key beside it
// skips the entry with a warning; a URL that cannot be posted to is a
// warning, and the entry is kept (a fail_closed guard then fails closed
// instead of disappearing).
func TestParseOPAEntry(t *testing.T) {
	const url = "http://127.0.0.1:8181/v1/data/hermes/pre_tool_call"
	for _, tc := range []struct {
		name, entry string
		want        string // the spec's URL; "" when the entry is skipped
		warning     string
	}{
		{name: "plain", entry: "opa: " + url, want: url},
		{name: "spaces trimmed", entry: "opa: '  " + url + " '", want: url},
		{name: "https", entry: "opa: https://opa.example/v1/data/x", want: "https://opa.example/v1/data/x"},
		{name: "with the usual keys", entry: "opa: " + url + "\n      matcher: terminal\n      timeout: 3\n      fail_closed: true\n      priority: -1\n      mode: shadow", want: url},
		{name: "with a command", entry: "opa: " + url + "\n      command: ./guard.sh", warning: "has both 'opa' and 'command'"},
		{name: "as a worker", entry: "opa: " + url + "\n      worker: true", warning: "has both 'opa' and 'worker'"},
		{name: "not a string", entry: "opa: 8181", warning: ".opa must be the URL"},
		{name: "a mapping", entry: "opa: {url: x}", warning: ".opa must be the URL"},
		{name: "empty", entry: "opa: ''", warning: ".opa must be the URL"},
		{name: "a file URL", entry: "opa: file:///etc/passwd", want: "file:///etc/passwd", warning: "is not an http:// or https:// URL; the entry fails when it runs"},
		{name: "a script", entry: "opa: ./evil.sh", want: "./evil.sh", warning: "is not an http:// or https:// URL"},
		{name: "no host", entry: "opa: http:///v1/data/x", want: "http:///v1/data/x", warning: "has no host"},
		{name: "not a URL", entry: "opa: 'http://[::1'", want: "http://[::1", warning: "is not a URL"},
		// Paths that leave the entry deciding nothing, unseen: warned of,
		// the entry kept (what it posts to is still the approved URL).
		{name: "the data document's root", entry: "opa: http://127.0.0.1:8181/v1/data", want: "http://127.0.0.1:8181/v1/data", warning: "names the root of OPA's data document"},
		{name: "the root, with a slash", entry: "opa: https://opa.example/v1/data/", want: "https://opa.example/v1/data/", warning: "so the entry never objects"},
		{name: "the root behind a proxy's prefix", entry: "opa: https://policy.example/opa/v1/data", want: "https://policy.example/opa/v1/data", warning: "names the root"},
		{name: "the v0 API", entry: "opa: http://127.0.0.1:8181/v0/data/hermes/pre_tool_call", want: "http://127.0.0.1:8181/v0/data/hermes/pre_tool_call", warning: "is OPA's v0 data API"},
		{name: "a gateway's own path", entry: "opa: https://policy.example/check", want: "https://policy.example/check"},
		{name: "a package named data", entry: "opa: http://127.0.0.1:8181/v1/data/data", want: "http://127.0.0.1:8181/v1/data/data"},
	} {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - "+tc.entry+"\n"), "hooks.yaml")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var warnings []string
		for _, w := range cfg.Warnings {
			warnings = append(warnings, w.String())
		}
		all := strings.Join(warnings, "\n")
		if tc.warning == "" && len(warnings) != 0 || !strings.Contains(all, tc.warning) {
			t.Errorf("%s: warnings %q, want %q", tc.name, all, tc.warning)
		}
		if tc.want == "" {
			if len(cfg.Entries) != 0 {
				t.Errorf("%s: kept %+v", tc.name, cfg.Entries[0])
			}
			continue
		}
		if len(cfg.Entries) != 1 {
			t.Fatalf("%s: %d entries", tc.name, len(cfg.Entries))
		}
		e := cfg.Entries[0]
		s, ok := e.Spec.(*OPASpec)
		if !ok || s.URL != tc.want || e.Command != "" || e.Text() != "opa: "+tc.want || e.RunsCommand() || e.CannotRun() != "" {
			t.Errorf("%s: entry %+v spec %+v", tc.name, e, e.Spec)
		}
	}
	cfg, _ := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: "+url+"\n      matcher: terminal\n      timeout: 3\n      fail_closed: true\n      mode: shadow\n"), "hooks.yaml")
	e := cfg.Entries[0]
	if e.Matcher != "terminal" || e.TimeoutSeconds() != "3" || !e.FailClosed || !e.Shadow {
		t.Errorf("the usual keys: %+v", e)
	}
}
