package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// These tests run `hermes-hooks serve` as a real process: the test binary
// itself, which TestMain (testscript.Main) has put on PATH as
// "hermes-hooks". Other CLI verbs (approve, revoke, list, dispatch) run as
// separate processes too, as a user in another terminal would run them.

// serveDeadline bounds every wait for something observable; generous,
// because the race detector and busy shared machines slow everything.
const serveDeadline = 60 * time.Second

// serveEnv is a throwaway HERMES_HOME, HOME and working directory, kept
// short because socket paths are limited to about 100 bytes.
type serveEnv struct {
	t                  *testing.T
	root, dir, home    string
	config, socketPath string
	env                []string
}

func newServeEnv(t *testing.T, config string) *serveEnv {
	t.Helper()
	root, err := os.MkdirTemp("", "hhserve-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e := &serveEnv{t: t, root: root, dir: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	for _, d := range []string{e.dir, e.home, filepath.Join(root, "userhome")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e.config = filepath.Join(e.home, "config.yaml")
	e.socketPath = filepath.Join(root, "s.sock")
	e.writeConfig(config)
	e.env = append(os.Environ(), "HERMES_HOME="+e.home, "HOME="+filepath.Join(root, "userhome"),
		"HERMES_ACCEPT_HOOKS=", "HERMES_SAFE_MODE=", "TESTDIR="+e.dir)
	return e
}

// replaceFile writes through a temporary file and a rename, as editors do.
func replaceFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := fsutil.WriteAtomic(path, []byte(content), mode, ".test-*.tmp", nil); err != nil {
		t.Fatal(err)
	}
}

func (e *serveEnv) writeConfig(s string) { replaceFile(e.t, e.config, s, 0o644) }

func (e *serveEnv) script(name, body string) string {
	p := filepath.Join(e.dir, name)
	replaceFile(e.t, p, "#!/bin/sh\n"+body, 0o755)
	return p
}

// cli runs one hermes-hooks command as its own process, in the env's
// directory.
func (e *serveEnv) cli(stdin string, args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	return e.cliIn(e.dir, stdin, nil, args...)
}

