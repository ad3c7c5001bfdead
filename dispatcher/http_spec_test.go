package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// httpSpec is what an http hook's approval pins: it changes with the URL,
// any header name or value, and the set of allowed variables — and with
// nothing else (header and variable order, repeated variables).
func TestHTTPSpec(t *testing.T) {
	base := hookconfig.HTTPSpec{URL: "https://hooks.example/a", Headers: map[string]string{"X-A": "1", "X-B": "2"}, AllowedEnvVars: []string{"B", "A"}}
	want := "http\nurl \"https://hooks.example/a\"\nheader \"X-A\" \"1\"\nheader \"X-B\" \"2\"\nallowed_env \"A\"\nallowed_env \"B\""
	if got := httpSpec(&base); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	same := []hookconfig.HTTPSpec{
		{URL: base.URL, Headers: map[string]string{"X-B": "2", "X-A": "1"}, AllowedEnvVars: []string{"A", "B", "A"}},
	}
	for _, e := range same {
		if httpSpec(&e) != httpSpec(&base) {
			t.Errorf("%+v: spec differs from an equivalent definition", e)
		}
	}
	differ := map[string]hookconfig.HTTPSpec{
		"another URL":                    {URL: base.URL + "/", Headers: base.Headers, AllowedEnvVars: base.AllowedEnvVars},
		"a header added":                 {URL: base.URL, Headers: map[string]string{"X-A": "1", "X-B": "2", "Authorization": "Bearer $A"}, AllowedEnvVars: base.AllowedEnvVars},
		"a header value":                 {URL: base.URL, Headers: map[string]string{"X-A": "1", "X-B": "$A"}, AllowedEnvVars: base.AllowedEnvVars},
		"a header renamed":               {URL: base.URL, Headers: map[string]string{"X-A": "1", "X-b": "2"}, AllowedEnvVars: base.AllowedEnvVars},
		"a variable allowed":             {URL: base.URL, Headers: base.Headers, AllowedEnvVars: []string{"A", "B", "SECRET"}},
		"a variable dropped":             {URL: base.URL, Headers: base.Headers, AllowedEnvVars: []string{"A"}},
		"no headers":                     {URL: base.URL, AllowedEnvVars: base.AllowedEnvVars},
		"a value that looks like a name": {URL: base.URL, Headers: map[string]string{"X-A": "1\"\nheader \"X-B\" \"2"}, AllowedEnvVars: base.AllowedEnvVars},
	}
	for name, e := range differ {
		if httpSpec(&e) == httpSpec(&base) {
			t.Errorf("%s: same spec as the approved definition", name)
		}
	}
}
