//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// opaVersion is the OPA release the opa: entries are tested against
// (issue 35, item 5); HERMES_E2E_OPA=/path/to/opa tests another build.
const opaVersion = "v1.22.3"

// opaInstallTimeout bounds building OPA from the module proxy (about four
// minutes of CPU the first time; cached after).
const opaInstallTimeout = 30 * time.Minute

// opaPolicy is a policy as a team writes one for hermes-hooks, read as a
// package document (the URL names the package): rm -rf is blocked, a
// force-push asks, anything else leaves decision undefined, so the
// document holds no decision (helper rules such as rm_rf may be in it).
const opaPolicy = `package hermes.pre_tool_call

rm_rf if regex.match(` + "`" + `(^|[;&|]\s*)rm\s+-[a-zA-Z]*r[a-zA-Z]*f` + "`" + `, input.tool_input.command)

force_push if contains(input.tool_input.command, "git push --force")

decision := "block" if rm_rf

message := "OPA: rm -rf is not allowed" if rm_rf

decision := "ask" if {
	force_push
	not rm_rf
}

message := "OPA: force-push needs a human" if {
	force_push
	not rm_rf
}
`

// opaBundlePolicy is the same policy shipped in a bundle, read as one
// rule (the URL names verdict): undefined — no result at all — when
// neither applies.
const opaBundlePolicy = `package hermes

rm_rf if regex.match(` + "`" + `(^|[;&|]\s*)rm\s+-[a-zA-Z]*r[a-zA-Z]*f` + "`" + `, input.tool_input.command)

verdict := {"decision": "block", "message": "OPA bundle: rm -rf is not allowed"} if rm_rf

verdict := {"decision": "ask", "message": "OPA bundle: force-push needs a human"} if {
	contains(input.tool_input.command, "git push --force")
	not rm_rf
}
`

// opaAuthzPolicy is the system.authz policy of an OPA run as a central
// service with --authentication=token --authorization=basic: every query
// needs its bearer token (input.identity); /health answers anyone.
const opaAuthzPolicy = `package system.authz

default allow := false

allow if input.path == ["health"]

allow if input.identity == "` + opaToken + `"
`

// opaToken is the token opaAuthzPolicy wants.
const opaToken = "e2e-opa-s3cret-token"

