package hermeshome

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// setHome points os.UserHomeDir at dir on every system ("" leaves none).
func setHome(t *testing.T, dir string) {
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
	if runtime.GOOS == "plan9" {
		t.Setenv("home", dir)
	}
}

func TestDir(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		name, hermesHome, want string
	}{
		{"set", "/srv/hermes state", "/srv/hermes state"},
		{"relative kept as given", "rel/dir", "rel/dir"},
		{"unset", "", filepath.Join(home, ".hermes")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setHome(t, home)
			t.Setenv("HERMES_HOME", tc.hermesHome)
			got, err := Dir()
			if err != nil || got != tc.want {
				t.Errorf("Dir() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// With neither HERMES_HOME nor a home directory there is no answer: an
// error that names the variable to set, never a relative ".hermes" that
// would put the allowlist in whatever directory the process runs in.
func TestDirWithoutHome(t *testing.T) {
	if runtime.GOOS == "ios" {
		t.Skip("os.UserHomeDir falls back to / here")
	}
	setHome(t, "")
	t.Setenv("HERMES_HOME", "")
	got, err := Dir()
	if err == nil || !strings.Contains(err.Error(), "HERMES_HOME") {
		t.Errorf("Dir() = %q, %v; want an error naming HERMES_HOME", got, err)
	}
}
