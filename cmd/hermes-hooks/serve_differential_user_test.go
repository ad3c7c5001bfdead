//go:build unix

package main

import (
	"path/filepath"
	"testing"
)

// serve --user: the same comparisons hold for each project it loads (a
// caller of another HOME, whose ~/guards.yaml is another, handed back).
func TestServeDifferentialUser(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	e.writeConfig("rules: [~/guards.yaml]\nhooks: {}\n")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	serveHome, callerHome := e.mkHome("shome"), e.mkHome("chome")
	writeAt(t, filepath.Join(serveHome, "guards.yaml"), "hooks: {}\n", 0o644)
	writeAt(t, filepath.Join(callerHome, "guards.yaml"), staleGuard, 0o644)
	e.serveWith([]string{"HOME=" + serveHome}, "--user")
	for _, c := range []diffCall{
		{dir: p1, env: []string{"HOME=" + serveHome}, payload: bashCall(p1, "rm -rf /")},
		{dir: p1, env: []string{"HOME=" + callerHome}, payload: bashCall(p1, "rm -rf /")},
		{dir: p1, env: []string{"HOME=" + serveHome}, payload: bashCall(e.dir, "rm -rf /")},
		{dir: p1, env: []string{"HOME=" + serveHome, "HERMES_SAFE_MODE=1"}, payload: bashCall(p1, "rm -rf /")},
	} {
		e.hookBoth(c)
	}
}
