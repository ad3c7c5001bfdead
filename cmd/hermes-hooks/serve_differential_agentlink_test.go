//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A --claude-settings file named through a link in another folder is the
// same file, but not the same source: whether Claude Code reads it itself
// (and so whether `hook claude` leaves it to Claude) follows its path as
// spelt. serve compared the files only: a caller naming the project's
// settings through a link, whose one-shot runs the guard, was answered
// by a serve that named them in place and left the guard to Claude.
func TestServeAgentFileNamedThroughALink(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n").defaultSocket()
	guard := e.script("guard.sh", diffDeny)
	settings := filepath.Join(e.dir, ".claude", "settings.json")
	writeAt(t, settings, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+guard+`"}]}]}}`, 0o644)
	link := filepath.Join(e.mkHome("elsewhere"), "settings.json")
	if err := os.Symlink(settings, link); err != nil {
		t.Fatal(err)
	}
	env := []string{"HERMES_ACCEPT_HOOKS=1"}
	e.serveWith(env, "--claude-settings", settings)
	fwd, one := e.hookBoth(diffCall{env: env, pre: []string{"--claude-settings", link}, payload: bashCall(e.dir, "ls")})
	if one.out == "" || !fwd.handedBack() {
		t.Errorf("--claude-settings %s: one-shot %q; serve's answer used: %v", link, one.out, !fwd.handedBack())
	}
	// The server's own path is served.
	if fwd, _ := e.hookBoth(diffCall{env: env, pre: []string{"--claude-settings", settings}, payload: bashCall(e.dir, "ls")}); fwd.handedBack() {
		t.Errorf("--claude-settings %s handed back: %s", settings, fwd.errs)
	}
}
