package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// On a fresh machine HERMES_HOME does not exist until something writes to
// it. serve on its default address (and serve --user, whose socket sits in
// HERMES_HOME/run) failed there on the lock file beside the socket
// ("open …/hermes-hooks.sock.lock: no such file or directory"), and a
// login unit restarted it for ever. It makes HERMES_HOME (0700), as approve
// does for the allowlist.
func TestServeMakesAFreshHome(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		socket string
	}{
		{"default", []string{"serve"}, "hermes-hooks.sock"},
		{"user", []string{"serve", "--user"}, filepath.Join("run", "hermes-hooks.sock")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newServeEnv(t, "")
			fresh := filepath.Join(e.root, "fresh")
			cmd := exec.Command("hermes-hooks", tc.args...)
			// The last HERMES_HOME wins (os/exec keeps the last of a name).
			cmd.Dir, cmd.Env = e.dir, append(append([]string{}, e.env...), "HERMES_HOME="+fresh)
			log := &proctest.Buffer{}
			cmd.Stderr = log
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				cmd.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				select {
				case <-exited:
				default:
					cmd.Process.Kill()
					<-exited
				}
			})
			socket := filepath.Join(fresh, tc.socket)
			for end := time.Now().Add(serveDeadline); ; time.Sleep(10 * time.Millisecond) {
				select {
				case <-exited:
					t.Fatalf("serve exited in a HERMES_HOME that did not exist yet:\n%s", log.String())
				default:
				}
				if _, err := os.Stat(socket); err == nil {
					break
				}
				if time.Now().After(end) {
					t.Fatalf("no socket at %s:\n%s", socket, log.String())
				}
			}
			fi, err := os.Stat(fresh)
			if err != nil {
				t.Fatal(err)
			}
			if perm := fi.Mode().Perm(); perm != 0o700 {
				t.Errorf("HERMES_HOME made with mode %04o, want 0700", perm)
			}
		})
	}
}
