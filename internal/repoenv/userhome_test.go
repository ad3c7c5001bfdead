//go:build unix

package repoenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An account the database does not know (a container run as a bare uid,
// LDAP without cgo): UserHome has no home to give, and must not give
// $HOME, the variable a repository's settings moved (it used to, and
// HOME was then never a control). Run as such an account: needs root.
func TestUserHomeNoAccount(t *testing.T) {
	if os.Getenv("REPOENV_USERHOME_CHILD") == "1" {
		os.Stdout.WriteString("home=" + UserHome() + "\n")
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to run as an unknown uid")
	}
	const uid = 4242424 // in no account database
	// The test binary's folder is the building user's alone: a copy the
	// other account can run.
	dir, err := os.MkdirTemp("", "userhome")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "repoenv.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestUserHomeNoAccount$")
	cmd.Dir = dir
	cmd.Env = []string{"REPOENV_USERHOME_CHILD=1", "USER=someone", "HOME=/repository-chose-this", "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "home=\n") {
		t.Errorf("UserHome for an unknown account: %s, want none", out)
	}
}

func TestPasswdHome(t *testing.T) {
	file := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(file, []byte("root:x:0:0:root:/root:/bin/sh\n#c:x:7:7::/no:/bin/sh\nu:x:1000:1000:U, Ser:/home/u:/bin/sh\nbad:x:9\nnohome:x:5:5:::/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for uid, want := range map[string]string{"0": "/root", "1000": "/home/u", "7": "", "9": "", "5": "", "42": ""} {
		if got, ok := passwdHome(file, uid); got != want || ok != (want != "") {
			t.Errorf("uid %s: %q %v, want %q", uid, got, ok, want)
		}
	}
}
