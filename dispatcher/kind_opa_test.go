package dispatcher

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// fakeOPA is an OPA data API stand-in: it answers every post with reply
// (status 200 unless status is set) and keeps the bodies it was posted.
type fakeOPA struct {
	*httptest.Server
	mu     sync.Mutex
	status int
	reply  string
	posts  [][]byte
	heads  []http.Header
}

func newFakeOPA(t *testing.T) *fakeOPA {
	f := &fakeOPA{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.posts = append(f.posts, body)
		f.heads = append(f.heads, r.Header.Clone())
		status, reply := f.status, f.reply
		f.mu.Unlock()
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			status, reply = http.StatusBadRequest, `{"code":"invalid_parameter"}`
		}
		if status == 0 {
			status = http.StatusOK
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, reply)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeOPA) answer(status int, reply string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status, f.reply, f.posts, f.heads = status, reply, nil, nil
}

// headers are the headers of the posts since the last answer.
func (f *fakeOPA) headers() []http.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]http.Header(nil), f.heads...)
}

func (f *fakeOPA) posted() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.posts...)
}

func opaYAML(event, url string, failClosed bool, extra string) string {
	fc := ""
	if failClosed {
		fc = "\n      fail_closed: true"
	}
	return "hooks:\n  " + event + ":\n    - opa: " + url + fc + extra + "\n"
}

var lsFields = map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "s1"}

