//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A user-level serve and the hook processes an agent starts, all real
// processes: one `serve --user`, two projects with different hooks.

// userProject makes a project directory whose .hermes/hooks.yaml guards
// terminal commands with a script that blocks with msg, and approves it
// from inside the project (as its user would).
func (e *serveEnv) userProject(name, msg string) string {
	return e.userProjectGuard(name, "#!/bin/sh\ncat >/dev/null\necho '{\"action\":\"block\",\"message\":\""+msg+"\"}'\n")
}

// userProjectGuard is userProject with the guard script given.
func (e *serveEnv) userProjectGuard(name, guard string) string {
	e.t.Helper()
	dir := filepath.Join(e.root, name)
	if err := os.MkdirAll(filepath.Join(dir, ".hermes"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	replaceFile(e.t, filepath.Join(dir, "guard.sh"), guard, 0o755)
	replaceFile(e.t, filepath.Join(dir, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n", 0o644)
	if out, errs, code := e.cliIn(dir, "", nil, "approve", "--project", "--yes"); code != 0 {
		e.t.Fatalf("approve in %s: exit %d\n%s%s", dir, code, out, errs)
	}
	return dir
}

// claudeBash is a Claude Code PreToolUse payload for a Bash command in dir.
func claudeBash(dir, command string) string {
	return `{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"` + dir + `","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`
}

func claudeDeny(msg string) string {
	return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + msg + `"}}` + "\n"
}

// lastJournal is the journal's last record.
func (e *serveEnv) lastJournal() map[string]any {
	e.t.Helper()
	f, err := os.Open(filepath.Join(e.home, "hook-journal.jsonl"))
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		last = sc.Text()
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(last), &m); err != nil {
		e.t.Fatalf("journal's last line %q: %v", last, err)
	}
	return m
}

// TestUserServeTwoProjects: `hook claude` from each of two projects is
// answered by one user-level serve (the journal says serve decided) with
// that project's own guard; editing one project's hooks file takes effect
// without a restart.
func TestUserServeTwoProjects(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	p2 := e.userProject("p2", "p2 refuses")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock") // the default hook looks at
	p := e.serve("--user")

	for _, c := range []struct{ dir, msg string }{{p1, "p1 refuses"}, {p2, "p2 refuses"}, {p1, "p1 refuses"}} {
		out, errs, code := e.cliIn(c.dir, claudeBash(c.dir, "rm -rf /"), nil, "hook", "claude")
		if out != claudeDeny(c.msg) || code != 0 || errs != "" {
			t.Fatalf("hook in %s: exit %d %q\n%s", c.dir, code, out, errs)
		}
		p.waitFor("the journal record of "+c.dir, func() bool {
			r := e.lastJournal()
			return r["cwd"] == c.dir && r["message"] == c.msg
		})
		if r := e.lastJournal(); r["served_by"] != "serve" || r["server_unused"] != nil {
			t.Fatalf("journal record not served: %v", r)
		}
	}
	if h := p.healthz(); h["mode"] != "user" || h["projects"] != float64(2) {
		t.Fatalf("healthz: %v", h)
	}
	if n := strings.Count(p.log.String(), `msg="project loaded" project=`+p1); n != 1 {
		t.Fatalf("p1 loaded %d times, want once (cached):\n%s", n, p.log.String())
	}

	// p1's hooks file changes (its guard now fires on another tool only):
	// the server reloads it, and p1's Bash calls pass.
	replaceFile(t, filepath.Join(p1, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      matcher: web_search\n", 0o644)
	p.waitFor("p1's reloaded hooks to answer", func() bool {
		out, _, code := e.cliIn(p1, claudeBash(p1, "rm -rf /"), nil, "hook", "claude")
		return out == "" && code == 0
	})
	p.waitLog(`msg="config reloaded" project=` + p1)
	// p2 is untouched.
	if out, errs, _ := e.cliIn(p2, claudeBash(p2, "rm -rf /"), nil, "hook", "claude"); out != claudeDeny("p2 refuses") {
		t.Fatalf("p2 after p1's reload: %q %s", out, errs)
	}

	// doctor --live finds the user-level server by itself and asks it about
	// the project it runs in: p2's guard is loaded and has fired.
	out, errs, code := e.cliIn(p2, "", nil, "doctor", "--live", "--json")
	var live struct {
		Server  string `json:"server"`
		Healthy bool   `json:"healthy"`
		Hooks   []struct {
			Source string `json:"source"`
			Loaded bool   `json:"loaded"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(out), &live); err != nil || code != 0 || !live.Healthy {
		t.Fatalf("doctor --live in p2: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if live.Server != "unix://"+e.socketPath || len(live.Hooks) != 1 || !live.Hooks[0].Loaded ||
		live.Hooks[0].Source != filepath.Join(p2, ".hermes", "hooks.yaml") {
		t.Fatalf("doctor --live in p2 did not ask the user server about p2:\n%s", out)
	}
}

// TestUserServeEvictsLeastRecentlyUsed: with --max-projects 1 the second
// project drops the first (its watcher and workers stop), and naming the
// first again loads it afresh; answers stay right throughout.
func TestUserServeEvictsLeastRecentlyUsed(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	p2 := e.userProject("p2", "p2 refuses")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	p := e.serve("--user", "--max-projects", "1")
	for _, c := range []struct{ dir, msg string }{{p1, "p1 refuses"}, {p2, "p2 refuses"}, {p1, "p1 refuses"}} {
		if out, errs, _ := e.cliIn(c.dir, claudeBash(c.dir, "ls"), nil, "hook", "claude"); out != claudeDeny(c.msg) || errs != "" {
			t.Fatalf("hook in %s: %q %s", c.dir, out, errs)
		}
	}
	p.waitLog(`msg="project dropped" project=` + p2)
	if n := strings.Count(p.log.String(), `msg="project loaded" project=`+p1); n != 2 {
		t.Fatalf("p1 loaded %d times, want 2:\n%s", n, p.log.String())
	}
	if h := p.healthz(); h["projects"] != float64(1) {
		t.Fatalf("healthz: %v", h)
	}
}

// TestHookServerUnusable: HERMES_HOOKS_SERVER naming a socket nobody
// listens on: hook says why on stderr (one line) and in the journal's
// record, and decides by itself, correctly. "off" forwards nowhere and
// says nothing.
func TestHookServerUnusable(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	nothing := filepath.Join(e.root, "nothing.sock")
	out, errs, code := e.cliIn(p1, claudeBash(p1, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=" + nothing}, "hook", "claude")
	wantErr := "hermes-hooks: warning: server unix://" + nothing + " not used: not running (no socket file); dispatching here instead\n"
	if out != claudeDeny("p1 refuses") || code != 0 || errs != wantErr {
		t.Fatalf("exit %d %q\nstderr %q", code, out, errs)
	}
	r := e.lastJournal()
	if r["server_unused"] != "server unix://"+nothing+" not used: not running (no socket file)" || r["served_by"] != nil || r["decision"] != "block" {
		t.Fatalf("journal: %v", r)
	}
	out, errs, _ = e.cliIn(p1, claudeBash(p1, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=off"}, "hook", "claude")
	if out != claudeDeny("p1 refuses") || errs != "" {
		t.Fatalf("off: %q %q", out, errs)
	}
	if r := e.lastJournal(); r["server_unused"] != nil {
		t.Fatalf("off: journal %v", r)
	}
}

// TestUserServeDiesMidRequest: the server is killed (SIGKILL) while it
// runs a hook call's guard. hook does not take the broken reply for "no
// objection": it says why and decides by itself, and the guard blocks.
func TestUserServeDiesMidRequest(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	started := filepath.Join(e.root, "started")
	// The first run (the server's) hangs until the test ends; the
	// second (hook's own) blocks at once.
	p1 := e.userProjectGuard("p1", "#!/bin/sh\ncat >/dev/null\nif [ ! -e "+started+" ]; then echo $$ > "+started+".tmp; mv "+started+".tmp "+started+"; exec sleep 300; fi\n"+
		"echo '{\"action\":\"block\",\"message\":\"p1 refuses\"}'\n")
	t.Cleanup(func() {
		if b, err := os.ReadFile(started); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL) // the orphaned sleep of the killed server's hook
			}
		}
	})
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	p := e.serve("--user")

	cmd := exec.Command("hermes-hooks", "hook", "claude")
	cmd.Dir, cmd.Env = p1, e.env
	cmd.Stdin = strings.NewReader(claudeBash(p1, "rm -rf /"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.waitFor("the server's run of the guard", func() bool { _, err := os.Stat(started); return err == nil })
	p.cmd.Process.Kill()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("hook: %v\n%s", err, errb.String())
	}
	if out.String() != claudeDeny("p1 refuses") || !strings.Contains(errb.String(), "not used: ") || !strings.Contains(errb.String(), "dispatching here instead") {
		t.Fatalf("hook: %q\n%s", out.String(), errb.String())
	}
	if r := e.lastJournal(); r["decision"] != "block" || r["server_unused"] == nil {
		t.Fatalf("journal: %v", r)
	}
}

// TestUserServeProjectConfigBroken: a project whose hooks file does not
// load gets from the server the refusal a one-shot hook gives it. A user
// config that does not load is not served at all (409, nothing cached):
// hook says so and gives the one-shot answer.
func TestUserServeProjectConfigBroken(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	p2 := e.userProject("p2", "p2 refuses")
	replaceFile(t, filepath.Join(p1, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call: [\n", 0o644)
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	p := e.serve("--user")
	want, _, _ := e.cliIn(p1, claudeBash(p1, "rm -rf /"), nil, "hook", "claude", "--no-server")
	if !strings.Contains(want, `"permissionDecision":"deny"`) || !strings.Contains(want, "hooks.yaml loads") {
		t.Fatalf("one-shot answer to a broken project config: %q", want)
	}
	out, errs, _ := e.cliIn(p1, claudeBash(p1, "rm -rf /"), nil, "hook", "claude")
	if out != want || errs != "" {
		t.Fatalf("served: %q, one-shot %q\n%s", out, want, errs)
	}
	p.waitFor("the served refusal's record", func() bool { return e.lastJournal()["served_by"] == "serve" })

	e.writeConfig("hooks: [\n")
	want, _, _ = e.cliIn(p2, claudeBash(p2, "rm -rf /"), nil, "hook", "claude", "--no-server")
	out, errs, _ = e.cliIn(p2, claudeBash(p2, "rm -rf /"), nil, "hook", "claude")
	if out != want || !strings.Contains(errs, "HTTP 409") || !strings.Contains(errs, "config.yaml") {
		t.Fatalf("broken user config: %q, one-shot %q\n%s", out, want, errs)
	}
	if h := p.healthz(); h["projects"] != float64(1) {
		t.Fatalf("a project set that does not load was kept: %v", h)
	}
}

// The service definitions keep a hostile or odd binary path one literal
// argument: systemd's quoting (its % specifiers and $ variables doubled)
// and XML escapes in the plist.
func TestServiceQuoting(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/usr/local/bin/hermes-hooks", `"/usr/local/bin/hermes-hooks"`},
		{`/opt/my tools/h"h\x`, `"/opt/my tools/h\"h\\x"`},
		{"/home/%u/$HOME/bin", `"/home/%%u/$$HOME/bin"`},
		{"/a\nExecStartPre=/bin/evil", `"/a\nExecStartPre=/bin/evil"`},
	} {
		if got := systemdQuote(c.in); got != c.want {
			t.Errorf("systemdQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	plist := launchdPlist("/x/</string><string>--evil", [][2]string{{"PATH", "/a&b"}})
	if !strings.Contains(plist, "<string>/x/&lt;/string&gt;&lt;string&gt;--evil</string>") || !strings.Contains(plist, "<string>/a&amp;b</string>") {
		t.Fatalf("plist:\n%s", plist)
	}
}
