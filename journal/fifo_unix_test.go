//go:build unix

package journal

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO at the head record's name is refused without waiting on it, and
// the records still go on (the head is the evidence of the journal's end,
// not the journal): the append reports that the head was not written.
func TestHeadFIFOStopsNoRecord(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	if err := syscall.Mkfifo(HeadPath(p), 0o600); err != nil {
		t.Fatal(err)
	}
	w := newWriter(t, Options{Path: p})
	w.Record(context.Background(), record("a"))
	w.Record(context.Background(), record("b"))
	if ls := readLines(t, p); len(ls) != 2 {
		t.Fatalf("%d records written", len(ls))
	}
	if w.Failures() != 2 {
		t.Fatalf("%d failures, want each head write counted", w.Failures())
	}
}