// What OPA answers is the entry's decision: block, ask and context as the
// policy says; undefined, an empty package document, allow and none are no
// objection; anything else is a failed hook, which a fail_closed guard
// turns into a block and any other entry reports without a decision.
func TestOPADecisions(t *testing.T) {
	opa := newFakeOPA(t)
	url := opa.URL + "/v1/data/hermes/pre_tool_call"
	cases := []struct {
		name     string
		status   int
		reply    string
		decision protocol.Decision
		message  string
		context  string
		failed   string // the report's error, for a failed hook
		escaped  string // more of that error
	}{
		{name: "block", reply: `{"result":{"decision":"block","message":"no rm -rf"}}`, decision: protocol.DecisionBlock, message: "no rm -rf"},
		{name: "block without a message", reply: `{"result":{"decision":"block"}}`, decision: protocol.DecisionBlock, message: opaDefaultBlockMessage},
		{name: "ask", reply: `{"result":{"decision":"ask","message":"force-push?"}}`, decision: protocol.DecisionAsk, message: "force-push?"},
		{name: "context", reply: `{"result":{"decision":"context","message":"mind the prod db"}}`, decision: protocol.DecisionNone, context: "mind the prod db"},
		{name: "allow", reply: `{"result":{"decision":"allow","message":"fine"}}`, decision: protocol.DecisionNone},
		{name: "none", reply: `{"result":{"decision":"none"}}`, decision: protocol.DecisionNone},
		{name: "undefined", reply: `{}`, decision: protocol.DecisionNone},
		{name: "undefined with OPA's extras", reply: `{"decision_id":"x","warning":{"code":"api_usage_warning"}}`, decision: protocol.DecisionNone},
		{name: "an empty package document", reply: `{"result":{}}`, decision: protocol.DecisionNone},
		{name: "helper rules beside it", reply: `{"result":{"is_rm":true,"decision":"block","message":"m"}}`, decision: protocol.DecisionBlock, message: "m"},
		{name: "result not an object", reply: `{"result":"block"}`, failed: "result is not an object"},
		{name: "result null", reply: `{"result":null}`, failed: "result is not an object"},
		{name: "result true", reply: `{"result":true}`, failed: "result is not an object"},
		{name: "unknown decision", reply: `{"result":{"decision":"deny"}}`, failed: `result.decision "deny" is none of block, ask, context, allow, none`},
		{name: "decision not a string", reply: `{"result":{"decision":1}}`, failed: "result.decision is not a string"},
		{name: "decision twice", reply: `{"result":{"decision":"block","decision":"allow"}}`, failed: `the reply is ambiguous ("decision" appears twice)`},
		{name: "message not a string", reply: `{"result":{"decision":"block","message":{}}}`, failed: "result.message is not a string"},
		// A decision of null or "" is none of the five (a policy's bug, or
		// a value from data it did not expect), not an absent one: a guard
		// must not pass on it.
		{name: "decision null", reply: `{"result":{"decision":null}}`, failed: "result.decision is not a string: \"null\""},
		{name: "decision empty", reply: `{"result":{"decision":""}}`, failed: `result.decision "" is none of block, ask, context, allow, none`},
		// A message of null is no message: the decision is the policy's.
		{name: "message null", reply: `{"result":{"decision":"block","message":null}}`, decision: protocol.DecisionBlock, message: opaDefaultBlockMessage},
		{name: "decision with a space", reply: `{"result":{"decision":"block "}}`, failed: `result.decision "block " is none of`},
		{name: "not JSON", reply: `<html>proxy error</html>`, failed: `the reply is not a JSON object: "<html>proxy error</html>" (HTTP 200, content type "`},
		{name: "a JSON array", reply: `[]`, failed: "the reply is not a JSON object"},
		{name: "trailing garbage", reply: `{"result":{"decision":"allow"}} {"result":{"decision":"block"}}`, failed: "the reply is not a JSON object"},
		{name: "500", status: 500, reply: "{\"code\":\"internal_error\",\"message\":\"eval_conflict_error\"}", failed: "opa: HTTP 500 from " + url + `: {"code":"internal_error","message":"eval_conflict_error"}`},
		{name: "404", status: 404, reply: `{"code":"resource_not_found"}`, failed: "HTTP 404"},
		{name: "a decision without a result (not the v1 data API)", reply: `{"decision":"block","message":"m"}`, failed: "the reply has a decision but no result"},
		// The URL names the package above the policy's document: the
		// decision OPA made is a member's, and read as a helper rule's it
		// was lost (every call the policy refused went through).
		{name: "the package above a rule", reply: `{"result":{"verdict":{"decision":"block","message":"m"}}}`, failed: `result has no decision, but result.verdict decides "block": the URL names the package above the policy's document, whose decisions are not enforced (add /verdict to the URL)`},
		{name: "the package above a package", reply: `{"result":{"other":{},"pre_tool_call":{"decision":"ask"}}}`, failed: `result.pre_tool_call decides "ask"`},
		{name: "the first deciding member by name", reply: `{"result":{"z":{"decision":"block"},"a":{"decision":"context"}}}`, failed: `result.a decides "context"`},
		{name: "a member's name quoted", reply: `{"result":{"a b\u001b":{"decision":"block"}}}`, failed: `result."a b\x1b" decides "block"`, escaped: `(add /a%20b%1B to the URL)`},
		// What is not lost, or not a document: no objection, as before.
		{name: "a member that allows", reply: `{"result":{"verdict":{"decision":"allow"}}}`, decision: protocol.DecisionNone},
		{name: "a member's list of decisions", reply: `{"result":{"table":[{"decision":"block"}]}}`, decision: protocol.DecisionNone},
		{name: "a member's decision not a string", reply: `{"result":{"verdict":{"decision":true}}}`, decision: protocol.DecisionNone},
		{name: "a member's Decision, another name", reply: `{"result":{"verdict":{"Decision":"block"}}}`, decision: protocol.DecisionNone},
		{name: "its own decision beside a member's", reply: `{"result":{"decision":"none","verdict":{"decision":"block"}}}`, decision: protocol.DecisionNone},
	}
	for _, fc := range []bool{true, false} {
		d := dispatcherFor(t, opaYAML("pre_tool_call", url, fc, ""))
		for _, tc := range cases {
			opa.answer(tc.status, tc.reply)
			o := dispatch(t, d, "pre_tool_call", lsFields)
			h := o.Hooks[0]
			if tc.failed != "" {
				if !strings.Contains(h.Error, tc.failed) || !strings.Contains(h.Error, tc.escaped) || h.Ran {
					t.Errorf("%s (fail_closed=%v): report %+v, want the error %q", tc.name, fc, h, tc.failed)
				}
				want := protocol.DecisionNone
				if fc {
					want = protocol.DecisionBlock
				}
				if o.Decision != want || fc && !strings.Contains(o.Message, "failed closed") {
					t.Errorf("%s (fail_closed=%v): decision %s %q, want %s", tc.name, fc, o.Decision, o.Message, want)
				}
				continue
			}
			if h.Error != "" || o.Decision != tc.decision || o.Message != tc.message || o.Context != tc.context {
				t.Errorf("%s (fail_closed=%v): outcome %s %q context %q (hook error %q), want %s %q context %q",
					tc.name, fc, o.Decision, o.Message, o.Context, h.Error, tc.decision, tc.message, tc.context)
			}
		}
	}
}

// The post is {"input": <the entry's payload>}: the payload as the
// entry's dialect builds it, whole, under "input".
func TestOPAPostsTheInput(t *testing.T) {
	opa := newFakeOPA(t)
	opa.answer(0, `{}`)
	for _, dialect := range []string{"hermes", "claude"} {
		opa.answer(0, `{}`)
		d := dispatcherFor(t, opaYAML("pre_tool_call", opa.URL+"/v1/data/x", false, "\n      dialect: "+dialect))
		dispatch(t, d, "pre_tool_call", lsFields)
		posts := opa.posted()
		if len(posts) != 1 {
			t.Fatalf("%s: %d posts", dialect, len(posts))
		}
		var body map[string]map[string]any
		if err := json.Unmarshal(posts[0], &body); err != nil || len(body) != 1 {
			t.Fatalf("%s: body %s is not {\"input\": {...}}: %v", dialect, posts[0], err)
		}
		in := body["input"]
		tool, input := "terminal", "tool_input"
		if dialect == "claude" {
			tool = "Bash"
		}
		args, _ := in[input].(map[string]any)
		if in["tool_name"] != tool || args["command"] != "rm -rf /" || in["session_id"] != "s1" {
			t.Errorf("%s: input %v", dialect, in)
		}
	}
}

