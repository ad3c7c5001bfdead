//go:build linux

package attacktest

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The shared digest cache lets a one-shot dispatch skip re-hashing a large
// approved binary whose stat identity (device, inode, size, mode, mtime,
// ctime) is unchanged. A write through a shared mapping need not change
// that identity, so these tests patch an approved binary that way after a
// dispatch cached its digest, and check that the next dispatch refuses to
// run the patched bytes (issue 23, item 4). On the old code both ran them
// while `list` said "changed since approval".

// guardMarker is the text the guard prints; the tests patch it in place.
const (
	guardMarker  = "guard-APPROVED-6b1f"
	guardPatched = "guard-PATCHED!-6b1f"
)

var (
	guardOnce sync.Once
	guardBin  []byte
	guardErr  error
)

// guardBinary returns a static Go program (well over the cache's 512 KiB
// threshold) that blocks every tool call with the message guardMarker.
func guardBinary(t *testing.T) []byte {
	t.Helper()
	guardOnce.Do(func() {
		dir, err := os.MkdirTemp("", "guard-")
		if err != nil {
			guardErr = err
			return
		}
		defer os.RemoveAll(dir)
		src := "package main\n\nimport \"os\"\n\nvar marker = \"" + guardMarker + "\"\n\n" +
			"func main() {\n\tos.Stdout.WriteString(`{\"action\": \"block\", \"message\": \"` + marker + `\"}` + \"\\n\")\n}\n"
		if guardErr = os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); guardErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", "guard", "main.go")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GO111MODULE=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			guardErr = &exec.Error{Name: "go build: " + string(out), Err: err}
			return
		}
		guardBin, guardErr = os.ReadFile(filepath.Join(dir, "guard"))
	})
	if guardErr != nil {
		t.Fatal(guardErr)
	}
	if len(guardBin) < 512<<10 || bytes.Count(guardBin, []byte(guardMarker)) != 1 {
		t.Fatalf("guard binary: %d bytes, %d markers; want >= 512 KiB and one marker", len(guardBin), bytes.Count(guardBin, []byte(guardMarker)))
	}
	return guardBin
}

// installGuard writes the guard binary at path, configures it as the only
// pre_tool_call hook, approves it, and runs one dispatch that it blocks
// (which is the dispatch that caches its digest).
func installGuard(t *testing.T, e *env, path string) {
	t.Helper()
	if err := os.WriteFile(path, guardBinary(t), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+path+"\n", 0o644)
	e.run("", "approve", path)
}

const toolCall = `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`

// dispatch runs one pre_tool_call dispatch and returns its output; a non-zero
// exit is fine (a refused guard may block), a failure to start is not.
func (e *env) dispatch() string {
	e.t.Helper()
	out, err := e.cmd(toolCall, "dispatch", "pre_tool_call").Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		e.t.Fatal(err)
	}
	return string(out)
}

// mapShared maps path read-write and shared, and returns the mapping and the
// offset of guardMarker in it.
func mapShared(t *testing.T, path string) (mem []byte, at int, unmap func()) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close() // the mapping keeps the file open for writing
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	mem, err = unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	at = bytes.Index(mem, []byte(guardMarker))
	if at < 0 {
		t.Fatal("marker not found in the mapping")
	}
	return mem, at, func() {
		if err := unix.Munmap(mem); err != nil {
			t.Fatal(err)
		}
	}
}

func statIdentity(t *testing.T, path string) [3]int64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return [3]int64{st.Size, st.Mtim.Nano(), st.Ctim.Nano()}
}

// checkRefused fails unless the dispatch after the patch refused the guard
// and `list` reports it changed.
func checkRefused(t *testing.T, e *env, out string) {
	t.Helper()
	if strings.Contains(out, guardPatched) {
		t.Fatalf("the patched binary ran under the old approval:\n%s", out)
	}
	if strings.Contains(out, `"ran":true`) || !strings.Contains(out, "changed since approval") {
		t.Fatalf("want the guard refused as changed since approval, got:\n%s", out)
	}
	if list := e.run("", "list"); !strings.Contains(list, "changed since approval") {
		t.Fatalf("list does not report the change:\n%s", list)
	}
}