// cliIn runs one hermes-hooks command in dir with extra environment.
func (e *serveEnv) cliIn(dir, stdin string, env []string, args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	cmd := exec.Command("hermes-hooks", args...)
	cmd.Dir, cmd.Env = dir, append(append([]string{}, e.env...), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		e.t.Fatalf("hermes-hooks %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

func (e *serveEnv) mustCLI(args ...string) string {
	e.t.Helper()
	out, errs, code := e.cli("", args...)
	if code != 0 {
		e.t.Fatalf("hermes-hooks %v: exit %d\n%s%s", args, code, out, errs)
	}
	return out
}

// serveProc is a running `hermes-hooks serve`.
type serveProc struct {
	e      *serveEnv
	cmd    *exec.Cmd
	log    *proctest.Buffer
	client *http.Client
	exited chan struct{}
}

// serve starts the server on the env's socket and waits until it answers.
func (e *serveEnv) serve(args ...string) *serveProc {
	e.t.Helper()
	args = append([]string{"serve", "--listen", "unix://" + e.socketPath}, args...)
	cmd := exec.Command("hermes-hooks", args...)
	cmd.Dir, cmd.Env = e.dir, e.env
	p := &serveProc{e: e, cmd: cmd, log: &proctest.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.log
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	e.t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
		if e.t.Failed() {
			e.t.Logf("server log:\n%s", p.log.String())
		}
	})
	p.client = &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", e.socketPath)
		},
	}}
	p.waitFor("the server to answer", func() bool {
		select {
		case <-p.exited:
			e.t.Fatalf("serve exited early: %s", p.log.String())
		default:
		}
		resp, err := p.client.Get("http://x/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return p
}

func (p *serveProc) waitFor(what string, cond func() bool) {
	p.e.t.Helper()
	end := time.Now().Add(serveDeadline)
	for !cond() {
		if time.Now().After(end) {
			p.e.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (p *serveProc) waitLog(re string) {
	p.e.t.Helper()
	rx := regexp.MustCompile(re)
	p.waitFor("log line /"+re+"/", func() bool { return rx.MatchString(p.log.String()) })
}

func (p *serveProc) request(method, path, body string) (int, []byte) {
	p.e.t.Helper()
	req, err := http.NewRequest(method, "http://x"+path, strings.NewReader(body))
	if err != nil {
		p.e.t.Fatal(err)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		p.e.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// outcome dispatches and decodes the 200 reply.
func (p *serveProc) outcome(event, fields string) map[string]any {
	p.e.t.Helper()
	status, b := p.request("POST", "/v1/dispatch/"+event, fields)
	if status != 200 {
		p.e.t.Fatalf("dispatch %s: %d %s", event, status, b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		p.e.t.Fatalf("outcome %s: %v", b, err)
	}
	return m
}

func (p *serveProc) generation() float64 {
	p.e.t.Helper()
	_, b := p.request("GET", "/healthz", "")
	var h map[string]any
	json.Unmarshal(b, &h)
	g, _ := h["generation"].(float64)
	return g
}

func (p *serveProc) healthz() map[string]any {
	_, b := p.request("GET", "/healthz", "")
	var h map[string]any
	json.Unmarshal(b, &h)
	return h
}

func hookRan(t *testing.T, o map[string]any, command string) bool {
	t.Helper()
	hooks, _ := o["hooks"].([]any)
	for _, h := range hooks {
		if m := h.(map[string]any); m["command"] == command {
			return m["ran"] == true
		}
	}
	return false
}

const serveBlockScript = `payload=$(cat)
case "$payload" in
  *"rm -rf"*) echo '{"action":"block","message":"rm -rf is not allowed"}' ;;
  *) echo '{}' ;;
esac
`

// The server follows the config, the allowlist and broken edits without a
// restart.
func TestServeHotReload(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	ctx := e.script("observe.sh", "cat >/dev/null\necho '{}'\n")
	block := e.script("block.sh", serveBlockScript)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ctx + "\n")
	e.mustCLI("approve", ctx)
	p := e.serve()
	rmrf := `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`

	o := p.outcome("pre_tool_call", rmrf)
	if o["decision"] != "none" || !hookRan(t, o, ctx) {
		t.Fatalf("first dispatch: %v", o)
	}

	// Add a blocking hook to the config and approve it from "another
	// terminal"; the next dispatch blocks.
	gen := p.generation()
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ctx + "\n    - command: " + block + "\n      matcher: terminal\n")
	e.mustCLI("approve", block)
	p.waitFor("the config reload", func() bool { return p.generation() > gen })
	o = p.outcome("pre_tool_call", rmrf)
	if o["decision"] != "block" || o["message"] != "rm -rf is not allowed" {
		t.Fatalf("after adding the blocking hook: %v", o)
	}
	p.waitLog(`level=INFO msg="config reloaded" generation=2 .* hooks=2`)

	// Revoke it with the CLI: the very next dispatch does not run it.
	if out := e.mustCLI("revoke", block); !strings.Contains(out, "Removed 1 allowlist entry") {
		t.Fatalf("revoke: %s", out)
	}
	o = p.outcome("pre_tool_call", rmrf)
	if o["decision"] != "none" || hookRan(t, o, block) || !hookRan(t, o, ctx) {
		t.Fatalf("after revoking: %v", o)
	}
	p.waitLog(`msg="hook revoked: it no longer runs" event=pre_tool_call command=` + regexp.QuoteMeta(block))

	// A broken config keeps the last good one in service, and the log
	// says where and why.
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ctx + "\n   bad indentation: [\n")
	p.waitLog(`level=ERROR msg="config reload failed: keeping the last good config" generation=2 file=` +
		regexp.QuoteMeta(e.config) + ` line=\d+ reason=`)
	o = p.outcome("pre_tool_call", rmrf)
	if !hookRan(t, o, ctx) || len(o["hooks"].([]any)) != 2 {
		t.Fatalf("after breaking the config: %v", o)
	}
	if h := p.healthz(); h["generation"] != 2.0 || h["reload_error"] == nil {
		t.Errorf("healthz after a broken edit: %v", h)
	}
}

// SIGTERM during a dispatch whose hook sleeps an hour: the server exits
// after its shutdown bound, the client gets a 503, and no hook process is
// left.
func TestServeSIGTERMKillsHooks(t *testing.T) { testServeSignalKillsHooks(t, syscall.SIGTERM) }

// SIGHUP (the terminal that started serve closed) ends it as cleanly as
// SIGTERM: hook groups killed, socket removed, exit 0. Without SIGHUP in
// the signal set the Go runtime's default kills the server outright,
// leaving its hooks (each in its own process group) running and its
// socket file behind.
func TestServeSIGHUPKillsHooks(t *testing.T) { testServeSignalKillsHooks(t, syscall.SIGHUP) }

func testServeSignalKillsHooks(t *testing.T, sig syscall.Signal) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	const bound = 2 * time.Second
	e := newServeEnv(t, "hooks: {}\n")
	// The hook's shell leads its process group (the runner starts every
	// hook with Setpgid); its pid is the group id. The sleep is a second
	// member of the group.
	hook := e.script("sleep.sh", `cat >/dev/null
echo $$ > "$TESTDIR/pgid.tmp" && mv "$TESTDIR/pgid.tmp" "$TESTDIR/pgid"
sleep 3600
echo '{}'
`)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + hook + "\n")
	e.mustCLI("approve", hook)
	p := e.serve("--shutdown-timeout", bound.String())

	type result struct {
		status int
		body   string
	}
	res := make(chan result, 1)
	go func() {
		resp, err := p.client.Post("http://x/v1/dispatch/pre_tool_call", "application/json", strings.NewReader(`{}`))
		if err != nil {
			res <- result{-1, err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res <- result{resp.StatusCode, string(b)}
	}()
	var pgid int
	p.waitFor("the hook to start", func() bool {
		b, err := os.ReadFile(filepath.Join(e.dir, "pgid"))
		pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pgid > 0
	})
	if len(proctest.LiveGroupMembers(pgid)) == 0 {
		t.Fatal("the hook's process group is not running")
	}

	start := time.Now()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(serveDeadline):
		t.Fatalf("serve did not exit after %v", sig)
	}
	took := time.Since(start)
	// The server's bound is the flag, which its log shows it took (below);
	// the time here is a hang guard against waiting for the hook's hour (a
	// loaded machine can take seconds to deliver the signal, kill, reap
	// and exit).
	if took > bound+serveDeadline/2 {
		t.Errorf("serve took %v to exit, bound %v", took, bound)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after %v (%v)", code, sig, p.cmd.ProcessState)
	}
	r := <-res
	if r.status != 503 || !strings.Contains(r.body, "shutting down") {
		t.Errorf("the interrupted dispatch got %d %s", r.status, r.body)
	}
	p.waitFor("no live process in the hook's group", func() bool { return len(proctest.LiveGroupMembers(pgid)) == 0 })
	if _, err := os.Lstat(e.socketPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket file left behind: %v", err)
	}
	p.waitLog(`msg="shutting down" in_flight=1 timeout=2s`)
	p.waitLog(`msg="shutdown timeout reached: cancelling in-flight dispatches" in_flight=1`)
	p.waitLog(`msg=stopped`)
}

// A second server cannot start on the socket path of a running one even
// after the first one's socket file was deleted (a cleanup script, a
// mistaken rm): the lock beside the socket, held for the server's life,
// refuses it with exit 1 and a message naming the lock. Without the lock,
// the second server would create a new socket and two would run. Once the
// first server stops, the path is free again.
func TestServeSecondServerRefusedByLock(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	first := e.serve()
	if err := os.Remove(e.socketPath); err != nil {
		t.Fatal(err)
	}
	second := exec.Command("hermes-hooks", "serve", "--listen", "unix://"+e.socketPath)
	second.Dir, second.Env = e.dir, e.env
	var stderr proctest.Buffer
	second.Stderr = &stderr
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- second.Wait() }()
	var waitErr error
	first.waitFor("the second server to exit", func() bool {
		select {
		case waitErr = <-exited:
			return true
		default:
		}
		if strings.Contains(stderr.String(), "msg=listening") {
			// It is serving: the bug. Stop it and report.
			second.Process.Kill()
			<-exited
			t.Fatalf("a second server started on the path of a running one:\n%s", stderr.String())
		}
		return false
	})
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) || ee.ExitCode() != 1 {
		t.Errorf("second server: %v, want exit 1\n%s", waitErr, stderr.String())
	}
	lock := e.socketPath + ".lock"
	want := "hermes-hooks: error: listen " + e.socketPath + ": another server is listening on this socket (another server holds the lock " + lock + ")"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("second server's message:\n%s\nwant it to contain:\n%s", stderr.String(), want)
	}
	if _, err := os.Lstat(e.socketPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused server left a socket file: %v", err)
	}
	select {
	case <-first.exited:
		t.Fatalf("the first server stopped: %s", first.log.String())
	default:
	}

	// Once the first server is gone, a new one starts on the same path.
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	if h := e.serve().healthz(); h["status"] != "ok" {
		t.Errorf("a server after the first stopped: %v", h)
	}
}

// A server stopped by SIGTERM leaves nothing beside its socket path: the
// socket and the lock file are gone (issue 24; the lock file used to stay).
func TestServeRemovesItsFilesAtExit(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p := e.serve()
	lock := e.socketPath + ".lock"
	if _, err := os.Lstat(lock); err != nil {
		t.Fatalf("no lock file while serving: %v", err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(serveDeadline):
		t.Fatal("serve did not exit on SIGTERM")
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	for _, f := range []string{e.socketPath, lock} {
		if _, err := os.Lstat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after serve stopped: %v", f, err)
		}
	}
}

// GET /v1/hooks is `list --json`, byte for byte; dispatch replies are what
// one-shot `dispatch` prints; the socket is private.
func TestServeMatchesCLI(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	block := e.script("block.sh", serveBlockScript)
	unapproved := e.script("other.sh", "cat >/dev/null\necho '{}'\n")
	if err := os.MkdirAll(filepath.Join(e.dir, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, filepath.Join(e.dir, ".claude", "settings.json"),
		`{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"`+unapproved+`"}]}]}}`, 0o644)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + block + "\n      matcher: terminal\n" +
		"  on_session_start:\n    - command: " + unapproved + "\n      timeout: 9999\n")
	e.mustCLI("approve", block)
	p := e.serve("--claude-settings", ".claude/settings.json")

	fi, err := os.Lstat(e.socketPath)
	if err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket %v %v, want mode 0600", fi.Mode(), err)
	}

	want := e.mustCLI("--claude-settings", ".claude/settings.json", "list", "--json")
	status, got := p.request("GET", "/v1/hooks", "")
	if status != 200 || string(got) != want {
		t.Errorf("GET /v1/hooks differs from list --json\nserve: %s\nlist:  %s", got, want)
	}

	// No hook matches: the bytes are the same.
	out, _, code := e.cli("{}", "--claude-settings", ".claude/settings.json", "dispatch", "pre_llm_call")
	if status, got := p.request("POST", "/v1/dispatch/pre_llm_call", "{}"); code != 0 || status != 200 || string(got) != out {
		t.Errorf("no-match outcome: serve %d %s, dispatch %d %s", status, got, code, out)
	}
	// With hooks (one blocking, one not approved), the same outcome but
	// for the hooks' running times.
	rmrf := `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`
	out, _, code = e.cli(rmrf, "--claude-settings", ".claude/settings.json", "dispatch", "pre_tool_call")
	status, got = p.request("POST", "/v1/dispatch/pre_tool_call", rmrf)
	if code != 0 || status != 200 || withoutTimes(got) != withoutTimes([]byte(out)) {
		t.Errorf("outcome: serve %d %s\ndispatch %d %s", status, got, code, out)
	}
	if !strings.Contains(string(got), `"decision":"block"`) {
		t.Errorf("outcome %s", got)
	}
}

var elapsedRe = regexp.MustCompile(`"elapsed_ms":[0-9.e+-]+`)

func withoutTimes(b []byte) string {
	return elapsedRe.ReplaceAllString(string(b), `"elapsed_ms":0`)
}

// A TCP address other machines could reach is refused without
// --allow-remote; a live socket is never taken over; a loopback port works.
func TestServeListenChecks(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	for _, addr := range []string{"tcp://0.0.0.0:0", "tcp://:0", "tcp://[::]:0"} {
		out, errs, code := e.cli("", "serve", "--listen", addr)
		if code != 2 || !strings.Contains(errs, "not a loopback address") || !strings.Contains(errs, "--allow-remote") {
			t.Errorf("serve --listen %s: exit %d\n%s%s", addr, code, out, errs)
		}
	}
	_, errs, code := e.cli("", "serve", "--listen", "http://127.0.0.1:80")
	if code != 2 || !strings.Contains(errs, "unix:///path/to/sock") {
		t.Errorf("bad scheme: exit %d %s", code, errs)
	}

	p := e.serve()
	_, errs, code = e.cli("", "serve", "--listen", "unix://"+e.socketPath)
	if code != 1 || !strings.Contains(errs, "another server is listening") {
		t.Errorf("second server on a live socket: exit %d %s", code, errs)
	}
	if p.generation() != 1 {
		t.Error("the first server stopped answering")
	}

	// A loopback TCP port; the log says which.
	tcp := exec.Command("hermes-hooks", "serve", "--listen", "tcp://127.0.0.1:0", "--log-format", "json")
	tcp.Dir, tcp.Env = e.dir, e.env
	log := &proctest.Buffer{}
	tcp.Stderr = log
	if err := tcp.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		tcp.Process.Signal(syscall.SIGTERM)
		tcp.Wait()
	}()
	addrRe := regexp.MustCompile(`"msg":"listening","addr":"tcp://(127\.0\.0\.1:\d+)"`)
	var hostport string
	p.waitFor("the TCP server's listening line", func() bool {
		m := addrRe.FindStringSubmatch(log.String())
		if m != nil {
			hostport = m[1]
		}
		return m != nil
	})
	resp, err := http.Post("http://"+hostport+"/v1/dispatch/PreToolUse", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(b), `{"event":"pre_tool_call","decision":"none"`) {
		t.Errorf("TCP dispatch: %d %s", resp.StatusCode, b)
	}
	// Any user of this machine could do the same: the log says so, and
	// what to use instead.
	if l := log.String(); !strings.Contains(l, `"level":"WARN","msg":"a tcp:// address has no authentication`) || !strings.Contains(l, "token://") {
		t.Errorf("no warning that any local user can dispatch over tcp://:\n%s", l)
	}
}

