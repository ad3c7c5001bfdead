package export

import (
	"path/filepath"
	"testing"
	"time"
)

// The decision path's share of export in serve: one copy and a
// non-blocking send per sink.
func BenchmarkEnqueue(b *testing.B) {
	g := newGate()
	close(g.release)
	e := newTestExporter(g, Options{Queue: 1 << 20, Batch: DefaultBatch})
	defer e.Close(time.Minute)
	line := []byte(blockLine)
	b.ReportAllocs()
	for b.Loop() {
		e.Enqueue(line)
	}
}

// The decision path's share of export in a one-shot process: one spool
// file written and renamed.
func BenchmarkSpoolAppend(b *testing.B) {
	sp := Spool{Dir: filepath.Join(b.TempDir(), SpoolDir)}
	line := []byte(blockLine)
	b.ReportAllocs()
	for b.Loop() {
		if err := sp.Append(line); err != nil {
			b.Fatal(err)
		}
	}
}

// Off the decision path: encoding a batch of 256 records.
func BenchmarkEncodeProtobuf256(b *testing.B) {
	items := make([]item, 256)
	for i := range items {
		items[i] = newItem([]byte(blockLine))
	}
	b.ReportAllocs()
	for b.Loop() {
		encodeProtobuf(testRes, items, time.Now())
	}
}

func BenchmarkEncodeJSON256(b *testing.B) {
	items := make([]item, 256)
	for i := range items {
		items[i] = newItem([]byte(blockLine))
	}
	b.ReportAllocs()
	for b.Loop() {
		encodeJSON(testRes, items, time.Now())
	}
}
