package cmdpin

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// cachingDir returns a temporary directory where the digest cache may be
// used — a local disk filesystem on which this process can take read
// leases — or skips the test: elsewhere every file is hashed every time.
func cachingDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	probe := filepath.Join(dir, ".probe")
	if err := os.WriteFile(probe, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(probe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fsClassOf(f) != fsDisk {
		t.Skip("the temporary directory is not on a filesystem whose stat identity vouches for content")
	}
	end, _ := readLease(f)
	if end == nil {
		t.Skip("no read leases here (disabled, or not permitted)")
	}
	end()
	return dir
}

// settle waits until the kernel's coarse clock has moved past path's ctime,
// from when on its digest may be cached (a tick: milliseconds; the bound
// only catches a hang).
func settle(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ctime := sysKey(fi); ctimeSettled(ctime) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the coarse clock never passed the file's ctime")
		}
		time.Sleep(time.Millisecond)
	}
}

// A file whose ctime is in the current tick of the clock that stamps file
// changes is not cached: before Linux 6.13 a write in the same tick would
// leave its times as they are.
func TestHashCache_NothingCachedWithinTheTickOfAChange(t *testing.T) {
	var c Cache
	script := filepath.Join(cachingDir(t), "hook.sh")
	writeFile(t, script, "one", 0o755)
	fi, err := os.Stat(script)
	if err != nil {
		t.Fatal(err)
	}
	_, _, ctime := sysKey(fi)
	if _, err := c.Sum(script); err != nil {
		t.Fatal(err)
	}
	if !ctimeSettled(ctime) && c.m[script].sum != "" {
		t.Fatal("cached the digest of a file changed in the current tick")
	}
	settle(t, script)
	for range 3 {
		if _, err := c.Sum(script); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.computed.Load(); n > 2 {
		t.Fatalf("hashed %d times, want at most 2 (then cached)", n)
	}
}

// A file opened for writing while it is hashed is hashed again next time:
// its digest is never cached, because writes through a mapping that
// writer may hold need not move its stat identity.
func TestHashCache_NothingCachedWhileAWriterExists(t *testing.T) {
	var c Cache
	script := filepath.Join(cachingDir(t), "hook.sh")
	writeFile(t, script, "one", 0o755)
	settle(t, script)
	w, err := os.OpenFile(script, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if sum, err := c.Sum(script); err != nil || sum != sha256Hex("one") {
			t.Fatal(sum, err)
		}
	}
	if n := c.computed.Load(); n != 3 {
		t.Fatalf("hashed %d times with a writer present, want 3", n)
	}
	w.Close()
	for range 3 {
		if _, err := c.Sum(script); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.computed.Load(); n != 4 {
		t.Fatalf("hashed %d times, want 4 (once more, then cached)", n)
	}
}

// A directly executed binary that another process has open for writing is
// not pinned (the bytes hashed need not be the bytes that run). That the
// reason reaches the drift message is consent's
// TestCompare_BinaryOpenForWritingReachesTheDriftMessage.
func TestPin_BinaryOpenForWritingIsRefused(t *testing.T) {
	bin := bigELF(t, cachingDir(t))
	w, err := os.OpenFile(bin, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	target := &Target{Path: bin, Files: []string{bin}, Direct: true}
	p := Pin(target, &Cache{})
	defer p.Close()
	if p.Sums()[0] != "" || p.ExecPath() != "" {
		t.Fatalf("pinned a binary open for writing: %q", p.Sums()[0])
	}
}

// A binary started through its descriptor is still checked for a write
// between the check and the start.
func TestPin_VerifyCatchesAWriteToThePinnedBinary(t *testing.T) {
	bin := bigELF(t, t.TempDir())
	p := Pin(&Target{Path: bin, Files: []string{bin}, Direct: true}, nil)
	defer p.Close()
	if p.ExecPath() == "" {
		t.Skip("no pinned start here")
	}
	if err := p.Verify(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(bin, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteAt([]byte{0}, 100); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := p.Verify(); err == nil {
		t.Fatal("Verify accepted a binary written to after the check")
	}
}

// bigELF copies the test binary (an ELF over cacheMinSize) into dir.
func bigELF(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil || len(data) < cacheMinSize || string(data[:4]) != "\x7fELF" {
		t.Skipf("test binary unusable as a large ELF (%d bytes, %v)", len(data), err)
	}
	bin := filepath.Join(dir, "big-hook")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// An interpreter a command names by its path is pinned, and a large binary
// one reuses its digest by its stat identity as a directly run binary does:
// hashing it on every dispatch would cost more than the hook. It is still
// started by its path, not through the descriptor checked.
func TestPin_NamedInterpreterUsesTheDigestCache(t *testing.T) {
	dir := cachingDir(t)
	big := bigELF(t, dir)
	py := filepath.Join(dir, "python3")
	if err := os.Rename(big, py); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "g.py"), "print('{}')\n", 0o644)
	settle(t, py)
	// Named on the command line, or inside a shell's command string.
	for _, cmd := range []string{"./python3 g.py", "sh -c './python3 g.py'"} {
		target := Resolve(Command{Text: cmd, Env: []string{"PATH=/usr/bin:/bin"}, Dir: dir})
		if !slices.Contains(target.Files, py) {
			t.Fatalf("%s: Files %q, want %s among them", cmd, target.Files, py)
		}
		i := slices.Index(target.Files, py)
		var c Cache
		for range 3 {
			p := Pin(&target, &c)
			if p.Sums()[i] == "" {
				t.Fatalf("%s: sums %q", cmd, p.Sums())
			}
			p.Close()
		}
		// The script each time (it is read whole for its sealed copy),
		// the interpreter once.
		if n := c.computed.Load(); n != 4 {
			t.Fatalf("%s: hashed %d times, want 4", cmd, n)
		}
	}
}