// On tmpfs a page that was first faulted in for reading is mapped writable
// at once (nothing is ever written back, so the kernel does not track the
// first write), and writes through it change neither mtime nor ctime.
func TestPatchedBinaryOnTmpfsNotRunFromDigestCache(t *testing.T) {
	var sfs unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &sfs); err != nil || sfs.Type != unix.TMPFS_MAGIC {
		t.Skip("no tmpfs at /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "attacktest-")
	if err != nil {
		t.Skip("cannot write to /dev/shm:", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	e := newEnv(t)
	guard := filepath.Join(dir, "guard")
	installGuard(t, e, guard)
	out := e.dispatch()
	if strings.Contains(out, "permission denied") {
		t.Skip("/dev/shm is mounted noexec")
	}
	if !strings.Contains(out, guardMarker) {
		t.Fatalf("the approved guard did not run:\n%s", out)
	}

	before := statIdentity(t, guard)
	mem, at, unmap := mapShared(t, guard)
	_ = mem[at] // read fault first: the page is then mapped writable
	copy(mem[at:], guardPatched)
	unmap()
	if after := statIdentity(t, guard); after != before {
		t.Logf("this kernel moved the times on a mapped write (%v → %v); the test still checks the refusal", before, after)
	}
	checkRefused(t, e, e.dispatch())
}

// On a disk filesystem the first write to a clean page updates the times,
// but further writes to a page that is already dirty do not, until the page
// is written back. A writer that dirtied the page before the dispatch hashed
// the binary can patch it afterwards without changing its stat identity.
func TestPatchedBinaryWithDirtyPageNotRunFromDigestCache(t *testing.T) {
	e := newEnv(t)
	guard := e.path("guard")
	installGuard(t, e, guard)

	mem, at, unmap := mapShared(t, guard)
	copy(mem[at:], guardMarker) // dirty the page, same bytes
	// This dispatch hashes the approved bytes while the mapping is open;
	// the kernel would refuse to start a binary open for writing anyway.
	if out := e.dispatch(); strings.Contains(out, `"ran":true`) {
		t.Fatalf("a binary open for writing ran:\n%s", out)
	}
	before := statIdentity(t, guard)
	copy(mem[at:], guardPatched)
	unmap()
	if after := statIdentity(t, guard); after != before {
		t.Logf("the times moved on the patch (%v → %v: the page was written back in between); the test still checks the refusal", before, after)
	}
	checkRefused(t, e, e.dispatch())
}

// A process stuck while holding the shared digest file's lock must not hold
// up a dispatch: the digest save is skipped (issue 23, item 9). The old
// code waited on a blocking flock for as long as the holder lived.
func TestDigestSaveDoesNotWaitForAStuckLockHolder(t *testing.T) {
	e := newEnv(t)
	installGuard(t, e, e.path("guard"))
	shared := filepath.Join(e.dir, "home", "hook-hashes.json")

	release := holdLock(t, shared+".lock")

	// The dispatch takes milliseconds; the old code never returned while
	// the holder lived.
	out, _ := e.dispatchGuarded(t, nil)
	if !strings.Contains(string(out), guardMarker) {
		t.Fatalf("the approved guard did not run:\n%s", out)
	}
	if _, err := os.Stat(shared); !os.IsNotExist(err) {
		t.Fatalf("the digest file was written while another process held its lock (%v)", err)
	}

	// Released, the lock is taken again and the digest saved.
	release()
	if out := e.dispatch(); !strings.Contains(out, guardMarker) {
		t.Fatalf("the approved guard did not run:\n%s", out)
	}
	if _, err := os.Stat(shared); err != nil {
		t.Skip("the digest cache is not used on this filesystem, so its lock was never taken:", err)
	}
}

// holdLock starts a process that takes an exclusive flock on path and keeps
// it until release (or the end of the test): a holder that is stuck, as far
// as anyone else can tell.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("no flock(1)")
	}
	// The holder says so once it holds the lock, then waits for its stdin
	// to close.
	holder := exec.Command("flock", "-x", path, "sh", "-c", "echo locked; exec cat")
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			stdin.Close()
			if err := holder.Wait(); err != nil {
				t.Errorf("lock holder: %v", err)
			}
		})
	}
	t.Cleanup(release)
	line := make([]byte, len("locked\n"))
	if _, err := io.ReadFull(stdout, line); err != nil || string(line) != "locked\n" {
		t.Fatalf("lock holder: %q, %v", line, err)
	}
	return release
}

// dispatchGuarded runs one pre_tool_call dispatch (extra environment
// added) under a hang guard of a minute, and fails the test if the guard
// had to kill it: the dispatches it guards take milliseconds, or seconds
// where they wait for a bound.
func (e *env) dispatchGuarded(t *testing.T, extraEnv []string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, binary, "dispatch", "pre_tool_call")
	c.Dir, c.Env, c.Stdin = e.dir, append(append([]string{}, e.vars...), extraEnv...), strings.NewReader(toolCall)
	var errb bytes.Buffer
	c.Stderr = &errb
	out, _ := c.Output()
	if ctx.Err() != nil {
		t.Fatalf("the dispatch waited for a lock until the hang guard killed it\nstderr: %s", errb.String())
	}
	return string(out), errb.String()
}
