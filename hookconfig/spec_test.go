package hookconfig

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// replySpec is a kind of this test's own: a handler that answers with a
// fixed reply (its input).
type replySpec struct{ Reply string }

func (*replySpec) Kind() string    { return "reply" }
func (s *replySpec) Label() string { return "reply: " + s.Reply }

// A new hook kind is one parse case: a row of handlerTypes that reads its
// handler into its spec. Everything else an entry has — matcher, timeout,
// fail_closed, if — is read as for every kind, and the entry is listed and
// approved by the spec's Label, not a command.
func TestAHandlerTypeIsOneParseCase(t *testing.T) {
	handlerTypes["reply"] = func(_ *Config, _, _ string, h *yaml.Node) (handlerParts, bool) {
		in, _ := strOf(h, "input")
		return handlerParts{spec: &replySpec{Reply: in}, node: h}, true
	}
	t.Cleanup(func() { delete(handlerTypes, "reply") })
	entries, warnings, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"reply","input":"{\"decision\":\"block\"}","timeout":5,"onFailure":"block"}]}]}}`), "s.json")
	if err != nil || len(warnings) != 0 || len(entries) != 1 {
		t.Fatalf("entries %v warnings %v err %v", entries, warnings, err)
	}
	e := entries[0]
	s, ok := e.Spec.(*replySpec)
	if !ok || s.Reply != `{"decision":"block"}` || e.Command != "" || e.Text() != `reply: {"decision":"block"}` ||
		e.Matcher != "Bash" || e.TimeoutSeconds() != "5" || !e.FailClosed || e.RunsCommand() || e.CannotRun() != "" {
		t.Fatalf("entry %+v spec %+v", e, e.Spec)
	}
}

// Each kind's spec, and what an entry of it is shown by: an http hook's
// URL is no command.
func TestSpecOfEachKind(t *testing.T) {
	entries, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"hooks":[
		{"type":"command","command":"./a.sh","shell":"bash"},
		{"type":"command","command":"python3","args":["g.py","x y"]},
		{"type":"http","url":" https://h.example/a ","headers":{"X":"$T"},"allowedEnvVars":["T"]},
		{"type":"prompt","prompt":"is this   safe?"},
		{"type":"mcp_tool","server":"s","tool":"t"},
		{"type":"command","command":"./z.sh","shell":"zsh"}]}]}}`), "s.json")
	if err != nil || len(entries) != 6 {
		t.Fatalf("%d entries, err %v", len(entries), err)
	}
	for i, want := range []struct {
		kind, command, text string
		runs                bool
		cannot              string
	}{
		{"command", "./a.sh", "./a.sh", true, ""},
		{"command", "python3 g.py 'x y'", "python3 g.py 'x y'", true, ""},
		{"http", "", "https://h.example/a", false, ""},
		{"prompt", "", "prompt: is this safe?", false, "needs a model"},
		{"mcp_tool", "", "mcp_tool: s/t", false, "needs an MCP client"},
		{"command", "./z.sh", "./z.sh", false, "a zsh shell command"},
	} {
		e := entries[i]
		if e.Spec.Kind() != want.kind || e.Command != want.command || e.Text() != want.text || e.RunsCommand() != want.runs ||
			(want.cannot == "") != (e.CannotRun() == "") || !strings.Contains(e.CannotRun(), want.cannot) {
			t.Errorf("entry %d: kind %q command %q text %q runs %v cannot %q", i, e.Spec.Kind(), e.Command, e.Text(), e.RunsCommand(), e.CannotRun())
		}
	}
	if x := entries[0].Exec(); x.Shell != "bash" || x.Args != nil {
		t.Errorf("shell form: %+v", x)
	}
	if x := entries[1].Exec(); strings.Join(x.Args, "|") != "python3|g.py|x y" {
		t.Errorf("exec form: %+v", x)
	}
	if h := entries[2].Spec.(*HTTPSpec); h.URL != "https://h.example/a" || h.Headers["X"] != "$T" || len(h.AllowedEnvVars) != 1 {
		t.Errorf("http: %+v", h)
	}
	w := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: ./w.sh\n      worker: true\n      workers: 2\n").Entries[0]
	if ws := w.Worker(); ws == nil || ws.Workers != 2 || w.Command != "./w.sh" || !w.RunsCommand() {
		t.Errorf("worker: %+v", w.Spec)
	}
}