// TestOPA runs opa: entries (docs/opa.md) against a real Open Policy
// Agent server: OPA v1.22.3, built by go install from the module proxy
// into $(os.UserCacheDir)/hermes-hooks-e2e/opa-v1.22.3/bin (about four
// minutes of CPU once, reused after; skipped when the build fails;
// HERMES_E2E_OPA=/path/to/opa uses another build), started with
// `opa run --server` on a loopback port with a Rego policy, then with a
// bundle made by `opa build`, then with the policy behind a bearer token
// (checkOPAToken), and polled on /health until ready. Each is
// fired through `hermes-hooks hook claude` and `dispatch`: OPA's block,
// ask and undefined, a fail_closed block once OPA is stopped, and the
// paths a team gets wrong (checkOPAWrongPaths). OPA is
// never a dependency of this module (internal/layout TestBinaryLinksNoOPA).
func TestOPA(t *testing.T) {
	opa := opaBinary(t)
	h := newHarness(t, "opa")
	dir := filepath.Join(h.root, "opa")

	t.Run("policy", func(t *testing.T) {
		policy := filepath.Join(dir, "hermes.rego")
		mustWrite(t, policy, opaPolicy, 0o644)
		base, _ := startOPA(t, opa, "/health", policy)
		// Nothing applies to ls: the package's document is empty.
		checkOPADecisions(t, h, base+"/v1/data/hermes/pre_tool_call", "OPA: ", `{"result":{}}`)
		checkOPAWrongPaths(t, h, base)
	})

	t.Run("bundle", func(t *testing.T) {
		src := filepath.Join(dir, "bundle-src")
		mustMkdir(t, src)
		mustWrite(t, filepath.Join(src, "hermes.rego"), opaBundlePolicy, 0o644)
		bundle := filepath.Join(dir, "bundle.tar.gz")
		run(t, dir, opa, "build", "-b", src, "-o", bundle)
		// ?bundles: healthy only once the bundle is activated.
		base, stop := startOPA(t, opa, "/health?bundles", "--bundle", bundle)
		// Nothing applies to ls: verdict is undefined, no result at all.
		checkOPADecisions(t, h, base+"/v1/data/hermes/verdict", "OPA bundle: ", `{}`)

		// OPA gone: the fail_closed guard refuses rather than let ls through.
		stop()
		out := h.hermesHooksStdin(t, `{"tool_name":"terminal","args":{"command":"ls"},"session_id":"e2e-opa"}`, "dispatch", "pre_tool_call")
		if !strings.Contains(out, `"decision":"block","message":"hook opa: `+base+`/v1/data/hermes/verdict failed closed: opa: Post`) {
			t.Errorf("dispatch with OPA stopped: %s", out)
		}
	})

	t.Run("token", func(t *testing.T) {
		policy, authz := filepath.Join(dir, "hermes.rego"), filepath.Join(dir, "authz.rego")
		mustWrite(t, policy, opaPolicy, 0o644)
		mustWrite(t, authz, opaAuthzPolicy, 0o644)
		base, _ := startOPA(t, opa, "/health", "--authentication=token", "--authorization=basic", policy, authz)
		checkOPAToken(t, h, base+"/v1/data/hermes/pre_tool_call")
	})
}

// checkOPAToken points a fail_closed opa: entry at url, an OPA that wants
// opaToken: without the header OPA answers 401 and the guard refuses ls;
// with headers sending it from OPA_TOKEN (allowed_env_vars), OPA decides.
func checkOPAToken(t *testing.T, h *harness, url string) {
	t.Helper()
	t.Setenv("OPA_TOKEN", opaToken)
	entry := "hooks:\n  pre_tool_call:\n    - opa: " + url + "\n      timeout: 10\n      fail_closed: true\n"
	mustWrite(t, filepath.Join(h.hermesHome, "config.yaml"), entry, 0o644)
	h.hermesHooks(t, "approve", "--all")
	ls := `{"tool_name":"terminal","args":{"command":"ls"},"session_id":"e2e-opa"}`
	if out := h.hermesHooksStdin(t, ls, "dispatch", "pre_tool_call"); !strings.Contains(out, `"decision":"block","message":"hook opa: `+url+` failed closed: opa: HTTP 401 from`) {
		t.Errorf("dispatch without the token: %s", out)
	}
	mustWrite(t, filepath.Join(h.hermesHome, "config.yaml"),
		entry+"      headers:\n        Authorization: Bearer ${OPA_TOKEN}\n      allowed_env_vars: [OPA_TOKEN]\n", 0o644)
	h.hermesHooks(t, "approve", "--all")
	out := h.hermesHooksStdin(t, `{"tool_name":"terminal","args":{"command":"rm -rf /tmp/x"},"session_id":"e2e-opa"}`, "dispatch", "pre_tool_call")
	if !strings.Contains(out, `"decision":"block","message":"OPA: rm -rf is not allowed"`) || strings.Contains(out, opaToken) {
		t.Errorf("dispatch rm -rf with the token: %s", out)
	}
	if out := h.hermesHooksStdin(t, ls, "dispatch", "pre_tool_call"); !strings.Contains(out, `"decision":"none"`) || strings.Contains(out, `"error"`) {
		t.Errorf("dispatch ls with the token: %s", out)
	}
}