// A decision the event cannot take fails the hook rather than become a
// lesser one, and is read by the rules of the entry's event.
func TestOPADecisionTheEventCannotTake(t *testing.T) {
	opa := newFakeOPA(t)
	url := opa.URL + "/v1/data/x"
	for _, tc := range []struct{ event, reply, failed string }{
		{"post_tool_call", `{"result":{"decision":"ask","message":"?"}}`, "cannot ask"},
		{"on_session_start", `{"result":{"decision":"block","message":"no"}}`, "cannot block"},
		{"transform_tool_result", `{"result":{"decision":"context","message":"c"}}`, "cannot add context"},
	} {
		opa.answer(0, tc.reply)
		d := dispatcherFor(t, opaYAML(tc.event, url, false, ""))
		o := dispatch(t, d, tc.event, lsFields)
		if len(o.Hooks) != 1 || !strings.Contains(o.Hooks[0].Error, tc.failed) || o.Decision == protocol.DecisionBlock {
			t.Errorf("%s: %+v", tc.event, o)
		}
	}
	// On a stop event a block keeps the agent going with the message.
	opa.answer(0, `{"result":{"decision":"block","message":"run the tests first"}}`)
	o := dispatch(t, dispatcherFor(t, opaYAML("pre_verify", url, false, "")), "pre_verify", map[string]any{"session_id": "s"})
	if o.Decision != protocol.DecisionBlock || o.Message != "run the tests first" {
		t.Errorf("pre_verify: %+v", o)
	}
}

