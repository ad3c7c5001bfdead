package permrule

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The host each URL goes to, as the WHATWG URL standard reads it (the
// expectations are the standard's: url.spec.whatwg.org, basic URL parser
// and host parser; they agree with `new URL(u).hostname` in Node and
// browsers). "" is doubt: the hook runs.
func TestURLHost(t *testing.T) {
	for _, c := range []struct{ url, host string }{
		{"https://example.com/", "example.com"},
		{"HTTPS://EXAMPLE.COM", "example.com"},
		{"https://example.com./x", "example.com."},
		{"http://example.com:8080/x?y#z", "example.com"},
		{"ws://evil.com", "evil.com"},
		{"ftp://evil.com/f", "evil.com"},
		// A backslash ends a special URL's authority; the userinfo is
		// everything before the last @.
		{`https://evil.com\@good.com/`, "evil.com"},
		{`https://good.com@evil.com/`, "evil.com"},
		{`https://a@b@evil.com/`, "evil.com"},
		{`http://good.com:80@evil.com/`, "evil.com"},
		{`https://evil.com#@good.com`, "evil.com"},
		{`https://evil.com?@good.com`, "evil.com"},
		// Slashes and backslashes after the scheme are skipped, however many.
		{`https:evil.com/x`, "evil.com"},
		{`https:/\evil.com`, "evil.com"},
		{`https:\\evil.com\x`, "evil.com"},
		{`https:////evil.com`, "evil.com"},
		// Spaces and controls at the ends trimmed; tabs and newlines removed.
		{" \x01https://evil.com \x1f", "evil.com"},
		{"https://ev\til.com", "evil.com"},
		{"https://ev\nil.c\rom", "evil.com"},
		// The host is percent-decoded, and IDNA maps full stops and
		// fullwidth letters.
		{"https://evil%2Ecom/", "evil.com"},
		{"https://%65%56il.com/", "evil.com"},
		{"https://evil\u3002com/", "evil.com"},
		{"https://evil\uFF0Ecom/", "evil.com"},
		{"https://evil\uFF61com/", "evil.com"},
		{"https://\uFF25\uFF36\uFF29\uFF2C.com/", "evil.com"},
		{"https://evil%E3%80%82com/", "evil.com"},
		// IPv4 in its other spellings; IPv6 as written.
		{"https://127.0.0.1/", "127.0.0.1"},
		{"https://0x7f.1/", "127.0.0.1"},
		{"https://2130706433/", "127.0.0.1"},
		{"https://017700000001/", "127.0.0.1"},
		{"https://0x7F.0.0.0x1/", "127.0.0.1"},
		{"https://127.1./", "127.0.0.1"},
		{"https://[::1]:8080/", "[::1]"},
		{"https://[FE80::1]/", "[fe80::1]"},
		{"https://evil.com:/x", "evil.com"},
		{"https://a.0xg/", "a.0xg"},
		{"https://a.0x/", ""},
		// Doubt: the hook runs.
		{"https://1.2.3.4.5/", ""},
		{"https://256.1.1.1/", ""},
		{"https://09.1.1.1/", ""},
		{"https://m\u00fcnchen.de/", ""},
		{"https://evil\u00AD.com/", ""}, // a soft hyphen, which IDNA removes
		{"https://evil%00.com/", ""},
		{"https://evil%.com/", ""},
		{"https://evil%2F.com/", ""},
		{"https://a..com/", ""},
		{"https://", ""},
		{"https://user@/", ""},
		{"https://evil.com:99999/", ""},
		{"https://evil.com:x/", ""},
		{"https://[::1/", ""},
		{"https://[::1]x/", ""},
		{"https://%ff.com/", ""},
		{"file:///etc/passwd", ""},
		{"javascript:alert(1)", ""},
		{"example.com/x", ""},
		{"not a url", ""},
		{"//evil.com/", ""},
	} {
		host, doubt := urlHost(c.url)
		if host != c.host || (host == "") == (doubt == "") {
			t.Errorf("urlHost(%q) = %q, %q; want %q", c.url, host, doubt, c.host)
		}
	}
}

// A domain guard catches every spelling of its domain, and still lets the
// other domains through.
func TestIfRule_DomainSpellings(t *testing.T) {
	for _, c := range []struct {
		rule, url string
		want      bool
	}{
		{"WebFetch(domain:evil.com)", `https://evil.com\@good.com/`, true},
		{"WebFetch(domain:evil.com)", "https://evil%2Ecom/", true},
		{"WebFetch(domain:evil.com)", "https://evil\u3002com/", true},
		{"WebFetch(domain:evil.com)", "https://EVIL.com./", true},
		{"WebFetch(domain:evil.com)", "https:\\\\evil.com", true},
		{"WebFetch(domain:evil.com)", "https://m\u00fcnchen.de/", true}, // cannot tell
		{"WebFetch(domain:*.evil.com)", "https://a.evil\uFF0Ecom/", true},
		{"WebFetch(domain:127.0.0.1)", "http://0x7f.1/", true},
		{"WebFetch(domain:good.com)", `https://evil.com\@good.com/`, false},
		{"WebFetch(domain:evil.com)", "https://good.com/evil.com", false},
		{"WebFetch(domain:evil.com)", "https://evil.com.good.com/", false},
		{"WebFetch(domain:evil.com)", "https://notevil.com/", false},
		{"WebFetch(domain:\uFF45vil.com)", "https://evil.com/", true},
	} {
		r, err := ParseIfRule(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		if got, why := r.Match("WebFetch", map[string]any{"url": c.url}, RuleContext{}); got != c.want {
			t.Errorf("%s on %q = %v (%s), want %v", c.rule, c.url, got, why, c.want)
		}
	}
	if _, err := ParseIfRule("WebFetch(domain:m\u00fcnchen.de)"); err == nil {
		t.Error("a non-ASCII domain rule must ask for its xn-- form")
	}
}

// urlHost never panics; a host it returns is lowercase ASCII with no
// character a host may not hold; and on plain URLs it agrees with net/url.
func FuzzURLHost(f *testing.F) {
	for _, s := range []string{"https://example.com/", `https://evil.com\@good.com/`, "https://evil%2Ecom",
		"http://0x7f.1/", "https://[::1]:80/", "https://evil\u3002com", "file:///x", "HTTPS://A.B:1/"} {
		f.Add(s)
	}
	plain := regexp.MustCompile(`^https?://[a-z0-9-]+(\.[a-z-]+)+(:[1-9][0-9]{0,3})?(/[a-z0-9/]*)?$`)
	f.Fuzz(func(t *testing.T, raw string) {
		host, doubt := urlHost(raw)
		if (host == "") == (doubt == "") {
			t.Fatalf("urlHost(%q) = %q, %q: exactly one must be set", raw, host, doubt)
		}
		if host != "" && !strings.HasPrefix(host, "[") {
			for i := 0; i < len(host); i++ {
				if c := host[i]; c <= 0x20 || c >= 0x7f || c >= 'A' && c <= 'Z' || strings.IndexByte(`#%/:<>?@[\]^|`, c) >= 0 {
					t.Fatalf("urlHost(%q) = %q holds %q", raw, host, c)
				}
			}
			if again, _ := urlHost("https://" + host + "/"); again != host {
				t.Fatalf("urlHost(%q) = %q, but that host reads back as %q", raw, host, again)
			}
		}
		if plain.MatchString(raw) {
			u, err := url.Parse(raw)
			if err != nil || u.Hostname() != host {
				t.Fatalf("urlHost(%q) = %q, net/url says %q (%v)", raw, host, u.Hostname(), err)
			}
		}
	})
}
