//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/promscrape"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// `doctor --live` against a real `hermes-hooks serve`: a config whose
// hooks fail in every way a live server can show — a matcher that cannot
// compile, a script that is missing, one never approved, one that exits
// non-zero, one slow for its timeout — beside one that works. After a few
// dispatches, doctor names each problem and passes the working hook.
func TestDoctorLive(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	ok := e.script("ok.sh", "cat >/dev/null\necho '{}'\n")
	badMatcher := e.script("badmatch.sh", "cat >/dev/null\necho '{}'\n")
	missing := filepath.Join(e.dir, "missing.sh")
	unapproved := e.script("unapproved.sh", "cat >/dev/null\necho '{}'\n")
	fail := e.script("fail.sh", "cat >/dev/null\necho broken >&2\nexit 3\n")
	// Claude-dialect timeouts may be fractional: 2 s, and a run of 1.1 s
	// is over half of it.
	slow := e.script("slow.sh", "cat >/dev/null\nsleep 1.1\necho '{}'\n")
	pre := "hooks:\n  pre_tool_call:\n" +
		"    - command: " + ok + "\n" +
		"    - command: " + badMatcher + "\n      matcher: \"terminal(\"\n" +
		"    - command: " + missing + "\n" +
		"    - command: " + unapproved + "\n" +
		"    - command: " + fail + "\n" +
		"    - matcher: terminal\n      rule: 'args.command == \"zz\"'\n      decision: block\n      message: no zz\n"
	e.writeConfig(pre + "  PostToolUse:\n    - command: " + slow + "\n      timeout: 2\n")
	for _, c := range []string{ok, badMatcher, missing, fail, slow} {
		e.mustCLI("approve", "--force", c) // missing.sh does not exist
	}
	// The default socket: doctor --live finds it without --server.
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	p := e.serve()
	for range 3 {
		p.outcome("pre_tool_call", `{"tool_name":"terminal","args":{"command":"ls"}}`)
	}
	p.outcome("post_tool_call", `{"tool_name":"terminal"}`)

	out, errs, code := e.cli("", "doctor", "--live", "--json")
	if code != 1 {
		t.Fatalf("doctor --live --json: exit %d, want 1\n%s%s", code, out, errs)
	}
	var r report.LiveReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Server != "unix://"+e.socketPath || r.Generation != 1 || r.Healthy || len(r.Checks) != 0 {
		t.Errorf("report header: %+v", r)
	}
	byCmd := map[string]report.LiveHook{}
	for _, h := range r.Hooks {
		byCmd[h.Command] = h
	}
	expect := func(cmd string, problems bool, want ...string) {
		t.Helper()
		h, found := byCmd[cmd]
		if !found {
			t.Fatalf("no hook %s in %s", cmd, out)
		}
		if !h.OnDisk || !h.Loaded || (h.Problems > 0) != problems {
			t.Errorf("%s: on_disk %v loaded %v problems %d: %+v", cmd, h.OnDisk, h.Loaded, h.Problems, h.Checks)
		}
		var text strings.Builder
		for _, c := range h.Checks {
			text.WriteString(string(c.Level) + " " + c.Text + "\n")
		}
		for _, w := range want {
			if !strings.Contains(text.String(), w) {
				t.Errorf("%s: no check %q in\n%s", cmd, w, text.String())
			}
		}
	}
	expect(ok, false, "ok loaded by the server (generation 1)", "ok approved", "ok fired 3 times", "ok p50 ")
	expect(badMatcher, true, "warn config warning: hooks.pre_tool_call[1].matcher: shell hook matcher 'terminal(' is invalid",
		"warn never fired in 3 pre_tool_call dispatch(es)")
	expect(missing, true, "fail script missing or not executable", "fail failed 3 times: command not found")
	expect(unapproved, true, "fail not approved — the server does NOT run it", "fail matched 3 times but never ran: not allowlisted")
	expect(fail, true, "ok fired 3 times", "fail failed 3 times: exit status 3")
	expect(slow, true, "warn slow: p50 ")
	// A rule of the user's own config needs no approval: not "approved (?)".
	expect(`rule: args.command == "zz"`, false, "ok needs no approval (a rule of your own config)", "ok fired 3 times")
	if len(r.Hooks) != 7 {
		t.Errorf("%d hooks in the report, want 7", len(r.Hooks))
	}

	// The human report: doctor's marks, one block per hook.
	out, _, code = e.cli("", "doctor", "--live")
	for _, want := range []string{
		"Live check of the hermes-hooks serve at unix://" + e.socketPath,
		"  [pre_tool_call] " + ok + "\n      ✓ loaded by the server (generation 1) from " + e.config,
		"      ✗ not approved — the server does NOT run it",
		"      ⚠ slow: ",
		"issues found.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor --live: no %q in\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("doctor --live: exit %d, want 1", code)
	}

	// A config on disk that the server does not serve: its new hook is
	// configured but not loaded, and the hook it lacks is loaded but not
	// on disk.
	other := filepath.Join(e.home, "other.yaml")
	replaceFile(t, other, pre+"    - command: "+ok+"\n      timeout: 5\n", 0o644)
	out, _, code = e.cli("", "--config", other, "doctor", "--live", "--server", "unix://"+e.socketPath)
	for _, want := range []string{
		"⚠ the server reads " + e.config + ", not " + other,
		"✗ configured in " + other + " but not loaded by the server (generation 1): the server reads another config",
		"  [PostToolUse] " + slow + "\n      ⚠ loaded by the server but not in the config on disk: the server reads another config",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("another config: no %q in\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("another config: exit %d, want 1", code)
	}

	// /metrics: the per-hook counters, in Prometheus' text format.
	status, body := p.request("GET", "/metrics", "")
	if status != 200 {
		t.Fatalf("GET /metrics: %d %s", status, body)
	}
	families, err := promscrape.Parse(body)
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	sample := func(family, name string, labels ...string) float64 {
		t.Helper()
		v, found := families[family].Value(name, labels...)
		if !found {
			t.Fatalf("no %s%q in /metrics", name, labels)
		}
		return v
	}
	for _, c := range []struct {
		name, command string
		want          float64
	}{
		{"hermes_hooks_hook_runs_total", ok, 3},
		{"hermes_hooks_hook_matched_total", badMatcher, 0},
		{"hermes_hooks_hook_errors_total", missing, 3},
		{"hermes_hooks_hook_runs_total", missing, 0},
		{"hermes_hooks_hook_skipped_total", unapproved, 3},
		{"hermes_hooks_hook_errors_total", fail, 3},
		{"hermes_hooks_hook_blocks_total", ok, 0},
	} {
		if got := sample(c.name, c.name, "event", "pre_tool_call", "command", c.command); got != c.want {
			t.Errorf("%s{command=%q} = %v, want %v", c.name, c.command, got, c.want)
		}
	}
	if got := sample("hermes_hooks_hook_runs_total", "hermes_hooks_hook_runs_total", "event", "post_tool_call", "command", slow); got != 1 {
		t.Errorf("slow.sh runs %v", got)
	}
	const dur = "hermes_hooks_hook_duration_seconds"
	if n := sample(dur, dur+"_count", "command", slow); n != 1 {
		t.Errorf("slow.sh duration histogram: _count %v", n)
	}
	if sum := sample(dur, dur+"_sum", "command", slow); sum < 1 {
		t.Errorf("slow.sh duration histogram: _sum %v", sum)
	}
	if got := sample("hermes_hooks_dispatches_total", "hermes_hooks_dispatches_total", "event", "pre_tool_call"); got != 3 {
		t.Errorf("dispatches_total{pre_tool_call} = %v", got)
	}
}

// With no server on the socket, doctor --live says so and exits 1.
func TestDoctorLiveNoServer(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	sock := filepath.Join(e.root, "none.sock")
	_, errs, code := e.cli("", "doctor", "--live", "--server", "unix://"+sock)
	if code != 1 || !strings.Contains(errs, "no hermes-hooks serve answers at unix://"+sock) || !strings.Contains(errs, "hint: start one with `hermes-hooks serve`") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(sock); err == nil {
		t.Errorf("doctor created %s", sock)
	}
	if _, errs, code := e.cli("", "doctor", "--server", "unix://"+sock); code != 2 || !strings.Contains(errs, "--server needs --live") {
		t.Errorf("--server without --live: exit %d %s", code, errs)
	}
}

// doctor --live checks the config the server reads (issue 24, item 2): a
// server started with --config team.yaml (relative to its directory) is
// compared with that file, not with $HERMES_HOME/config.yaml, which it
// used to report as "the server reads another config" and stop there.
func TestDoctorLiveReadsTheServersConfig(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	ok := e.script("ok.sh", "cat >/dev/null\necho '{}'\n")
	replaceFile(t, filepath.Join(e.dir, "team.yaml"), "hooks:\n  pre_tool_call:\n    - command: "+ok+"\n", 0o644)
	e.mustCLI("--config", "team.yaml", "approve", ok)
	e.serve("--config", "team.yaml")
	out, errs, code := e.cli("", "doctor", "--live", "--server", "unix://"+e.socketPath)
	if code != 0 || strings.Contains(out, "another config") || !strings.Contains(out, "loaded by the server (generation 1)") {
		t.Fatalf("doctor --live: exit %d\n%s%s", code, out, errs)
	}
}
