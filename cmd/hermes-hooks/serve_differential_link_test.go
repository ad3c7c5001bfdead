//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config named through a link in another folder is the same file, but
// not the same config: its relative paths (rules: [x.yaml], an agent's
// settings file, the journal) are read from the folder the link is in, as
// the one-shot reads them. serve compared the file only, and answered a
// caller whose --config was ~/team/config.yaml -> ~/.hermes/config.yaml
// with ~/.hermes/x.yaml's rules, not ~/team/x.yaml's guard.
func TestServeConfigNamedThroughALink(t *testing.T) {
	e := newServeEnv(t, "rules: [x.yaml]\nhooks: {}\n").defaultSocket()
	writeAt(t, filepath.Join(e.home, "x.yaml"), "hooks: {}\n", 0o644)
	team := e.mkHome("team")
	writeAt(t, filepath.Join(team, "x.yaml"), staleGuard, 0o644)
	link, hard := filepath.Join(team, "config.yaml"), filepath.Join(team, "hard.yaml")
	if err := os.Symlink(e.config, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(e.config, hard); err != nil {
		t.Fatal(err)
	}
	e.serve("--config", e.config)
	for _, named := range []string{link, hard} {
		fwd, one := e.hookBoth(diffCall{pre: []string{"--config", named}, payload: bashCall(e.dir, "rm -rf /")})
		if one.out != staleDeny || !fwd.handedBack() {
			t.Errorf("--config %s: one-shot %q; serve's answer used: %v", named, one.out, !fwd.handedBack())
		}
	}
	// The server's own path, relative to the caller's directory, is
	// still served.
	rel, err := filepath.Rel(e.dir, e.config)
	if err != nil {
		t.Fatal(err)
	}
	if fwd, _ := e.hookBoth(diffCall{pre: []string{"--config", rel}, payload: bashCall(e.dir, "rm -rf /")}); fwd.handedBack() || strings.Contains(fwd.out, "deny") {
		t.Errorf("--config %s: handed back %v: %q %s", rel, fwd.handedBack(), fwd.out, fwd.errs)
	}
}
