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
	if err == nil || res.Left != 1 || !strings.Contains(err.Error(), "1 records left") || !sp.Pending() {
		t.Fatalf("%+v %v", res, err)
	}
	if !sp.Pending() {
		t.Error("the record was lost")
	}
}

// Past its bound, a record is dropped (by the process that appends it)
// and counted; the spool keeps the older ones.
func TestSpoolBound(t *testing.T) {
	sp := Spool{Dir: t.TempDir(), Max: int64(3 * (len(allowLine) + 1))}
	var refused int
	for i := range 5 {
		line := strings.Replace(allowLine, `"seq":8`, `"seq":`+string(rune('0'+i)), 1)
		if err := sp.Append([]byte(line)); err != nil {
			refused++
			if !strings.Contains(err.Error(), "is full") {
				t.Errorf("append %d: %v", i, err)
			}
		}
	}
	if refused != 2 || sp.Dropped() != 2 {
		t.Fatalf("refused %d, dropped %d, want 2", refused, sp.Dropped())
	}
	out := filepath.Join(sp.Dir, "out")
	res, err := sp.Flush(context.Background(), Config{File: out}, Options{})
	if err != nil || res.Sent != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(b), `{"seq":0,`) || strings.Count(string(b), "\n") != 3 {
		t.Errorf("not the oldest three: %q", b)
	}
}

// A lingering flush sends what arrives while it waits, and a record
// appended while it ends is not stranded.
func TestSpoolLinger(t *testing.T) {
	sp := Spool{Dir: t.TempDir()}
	out := filepath.Join(sp.Dir, "out")
	if err := sp.Append([]byte(blockLine)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan FlushResult, 1)
	go func() {
		res, err := sp.Flush(ctx, Config{File: out}, Options{Linger: time.Minute})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	waitLines := func(n int) {
		for deadline := time.Now().Add(hang); ; time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d lines never arrived", n)
			}
		}
	}
	waitLines(1)
	if !sp.Busy() {
		t.Fatal("a lingering flush does not hold the spool")
	}
	if err := sp.Append([]byte(allowLine)); err != nil {
		t.Fatal(err)
	}
	waitLines(2)
	select {
	case res := <-done:
		t.Fatalf("the flush ended before its linger: %+v", res)
	default:
	}
	cancel()
	if res := <-done; res.Sent != 2 {
		t.Errorf("sent %d, want 2", res.Sent)
	}
}
