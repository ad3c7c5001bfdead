//go:build linux

package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	initBench = flag.Bool("inittrace", true, "also list the package inits of a no-match dispatch (GODEBUG=inittrace=1, issue 25)")
	initRuns  = flag.Int("inittrace-n", 30, "starts whose per-package minimum is taken (inittrace)")
	initTop   = flag.Int("inittrace-top", 10, "packages listed (inittrace)")
)

// initLine is one line of GODEBUG=inittrace=1:
// "init PKG @T ms, C ms clock, B bytes, A allocs".
var initLine = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)

// initCost is one package's init: the least clock time over the starts,
// and its allocations (the same at every start).
type initCost struct {
	pkg    string
	ms     float64
	allocs int
}

// inits runs bin n times with GODEBUG=inittrace=1 and returns each
// package's least init time over the runs (a start's noise only adds
// time), and the least per-start total. Every run must exit 0 and pass
// ok on its stdout.
func inits(bin string, args, envv []string, stdin string, n int, ok func([]byte) bool) ([]initCost, float64, error) {
	least := map[string]*initCost{}
	minTotal := math.Inf(1)
	for i := 0; i < n; i++ {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(slices.Clip(envv), "GODEBUG=inittrace=1")
		cmd.Stdin = strings.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || !ok(stdout.Bytes()) {
			return nil, 0, fmt.Errorf("%s %v: %v: %s%s", bin, args, err, stdout.Bytes(), stderr.Bytes())
		}
		total := 0.0
		for _, line := range strings.Split(stderr.String(), "\n") {
			m := initLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			ms, _ := strconv.ParseFloat(m[2], 64)
			allocs, _ := strconv.Atoi(m[4])
			total += ms
			if c := least[m[1]]; c == nil {
				least[m[1]] = &initCost{pkg: m[1], ms: ms, allocs: allocs}
			} else if ms < c.ms {
				c.ms = ms
			}
		}
		if total == 0 {
			return nil, 0, fmt.Errorf("%s %v: no inittrace lines on stderr: %s", bin, args, stderr.Bytes())
		}
		minTotal = min(minTotal, total)
	}
	var out []initCost
	for _, c := range least {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b initCost) int {
		if a.ms != b.ms {
			return cmp.Compare(b.ms, a.ms)
		}
		return strings.Compare(a.pkg, b.pkg)
	})
	return out, minTotal, nil
}

// initTrace is section 10 (issue 25): what Go's package initialisation
// costs a one-shot no-match dispatch — every package the binary links
// runs its init at every start, used or not — with a Go hello world's for
// scale. The top packages are where start-up is won by choosing lighter
// dependencies.
func (e *env) initTrace() error {
	if !*initBench {
		return nil
	}
	began := time.Now()
	_, envv, err := e.hookHome("inittrace-home", "hooks:\n  pre_tool_call:\n    - command: "+e.nop+"\n      matcher: terminal\n")
	if err != nil {
		return err
	}
	hello, err := e.goHello()
	if err != nil {
		return err
	}
	payload := `{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"s1"}`
	ours, oursTotal, err := inits(e.bin, []string{"dispatch", "post_llm_call"}, envv, payload, *initRuns, holds(`"hooks":[]`))
	if err != nil {
		return err
	}
	helloInits, helloTotal, err := inits(hello, nil, envv, "", *initRuns, is("hello, world\n"))
	if err != nil {
		return err
	}
	sum := 0.0
	for _, c := range ours {
		sum += c.ms
	}
	fmt.Printf("\n10. Package inits of a one-shot no-match dispatch (GODEBUG=inittrace=1, least of %d starts per package)\n", *initRuns)
	fmt.Printf("   %-56s %9s %8s\n", "package", "ms", "allocs")
	for _, c := range ours[:min(*initTop, len(ours))] {
		fmt.Printf("   %-56s %9.3f %8d\n", c.pkg, c.ms, c.allocs)
	}
	fmt.Printf("   all %d packages: %.3f ms (sum of the per-package least), least per-start total %.3f ms\n", len(ours), sum, oursTotal)
	fmt.Printf("   Go hello world: %d packages, least per-start total %.3f ms\n", len(helloInits), helloTotal)
	fmt.Printf("   (section took %.1fs)\n", time.Since(began).Seconds())
	return nil
}

// goHello is the Go hello world the start-up sections compare with, built
// (with the other Go programs) unless an earlier section built it.
func (e *env) goHello() (string, error) {
	hello := filepath.Join(e.work, "go-hello")
	if _, err := os.Stat(hello); err != nil {
		if _, _, _, err := e.buildGoPrograms(); err != nil {
			return "", err
		}
	}
	return hello, nil
}
