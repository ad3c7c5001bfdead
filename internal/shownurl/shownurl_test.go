package shownurl

import (
	"net/url"
	"testing"
)

// FuzzURL holds what URL promises for any text: showing a shown URL
// changes nothing, and what net/url (and so net/http, which sends it)
// reads from the shown URL carries none of the secrets it read from the
// URL itself: no password, no user name that comes alone, no query
// value, no fragment. A URL whose text the redaction read differently
// from net/url (where the authority ends, which @ ends the user
// information) would put the token it sends into list, the journal and a
// block's reason.
func FuzzURL(f *testing.F) {
	for _, s := range []string{
		"http://127.0.0.1:8181/v1/data/hermes/pre_tool_call",
		"https://user:s3cret@hooks.example/x?token=abc&mode=1#frag",
		"https://TOKEN@host/",
		"https://a:b@c@host/p",
		"https://host/services/T0001/B0002/XyZ123abc456DEF789ghi",
		"//u:p@host?x",
		"https://h/?a;b=c&&d=",
		"https://h/p#",
		"https://оpa.cоrp.example/v1",
		"http://[::1]:80/?q=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		shown := URL(raw)
		if again := URL(shown); again != shown {
			t.Fatalf("URL(%q) = %q, shown again %q", raw, shown, again)
		}
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		s, err := url.Parse(shown)
		if err != nil {
			// asciiHost spells a non-ASCII host's letters as \u…, which
			// net/url may refuse: then nothing can be sent to what is shown.
			if !hasNonASCII(raw) {
				t.Fatalf("%q parses, its shown %q does not: %v", raw, shown, err)
			}
			return
		}
		if u.User != nil {
			if p, ok := u.User.Password(); ok && p != "" {
				if sp, _ := s.User.Password(); sp != redacted {
					t.Errorf("%q: shown %q keeps the password as %q", raw, shown, sp)
				}
			} else if !ok && u.User.Username() != "" && (s.User == nil || s.User.Username() != redacted) {
				t.Errorf("%q: shown %q keeps the lone user name", raw, shown)
			}
		}
		if u.Fragment != "" && s.Fragment != redacted {
			t.Errorf("%q: shown %q keeps the fragment as %q", raw, shown, s.Fragment)
		}
		values, _ := url.ParseQuery(s.RawQuery)
		for name, vs := range values {
			for _, v := range vs {
				if v != "" && v != redacted {
					t.Errorf("%q: shown %q keeps the query value %s=%q", raw, shown, name, v)
				}
			}
		}
	})
}

// TestURLAuthorityNotInTheRest: a "://" in the path, the query or the
// fragment does not start the authority; a scheme-relative URL's
// authority is at its start, and its user information is redacted.
func TestURLAuthorityNotInTheRest(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"//u:s3cret@host/?next=https://x", "//u:xxxxx@host/?next=xxxxx"},
		{"//t0ken@host/p#https://x", "//xxxxx@host/p#xxxxx"},
		{"https://u:p@h/a://b", "https://u:xxxxx@h/a://b"},
		{"/relative/x://u:p@h", "/relative/x://u:p@h"},
	} {
		if got := URL(c.raw); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}
