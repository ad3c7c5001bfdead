//go:build !linux

// Command bench measures hermes-hooks against the baselines of
// ../shared/bench; it needs Linux (its baselines, /proc and the runner it
// measures are Linux's). This stub keeps the package building, and so
// vetted, elsewhere.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "bench: Linux only")
	os.Exit(2)
}
