package consent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// The reason a directly executed binary was not pinned — another process
// has it open for writing — reaches the drift message. That it is not
// pinned is cmdpin's TestPin_BinaryOpenForWritingIsRefused; where read
// leases are not available the writer goes unseen and this is skipped.
func TestCompare_BinaryOpenForWritingReachesTheDriftMessage(t *testing.T) {
	bin := elfCopy(t, t.TempDir())
	w, err := os.OpenFile(bin, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	target := &cmdpin.Target{Path: bin, Files: []string{bin}, Direct: true}
	p := cmdpin.Pin(target, &cmdpin.Cache{})
	defer p.Close()
	if p.HashErr(0) == nil {
		t.Skip("the writer went unseen here (no read leases)")
	}
	d := compare(Entry{Files: []FileRecord{{Path: bin, SHA256: "ab"}}}, &Request{Command: bin}, target, p)
	if d.Kind != DriftHash || !strings.Contains(d.Message(), "open for writing") {
		t.Fatalf("drift %+v: %s", d, d.Message())
	}
}

// elfCopy copies the test binary (an ELF) into dir.
func elfCopy(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil || len(data) < 4 || string(data[:4]) != "\x7fELF" {
		t.Skipf("test binary unusable as an ELF (%d bytes, %v)", len(data), err)
	}
	bin := filepath.Join(dir, "hook-bin")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
