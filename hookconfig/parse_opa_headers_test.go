package hookconfig

import (
	"reflect"
	"strings"
	"testing"
)

// An opa: entry's headers and allowed_env_vars (an OPA server started with
// --authentication=token wants Authorization: Bearer …) are read as an
// http hook's headers and allowedEnvVars are. What cannot be sent as
// written is a warning naming the key and what to write, never the value
// (it may be the token); the entry is kept and fails when it runs, so
// that a fail_closed guard fails closed rather than vanish or post
// without the header it was given.
func TestParseOPAHeaders(t *testing.T) {
	const url = "http://127.0.0.1:8181/v1/data/hermes/pre_tool_call"
	const secret = "s3cret-token-value"
	for _, tc := range []struct {
		name, keys string
		headers    map[string]string
		allowed    []string
		warning    string // "" when none
	}{
		{name: "none", keys: ""},
		{name: "a bearer token from a listed variable", keys: "headers:\n        Authorization: Bearer ${OPA_TOKEN}\n      allowed_env_vars: [OPA_TOKEN]",
			headers: map[string]string{"Authorization": "Bearer ${OPA_TOKEN}"}, allowed: []string{"OPA_TOKEN"}},
		{name: "a literal token", keys: "headers: {Authorization: 'Bearer " + secret + "'}",
			headers: map[string]string{"Authorization": "Bearer " + secret}},
		{name: "through an anchor", keys: "headers: &h {X-Team: a}\n      allowed_env_vars: &v [A, B]",
			headers: map[string]string{"X-Team": "a"}, allowed: []string{"A", "B"}},
		{name: "headers not a mapping", keys: "headers: Authorization " + secret,
			warning: "hooks.pre_tool_call[0].headers must be a mapping of header names to values (such as Authorization: Bearer ${OPA_TOKEN}); got str; the entry fails when it runs"},
		{name: "a value that is no string", keys: "headers: {X-Count: 5}",
			warning: "hooks.pre_tool_call[0].headers.X-Count must be a string; got int (quote it); the entry fails when it runs"},
		{name: "a value that is a list", keys: "headers: {Authorization: [Bearer, " + secret + "]}",
			warning: "hooks.pre_tool_call[0].headers.Authorization must be a string; got list; the entry fails when it runs"},
		{name: "a line break in a value", keys: "headers: {Authorization: \"Bearer " + secret + "\\r\\nX-Evil: 1\"}",
			warning: "hooks.pre_tool_call[0].headers.Authorization must be one line: a value with a line break (CR or LF) or another control character would add a header or fail; the entry fails when it runs"},
		{name: "a header name with a space", keys: "headers: {'X Token': a}",
			warning: `hooks.pre_tool_call[0].headers["X Token"] is not a header name (letters, digits and !#$%&'*+-.^_` + "`" + `|~ only, such as Authorization); the entry fails when it runs`},
		{name: "a name given twice in another case", keys: "headers: {Authorization: a, authorization: b}",
			warning: "hooks.pre_tool_call[0].headers.authorization is the header Authorization again (header names are read in any case); give it once; the entry fails when it runs"},
		{name: "allowed_env_vars not a list", keys: "headers: {Authorization: Bearer $T}\n      allowed_env_vars: T",
			headers: map[string]string{"Authorization": "Bearer $T"},
			warning: "hooks.pre_tool_call[0].allowed_env_vars must be a list of environment variable names (such as [OPA_TOKEN]); got str; the entry fails when it runs"},
		{name: "allowed_env_vars with no name", keys: "allowed_env_vars: [OK, 'NOT-A-NAME', 3]",
			warning: "hooks.pre_tool_call[0].allowed_env_vars[1] is not a variable name (a letter or _, then letters, digits and _); the entry fails when it runs"},
	} {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: "+url+"\n      fail_closed: true\n      "+tc.keys+"\n"), "hooks.yaml")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		all := warningsText(cfg)
		if tc.warning == "" && all != "" || !strings.Contains(all, tc.warning) {
			t.Errorf("%s: warnings %q, want %q", tc.name, all, tc.warning)
		}
		if strings.Contains(all, secret) {
			t.Errorf("%s: a warning shows the header's value: %q", tc.name, all)
		}
		if len(cfg.Entries) != 1 {
			t.Fatalf("%s: %d entries: a fail_closed guard with headers it cannot send must stay (and fail)", tc.name, len(cfg.Entries))
		}
		e := cfg.Entries[0]
		s, ok := e.Spec.(*OPASpec)
		if !ok || !e.FailClosed || e.Text() != "opa: "+url {
			t.Fatalf("%s: entry %+v spec %+v", tc.name, e, e.Spec)
		}
		if (s.Invalid != "") != (tc.warning != "") {
			t.Errorf("%s: Invalid %q, warning %q", tc.name, s.Invalid, tc.warning)
		}
		if strings.Contains(s.Invalid, secret) {
			t.Errorf("%s: Invalid shows the value: %q", tc.name, s.Invalid)
		}
		if tc.warning == "" && (!reflect.DeepEqual(s.Headers, tc.headers) || !reflect.DeepEqual(s.AllowedEnvVars, tc.allowed)) {
			t.Errorf("%s: headers %q allowed %q, want %q %q", tc.name, s.Headers, s.AllowedEnvVars, tc.headers, tc.allowed)
		}
	}
}

