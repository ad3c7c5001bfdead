package hookconfig

import (
	"path/filepath"
	"strings"
	"testing"
)

// Leak: a warning about an http hook's or an opa entry's URL (not in
// allowedHttpHookUrls; not a URL OPA can be at) is printed at every
// dispatch, on the stderr an agent may show or keep. The old code quoted
// the URL whole, query secret and all.
func TestWarningsShowURLsRedacted(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user", "settings.json")
	proj := filepath.Join(dir, "proj", ".claude", "settings.json")
	writeFile(t, user, `{"allowedHttpHookUrls":["https://policy.corp/*"]}`)
	writeFile(t, proj, `{"allowedHttpHookUrls":["https://evil.example/*"],"hooks":{"PreToolUse":[{"hooks":[
		{"type":"http","url":"https://evil.example/x?token=s3cretQ"},
		{"type":"http","url":"https://other.example/x?token=s3cretQ"}]}]}}`)
	cfgPath := filepath.Join(dir, "config.yaml")
	writeFile(t, cfgPath, "hooks:\n  pre_tool_call:\n    - opa: 'http://h.example/%zz?api_key=s3cretQ'\n    - opa: 'ftp://h.example/v1/data/x?api_key=s3cretQ'\n")
	cfg, err := Load(cfgPath, LoadOptions{AgentFiles: AgentFiles{"claude": {user, proj}}})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, w := range cfg.Warnings {
		all = append(all, w.String())
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"evil.example/x?token=xxxxx", "other.example/x?token=xxxxx", "%zz?api_key=xxxxx", "ftp://h.example/v1/data/x?api_key=xxxxx"} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning names %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "s3cretQ") {
		t.Errorf("a warning shows the secret:\n%s", text)
	}
}

// FuzzShownURL: whatever a URL looks like, a query value appended to it
// is never shown, and showing a shown URL changes nothing (what list
// shows approves the same hook as what the journal shows).
func FuzzShownURL(f *testing.F) {
	f.Add("https://h.example/hook", "s3cretQs3cretQ")
	f.Add("http://u:p@h.example/%zz", "abcdefgh")
	f.Add("https://h.example/a;b=c&d", "Zz9Zz9Zz9")
	f.Add("https://tok@h.example", "tokentoken")
	f.Fuzz(func(t *testing.T, base, secret string) {
		if len(secret) < 8 || strings.ContainsAny(base, "?#") || strings.Contains(base, secret) ||
			strings.Contains("xxxxx", secret) || strings.IndexFunc(secret, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			t.Skip()
		}
		if strings.Contains(ShownURL(base), secret) {
			// The base as shown holds it already: a host's byte shown as
			// its code (\x80) next to the host's digits.
			t.Skip()
		}
		if got := ShownURL(base + "?key=" + secret + "&x=1"); strings.Contains(got, secret) {
			t.Fatalf("ShownURL(%q) = %q shows the query's value", base+"?key="+secret, got)
		}
		once := ShownURL(base)
		if twice := ShownURL(once); twice != once {
			t.Fatalf("ShownURL(%q) = %q, but ShownURL of that is %q", base, once, twice)
		}
	})
}

// BenchmarkShownURL: an http entry's Text is its ShownURL, asked for by
// the report, the journal and the stats of every firing.
func BenchmarkShownURL(b *testing.B) {
	for _, u := range []string{"https://policy.corp/hook", "https://policy.corp/v1/hook?token=s3cretQ&team=blue"} {
		b.Run(u[strings.LastIndexByte(u, '/')+1:], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ShownURL(u)
			}
		})
	}
}
