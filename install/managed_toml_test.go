package install

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

func codexForTest(t testing.TB) *agents.Agent {
	ag, ok := agents.Lookup("codex")
	if !ok || ag.ManagedLayer() == nil || !ag.ManagedLayer().TOML {
		t.Fatal("no TOML managed layer to test")
	}
	return ag
}

func tomlCommand(ev string) string { return "'/usr/local/bin/hermes-hooks' hook codex " + ev }

// TestManagedTOMLRoundTrip: our block and the managed-only line go in, and
// stripping them gives the file as it was (every byte), for the shapes an
// administrator's requirements.toml takes.
func TestManagedTOMLRoundTrip(t *testing.T) {
	ag := codexForTest(t)
	for _, c := range []struct{ name, in string }{
		{"empty", ""},
		{"keys only, no final newline", `allowed_sandbox_modes = ["read-only"]`},
		{"tables", "a = 1\n\n[features]\nhooks = true\n"},
		{"hooks table", "[hooks]\nmanaged_dir = \"/opt/h\"\n"},
		{"their hooks", "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"/opt/h/a\"\n"},
		{"comment only", "# nothing yet\n"},
		{"dotted hooks key", "hooks.managed_dir = \"/opt/h\"\n"},
	} {
		for _, only := range []bool{false, true} {
			out, err := addTOML("r.toml", []byte(c.in), ag, tomlCommand, only)
			if err != nil {
				t.Errorf("%s (only %v): %v", c.name, only, err)
				continue
			}
			if !strings.Contains(string(out), tomlBegin) || only != strings.Contains(string(out), "allow_managed_hooks_only = true"+tomlOnlyMark) {
				t.Errorf("%s (only %v): our lines missing:\n%s", c.name, only, out)
			}
			key := ""
			if only {
				key = "allow_managed_hooks_only"
			}
			back, err := stripTOML("r.toml", out, key)
			want := c.in
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if err != nil || string(back) != want {
				t.Errorf("%s (only %v): stripped back to %q (%v), want %q", c.name, only, back, err, want)
			}
		}
	}
}

// TestManagedTOMLRefused: a file our tables cannot extend without changing
// what it means, or that does not parse, is an error naming why; nothing
// is returned to write.
func TestManagedTOMLRefused(t *testing.T) {
	ag := codexForTest(t)
	for _, c := range []struct{ name, in, err string }{
		{"inline array", "[hooks]\nPreToolUse = []\n", "tables cannot extend"},
		{"inline table", "hooks = { managed_dir = \"/x\" }\n", "tables cannot extend"},
		{"quoted inline table", "\"hooks\" = {}\n", "tables cannot extend"},
		{"dotted inline array", "hooks . Stop = []\n", "tables cannot extend"},
		{"not a table", "hooks = 3\n", "tables cannot extend"},
		{"switch off", "allow_managed_hooks_only = false\n", "allow_managed_hooks_only is false"},
		{"broken", "a = 1\nb = = 2\n", "r.toml:2:"},
	} {
		out, err := addTOML("r.toml", []byte(c.in), ag, tomlCommand, true)
		if err == nil || !strings.Contains(err.Error(), c.err) || out != nil {
			t.Errorf("%s: %q, %v; want an error saying %q", c.name, out, err, c.err)
		}
	}
	if _, err := stripTOML("r.toml", []byte(tomlBegin+"[[hooks.Stop]]\n"), ""); err == nil || !strings.Contains(err.Error(), "no end mark") {
		t.Errorf("a block without its end: %v", err)
	}
	// The marks inside an administrator's string are not our block: never
	// cut out.
	inString := "note = \"\"\"\n" + tomlBegin + "keep = 1\n" + tomlEnd + "\"\"\"\n"
	if out, err := stripTOML("r.toml", []byte(inString), ""); err == nil || !strings.Contains(err.Error(), "not a block install wrote") {
		t.Errorf("marks inside a string: %q, %v", out, err)
	}
}

// FuzzManagedTOML: whatever an administrator's file holds, install either
// refuses it or writes a file that parses, holds our block, and strips
// back to the file (with a final newline).
func FuzzManagedTOML(f *testing.F) {
	for _, s := range []string{"", "a = 1", "[hooks]\nmanaged_dir = \"/x\"\n", "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"x\"\n",
		"s = '''\n[x]\n'''\n", "hooks = {}\n", "# c\n[a]\nb = [\n 1,\n]\n", "x = \"\"\"\n" + tomlBegin + "\"\"\"\n"} {
		f.Add([]byte(s), true)
	}
	ag := codexForTest(f)
	f.Fuzz(func(t *testing.T, in []byte, only bool) {
		if _, err := decodeTOML("r.toml", in); err != nil || bytes.Contains(in, []byte("hermes-hooks")) {
			return
		}
		out, err := addTOML("r.toml", in, ag, tomlCommand, only)
		if err != nil {
			return
		}
		if _, err := decodeTOML("r.toml", out); err != nil {
			t.Fatalf("wrote a file that does not parse: %v\n%s", err, out)
		}
		key := ""
		if only {
			key = "allow_managed_hooks_only"
		}
		back, err := stripTOML("r.toml", out, key)
		want := string(in)
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if err != nil || string(back) != want {
			t.Fatalf("stripped to %q (%v), want %q", back, err, want)
		}
	})
}
