package export

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

func TestSpoolFlushToFile(t *testing.T) {
	dir := t.TempDir()
	sp := Spool{Dir: filepath.Join(dir, SpoolDir)}
	if sp.Pending() {
		t.Fatal("a missing spool has records")
	}
	for _, l := range []string{blockLine, allowLine} {
		if err := sp.Append([]byte(l + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	if !sp.Pending() {
		t.Fatal("no records pending")
	}
	out := filepath.Join(dir, "out.jsonl")
	res, err := sp.Flush(context.Background(), Config{File: out}, Options{})
	if err != nil || res.Sent != 2 || res.Busy {
		t.Fatalf("%+v %v", res, err)
	}
	b, _ := os.ReadFile(out)
	if string(b) != blockLine+"\n"+allowLine+"\n" {
		t.Errorf("file %q: not the records in their order", b)
	}
	if sp.Pending() {
		t.Error("records left after a flush")
	}
}

// One flush at a time: while one holds the spool, another does nothing.
func TestSpoolOneFlushAtATime(t *testing.T) {
	sp := Spool{Dir: t.TempDir()}
	if err := sp.Append([]byte(allowLine)); err != nil {
		t.Fatal(err)
	}
	f, err := fsutil.OpenLockFile(filepath.Join(sp.Dir, "flush.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if err := fsutil.TryLock(f); err != nil {
		t.Fatal(err)
	}
	if !sp.Busy() {
		t.Error("Busy does not see the held lock")
	}
	res, err := sp.Flush(context.Background(), Config{File: filepath.Join(sp.Dir, "x")}, Options{})
	if err != nil || !res.Busy || res.Sent != 0 {
		t.Errorf("%+v %v", res, err)
	}
	f.Close()
	if sp.Busy() {
		t.Error("Busy after the lock was released")
	}
}

// A sink that does not answer leaves the records for the next flush, and
// the flush ends with its context.
func TestSpoolFlushLeavesWhatFailed(t *testing.T) {
	sp := Spool{Dir: t.TempDir()}
	if err := sp.Append([]byte(blockLine)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// A file sink whose path is a directory fails every time.
	res, err := sp.Flush(ctx, Config{File: sp.Dir}, Options{})
	if err == nil || res.Left != 1 || !strings.Contains(err.Error(), "1 records left") {
		t.Fatalf("%+v %v", res, err)
	}
	if !sp.Pending() {
		t.Error("the record was lost")
	}
}

// Past its bound, a flush drops the oldest records and counts them.
func TestSpoolBound(t *testing.T) {
	sp := Spool{Dir: t.TempDir(), Max: 3}
	for i := range 5 {
		line := strings.Replace(allowLine, `"seq":8`, `"seq":`+string(rune('0'+i)), 1)
		if err := sp.Append([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(sp.Dir, "out")
	res, err := sp.Flush(context.Background(), Config{File: out}, Options{})
	if err != nil || res.Sent != 3 || res.Dropped != 2 || sp.Dropped() != 2 {
		t.Fatalf("%+v %v dropped file %d", res, err, sp.Dropped())
	}
	b, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(b), `{"seq":2,`) {
		t.Errorf("the newest were not kept: %q", b)
	}
}