// headers and allowed_env_vars are an opa: entry's: on a command they
// would send nothing, and saying nothing let a token be thought sent.
func TestOPAHeaderKeysElsewhere(t *testing.T) {
	for _, kind := range []string{"command: ./guard.sh", "rule: tool == 'terminal'\n      decision: block\n      message: no"} {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - "+kind+"\n      headers: {Authorization: x}\n      allowed_env_vars: [T]\n"), "hooks.yaml")
		if err != nil || len(cfg.Entries) != 1 {
			t.Fatalf("%s: %v %v", kind, err, cfg)
		}
		all := warningsText(cfg)
		for _, want := range []string{"hooks.pre_tool_call[0].headers is read on opa: entries only; ignoring it", "hooks.pre_tool_call[0].allowed_env_vars is read on opa: entries only; ignoring it"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: warnings %q, want %q", kind, all, want)
			}
		}
	}
}

// Two opa: entries of one URL that send different headers are two hooks:
// the second was "duplicate: runs once" and never queried, a policy asked
// with another token silently not asked. As for URLs that differ only in
// what is shown as xxxxx, the second is listed and approved as TEXT [2];
// one without headers keeps the key it had.
func TestOPAHeadersMakeAnotherHook(t *testing.T) {
	const url = "http://127.0.0.1:8181/v1/data/x"
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: "+url+"\n      headers: {Authorization: Bearer a}\n    - opa: "+url+"\n      headers: {Authorization: Bearer b}\n    - opa: "+url+"\n"), "hooks.yaml")
	if err != nil || len(cfg.Entries) != 3 {
		t.Fatalf("%v %v", err, cfg)
	}
	a, b, bare := cfg.Entries[0], cfg.Entries[1], cfg.Entries[2]
	if a.SameKey() == b.SameKey() || a.SameKey() == bare.SameKey() || a.Duplicate || b.Duplicate {
		t.Errorf("keys %q %q, duplicate %v %v", a.SameKey(), b.SameKey(), a.Duplicate, b.Duplicate)
	}
	if a.Text() != "opa: "+url || b.Text() != "opa: "+url+" [2]" || bare.Text() != "opa: "+url+" [3]" {
		t.Errorf("texts %q %q %q", a.Text(), b.Text(), bare.Text())
	}
	if bare.SameKey() != TypeOPA+"\x00"+url {
		t.Errorf("an entry without headers: key %q", bare.SameKey())
	}
}

