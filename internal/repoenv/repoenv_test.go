package repoenv

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

func TestActive(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want []string
	}{
		{nil, nil},
		{map[string]string{HomeVar: "/home/u"}, nil},
		{map[string]string{HomeVar: "/elsewhere"}, []string{HomeVar}}, // ~/.hermes moved
		{map[string]string{HomeVar: "/elsewhere", Home: "/h"}, []string{Home}},
		{map[string]string{SafeMode: "0"}, nil}, // leaves the guards on
		{map[string]string{SafeMode: "true"}, []string{SafeMode}},
		{map[string]string{Home: ""}, []string{Home}}, // replaces the user's own
		{map[string]string{Managed: "/x", "HERMES_ACCEPT_HOOKS": "1"}, []string{Managed}},
	} {
		got := Active(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }, func() string { return "/home/u" })
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Active(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}

// A value the file gives that the environment does not hold was not taken
// from it; a file that names the variable where our reading of it does not
// counts, its value unknown.
func TestCheckInEnv(t *testing.T) {
	dir := t.TempDir()
	gemini, _ := agents.Lookup("gemini")
	env := map[string]string{SafeMode: "1"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, c := range []struct {
		file string
		want bool
	}{
		{"HERMES_SAFE_MODE=1\n", true},
		{"HERMES_SAFE_MODE=yes\n", false},
		{"HERMES_SAFE_MODE=\"1\" # on\n", true},
		{"OTHER=1\n", false},
	} {
		if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		got := Check(gemini, []string{dir}, "/nonexistent-home", InEnv(Active(lookup, UserHome), lookup), []string{SafeMode})
		if (len(got) > 0) != c.want {
			t.Errorf("%q: %v, want a finding: %v", c.file, got, c.want)
		}
	}
}

// The cost hook pays per call while a control is set (HERMES_HOME set by
// the user, the files absent): go test -bench CheckAbsent ./internal/repoenv
func BenchmarkCheckAbsent(b *testing.B) {
	dir := b.TempDir()
	claude, _ := agents.Lookup("claude")
	lookup := func(k string) (string, bool) { return map[string]string{Home: "/h"}[k], k == Home }
	for b.Loop() {
		home := UserHome()
		active := Active(lookup, nil)
		if got := Check(claude, []string{dir, dir, dir}, home, InEnv(active, lookup), active); len(got) != 0 {
			b.Fatal(got)
		}
	}
}

// Nothing set: what every other call pays.
func BenchmarkActiveNone(b *testing.B) {
	for b.Loop() {
		if Active(func(string) (string, bool) { return "", false }, nil) != nil {
			b.Fatal("active")
		}
	}
}

// A HOME that names the account's home only once cleaned by its text, with
// a "..": the system takes each ".." after the link before it, which may be
// the repository's (proj/l -> a/b: proj/l/../.. is proj), so git's
// ~/.gitconfig and jq's ~/.jq would be the repository's. It is moved.
func TestActiveHomeDotDot(t *testing.T) {
	for v, want := range map[string]bool{
		"/home/u": false, "/home/u/": false, "/home/u/.": false,
		"/home/u/proj/l/../..": true, "/home/u/../u": true, "/x/../home/u": true,
	} {
		lookup := func(k string) (string, bool) {
			if k != HomeVar {
				return "", false
			}
			return v, true
		}
		got := Active(lookup, func() string { return "/home/u" })
		if moved := slices.Contains(got, HomeVar); moved != want {
			t.Errorf("HOME=%q: Active = %v, want moved %v", v, got, want)
		}
	}
}
