package agents

import (
	"bytes"
	"testing"
)

func TestTrusted(t *testing.T) {
	const p = "/home/u/src/app"
	for _, c := range []struct {
		agent, file string
		want        bool
	}{
		{"codex", "", false},
		{"codex", "[projects.\"/home/u/src/app\"]\ntrust_level = \"trusted\"\n", true},
		{"codex", "[projects.'/home/u/src/app']\ntrust_level = 'trusted' # yes\n", true},
		{"codex", "[projects.\"/home/u/src/app\"]\ntrust_level = \"untrusted\"\n", false},
		{"codex", "[projects.\"/home/u/src\"]\ntrust_level = \"trusted\"\n", false},
		{"codex", "[projects.\"/home/u/src/app\"]\n[other]\ntrust_level = \"trusted\"\n", false},
		{"codex", "[projects.\"/home/u/src/app/\"]\ntrust_level = \"trusted\"\n", true},
		// A UTF-8 byte order mark first: Codex reads the file all the same.
		{"codex", "\ufeff[projects.\"/home/u/src/app\"]\ntrust_level = \"trusted\"\n", true},
		{"gemini", `{"/home/u/src/app": "TRUST_FOLDER"}`, true},
		{"gemini", `{"/home/u/src": "TRUST_FOLDER"}`, true},
		{"gemini", `{"/home/u/src/app/sub": "TRUST_PARENT"}`, true},
		{"gemini", `{"/home/u/src": "TRUST_FOLDER", "/home/u/src/app": "DO_NOT_TRUST"}`, false},
		{"gemini", `{"/home/u/src/app": "DO_NOT_TRUST"}`, false},
		{"gemini", `{"/home/u/src/ap": "TRUST_FOLDER"}`, false},
		{"gemini", `{"src/app": "TRUST_FOLDER"}`, false},
		{"gemini", `not json`, false},
		{"copilot", `{"trusted_folders": ["/home/u/src"]}`, true},
		{"copilot", `{"trustedFolders": ["/home/u/src/app"]}`, true},
		{"copilot", `{"trustedFolders": ["/home/u/other"]}`, false},
		{"copilot", `{}`, false},
		{"claude", ``, true},
	} {
		a, _ := Lookup(c.agent)
		if got := a.Trusted([]byte(c.file), p); got != c.want {
			t.Errorf("%s %q: trusted %v, want %v", c.agent, c.file, got, c.want)
		}
	}
	none := func(string) string { return "" }
	if a, _ := Lookup("claude"); a.TrustFile("/home/u", none) != "" {
		t.Error("Claude Code asks no folder trust of its project hooks")
	}
	codex, _ := Lookup("codex")
	if got := codex.TrustFile("/home/u", none); got != "/home/u/.codex/config.toml" {
		t.Errorf("Codex trust file %q", got)
	}
	if got := codex.TrustFile("/home/u", func(k string) string { return map[string]string{"CODEX_HOME": "/srv/codex"}[k] }); got != "/srv/codex/config.toml" {
		t.Errorf("Codex trust file with CODEX_HOME %q", got)
	}
}

func TestReviews(t *testing.T) {
	codex, _ := Lookup("codex")
	const file = "/p/.codex/hooks.json"
	data := []byte("[projects.\"/p\"]\ntrust_level = \"trusted\"\n\n[hooks.state]\n\n" +
		"[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n" +
		"[hooks.state.'/p/.codex/hooks.json:stop:1:0']\ntrusted_hash = \"sha256:00\"\n")
	for _, c := range []struct {
		e    FileEntry
		want bool
	}{
		{FileEntry{Event: "PreToolUse"}, true},
		{FileEntry{Event: "PreToolUse", Group: 1}, false},
		{FileEntry{Event: "PostToolUse"}, false},
		{FileEntry{Event: "Stop", Group: 1}, true},
		{FileEntry{Event: "Stop"}, false},
	} {
		if got, asks := codex.Reviews(data)(file, c.e); got != c.want || !asks {
			t.Errorf("%+v: reviewed %v (asks %v), want %v", c.e, got, asks, c.want)
		}
	}
	// A UTF-8 byte order mark first: Codex reads the file all the same.
	bom := []byte("\ufeff[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n")
	if got, _ := codex.Reviews(bom)(file, FileEntry{Event: "PreToolUse"}); !got {
		t.Error("after a byte order mark, the first table's review is not read")
	}
	if _, asks := codex.Reviews(data)("/other/.codex/hooks.json", FileEntry{Event: "PreToolUse"}); !asks {
		t.Error("Codex asks for a review of every hook")
	}
	claude, _ := Lookup("claude")
	if _, asks := claude.Reviews(data)(file, FileEntry{Event: "PreToolUse"}); asks {
		t.Error("Claude Code asks no review of each hook")
	}
	for in, want := range map[string]string{"PreToolUse": "pre_tool_use", "Stop": "stop", "PreModelRequest": "pre_model_request"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q", in, got)
		}
	}
}

// FuzzTrusted: no trust file, however malformed, panics the reader, and a
// file that never says "trust" trusts nothing.
func FuzzTrusted(f *testing.F) {
	f.Add([]byte("[projects.\"/a\"]\ntrust_level = \"trusted\"\n"), "/a")
	f.Add([]byte(`{"/a": "TRUST_PARENT", "trustedFolders": ["/a"]}`), "/a/b")
	f.Add([]byte("[projects.\"\\u00\"]\n"), "/")
	f.Fuzz(func(t *testing.T, data []byte, project string) {
		for _, name := range []string{"codex", "gemini", "copilot"} {
			a, _ := Lookup(name)
			if a.Trusted(data, project) && !bytes.Contains(bytes.ToLower(data), []byte("trust")) {
				t.Fatalf("%s: %q trusts %q", name, data, project)
			}
			if ok, _ := a.Reviews(data)(project, FileEntry{Event: "PreToolUse"}); ok && !bytes.Contains(data, []byte("state")) {
				t.Fatalf("%s: %q reviews %q", name, data, project)
			}
		}
	})
}
