//go:build unix

package journal

import (
	"context"
	"os"
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

// The same once the Writer has appended (serve's long-lived one, which
// remembers the file's end): a FIFO put at the head's name then still
// stops no record, and each record still reaches OnAppend (export).
func TestHeadFIFOAfterAnAppendStopsNoRecord(t *testing.T) {
	for _, rotate := range []bool{false, true} {
		p := filepath.Join(t.TempDir(), DefaultFile)
		appended := 0
		opts := Options{Path: p, OnAppend: func([]byte) { appended++ }}
		if rotate {
			opts.MaxBytes = 1 // every append rotates the live file
		}
		w := newWriter(t, opts)
		w.Record(context.Background(), record("a"))
		if err := os.Remove(HeadPath(p)); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(HeadPath(p), 0o600); err != nil {
			t.Fatal(err)
		}
		w.Record(context.Background(), record("b"))
		w.Record(context.Background(), record("c"))
		if appended != 3 {
			t.Errorf("rotate %v: OnAppend saw %d of 3 records", rotate, appended)
		}
		if got := w.Failures(); got != 2 {
			t.Errorf("rotate %v: %d failures, want each head write counted", rotate, got)
		}
	}
}
