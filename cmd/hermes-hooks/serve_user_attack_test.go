//go:build linux

package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/server"
)

// Attacks on the user-level server and on hook's forwarding, through the
// real binary.

// hostileServer listens at path and answers every dispatch "no objection"
// with the headers a real serve of this very version sends; die makes it
// drop the connection mid-dispatch instead, as a server that crashes.
func hostileServer(t *testing.T, path string, die bool) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	hostileOn(t, ln, die)
}

// hostileOn serves hostileServer's answers on ln.
func hostileOn(t *testing.T, ln net.Listener, die bool) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status":"ok"}`)) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if die {
			c, _, _ := http.NewResponseController(w).Hijack()
			c.Close()
			return
		}
		w.Header().Set(server.InputsHeader, "checked")
		w.Header().Set(server.VersionHeader, cli.Version())
		w.Write([]byte(`{"event":"pre_tool_call","decision":"none","stop":false,"hooks":[]}` + "\n"))
	})
	hs := &http.Server{Handler: mux}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
}

// TestAttackHostileListener: HERMES_HOOKS_SERVER forged to point at a
// listener that answers "allow". hook asks it only when its socket is
// this user's, closed to others, in a directory nobody else can write;
// otherwise (and when the server dies mid-request) hook says why and its
// own guard decides: the rm -rf is refused every time. The last case is
// the boundary: a listener of the same user in a private directory is
// trusted — it could run anything as that user anyway.
func TestAttackHostileListener(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	for _, c := range []struct {
		name           string
		dirMode, sMode os.FileMode
		die            bool
		wantErr        string // "": the listener was used
	}{
		{"dir writable by others", 0o777, 0o600, false, "others can write it"},
		{"socket open to others", 0o700, 0o666, false, "open to other users"},
		{"dies mid-request", 0o700, 0o600, true, "EOF"},
		{"private, same user", 0o700, 0o600, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, err := os.MkdirTemp(e.root, "h")
			if err != nil {
				t.Fatal(err)
			}
			sock := filepath.Join(dir, "s")
			hostileServer(t, sock, c.die)
			os.Chmod(sock, c.sMode)
			os.Chmod(dir, c.dirMode)
			out, errs, code := e.cliIn(p1, claudeBash(p1, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=" + sock}, "hook", "claude")
			if c.wantErr == "" {
				if out != "" || code != 0 || errs != "" {
					t.Fatalf("trusted listener: exit %d %q %s", code, out, errs)
				}
				return
			}
			if out != claudeDeny("p1 refuses") || code != 0 || !strings.Contains(errs, c.wantErr) || !strings.Contains(errs, "dispatching here instead") {
				t.Fatalf("exit %d %q\nstderr %s", code, out, errs)
			}
			if strings.Count(errs, "\n") != 1 {
				t.Fatalf("want one stderr line: %q", errs)
			}
			if r := e.lastJournal(); !strings.Contains(fmt.Sprint(r["server_unused"]), c.wantErr) || r["decision"] != "block" {
				t.Fatalf("journal: %v", r)
			}
		})
	}
}

// TestAttackHostileTCPListener: HERMES_HOOKS_SERVER names a loopback TCP
// port (a serve --listen tcp://… that is not running, or is restarting).
// Any local user can take that port and answer "allow" with the headers a
// real serve sends; nothing on a bare TCP connection says which user
// listens. hook does not ask it (the call would also hand that user the
// tool call's input): its own guard refuses the rm -rf.
func TestAttackHostileTCPListener(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hostileOn(t, ln, false)
	out, errs, code := e.cliIn(p1, claudeBash(p1, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=tcp://" + ln.Addr().String()}, "hook", "claude")
	if out != claudeDeny("p1 refuses") || code != 0 || !strings.Contains(errs, "cannot prove") || !strings.Contains(errs, "dispatching here instead") {
		t.Fatalf("exit %d %q\nstderr %s", code, out, errs)
	}
}

// TestAttackUserServeProjectRoots: a request naming a project root the
// server must not load — a symlink, a file, a relative or unclean path, a
// missing directory — is refused (409) before anything is loaded; hook
// called from a symlinked directory says why and decides by itself.
func TestAttackUserServeProjectRoots(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	link := filepath.Join(e.root, "link")
	if err := os.Symlink(p1, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(p1, "guard.sh")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	p := e.serve("--user")
	for _, c := range []struct{ project, want string }{
		{link, "a symlink"},
		{file, "not a directory"},
		{"p1", "not an absolute, clean path"},
		{p1 + "/../p1", "not an absolute, clean path"},
		{filepath.Join(e.root, "missing"), "no such file or directory"},
	} {
		status, body := p.request("POST", "/v1/dispatch/pre_tool_call?"+url.Values{"project": {c.project}}.Encode(), `{"tool_name":"terminal"}`)
		if status != 409 || !strings.Contains(string(body), c.want) {
			t.Errorf("project %q: %d %s", c.project, status, body)
		}
	}
	if os.Geteuid() != 0 { // root can list any directory
		locked := filepath.Join(e.root, "locked")
		os.Mkdir(locked, 0o000)
		if status, body := p.request("GET", "/v1/hooks?project="+url.QueryEscape(locked), ""); status != 409 {
			t.Errorf("unreadable project: %d %s", status, body)
		}
	}
	if strings.Contains(p.log.String(), "project loaded") {
		t.Fatalf("a refused request loaded a project:\n%s", p.log.String())
	}
	// The answer is the one-shot one (whatever that directory's approvals
	// make it), not the server's.
	// (Each call in a session of its own: the line about a repository's
	// unapproved hooks is shown once per session.)
	want, _, _ := e.cliIn(link, claudeBash(link, "rm -rf /"), nil, "hook", "claude", "--no-server")
	out, errs, _ := e.cliIn(link, strings.Replace(claudeBash(link, "rm -rf /"), `"session_id":"s1"`, `"session_id":"s2"`, 1), nil, "hook", "claude")
	if out != want || !strings.Contains(errs, "a symlink; name the directory it leads to\"}; dispatching here instead") {
		t.Fatalf("hook from a symlinked directory: %q, one-shot %q\n%s", out, want, errs)
	}
}

// TestAttackUserServeSocketDir: serve --user refuses a socket directory
// another process made with loose permissions, and one that is a symlink.
func TestAttackUserServeSocketDir(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	loose := filepath.Join(e.root, "loose")
	os.Mkdir(loose, 0o755)
	os.Chmod(loose, 0o777)
	_, errs, code := e.cli("", "serve", "--user", "--listen", "unix://"+loose+"/s.sock")
	if code != 1 || !strings.Contains(errs, "the socket directory "+loose+" has mode 0777; it must be 0700") {
		t.Fatalf("loose dir: exit %d\n%s", code, errs)
	}
	link := filepath.Join(e.root, "linkdir")
	os.Symlink(e.home, link)
	_, errs, code = e.cli("", "serve", "--user", "--listen", "unix://"+link+"/s.sock")
	if code != 1 || !strings.Contains(errs, "is a symlink") {
		t.Fatalf("symlinked dir: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(loose, "s.sock")); err == nil {
		t.Fatal("a socket was made in the loose directory")
	}
}

// TestAttackUserServeOtherUser (root only: it needs a second user): a
// process of another user reaches the server's socket after its modes
// were loosened, and posts a dispatch: the server closes the connection
// unanswered (SO_PEERCRED), logs it, and loads nothing.
func TestAttackUserServeOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a process as another user")
	}
	// A system python: a per-user install (pyenv's shims in /root) is
	// out of the other user's reach.
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no " + py)
	}
	e := newServeEnv(t, "hooks: {}\n")
	p1 := e.userProject("p1", "p1 refuses")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	p := e.serve("--user")
	for _, d := range []string{e.root, e.home, filepath.Dir(e.socketPath)} {
		os.Chmod(d, 0o777)
	}
	os.Chmod(e.socketPath, 0o666)
	script := `import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
try:
    s.sendall(b"POST /v1/dispatch/pre_tool_call?project=` + url.QueryEscape(p1) + ` HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
    got = s.recv(4096)
except (BrokenPipeError, ConnectionResetError):
    got = b""
sys.stdout.write(repr(got))`
	cmd := exec.Command(py, "-c", script, e.socketPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "b''" {
		t.Fatalf("another user's request: %v %s", err, out)
	}
	p.waitLog(`refused a connection from another user.*uid=65534`)
	if strings.Contains(p.log.String(), "project loaded") {
		t.Fatalf("another user's request loaded a project:\n%s", p.log.String())
	}
}

// TestAttackServeFromSymlinkedDir: a per-project serve started through a
// symlink that leads into a repository below its root (~/svc ->
// ~/mono/svc, as a shell's $PWD keeps it) finds no project hooks from
// there: searching upward from the symlink's own path never meets the
// repository. The agent names the physical directory, where the one-shot
// finds the repository's guard. Both name the same directory, so a
// comparison that follows symlinks let the server answer "no objection"
// to what the one-shot refuses; the server must not answer for another
// spelling of its project (the hook then decides by itself).
func TestAttackServeFromSymlinkedDir(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	mono := filepath.Join(e.root, "mono")
	if out, err := exec.Command("git", "init", "-q", mono).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	e.userProject("mono", "mono refuses")
	svc := filepath.Join(mono, "svc")
	if err := os.Mkdir(svc, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.root, "svclink")
	if err := os.Symlink(svc, link); err != nil {
		t.Fatal(err)
	}
	want, _, _ := e.cliIn(svc, claudeBash(svc, "rm -rf /"), nil, "hook", "claude", "--no-server")
	if want != claudeDeny("mono refuses") {
		t.Fatalf("one-shot from %s: %q", svc, want)
	}
	e.dir = link
	e.env = append(e.env, "PWD="+link)
	e.serve()
	out, errs, code := e.cliIn(svc, claudeBash(svc, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=" + e.socketPath}, "hook", "claude")
	if out != want || code != 0 || !strings.Contains(errs, "the project hooks are "+filepath.Join(mono, ".hermes", "hooks.yaml")) {
		t.Fatalf("through serve started in %s: exit %d %q (one-shot: %q)\nstderr %s", link, code, out, want, errs)
	}
}

// repointable makes two repositories, a (no hooks) and b (its guard
// refuses with "b refuses", approved), each with a directory svc, and a
// symlink cur -> a; repoint(cur) then points it at b (a rename, as tools
// that switch a checkout do). No file the servers watch changes.
func (e *serveEnv) repointable() (cur, bSvc string, repoint func()) {
	e.t.Helper()
	a, b := filepath.Join(e.root, "a"), filepath.Join(e.root, "b")
	for _, d := range []string{a, b} {
		if out, err := exec.Command("git", "init", "-q", d).CombinedOutput(); err != nil {
			e.t.Fatalf("git init: %v %s", err, out)
		}
	}
	e.userProject("b", "b refuses")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(filepath.Join(d, "svc"), 0o755); err != nil {
			e.t.Fatal(err)
		}
	}
	cur = filepath.Join(e.root, "cur")
	if err := os.Symlink(a, cur); err != nil {
		e.t.Fatal(err)
	}
	return cur, filepath.Join(b, "svc"), func() {
		tmp := cur + ".new"
		if err := os.Symlink(b, tmp); err != nil {
			e.t.Fatal(err)
		}
		if err := os.Rename(tmp, cur); err != nil {
			e.t.Fatal(err)
		}
	}
}

// TestAttackServeProjectRepointed: a per-project serve started in
// cur/svc loaded a's hooks (none). cur is then pointed at b, whose guard
// refuses: the server must not answer for b/svc (nor for cur/svc, which
// now is b/svc) with a's hooks; the hook decides by itself.
func TestAttackServeProjectRepointed(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	cur, bSvc, repoint := e.repointable()
	e.dir = filepath.Join(cur, "svc")
	e.env = append(e.env, "PWD="+e.dir)
	e.serve()
	repoint()
	want := claudeDeny("b refuses")
	for _, dir := range []string{bSvc, e.dir} {
		out, errs, code := e.cliIn(dir, claudeBash(dir, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=" + e.socketPath}, "hook", "claude")
		if out != want || code != 0 {
			t.Fatalf("from %s after cur -> b: exit %d %q\nstderr %s", dir, code, out, errs)
		}
	}
}

// TestAttackUserServeProjectRepointed: the same for serve --user, which
// keeps a project loaded by the path a caller names: cur/svc, loaded
// while cur -> a, must not be answered with a's hooks once cur -> b.
func TestAttackUserServeProjectRepointed(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	cur, _, repoint := e.repointable()
	svc := filepath.Join(cur, "svc")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	e.serve("--user")
	env := []string{"HERMES_HOOKS_SERVER=" + e.socketPath, "PWD=" + svc}
	if out, errs, code := e.cliIn(svc, claudeBash(svc, "ls"), env, "hook", "claude"); out != "" || code != 0 || errs != "" {
		t.Fatalf("while cur -> a: exit %d %q\nstderr %s", code, out, errs)
	}
	repoint()
	out, errs, code := e.cliIn(svc, claudeBash(svc, "rm -rf /"), env, "hook", "claude")
	if out != claudeDeny("b refuses") || code != 0 {
		t.Fatalf("after cur -> b: exit %d %q\nstderr %s", code, out, errs)
	}
}

// TestAttackServeHomeRepointed: HERMES_HOME is a symlink (home -> a),
// pointed at another home (b) whose config has a guard, approved there,
// while a per-project serve runs on a's config: no file it watches
// changes, and the hook must not be answered with a's (no) hooks.
func TestAttackServeHomeRepointed(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	b := filepath.Join(e.root, "homeb")
	if err := os.Mkdir(b, 0o700); err != nil {
		t.Fatal(err)
	}
	guard := e.script("guard.sh", "cat >/dev/null\necho '{\"action\":\"block\",\"message\":\"b refuses\"}'\n")
	replaceFile(t, filepath.Join(b, "config.yaml"), "hooks:\n  pre_tool_call:\n    - command: "+guard+"\n", 0o644)
	if out, errs, code := e.cliIn(e.dir, "", []string{"HERMES_HOME=" + b}, "approve", "--all"); code != 0 {
		t.Fatalf("approve in b: exit %d\n%s%s", code, out, errs)
	}
	link := filepath.Join(e.root, "hh")
	if err := os.Symlink(e.home, link); err != nil {
		t.Fatal(err)
	}
	e.env = append(e.env, "HERMES_HOME="+link)
	e.serve()
	tmp := link + ".new"
	if err := os.Symlink(b, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	out, errs, code := e.cliIn(e.dir, claudeBash(e.dir, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=" + e.socketPath}, "hook", "claude")
	if out != claudeDeny("b refuses") || code != 0 {
		t.Fatalf("after HERMES_HOME -> b: exit %d %q\nstderr %s", code, out, errs)
	}
}

// TestAttackServeFlagFileRepointed: a per-project serve reads the Claude
// settings named by --claude-settings cur/settings.json while cur -> a
// (no hooks). cur is then pointed at b, whose settings hold a guard
// (approved): no file the server watches changes, and a forwarded call
// naming the same path must not be answered with a's (no) hooks.
func TestAttackServeFlagFileRepointed(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	a, b := filepath.Join(e.root, "sa"), filepath.Join(e.root, "sb")
	guard := e.script("deny.sh", "cat >/dev/null\necho 'b refuses' >&2\nexit 2\n")
	for dir, hooks := range map[string]string{a: `{}`, b: `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + guard + `"}]}]}`} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		replaceFile(t, filepath.Join(dir, "settings.json"), `{"hooks": `+hooks+"}\n", 0o644)
	}
	e.mustCLI("approve", "--all", "--claude-settings", filepath.Join(b, "settings.json"))
	cur := filepath.Join(e.root, "cur")
	if err := os.Symlink(a, cur); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(cur, "settings.json")
	e.serve("--claude-settings", settings)
	tmp := cur + ".new"
	if err := os.Symlink(b, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, cur); err != nil {
		t.Fatal(err)
	}
	out, errs, code := e.cliIn(e.dir, claudeBash(e.dir, "rm -rf /"), []string{"HERMES_HOOKS_SERVER=" + e.socketPath}, "hook", "claude", "--claude-settings", settings)
	if out != claudeDeny("b refuses") || code != 0 {
		t.Fatalf("after cur -> b: exit %d %q\nstderr %s", code, out, errs)
	}
}
