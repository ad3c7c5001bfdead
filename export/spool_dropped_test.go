package export

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The child of TestSpoolDroppedConcurrentProcesses: one one-shot process
// that drops records, as a hook's process does while the spool is full.
func TestSpoolDroppedChild(t *testing.T) {
	dir := os.Getenv("HERMES_TEST_SPOOL_DROP_DIR")
	if dir == "" {
		t.Skip("the child of TestSpoolDroppedConcurrentProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("HERMES_TEST_SPOOL_DROP_N"))
	sp := Spool{Dir: dir}
	for range n {
		sp.addDropped(1)
	}
}

// Processes that drop records at the same time each count every one of
// theirs, and the counter stays a few bytes whatever the count (it grew
// a byte per record: unbounded under a long outage).
func TestSpoolDroppedConcurrentProcesses(t *testing.T) {
	const procs, each = 6, 150
	sp := Spool{Dir: t.TempDir()}
	cmds := make([]*exec.Cmd, procs)
	outs := make([]bytes.Buffer, procs)
	for i := range cmds {
		c := exec.Command(os.Args[0], "-test.run=^TestSpoolDroppedChild$", "-test.count=1")
		c.Env = append(os.Environ(), "HERMES_TEST_SPOOL_DROP_DIR="+sp.Dir, fmt.Sprintf("HERMES_TEST_SPOOL_DROP_N=%d", each))
		c.Stdout, c.Stderr = &outs[i], &outs[i]
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, outs[i].Bytes())
		}
	}
	if got := sp.Dropped(); got != procs*each {
		t.Errorf("dropped %d, want %d: a count was lost", got, procs*each)
	}
	fi, err := os.Stat(filepath.Join(sp.Dir, "dropped"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > maxDroppedFile {
		t.Errorf("the dropped file is %d bytes after %d drops: it grows with the count", fi.Size(), procs*each)
	}
}

// What the dropped file may hold: the count as written, one left by an
// older version (a byte per record), and what a crash or a local process
// left (torn, garbage, huge, not a file). Reading it never fails, never
// reads more than a few bytes, and the next drop counts on from it.
func TestSpoolDroppedFile(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		size          int64 // sparse file of this size instead of content
		want          int64 // Dropped before the next drop
	}{
		{name: "missing", want: 0},
		{name: "count", content: "00000000000000000042\n", want: 42},
		{name: "short count", content: "7\n", want: 7},
		{name: "older version's dots", content: "...", want: 3},
		{name: "older version's dots, large", content: strings.Repeat(".", 70000), want: 70000},
		{name: "torn", content: "000000000000", want: 0},
		{name: "garbage", content: "\x1b]0;pwned\x07zzz", want: 0},
		{name: "negative", content: "-5\n", want: 0},
		{name: "overflow", content: "99999999999999999999999\n", want: 0},
		{name: "huge sparse", size: 1 << 40, want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := Spool{Dir: t.TempDir()}
			p := filepath.Join(sp.Dir, "dropped")
			switch {
			case tc.size > 0:
				f, err := os.Create(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := f.Truncate(tc.size); err != nil {
					f.Close()
					t.Skip("no sparse file here:", err)
				}
				f.Close()
			case tc.name != "missing":
				if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if got := sp.Dropped(); got != tc.want {
				t.Errorf("Dropped = %d, want %d", got, tc.want)
			}
			sp.addDropped(2)
			if got := sp.Dropped(); got != tc.want+2 {
				t.Errorf("after 2 more: Dropped = %d, want %d", got, tc.want+2)
			}
			if fi, err := os.Stat(p); err != nil || fi.Size() > maxDroppedFile {
				t.Errorf("the dropped file after a drop: %v %v", fi.Size(), err)
			}
		})
	}
}

// A dropped path that is not a regular file (a FIFO would block a
// one-shot process's open; a directory cannot be counted in) is passed
// over: no hang, no count, no error for the hook.
func TestSpoolDroppedNotAFile(t *testing.T) {
	sp := Spool{Dir: t.TempDir()}
	if err := os.Mkdir(filepath.Join(sp.Dir, "dropped"), 0o700); err != nil {
		t.Fatal(err)
	}
	sp.addDropped(1)
	if got := sp.Dropped(); got != 0 {
		t.Errorf("Dropped = %d from a directory", got)
	}
}

// Whatever the dropped file holds, the count read is not negative, the
// next drop adds one to it (or keeps the maximum) and leaves the file at
// its size.
func FuzzSpoolDropped(f *testing.F) {
	for _, s := range []string{"", "00000000000000000042\n", "...", "7\n", "\x00", "9223372036854775807\n", "1\n....", "-1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		sp := Spool{Dir: t.TempDir()}
		p := filepath.Join(sp.Dir, "dropped")
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		before := sp.Dropped()
		if before < 0 {
			t.Fatalf("Dropped = %d", before)
		}
		sp.addDropped(1)
		after := sp.Dropped()
		if after != before+1 && (before != math.MaxInt64 || after != before) {
			t.Fatalf("%d, then %d after one drop", before, after)
		}
		if fi, err := os.Stat(p); err != nil || fi.Size() > maxDroppedFile {
			t.Fatalf("the file after a drop: %v", err)
		}
	})
}

// What counting one dropped record costs the hook's process that drops it.
func BenchmarkSpoolDrop(b *testing.B) {
	sp := Spool{Dir: b.TempDir()}
	for b.Loop() {
		sp.addDropped(1)
	}
}