// checkOPADecisions points a fail_closed opa: entry of the user's config
// at url, approves it, and fires rm -rf, a force-push and ls through hook
// claude and dispatch: OPA's block (with its message, which starts with
// prefix), ask, and no objection. OPA's own answer for ls must be
// undefined, the reply hermes-hooks reads as no objection.
func checkOPADecisions(t *testing.T, h *harness, url, prefix, undefined string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"input":{"tool_input":{"command":"ls"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := strings.Join(strings.Fields(string(reply)), ""); got != undefined {
		t.Errorf("OPA answers ls with %s, want %s", reply, undefined)
	}
	mustWrite(t, filepath.Join(h.hermesHome, "config.yaml"),
		"hooks:\n  pre_tool_call:\n    - matcher: terminal\n      opa: "+url+"\n      timeout: 10\n      fail_closed: true\n", 0o644)
	h.hermesHooks(t, "approve", "--all")
	block, ask := prefix+"rm -rf is not allowed", prefix+"force-push needs a human"
	for _, tc := range []struct{ command, claude, dispatch string }{
		{"rm -rf /tmp/x", `"permissionDecision":"deny","permissionDecisionReason":"` + block + `"`, `"decision":"block","message":"` + block + `"`},
		{"git push --force origin main", `"permissionDecision":"ask","permissionDecisionReason":"` + ask + `"`, `"decision":"ask","message":"` + ask + `"`},
		{"ls -la", "", `"decision":"none"`},
	} {
		claude := h.hermesHooksStdin(t, fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"e2e-opa","tool_name":"Bash","tool_input":{"command":%q}}`, tc.command), "hook", "claude")
		if tc.claude == "" && strings.TrimSpace(claude) != "" || !strings.Contains(claude, tc.claude) {
			t.Errorf("hook claude, %s: %q, want %s", tc.command, claude, tc.claude)
		}
		out := h.hermesHooksStdin(t, fmt.Sprintf(`{"tool_name":"terminal","args":{"command":%q},"session_id":"e2e-opa"}`, tc.command), "dispatch", "pre_tool_call")
		if !strings.Contains(out, tc.dispatch) || !strings.Contains(out, `"ran":true`) || strings.Contains(out, `"error"`) {
			t.Errorf("dispatch, %s: %s, want %s", tc.command, out, tc.dispatch)
		}
	}
}

// checkOPAWrongPaths points opa: entries at the two paths a team gets
// wrong, as the real OPA answers them: a misspelt package, which OPA
// answers undefined ({}) for every call, so that the entry never objects
// (test shows the answer, doctor says what it may mean); and the package
// above the policy's, whose document holds the policy's as a member, once
// read as a helper rule and so never enforced (a failed hook: closed here).
func checkOPAWrongPaths(t *testing.T, h *harness, base string) {
	t.Helper()
	mustWrite(t, filepath.Join(h.hermesHome, "config.yaml"), "hooks:\n  pre_tool_call:\n    - opa: "+base+"/v1/data/hermes/pre_tool_cal\n      fail_closed: true\n", 0o644)
	h.hermesHooks(t, "approve", "--all")
	if out := h.hermesHooks(t, "test", "pre_tool_call"); !strings.Contains(out, "OPA answered: {}\n      note: undefined, so no objection; OPA answers so also at a path where no policy is") {
		t.Errorf("test, a misspelt package:\n%s", out)
	}
	if out := h.hermesHooks(t, "doctor"); !strings.Contains(out, "✓ OPA answered undefined on synthetic payload") || !strings.Contains(out, "a misspelt package or rule") {
		t.Errorf("doctor, a misspelt package:\n%s", out)
	}
	mustWrite(t, filepath.Join(h.hermesHome, "config.yaml"), "hooks:\n  pre_tool_call:\n    - opa: "+base+"/v1/data/hermes\n      fail_closed: true\n", 0o644)
	h.hermesHooks(t, "approve", "--all")
	out := h.hermesHooksStdin(t, `{"tool_name":"terminal","args":{"command":"rm -rf /tmp/x"},"session_id":"e2e-opa"}`, "dispatch", "pre_tool_call")
	if !strings.Contains(out, `"decision":"block","message":"hook opa: `+base+`/v1/data/hermes failed closed: opa: result has no decision, but result.pre_tool_call decides \"block\"`) {
		t.Errorf("dispatch, the package above the policy's: %s", out)
	}
	if out := h.hermesHooksStdin(t, `{"tool_name":"terminal","args":{"command":"ls"},"session_id":"e2e-opa"}`, "dispatch", "pre_tool_call"); !strings.Contains(out, `"decision":"none"`) || strings.Contains(out, `"error"`) {
		t.Errorf("dispatch ls, the package above the policy's: %s", out)
	}
}

// hermesHooksStdin is hermesHooks with stdin.
func (h *harness) hermesHooksStdin(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(h.bin, args...)
	cmd.Dir = h.project
	cmd.Env = h.hermesEnv()
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hermes-hooks %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// opaBinary is $HERMES_E2E_OPA, else OPA opaVersion built with go install
// into the user cache directory (reused while it runs), else the test
// skips: without the module proxy there is no OPA to test against.
func opaBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HERMES_E2E_OPA"); p != "" {
		if out, err := exec.Command(p, "version").Output(); err != nil {
			t.Fatalf("HERMES_E2E_OPA=%s does not run: %v", p, err)
		} else {
			t.Logf("OPA from HERMES_E2E_OPA: %s", firstLine(out))
		}
		return p
	}
	gobin := filepath.Join(t.TempDir(), "bin")
	if cache, err := os.UserCacheDir(); err == nil {
		gobin = filepath.Join(cache, "hermes-hooks-e2e", "opa-"+opaVersion, "bin")
	}
	bin := filepath.Join(gobin, "opa")
	if out, err := exec.Command(bin, "version").Output(); err == nil && strings.Contains(string(out), strings.TrimPrefix(opaVersion, "v")) {
		t.Logf("reusing OPA %s in %s", opaVersion, gobin)
		return bin
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("skipped: no go command to build OPA with (or set HERMES_E2E_OPA=/path/to/opa)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), opaInstallTimeout)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, goCmd, "install", "github.com/open-policy-agent/opa@"+opaVersion)
	// Outside this module: go install pkg@version never touches its go.mod.
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipped: go install github.com/open-policy-agent/opa@%s failed (%v), so there is no OPA to test against (the module proxy may be unreachable; or set HERMES_E2E_OPA=/path/to/opa):\n%s",
			opaVersion, err, clip(string(out), 4000))
	}
	t.Logf("built OPA %s into %s in %s", opaVersion, gobin, time.Since(start).Round(time.Second))
	return bin
}

// startOPA starts opa run --server on a free loopback port with args
// (policy files, or --bundle FILE), stops it when the test ends, and
// returns its base URL once health (a path under it) answers 200, and
// what stops it sooner. It fails the test, with OPA's output, if OPA exits
// first.
func startOPA(t *testing.T, opa, health string, args ...string) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // OPA takes the port; nothing else here asks for one meanwhile
	var out bytes.Buffer
	cmd := exec.Command(opa, append([]string{"run", "--server", "--addr", addr, "--log-level", "error", "--disable-telemetry"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			exited <- <-exited
		})
	}
	t.Cleanup(stop)
	base := "http://" + addr
	client := &http.Client{Timeout: 5 * time.Second}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(2 * time.Minute) // a hang guard: OPA is up in well under a second
	for {
		if resp, err := client.Get(base + health); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, stop
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("opa run exited before it was healthy: %v\n%s", err, out.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			exited <- <-exited // out is complete once Wait returns
			t.Fatalf("opa run was not healthy at %s%s within 2 minutes:\n%s", base, health, out.String())
		case <-tick.C:
		}
	}
}

// run runs a command in dir and fails the test with its output if it
// fails.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
