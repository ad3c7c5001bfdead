//go:build unix

package server

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// userFixture is a user-level server's Handler with a guard in the user's
// config that blocks with its working directory, so every reply says
// which project set answered.
func userFixture(t *testing.T, maxProjects int, projects ...string) (*User, []string, *proctest.Buffer) {
	t.Helper()
	root := shortDir(t)
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o700)
	guard := filepath.Join(home, "pwd.sh")
	writeAtomic(t, guard, "#!/bin/sh\ncat >/dev/null\nprintf '{\"action\":\"block\",\"message\":\"%s\"}\\n' \"$(pwd)\"\n", 0o755)
	config := filepath.Join(home, "config.yaml")
	writeAtomic(t, config, "hooks:\n  pre_tool_call:\n    - command: "+guard+"\n", 0o644)
	store := consent.NewStore(home)
	if _, err := store.Approve("pre_tool_call", guard); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, p := range projects {
		d := filepath.Join(root, p)
		os.MkdirAll(d, 0o755)
		dirs = append(dirs, d)
	}
	logs := &proctest.Buffer{}
	u, err := NewUser(Options{ConfigPath: config, Store: store, Logger: slog.New(slog.NewTextHandler(logs, nil))}, maxProjects)
	if err != nil {
		t.Fatal(err)
	}
	return u, dirs, logs
}

func userDispatch(t *testing.T, h http.Handler, project string) (int, string) {
	t.Helper()
	r := httptest.NewRequest("POST", "/v1/dispatch/pre_tool_call?"+url.Values{"project": {project}}.Encode(), strings.NewReader(`{"tool_name":"terminal"}`))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var o struct{ Message string }
	json.Unmarshal(w.Body.Bytes(), &o)
	if w.Code != http.StatusOK {
		return w.Code, w.Body.String()
	}
	return w.Code, o.Message
}

// Many requests for three projects at once through a server that keeps
// one: projects are loaded, evicted and loaded again under the requests'
// feet (run with -race), and each request is still answered by its own
// project's set, never another's.
func TestUserEvictionUnderLoad(t *testing.T) {
	u, dirs, logs := userFixture(t, 1, "a", "b", "c")
	h := u.Handler()
	var wg sync.WaitGroup
	errs := make(chan string, 60)
	for i := range 30 {
		wg.Go(func() {
			d := dirs[i%len(dirs)]
			if code, msg := userDispatch(t, h, d); code != 200 || msg != d {
				errs <- d + ": " + msg
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := u.Projects(); n != 1 {
		t.Errorf("%d projects loaded, want at most 1", n)
	}
	if !strings.Contains(logs.String(), `msg="project dropped"`) {
		t.Errorf("nothing was evicted:\n%s", logs.String())
	}
}

// The dispatch runs in the caller's working directory (wd), its project
// set keyed by it too: the same project from two working directories is
// two sets.
func TestUserRunsInCallersWorkdir(t *testing.T) {
	u, dirs, _ := userFixture(t, 4, "p", "sub")
	h := u.Handler()
	r := httptest.NewRequest("POST", "/v1/dispatch/pre_tool_call?"+url.Values{"project": {dirs[0]}, QueryWorkdir: {dirs[1]}}.Encode(), strings.NewReader(`{}`))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"message":"`+dirs[1]+`"`) {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	if code, msg := userDispatch(t, h, dirs[0]); code != 200 || msg != dirs[0] {
		t.Fatalf("%d %s", code, msg)
	}
	if u.Projects() != 2 {
		t.Fatalf("%d project sets, want 2", u.Projects())
	}
}

func TestVerifyProjectDir(t *testing.T) {
	root := shortDir(t)
	dir := filepath.Join(root, "d")
	os.Mkdir(dir, 0o755)
	file := filepath.Join(root, "f")
	os.WriteFile(file, nil, 0o644)
	link := filepath.Join(root, "l")
	os.Symlink(dir, link)
	throughLink := filepath.Join(root, "l2")
	os.Symlink(root, throughLink)
	for _, c := range []struct {
		path, want string // want "": accepted
	}{
		{dir, ""},
		{filepath.Join(throughLink, "d"), ""}, // a symlink on the way is the caller's own path
		{link, "a symlink"},
		{file, "not a directory"},
		{"d", "not an absolute, clean path"},
		{dir + "/", "not an absolute, clean path"},
		{dir + "/../d", "not an absolute, clean path"},
		{filepath.Join(root, "missing"), "no such file or directory"},
		{"", "not an absolute, clean path"},
	} {
		err := verifyProjectDir(c.path)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.path, err, c.want)
		}
	}
}

func TestPrivateSocketDir(t *testing.T) {
	root := shortDir(t)
	fresh := filepath.Join(root, "fresh")
	if err := PrivateSocketDir(fresh); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o700 {
		t.Fatalf("made %v", fi.Mode())
	}
	for _, mode := range []os.FileMode{0o750, 0o701, 0o777} {
		d := filepath.Join(root, "m"+mode.String())
		os.Mkdir(d, 0o700)
		os.Chmod(d, mode)
		if err := PrivateSocketDir(d); err == nil || !strings.Contains(err.Error(), "it must be 0700") {
			t.Errorf("%v: %v", mode, err)
		}
	}
	link := filepath.Join(root, "link")
	os.Symlink(fresh, link)
	if err := PrivateSocketDir(link); err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Errorf("symlink: %v", err)
	}
}

func TestTrustedSocket(t *testing.T) {
	root := shortDir(t)
	os.Chmod(root, 0o700)
	sock := filepath.Join(root, "s")
	ln, err := Listen(Addr{Network: "unix", Address: sock}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := TrustedSocket(sock); err != nil {
		t.Fatalf("a socket Listen made: %v", err)
	}
	os.Chmod(sock, 0o660)
	if err := TrustedSocket(sock); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Errorf("0660 socket: %v", err)
	}
	os.Chmod(sock, 0o600)
	os.Chmod(root, 0o770)
	if err := TrustedSocket(sock); err == nil || !strings.Contains(err.Error(), "others can write it") {
		t.Errorf("group-writable dir: %v", err)
	}
	os.Chmod(root, 0o755) // readable by others is fine: they cannot replace it
	if err := TrustedSocket(sock); err != nil {
		t.Errorf("0755 dir: %v", err)
	}
	file := filepath.Join(root, "f")
	os.WriteFile(file, nil, 0o600)
	if err := TrustedSocket(file); err == nil || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("a file: %v", err)
	}
}

// FuzzProjectDirs: whatever the query, the parser neither panics nor
// accepts a directory that fails the checks.
func FuzzProjectDirs(f *testing.F) {
	root := f.TempDir()
	f.Add("project=" + url.QueryEscape(root))
	f.Add("project=" + url.QueryEscape(root) + "&wd=%2F")
	f.Add("project=..&project=%2Fetc")
	f.Add("project=%00")
	f.Fuzz(func(t *testing.T, query string) {
		r := httptest.NewRequest("GET", "/v1/hooks", nil)
		r.URL.RawQuery = query
		wd, dirs, key, err := projectDirs(r)
		if err != nil {
			return
		}
		for _, d := range append([]string{wd}, dirs...) {
			fi, lerr := os.Lstat(d)
			if !filepath.IsAbs(d) || filepath.Clean(d) != d || lerr != nil || !fi.IsDir() {
				t.Fatalf("accepted %q (key %q)", d, key)
			}
		}
	})
}
