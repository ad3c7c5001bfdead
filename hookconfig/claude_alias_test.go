package hookconfig

import (
	"reflect"
	"strings"
	"testing"
)

// A Claude Code handler pasted into the YAML reads an alias as PyYAML does:
// as its anchor's value. Read as the alias node itself, `headers: *h` sent
// no header at all and `url: *u` or `command: *c` dropped the handler.
func TestClaudeHandlerAliases(t *testing.T) {
	cfg, err := ParseConfig([]byte(`
anchors:
  t: &team infra
  u: &u https://policy.example/check
  h: &h {Authorization: "Bearer $TOKEN", X-Team: *team}
  l: &l [TOKEN]
  c: &c ./guard.sh
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - {type: http, url: *u, headers: *h, allowedEnvVars: *l}
        - {type: command, command: *c}
`), "/cfg/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 2 {
		t.Fatalf("%d entries, want 2; warnings %v", len(cfg.Entries), cfg.Warnings)
	}
	s, ok := cfg.Entries[0].Spec.(*HTTPSpec)
	if !ok {
		t.Fatalf("first entry's spec is %T, want *HTTPSpec", cfg.Entries[0].Spec)
	}
	if s.URL != "https://policy.example/check" {
		t.Errorf("url %q", s.URL)
	}
	if want := map[string]string{"Authorization": "Bearer $TOKEN", "X-Team": "infra"}; !reflect.DeepEqual(s.Headers, want) {
		t.Errorf("headers %v, want %v", s.Headers, want)
	}
	if !reflect.DeepEqual(s.AllowedEnvVars, []string{"TOKEN"}) {
		t.Errorf("allowedEnvVars %v", s.AllowedEnvVars)
	}
	if got := cfg.Entries[1].Command; got != "./guard.sh" {
		t.Errorf("command %q", got)
	}
}

// Headers or allowedEnvVars of the wrong shape were dropped without a word.
func TestClaudeHandlerHeadersShape(t *testing.T) {
	cfg, err := ParseConfig([]byte(`
hooks:
  PreToolUse:
    - hooks:
        - {type: http, url: "https://p.example/", headers: [Authorization], allowedEnvVars: TOKEN}
`), "/cfg/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range cfg.Warnings {
		got = append(got, w.Path+w.Message)
	}
	for _, want := range []string{".headers must be a mapping", ".allowedEnvVars must be a list"} {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, want)
		}
		if !found {
			t.Errorf("no warning %q in %q", want, got)
		}
	}
}
