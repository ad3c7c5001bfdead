//go:build linux

package attacktest

import (
	"os/exec"
	"strings"
	"testing"
)

// packSerial packs files as bundle name with serial (none when "") under a
// source directory of its own (tag), signed by the key prefix.
func (e *env) packSerial(tag, name, serial, key string, files map[string]string) string {
	e.t.Helper()
	src := "src-" + tag
	for p, c := range files {
		e.write(src+"/"+p, c, 0o755)
	}
	out := e.path(src + ".tar.gz")
	args := []string{"bundle", "pack", e.path(src), "--name", name, "-o", out}
	if serial != "" {
		args = append(args, "--serial", serial)
	}
	e.run("", args...)
	e.run("", "bundle", "sign", out, "--key", key+".key")
	return out
}

// The downgrade attack: whoever can hand a user (or an admin running
// `bundle install --managed`) a bundle can hand them an OLDER one, validly
// signed by the same trusted key, whose guard still has the hole a later
// bundle fixed. Its signature verifies and its signer is the installed
// one's, so without a version in the signed manifest the rollback
// installed and the fixed guard was gone. Now the older serial, an
// unversioned bundle and another bundle of the installed serial are all
// refused, naming both serials, and the fixed guard still runs.
func TestBundleOlderSignedBundleCannotRollBack(t *testing.T) {
	fixed := "#!/bin/sh\necho '{\"decision\": \"block\", \"message\": \"fixed guard\"}'\n"
	holed := "#!/bin/sh\necho '{}'\n" // the guard before its fix: lets everything through
	for _, layer := range []string{"user", "managed"} {
		t.Run(layer, func(t *testing.T) {
			e := bundleEnv(t)
			var where []string
			if layer == "managed" {
				where = []string{"--managed"}
			}
			install := func(p string, extra ...string) (string, error) {
				args := append(append([]string{"bundle", "install", p, "--pub", e.path("k.pub")}, where...), extra...)
				out, err := e.cmd("", args...).CombinedOutput()
				return string(out), err
			}
			v1 := e.packSerial("v1", "corp", "1", e.path("k"), map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": holed})
			v2 := e.packSerial("v2", "corp", "2", e.path("k"), map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": fixed})
			v0 := e.packSerial("v0", "corp", "", e.path("k"), map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": holed})
			v2b := e.packSerial("v2b", "corp", "2", e.path("k"), map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": holed})
			if out, err := install(v2); err != nil {
				t.Fatalf("installing serial 2: %v\n%s", err, out)
			}
			for _, tc := range []struct{ what, file, want string }{
				{"an older serial", v1, "serial 1 is lower than the installed serial 2"},
				{"an unversioned bundle", v0, "unversioned (no serial) and the installed one has serial 2"},
				{"the installed serial with other content", v2b, "has the installed serial 2 but other content"},
			} {
				out, err := install(tc.file)
				if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(out, tc.want) {
					t.Errorf("%s over serial 2: err=%v, want %q in:\n%s", tc.what, err, tc.want, out)
				}
				if got := e.dispatch(); !strings.Contains(got, `"message":"fixed guard"`) {
					t.Fatalf("after %s was offered, the fixed guard no longer runs (rolled back):\n%s", tc.what, got)
				}
			}
			// Reinstalling the very bundle (how drift is repaired) is no
			// downgrade; --allow-downgrade rolls back on purpose.
			if out, err := install(v2); err != nil {
				t.Fatalf("reinstalling serial 2: %v\n%s", err, out)
			}
			if out, err := install(v1, "--allow-downgrade"); err != nil {
				t.Fatalf("--allow-downgrade: %v\n%s", err, out)
			}
			if got := e.dispatch(); strings.Contains(got, "fixed guard") {
				t.Fatalf("--allow-downgrade did not install serial 1:\n%s", got)
			}
		})
	}
}