// A header given twice under the same name is the file's error, as any key
// given twice in a mapping hermes-hooks reads: PyYAML keeps the last value
// (here the user's token), while whoever reviews the file, or a tool that
// takes the first, reads the harmless one above it.
func TestOPAHeaderGivenTwice(t *testing.T) {
	_, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: http://127.0.0.1:8181/v1/data/x\n      headers:\n        Authorization: Bearer public\n        Authorization: Bearer ${OPA_TOKEN}\n      allowed_env_vars: [OPA_TOKEN]\n"), "hooks.yaml")
	if err == nil || !strings.Contains(err.Error(), "hooks.pre_tool_call[0].headers: key 'Authorization' is given twice (lines 5 and 6)") || strings.Contains(err.Error(), "public") {
		t.Errorf("got %v, want the file's error naming the key and both lines, never a value", err)
	}
}

// A header value that names a variable allowed_env_vars does not list is
// sent with the variable empty (as documented, so that a repository's
// entry cannot send a secret by naming it): validate says so, where it
// said "no problems" and OPA's 401 was the first sign of a token never
// sent. Advice (validate's), not a load warning printed at every event:
// the entry still runs as written.
func TestOPAHeaderNamesAnUnlistedVariable(t *testing.T) {
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: http://127.0.0.1:8181/v1/data/x\n      headers:\n        Authorization: Bearer ${OPA_TOKEN}\n        X-Team: $TEAM $OPA_TOKEN ${OPA_TOKEN}\n      allowed_env_vars: [TEAM]\n"), "hooks.yaml")
	if err != nil || len(cfg.Entries) != 1 {
		t.Fatalf("%v %v", err, cfg)
	}
	if w := warningsText(cfg); w != "" {
		t.Errorf("load warnings %q, want none (validate's advice says it)", w)
	}
	var all string
	for _, w := range cfg.Advice() {
		all += w.String() + "\n"
	}
	for _, want := range []string{
		"hooks.pre_tool_call[0].headers.Authorization names $OPA_TOKEN, which allowed_env_vars does not list: it is sent empty (list it in allowed_env_vars to send its value)",
		"hooks.pre_tool_call[0].headers.X-Team names $OPA_TOKEN, which allowed_env_vars does not list",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q, want %q", all, want)
		}
	}
	if strings.Contains(all, "$TEAM") || strings.Count(all, "\n") != 2 {
		t.Errorf("warnings %q: want one per header naming an unlisted variable, none for a listed one", all)
	}
	if s := cfg.Entries[0].Spec.(*OPASpec); s.Invalid != "" {
		t.Errorf("Invalid %q: the entry still runs as written", s.Invalid)
	}
}

// A header name is the file's text: a warning shows it cut, as every
// config-controlled name (maxShown), so that a repository's file of long
// names given twice in another case does not print kilobytes per entry
// at every event (YAML lets a key run to 1,024 characters).
func TestOPAHeaderWarningCutsLongNames(t *testing.T) {
	long := "X" + strings.Repeat("a", 1000)
	for _, keys := range []string{
		"headers: {" + long + ": a, " + strings.ToUpper(long) + ": b}",
		"headers: {" + long + ": 5}",
	} {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: http://127.0.0.1:8181/v1/data/x\n      "+keys+"\n"), "hooks.yaml")
		if err != nil {
			t.Fatal(err)
		}
		all := warningsText(cfg)
		if all == "" || len(all) > 400 {
			t.Errorf("%d bytes of warnings for one header: %.300q", len(all), all)
		}
		if s := cfg.Entries[0].Spec.(*OPASpec); s.Invalid == "" || len(s.Invalid) > 400 {
			t.Errorf("Invalid: %d bytes", len(s.Invalid))
		}
	}
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: http://127.0.0.1:8181/v1/data/x\n      headers: {"+long+": $T}\n"), "hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range cfg.Advice() {
		if len(w.String()) > 400 {
			t.Errorf("advice of %d bytes", len(w.String()))
		}
	}
}