// pythonPath is the real interpreter behind python3 (a pyenv shim costs a
// shell start per call).
func pythonPath(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skip("python3 not available")
	}
	return strings.TrimSpace(string(out))
}

// The README's Python client, run as is against a real server.
func TestServePythonClient(t *testing.T) {
	python := pythonPath(t)
	client, err := filepath.Abs(filepath.Join("..", "..", "testdata", "clients", "serve_client.py"))
	if err != nil {
		t.Fatal(err)
	}
	e := newServeEnv(t, "hooks: {}\n")
	block := e.script("block.sh", serveBlockScript)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + block + "\n      matcher: terminal\n")
	e.mustCLI("approve", block)
	e.serve()
	for _, c := range []struct {
		command, out string
		code         int
	}{
		{"rm -rf /", "blocked: rm -rf is not allowed\n", 0},
		{"ls -la", "allowed\n", 0},
	} {
		cmd := exec.Command(python, client, e.socketPath, c.command)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || out.String() != c.out {
			t.Errorf("serve_client.py %q: exit %d, stdout %q, stderr %q; want exit %d, %q",
				c.command, code, out.String(), errb.String(), c.code, c.out)
		}
	}
}

// TestHookForwardsToServe: with a serve live on the default socket, `hook
// claude` forwards the dispatch to it (the server logs it) and answers
// exactly what an in-process dispatch answers; a server for another
// project is refused and the hook dispatches itself, still correctly.
func TestHookForwardsToServe(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	block := e.script("block.sh", serveBlockScript)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + block + "\n      matcher: terminal\n")
	e.mustCLI("approve", block)
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock") // the default
	p := e.serve()

	payload := `{"hook_event_name":"PreToolUse","cwd":"` + e.dir + `","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed"}}` + "\n"
	local, errs, code := e.cli(payload, "hook", "claude", "--no-server")
	if local != want || code != 0 {
		t.Fatalf("in-process: exit %d %q %s", code, local, errs)
	}
	forwarded, errs, code := e.cli(payload, "hook", "claude")
	if forwarded != want || code != 0 || errs != "" {
		t.Fatalf("forwarded: exit %d %q %s", code, forwarded, errs)
	}
	p.waitLog(`msg=dispatch event=pre_tool_call decision=block hooks=1 ran=1 status=200`)

	// Another project: the server refuses, the hook answers by itself.
	other := t.TempDir()
	payload = strings.Replace(payload, e.dir, other, 1)
	got, errs, code := e.cli(payload, "hook", "claude", "--server", "unix://"+e.socketPath)
	if got != want || code != 0 || !strings.Contains(errs, "HTTP 409") || !strings.Contains(errs, "dispatching here instead") {
		t.Fatalf("other project: exit %d %q\n%s", code, got, errs)
	}
}