// The server down, a reply that never comes (or never ends), a redirect
// and a reply larger than the output cap each fail the hook: a fail_closed guard blocks. A
// redirect is never followed with the payload.
func TestOPAFailures(t *testing.T) {
	hold := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // answers only when the client gives up (or the test ends)
		case <-r.Context().Done():
		case <-hold:
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(hold) })
	drip := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The status and the start of an answer at once, then a byte
		// whenever the client asks for more, forever: the timeout must
		// bound reading the body, not only waiting for the status.
		_, _ = io.WriteString(w, `{"result":{"decision":"allow","message":"`)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, "a"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-hold:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(drip.Close)
	followed := make(chan struct{}, 1)
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		followed <- struct{}{}
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(elsewhere.Close)
	redirect := httptest.NewServer(http.RedirectHandler(elsewhere.URL+"/v1/data/x", http.StatusTemporaryRedirect))
	t.Cleanup(redirect.Close)
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"result":{"decision":"allow","message":"`+strings.Repeat("a", hookproc.DefaultOutputCap)+`"}}`)
	}))
	t.Cleanup(huge.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/v1/data/x"
	ln.Close() // nothing listens there now

	for _, tc := range []struct {
		name, url, extra, failed string
		timedOut                 bool
	}{
		{name: "server down", url: down, failed: "opa: Post"},
		{name: "timeout", url: slow.URL + "/v1/data/x", extra: "\n      timeout: 1", timedOut: true},
		{name: "a body that never ends", url: drip.URL + "/v1/data/x", extra: "\n      timeout: 1", timedOut: true},
		{name: "redirect", url: redirect.URL + "/v1/data/x", failed: "HTTP 307"},
		{name: "huge reply", url: huge.URL + "/v1/data/x", failed: "the reply is larger than"},
		{name: "not http", url: "file:///etc/passwd", failed: "unsupported protocol scheme"},
	} {
		d := dispatcherFor(t, opaYAML("pre_tool_call", tc.url, true, tc.extra))
		o := dispatch(t, d, "pre_tool_call", lsFields)
		h := o.Hooks[0]
		if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "failed closed") ||
			h.TimedOut != tc.timedOut || !strings.Contains(h.Error, tc.failed) {
			t.Errorf("%s: %s %q, report %+v", tc.name, o.Decision, o.Message, h)
		}
	}
	select {
	case <-followed:
		t.Error("the redirect was followed with the payload")
	default:
	}
}

// Consent approves an opa entry by its URL (fixed: no local file runs):
// approved, it posts; its URL changed, it is no longer approved — its
// guard blocks and nothing is posted; never approved, nothing is posted.
func TestOPAThroughTheConsentGate(t *testing.T) {
	opa := newFakeOPA(t)
	opa.answer(0, `{"result":{"decision":"block","message":"by policy"}}`)
	dir := t.TempDir()
	store := consent.NewStore(filepath.Join(dir, "home"))
	load := func(url string) *Dispatcher {
		cfg, err := hookconfig.ParseConfig([]byte(opaYAML("pre_tool_call", url, true, "")), filepath.Join(dir, "hooks.yaml"))
		if err != nil || len(cfg.Entries) != 1 {
			t.Fatalf("%v %v", err, cfg)
		}
		d, err := New(cfg, Options{Gate: ConsentGate(&consent.Policy{Store: store}), Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	url := opa.URL + "/v1/data/hermes/pre_tool_call"
	d := load(url)
	e := d.cfg.Entries[0]
	if e.Text() != "opa: "+url || e.RunsCommand() || e.Command != "" {
		t.Fatalf("entry: text %q, command %q", e.Text(), e.Command)
	}
	o := dispatch(t, d, "pre_tool_call", lsFields)
	if len(opa.posted()) != 0 || o.Hooks[0].Ran {
		t.Fatalf("an unapproved opa entry posted: %+v", o)
	}
	if _, err := store.ApproveHook(ConsentRequest(e, dir, nil)); err != nil {
		t.Fatal(err)
	}
	o = dispatch(t, d, "pre_tool_call", lsFields)
	if o.Decision != protocol.DecisionBlock || o.Message != "by policy" || len(opa.posted()) != 1 {
		t.Fatalf("approved: %+v", o)
	}
	opa.answer(0, `{"result":{"decision":"block","message":"by policy"}}`)
	o = dispatch(t, load(url+"/other"), "pre_tool_call", lsFields)
	if len(opa.posted()) != 0 || o.Hooks[0].Ran {
		t.Fatalf("another URL posted under the first one's approval: %+v", o)
	}
}

// The approval pins the URL and nothing else.
func TestOPASpec(t *testing.T) {
	a := opaSpec(&hookconfig.OPASpec{URL: "http://127.0.0.1:8181/v1/data/a"})
	if a != "opa\nurl \"http://127.0.0.1:8181/v1/data/a\"" {
		t.Fatalf("%q", a)
	}
	if a == opaSpec(&hookconfig.OPASpec{URL: "http://127.0.0.1:8181/v1/data/a/"}) || a == httpSpec(&hookconfig.HTTPSpec{URL: "http://127.0.0.1:8181/v1/data/a"}) {
		t.Fatal("two definitions share a spec")
	}
}

// test and doctor show what OPA answered (HookRun.Answer), and tell an
// undefined answer — also what OPA answers at a path where no policy is, a
// misspelt one — from a package that exists and decides nothing: both were
// "no objection" with no stdout, and doctor said "ran clean with empty
// stdout" of an entry whose URL named nothing.
func TestOPARunKeepsTheAnswer(t *testing.T) {
	opa := newFakeOPA(t)
	d := dispatcherFor(t, opaYAML("pre_tool_call", opa.URL+"/v1/data/hermes/pre_tool_call", false, ""))
	for _, tc := range []struct {
		status    int
		reply     string
		answer    bool // the run keeps the reply as its Answer
		undefined bool
	}{
		{reply: `{}`, answer: true, undefined: true},
		{reply: `{"decision_id":"d1"}`, answer: true, undefined: true},
		{reply: `{"result":{}}`, answer: true},
		{reply: `{"result":{"decision":"block","message":"m"}}`, answer: true},
		{reply: `{"decision":"block"}`, answer: true}, // no OPA's: a failed hook
		{reply: `<html>`, answer: true},
		{status: 500, reply: `{}`}, // its error quotes it
	} {
		opa.answer(tc.status, tc.reply)
		run := d.runOne(t, "pre_tool_call", lsFields)
		if got := string(run.Answer); tc.answer && got != tc.reply || !tc.answer && run.Answer != nil {
			t.Errorf("%d %s: Answer %q", tc.status, tc.reply, got)
		}
		if run.Undefined() != tc.undefined {
			t.Errorf("%d %s: Undefined() = %v, want %v", tc.status, tc.reply, run.Undefined(), tc.undefined)
		}
		if len(run.Stdout) != 0 {
			t.Errorf("%s: Stdout %q: an OPA answer is no hook's stdout (test and doctor read that as a reply)", tc.reply, run.Stdout)
		}
	}
	cmd := dispatcherFor(t, "hooks:\n  pre_tool_call:\n    - command: echo '{}'\n").runOne(t, "pre_tool_call", lsFields)
	if cmd.Answer != nil || cmd.Undefined() {
		t.Errorf("a command's run: Answer %q, Undefined %v", cmd.Answer, cmd.Undefined())
	}
}
