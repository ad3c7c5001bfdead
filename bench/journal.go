//go:build linux

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

var (
	journalBench = flag.Bool("journal", true, "also measure the decision journal's cost per dispatch (issue 17)")
	journalN     = flag.Int("journal-n", 300, "dispatches of each contender per round (journal)")
)

// journalCost measures what the decision journal adds to a dispatch
// through the Go library: one approved matching nop_hook (the static C
// hook of section 1), on a dispatcher whose Recorder is a journal.Writer
// appending to a fresh HERMES_HOME, against the same dispatcher without
// one. The Writer is the default one (payload digests, not payloads), as a
// host gets it. Each round runs both, the first of the pair alternating
// round by round, and the ratio is the median of the per-round ratios: the
// spawn dominates and drifts, so only a paired comparison can see a few
// per cent.
func (e *env) journalCost() error {
	if !*journalBench {
		return nil
	}
	began := time.Now()
	home, err := os.MkdirTemp(e.work, "journal-home-")
	if err != nil {
		return err
	}
	path := filepath.Join(home, journal.DefaultFile)
	var warned string
	w := journal.New(journal.Options{Path: path, Version: "bench", Warn: func(s string) { warned = s }})
	yml := "hooks:\n  pre_tool_call:\n    - command: " + e.nop + "\n      matcher: terminal\n"
	off, err := e.newDispatcher(yml)
	if err != nil {
		return err
	}
	defer off.Close()
	on, err := e.newRecording(yml, w)
	if err != nil {
		return err
	}
	defer on.Close()
	// One dispatch each first: both run their hook cleanly, and the
	// journal's file exists before the timed rounds.
	if _, err := dispatchLoop(off, e.payload, 1, protocol.DecisionNone); err != nil {
		return fmt.Errorf("journal off: %w", err)
	}
	if _, err := dispatchLoop(on, e.payload, 1, protocol.DecisionNone); err != nil {
		return fmt.Errorf("journal on: %w", err)
	}
	var offs, ons []float64
	for r := 0; r < *rounds; r++ {
		var vOff, vOn float64
		for i := 0; i < 2; i++ {
			var err error
			if (i+r)%2 == 0 {
				vOff, err = dispatchLoop(off, e.payload, *journalN, protocol.DecisionNone)
			} else {
				vOn, err = dispatchLoop(on, e.payload, *journalN, protocol.DecisionNone)
			}
			if err != nil {
				return fmt.Errorf("journal: %w", err)
			}
		}
		offs, ons = append(offs, vOff), append(ons, vOn)
	}
	// Every dispatch of the journaled dispatcher must have been recorded,
	// on an intact chain: a journal that silently failed would be cheap.
	res, err := journal.Verify(path)
	if err != nil {
		return err
	}
	if want := int64(1 + *rounds**journalN); w.Failures() != 0 || res.Bad != nil || res.Records != want {
		return fmt.Errorf("journal: %d records (want %d), %d failures %s, chain %+v", res.Records, want, w.Failures(), warned, res.Bad)
	}
	fmt.Printf("\n9. Decision journal (issue 17): journal on vs off for the one-hook dispatch (library path): one approved matching nop_hook, consent gate (%d dispatches of each a round, %d rounds, interleaved, first alternating)\n",
		*journalN, *rounds)
	fmt.Printf("   %-42s %12s %12s\n", "method", "ms/dispatch", "vs off")
	fmt.Printf("   %-42s %12.3f %11.2f×   (ms per round: %s)\n", "journal off (no Recorder)", median(offs), 1.0, fmtSamples(offs))
	fmt.Printf("   %-42s %12.3f %11.2f×   (ms per round: %s)\n", "journal on (journal.Writer, temp home)", median(ons), pairedRatio(ons, offs), fmtSamples(ons))
	ratio := pairedRatio(ons, offs)
	fmt.Printf("   → journal on / off = %.3f×, %+.1f%% per dispatch (median of per-round ratios, per round: %s; target ≤ 1.05×: %s)\n",
		ratio, (ratio-1)*100, fmtRatios(ons, offs), verdict(ratio <= 1.05))
	fmt.Printf("   (%d records appended, chain intact; section took %.1fs)\n", res.Records, time.Since(began).Seconds())
	return nil
}