// A URL is shown without what its user information may hide (a password,
// or a token passed as the user name), its query's values, a path segment
// that is plainly a token, or its fragment. The rest is as written, never
// re-encoded.
func TestShownURL(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"https://h.example/a?b=c", "https://h.example/a?b=xxxxx"},
		{"https://h.example/hook?token=s3cret&team=blue&debug&empty=", "https://h.example/hook?token=xxxxx&team=xxxxx&debug&empty="},
		{"https://h.example/hook?a=1;sig=s3cret&", "https://h.example/hook?a=xxxxx;sig=xxxxx&"},
		{"https://h.example/hook?Xk9dQ2mZ7pL4vR8sW3nY6tB1", "https://h.example/hook?xxxxx"},
		{"https://h.example/x?q=a%20b%26c=d", "https://h.example/x?q=xxxxx"},
		{"https://hooks.slack.com/services/T0001/B0002/Xk9dQ2mZ7pL4vR8sW3nY6tB1", "https://hooks.slack.com/services/T0001/B0002/xxxxx"},
		{"https://discord.com/api/webhooks/112233445566778899/aB3_cD4-eF5gH6iJ7kL8mN9", "https://discord.com/api/webhooks/112233445566778899/xxxxx"},
		{"http://127.0.0.1:8181/v1/data/hermes/pre_tool_call", "http://127.0.0.1:8181/v1/data/hermes/pre_tool_call"},
		{"http://127.0.0.1:8181/v1/data/policies2024_release/main", "http://127.0.0.1:8181/v1/data/policies2024_release/main"},
		{"https://h.example/a%2Fb/hook#access_token=s3cret", "https://h.example/a%2Fb/hook#xxxxx"},
		{"https://h.example/hook#", "https://h.example/hook#"},
		{"https://h.example", "https://h.example"},
		{"https://u:p@h.example/x?k=s3cret", "https://u:xxxxx@h.example/x?k=xxxxx"},
		{"http://s3cret@h.example/%zz?token=s3cret", "http://xxxxx@h.example/%zz?token=xxxxx"}, // not a URL
		{"http://team:s3cret@127.0.0.1:9/v1/data/x", "http://team:xxxxx@127.0.0.1:9/v1/data/x"},
		{"https://ghp_s3cret@h.example/hook", "https://xxxxx@h.example/hook"},
		{"https://:s3cret@h.example/", "https://:xxxxx@h.example/"},
		{"./evil.sh", "./evil.sh"},
		{"http://s3cret@h.example/%zz", "http://xxxxx@h.example/%zz"}, // not a URL
		{"http://h.example/%zz?a@b", "http://h.example/%zz?a@b"},
		// A host's letters that are not ASCII are shown as their code
		// points: a Cyrillic о in "оpa.cоrp.example" looks like the
		// team's OPA in approve's plan, and the post goes to
		// xn--pa-emc.xn--crp-sed.example. The path is the server's own.
		{"https://оpa.cоrp.example/v1/data/ü", `https://\u043epa.c\u043erp.example/v1/data/ü`},
		{"https://u:p@müller.example:8181/x?k=v", `https://u:xxxxx@m\u00fcller.example:8181/x?k=xxxxx`},
		{"https://h.example\xff/", `https://h.example\xff/`},
	} {
		if got := ShownURL(c.raw); got != c.want {
			t.Errorf("ShownURL(%q) = %q, want %q", c.raw, got, c.want)
		}
		for _, s := range []Spec{&HTTPSpec{URL: c.raw}, &OPASpec{URL: c.raw}} {
			if l := s.Label(); !strings.HasSuffix(l, c.want) {
				t.Errorf("%T label %q, want it to end %q", s, l, c.want)
			}
		}
	}
}
