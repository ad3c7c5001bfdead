package journal

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// BenchmarkOneHookDispatch is the journal's acceptance bound: a library
// dispatch that runs one hook, with the journal on and off (issue 17: on
// must cost at most 5% more). Compare the two sub-benchmarks' ns/op.
func BenchmarkOneHookDispatch(b *testing.B) {
	dir := b.TempDir()
	hook := filepath.Join(dir, "guard.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho '{\"decision\":\"block\",\"reason\":\"no\"}'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg, err := hookconfig.ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: "+hook+"\n"), filepath.Join(dir, "c.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	fields := map[string]any{"tool_name": "terminal", "session_id": "s", "args": map[string]any{"command": "rm -rf /"}}
	for _, on := range []bool{false, true} {
		name := "journal=off"
		opts := dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: dir}
		if on {
			name = "journal=on"
			opts.Recorder = New(Options{Path: filepath.Join(dir, name, DefaultFile), Version: "bench"})
		}
		d, err := dispatcher.New(cfg, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := d.Dispatch(context.Background(), "pre_tool_call", fields); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppend is the journal's own cost per record: lock, tail read,
// one write.
func BenchmarkAppend(b *testing.B) {
	w := New(Options{Path: filepath.Join(b.TempDir(), DefaultFile), Version: "bench"})
	r := record("no")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w.Record(context.Background(), r)
	}
}

// BenchmarkAppendFresh is a one-shot process's append: a new Writer each
// time, which reads the journal's end (and head record) afresh.
func BenchmarkAppendFresh(b *testing.B) {
	p := filepath.Join(b.TempDir(), DefaultFile)
	r := record("no")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w := New(Options{Path: p, Version: "bench"})
		w.Record(context.Background(), r)
		w.Close()
	}
}
