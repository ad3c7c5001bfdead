package journal

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Follow hands on what is there, says it caught up, then hands on every
// record appended later — across a rotation — and returns once its context
// ends (what SIGINT does).
func TestFollow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w := newWriter(t, Options{Path: path, MaxBytes: 4096})
	ev, _ := protocol.Lookup("pre_tool_call")
	rec := func() {
		o := protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: string(make([]byte, 300))}
		w.Record(context.Background(), &dispatcher.Record{Time: time.Now(), Event: ev, Fields: map[string]any{}, Outcome: &o})
	}
	// What is there before follow starts, rotated files included.
	const before, total = 10, 20
	for i := 0; i < before; i++ {
		rec()
	}
	ctx, cancel := context.WithCancel(context.Background())
	seqs := make(chan int64, 100)
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, path, func(l Line) {
			var e Entry
			if err := json.Unmarshal(l.Bytes, &e); err != nil || !l.Complete {
				t.Errorf("emitted a line that is not a record: %+v", l)
			}
			seqs <- e.Seq
		}, func() { seqs <- 0 })
	}()
	next := func(want int64) {
		t.Helper()
		select {
		case got := <-seqs:
			if got != want {
				t.Fatalf("followed seq %d, want %d", got, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("follow hung waiting for seq %d", want)
		}
	}
	for want := int64(1); want <= before; want++ {
		next(want)
	}
	// Caught up (0) once, after what was there, before anything later.
	next(0)
	// Then each new record as it comes, across rotations of the 4 KiB
	// file (one at a time: follow reads the file it had open to its end,
	// then the new live one, so it sees every record as long as the file
	// does not rotate twice between two looks).
	for want := int64(before + 1); want <= total; want++ {
		rec()
		next(want)
	}
	if files, _ := Files(path); len(files) < 3 {
		t.Fatalf("no rotation happened: %v", files)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("follow did not return after cancel")
	}
}
