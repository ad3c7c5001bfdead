//go:build linux

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/export"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

var exportBench = flag.Bool("export", true, "also measure what export adds to a journaled dispatch (issue 36)")

// exportCost measures what export adds to a decision on top of the
// journal, through the Go library as journalCost does: the same one-hook
// dispatcher with a journal, against one whose journal also hands each
// line to export — as a one-shot process does (the spool: one file
// written and renamed, before the answer) and as serve does (an Exporter's
// queue, here to a JSON-lines file; the send happens on its worker).
// Paired rounds, first alternating, median of per-round ratios.
func (e *env) exportCost() error {
	if !*exportBench {
		return nil
	}
	began := time.Now()
	yml := "hooks:\n  pre_tool_call:\n    - command: " + e.nop + "\n      matcher: terminal\n"
	mk := func(name string, onAppend func([]byte)) (func(int) (float64, error), func(), error) {
		home, err := os.MkdirTemp(e.work, "export-"+name+"-")
		if err != nil {
			return nil, nil, err
		}
		w := journal.New(journal.Options{Path: filepath.Join(home, journal.DefaultFile), Version: "bench", OnAppend: onAppend})
		d, err := e.newRecording(yml, w)
		if err != nil {
			return nil, nil, err
		}
		run := func(n int) (float64, error) { return dispatchLoop(d, e.payload, n, protocol.DecisionNone) }
		return run, func() { d.Close(); w.Close() }, nil
	}
	spool := export.Spool{Dir: filepath.Join(e.work, "export-spool")}
	exp := export.New(export.Config{File: filepath.Join(e.work, "export.jsonl")}, export.Options{Version: "bench", Queue: 1 << 16})
	defer exp.Close(time.Minute)
	names := []string{"journal only", "journal + spool (one-shot)", "journal + queue (serve)"}
	hooks := []func([]byte){nil, func(l []byte) { _ = spool.Append(l) }, exp.Enqueue}
	runs := make([]func(int) (float64, error), len(names))
	for i := range names {
		run, done, err := mk(fmt.Sprint(i), hooks[i])
		if err != nil {
			return err
		}
		defer done()
		if _, err := run(1); err != nil {
			return fmt.Errorf("export %s: %w", names[i], err)
		}
		runs[i] = run
	}
	samples := make([][]float64, len(names))
	for r := 0; r < *rounds; r++ {
		for k := range names {
			i := (k + r) % len(names)
			v, err := runs[i](*journalN)
			if err != nil {
				return fmt.Errorf("export %s: %w", names[i], err)
			}
			samples[i] = append(samples[i], v)
		}
	}
	fmt.Printf("\n11. Export (issue 36): what export adds to a journaled one-hook dispatch (library path, %d dispatches of each a round, %d rounds, interleaved)\n", *journalN, *rounds)
	fmt.Printf("   %-42s %12s %12s\n", "method", "ms/dispatch", "vs journal")
	for i, n := range names {
		fmt.Printf("   %-42s %12.3f %11.3f×   (per round: %s)\n", n, median(samples[i]), pairedRatio(samples[i], samples[0]), fmtRatios(samples[i], samples[0]))
	}
	fmt.Printf("   (serve's exporter dropped %v; section took %.1fs)\n", exp.Dropped(), time.Since(began).Seconds())
	return nil
}
