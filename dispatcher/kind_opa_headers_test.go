package dispatcher

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// An opa: entry approved before entries had headers stays approved: the
// canonical text of one without headers or allowed_env_vars (whose digest
// the allowlist holds as spec_sha256_at_approval) is what it always was,
// byte for byte, and so is its digest.
func TestOPASpecWithoutHeadersIsUnchanged(t *testing.T) {
	const url = "http://127.0.0.1:8181/v1/data/hermes/pre_tool_call"
	const want = "opa\nurl \"http://127.0.0.1:8181/v1/data/hermes/pre_tool_call\""
	// sha256 of want: what approvals written before headers hold.
	const digest = "8104dae3c396a9e4d312c68b1aa171abe212a59ca22b33b96dd766ff251f2124"
	for _, s := range []*hookconfig.OPASpec{{URL: url}, {URL: url, Headers: map[string]string{}}, {URL: url, AllowedEnvVars: []string{}}} {
		got := opaSpec(s)
		if got != want {
			t.Errorf("%+v: spec %q, want %q", s, got, want)
		}
		sum := sha256.Sum256([]byte(got))
		if h := hex.EncodeToString(sum[:]); h != digest {
			t.Errorf("%+v: digest %s", s, h)
		}
	}
	cfg, err := hookconfig.ParseConfig([]byte(opaYAML("pre_tool_call", url, true, "")), "hooks.yaml")
	if err != nil || len(cfg.Entries) != 1 {
		t.Fatalf("%v %v", err, cfg)
	}
	if got := opaSpec(cfg.Entries[0].Spec.(*hookconfig.OPASpec)); got != want {
		t.Errorf("a parsed entry without headers: %q", got)
	}
}

// The approval pins what an opa: entry sends: a header added, a value
// changed, a variable allowed are each another spec (a new approval), as
// for an http hook; the order allowed variables are listed in is not.
func TestOPASpecPinsHeaders(t *testing.T) {
	const url = "http://127.0.0.1:8181/v1/data/x"
	bare := opaSpec(&hookconfig.OPASpec{URL: url})
	withToken := opaSpec(&hookconfig.OPASpec{URL: url, Headers: map[string]string{"Authorization": "Bearer ${T}"}, AllowedEnvVars: []string{"T"}})
	specs := []string{
		bare,
		opaSpec(&hookconfig.OPASpec{URL: url, Headers: map[string]string{"Authorization": "Bearer ${T}"}}),
		withToken,
		opaSpec(&hookconfig.OPASpec{URL: url, Headers: map[string]string{"Authorization": "Bearer ${U}"}, AllowedEnvVars: []string{"T"}}),
		opaSpec(&hookconfig.OPASpec{URL: url, Headers: map[string]string{"Authorization": "Bearer ${T}"}, AllowedEnvVars: []string{"T", "U"}}),
		opaSpec(&hookconfig.OPASpec{URL: url, AllowedEnvVars: []string{"T"}}),
		httpSpec(&hookconfig.HTTPSpec{URL: url, Headers: map[string]string{"Authorization": "Bearer ${T}"}, AllowedEnvVars: []string{"T"}}),
	}
	for i := range specs {
		for j := range i {
			if specs[i] == specs[j] {
				t.Errorf("specs %d and %d are the same: %q", j, i, specs[i])
			}
		}
	}
	a := opaSpec(&hookconfig.OPASpec{URL: url, Headers: map[string]string{"A": "1"}, AllowedEnvVars: []string{"U", "T", "T"}})
	b := opaSpec(&hookconfig.OPASpec{URL: url, Headers: map[string]string{"A": "1"}, AllowedEnvVars: []string{"T", "U"}})
	if a != b {
		t.Errorf("the order of allowed variables changed the spec: %q %q", a, b)
	}
	if !strings.HasPrefix(withToken, bare+"\n") {
		t.Errorf("%q does not extend %q", withToken, bare)
	}
}

// An opa: entry's headers arrive at OPA, their values filled from the
// variables allowed_env_vars lists (a bearer token); a variable it does
// not list is sent as an http hook sends it, empty, never its value. What
// approve shows names the variables sent.
func TestOPASendsHeaders(t *testing.T) {
	opa := newFakeOPA(t)
	opa.answer(0, `{"result":{"decision":"block","message":"by policy"}}`)
	yml := opaYAML("pre_tool_call", opa.URL+"/v1/data/x", true,
		"\n      headers:\n        Authorization: Bearer ${OPA_TOKEN}\n        X-Leak: \"[$SECRET]\"\n        X-Team: platform\n      allowed_env_vars: [OPA_TOKEN]")
	cfg, err := hookconfig.ParseConfig([]byte(yml), "hooks.yaml")
	if err != nil || len(cfg.Entries) != 1 || len(cfg.Warnings) != 0 {
		t.Fatalf("%v %v %v", err, cfg, cfg.Warnings)
	}
	d, err := New(cfg, Options{Gate: AllowAll, Env: []string{"OPA_TOKEN=tok-123", "SECRET=hunter2", "PATH=/usr/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", lsFields)
	if o.Decision != protocol.DecisionBlock || o.Message != "by policy" {
		t.Fatalf("outcome %+v", o)
	}
	heads := opa.headers()
	if len(heads) != 1 {
		t.Fatalf("%d posts", len(heads))
	}
	h := heads[0]
	if h.Get("Authorization") != "Bearer tok-123" || h.Get("X-Team") != "platform" || h.Get("X-Leak") != "[]" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", h)
	}
	if got := (opaKind{cfg.Entries[0].Spec.(*hookconfig.OPASpec)}).fixed(nil).Opaque; !strings.Contains(got, "its headers send OPA_TOKEN from your environment") || strings.Contains(got, "SECRET") {
		t.Errorf("shown: %q", got)
	}
}

// An opa: entry whose headers cannot be sent as written is kept and fails
// when it runs: posting nothing, a fail_closed guard blocks with the
// reason (never the value); another reports its failure.
func TestOPAHeadersThatCannotBeSentFail(t *testing.T) {
	opa := newFakeOPA(t)
	opa.answer(0, `{}`)
	for _, failClosed := range []bool{true, false} {
		d := dispatcherFor(t, opaYAML("pre_tool_call", opa.URL+"/v1/data/x", failClosed, "\n      headers: {Authorization: \"Bearer tok\\nX-Evil: 1\"}"))
		o := dispatch(t, d, "pre_tool_call", lsFields)
		if len(opa.posted()) != 0 {
			t.Fatalf("posted: %q", opa.posted())
		}
		rep := o.Hooks[0]
		if !strings.Contains(rep.Error, "opa: headers.Authorization must be one line") || strings.Contains(rep.Error, "tok") {
			t.Errorf("fail_closed %v: error %q", failClosed, rep.Error)
		}
		if failClosed != (o.Decision == protocol.DecisionBlock) || strings.Contains(o.Message, "tok") {
			t.Errorf("fail_closed %v: outcome %+v", failClosed, o)
		}
	}
}
