package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// TestProbeOnWindows: hook honours a probe whose folder doctor gave an
// access list that lets this user alone in (the token file inheriting
// it), and no other: a folder and file as a checkout makes them (its
// folder's list), or a folder of ours holding a file with a list of its own
// that lets others in.
func TestProbeOnWindows(t *testing.T) {
	const tok = "0123456789abcdef0123456789abcdef"
	mk := func(restrict bool) string {
		dir, err := os.MkdirTemp(t.TempDir(), agents.ProbeDirPrefix)
		if err != nil {
			t.Fatal(err)
		}
		if restrict {
			if err := fsutil.RestrictToUser(dir, true); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(dir, agents.ProbeFile)
		if err := os.WriteFile(p, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	doctors := mk(true)
	t.Setenv(agents.ProbeEnv, doctors)
	if why := fsutil.OnlyUser(filepath.Dir(doctors)); why != "" {
		// Wine 8 accepts SetNamedSecurityInfo and keeps nothing: every
		// file reads back as SYSTEM's, the user's and Everyone's. No probe
		// is honoured there; the forgeries below are still refused.
		t.Logf("the access list given was not kept (%s): Wine? only the refusals are checked", why)
		if got := probeToken(); got != "" {
			t.Errorf("a folder that is not the user's alone: honoured (%q)", got)
		}
	} else if got := probeToken(); got != tok {
		t.Errorf("doctor's probe: %q (file: %s)", got, fsutil.OnlyUser(doctors))
	}
	forged := mk(false)
	t.Setenv(agents.ProbeEnv, forged)
	if got := probeToken(); got != "" {
		t.Errorf("a checkout's folder and file: honoured (%q)", got)
	}
	// A folder of the user's alone, its file's list opened to everyone.
	open := mk(true)
	if err := openToEveryone(open); err != nil {
		t.Fatal(err)
	}
	t.Setenv(agents.ProbeEnv, open)
	if got := probeToken(); got != "" {
		t.Errorf("a file everyone may read: honoured (%q)", got)
	}
}
