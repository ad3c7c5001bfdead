//go:build linux

// Command bench measures hermes-hooks side by side with the baselines of
// ../shared/bench (a C posix_spawn loop, Python's and Node's spawn paths)
// on the same hook, on the same machine, in one run, and prints one table of
// medians and ratios. `make bench` runs it.
//
// Ratios, not absolute times, are the result: the machines are shared and
// noisy, so every comparison interleaves its contenders round by round and
// reports the median of the rounds.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

var (
	sharedDir = flag.String("shared", "../shared/bench", "folder of the baseline programs")
	binPath   = flag.String("bin", "bin/hermes-hooks", "the hermes-hooks binary")
	n         = flag.Int("n", 300, "dispatches per round (per-dispatch comparison)")
	rounds    = flag.Int("rounds", 11, "rounds per comparison (medians are reported)")
	oneShots  = flag.Int("oneshots", 100, "process starts per round (one-shot comparison)")
	skipRSS   = flag.Bool("skip-rss", false, "skip the 1 GiB output measurement")
	micro     = flag.Bool("micro", true, "also run and print the Go micro-benchmarks")
	extra     = flag.String("extra", "", "optional program to run after the table (serve load, …)")
	only      = flag.String("only", "", "run only this section (rules: section 11)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type env struct {
	work      string
	nop       string
	spawn     string
	python    string
	node      string
	bin       string
	payload   map[string]any
	startTime time.Time
}

func run() error {
	e := &env{startTime: time.Now(), payload: map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "ls -la"}, "session_id": "s1",
	}}
	var err error
	if e.bin, err = filepath.Abs(*binPath); err != nil {
		return err
	}
	if _, err := os.Stat(e.bin); err != nil {
		return fmt.Errorf("%s not built (run make build): %w", e.bin, err)
	}
	shared, err := filepath.Abs(*sharedDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(shared, "spawn_limit.c")); err != nil {
		return fmt.Errorf("baselines not found in %s (pass -shared DIR): %w", shared, err)
	}
	e.work, err = os.MkdirTemp("", "hermes-hooks-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(e.work)
	if err := e.buildBaselines(shared); err != nil {
		return err
	}
	e.python = realPython()
	e.node, _ = exec.LookPath("node")

	header()
	if *only == "rules" {
		return e.rules()
	}
	if err := e.perDispatch(shared); err != nil {
		return err
	}
	if err := e.fanOut(); err != nil {
		return err
	}
	if err := e.oneShot(); err != nil {
		return err
	}
	if !*skipRSS {
		if err := e.peakRSS(); err != nil {
			return err
		}
	}
	if *extra != "" {
		cmd := exec.Command(*extra)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return err
		}
	}
	if *micro {
		microBenchmarks()
	}
	// The sections of their own files; each has a flag to skip it.
	for _, section := range []func() error{e.serveLoad, e.hookVerb, e.workers, e.journalCost, e.initTrace, e.rules, e.exportCost} {
		if err := section(); err != nil {
			return err
		}
	}
	fmt.Printf("\ntotal bench time %.0fs\n", time.Since(e.startTime).Seconds())
	return nil
}

func header() {
	var uts syscall.Utsname
	kernel := "?"
	if syscall.Uname(&uts) == nil {
		kernel = cstr(uts.Release[:])
	}
	fmt.Printf("hermes-hooks bench — %d cores, Linux %s, %s, %s (medians of %d rounds)\n",
		runtime.NumCPU(), kernel, runtime.Version(), time.Now().UTC().Format("2006-01-02"), *rounds)
}

func cstr(b []int8) string {
	var s []byte
	for _, c := range b {
		if c == 0 {
			break
		}
		s = append(s, byte(c))
	}
	return string(s)
}

func (e *env) buildBaselines(shared string) error {
	e.nop = filepath.Join(e.work, "nop_hook")
	e.spawn = filepath.Join(e.work, "spawn_limit")
	if out, err := exec.Command("gcc", "-O2", "-static", "-o", e.nop, filepath.Join(shared, "nop_hook.c")).CombinedOutput(); err != nil {
		return fmt.Errorf("build nop_hook: %v: %s", err, out)
	}
	if out, err := exec.Command("gcc", "-O2", "-o", e.spawn, filepath.Join(shared, "spawn_limit.c")).CombinedOutput(); err != nil {
		return fmt.Errorf("build spawn_limit: %v: %s", err, out)
	}
	return nil
}

// realPython is the interpreter python3 resolves to. Version managers (pyenv)
// put a shell shim in front of it that costs tens of milliseconds per start;
// measuring the shim would flatter us.
func realPython() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

var perDispatchRe = regexp.MustCompile(`per-dispatch ([0-9.]+) ms`)

// perDispatchOf runs a baseline program and parses its "per-dispatch X ms".
func perDispatchOf(name string, args ...string) (float64, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s: %v: %s", name, err, out)
	}
	m := perDispatchRe.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("%s printed %q", name, out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// newDispatcher is a host's dispatcher: YAML config, consent gate on an
// allowlist in which the hooks are approved.
func (e *env) newDispatcher(yml string) (*dispatcher.Dispatcher, error) {
	return e.newRecording(yml, nil)
}

// newRecording is newDispatcher telling rec (nil: nobody) of every dispatch.
func (e *env) newRecording(yml string, rec dispatcher.Recorder) (*dispatcher.Dispatcher, error) {
	home, err := os.MkdirTemp(e.work, "home-")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		return nil, err
	}
	cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{})
	if err != nil {
		return nil, err
	}
	store := consent.NewStore(home)
	for _, en := range cfg.Entries {
		if _, err := store.Approve(en.DeclaredAs, en.Text()); err != nil {
			return nil, err
		}
	}
	wd, _ := os.Getwd()
	return dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.ConsentGate(consent.NewPolicy(store, consent.PolicyOptions{})), Cwd: wd, Recorder: rec})
}

func (e *env) perDispatch(shared string) error {
	d, err := e.newDispatcher("hooks:\n  pre_tool_call:\n    - command: " + e.nop + "\n      matcher: terminal\n")
	if err != nil {
		return err
	}
	ctx := context.Background()
	goOnce := func() (float64, error) {
		start := time.Now()
		for i := 0; i < *n; i++ {
			o, err := d.Dispatch(ctx, "pre_tool_call", e.payload)
			if err != nil {
				return 0, err
			}
			if len(o.Hooks) != 1 || !o.Hooks[0].Ran || o.Hooks[0].ExitCode == nil || *o.Hooks[0].ExitCode != 0 {
				return 0, fmt.Errorf("nop_hook did not run cleanly: %+v", o.Hooks)
			}
		}
		return float64(time.Since(start).Microseconds()) / 1000 / float64(*n), nil
	}
	contenders := []struct {
		name string
		f    func() (float64, error)
	}{
		{"C posix_spawn loop (spawn_limit)", func() (float64, error) { return perDispatchOf(e.spawn, strconv.Itoa(*n), e.nop) }},
		{"hermes-hooks, Go library", goOnce},
	}
	if e.python != "" {
		contenders = append(contenders, struct {
			name string
			f    func() (float64, error)
		}{"Python subprocess (python_spawn.py)", func() (float64, error) {
			return perDispatchOf(e.python, filepath.Join(shared, "python_spawn.py"), strconv.Itoa(*n), e.nop)
		}})
	}
	if e.node != "" {
		contenders = append(contenders, struct {
			name string
			f    func() (float64, error)
		}{"Node child_process (node_spawn.js)", func() (float64, error) {
			return perDispatchOf(e.node, filepath.Join(shared, "node_spawn.js"), strconv.Itoa(*n), e.nop)
		}})
	}
	samples := make([][]float64, len(contenders))
	for r := 0; r < *rounds; r++ {
		for i, c := range contenders {
			v, err := c.f()
			if err != nil {
				return err
			}
			samples[i] = append(samples[i], v)
		}
	}
	fmt.Printf("\n1. Per-dispatch cost, one matching nop_hook (%d dispatches a round, %d rounds, contenders back to back in each round)\n", *n, *rounds)
	fmt.Printf("   %-38s %12s %16s\n", "method", "ms/dispatch", "vs spawn_limit")
	for i, c := range contenders {
		// The ratio is taken within each round (the contenders ran
		// seconds apart), then the median over rounds: a noisy neighbour
		// shifts a whole round, not one contender.
		fmt.Printf("   %-38s %12.3f %15.2f×   (ms per round: %s)\n", c.name, median(samples[i]), pairedRatio(samples[i], samples[0]), fmtSamples(samples[i]))
	}
	goRatio := pairedRatio(samples[1], samples[0])
	fmt.Printf("   → hermes-hooks / spawn_limit = %.2f×  (median of per-round ratios; target ≤ 1.15×: %s)\n", goRatio, verdict(goRatio <= 1.15))
	if e.python != "" {
		py := pairedRatio(samples[2], samples[1])
		fmt.Printf("   → Python / hermes-hooks      = %.2f×  (median of per-round ratios; target ≥ 1.8×:  %s)\n", py, verdict(py >= 1.8))
	}
	return nil
}

// pairedRatio is the median over rounds of a[i]/b[i].
func pairedRatio(a, b []float64) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = a[i] / b[i]
	}
	return median(r)
}

func (e *env) fanOut() error {
	sleeper := filepath.Join(e.work, "sleeper.sh")
	if err := os.WriteFile(sleeper, []byte("#!/bin/sh\ncat >/dev/null\nexec sleep 0.2\n"), 0o755); err != nil {
		return err
	}
	ctx := context.Background()
	fmt.Printf("\n2. Fan-out: k matching hooks that each sleep 200 ms (one dispatch, wall time)\n")
	fmt.Printf("   %-6s %12s %12s\n", "hooks", "ms", "vs 1 hook")
	var one float64
	for _, k := range []int{1, 2, 4, 8} {
		var y strings.Builder
		y.WriteString("hooks:\n  pre_tool_call:\n")
		for i := 0; i < k; i++ {
			// Distinct arguments: identical entries would register once.
			fmt.Fprintf(&y, "    - command: %s %d\n", sleeper, i)
		}
		d, err := e.newDispatcher(y.String())
		if err != nil {
			return err
		}
		var samples []float64
		for r := 0; r < *rounds; r++ {
			start := time.Now()
			o, err := d.Dispatch(ctx, "pre_tool_call", e.payload)
			if err != nil {
				return err
			}
			if len(o.Hooks) != k {
				return fmt.Errorf("fan-out %d: %d reports", k, len(o.Hooks))
			}
			samples = append(samples, float64(time.Since(start).Microseconds())/1000)
		}
		m := median(samples)
		if k == 1 {
			one = m
		}
		line := fmt.Sprintf("   %-6d %12.1f %11.2f×", k, m, m/one)
		if k == 8 {
			line += fmt.Sprintf("   (target ≤ 1.25×: %s)", verdict(m/one <= 1.25))
		}
		fmt.Println(line)
	}
	return nil
}

// oneShot compares `hermes-hooks dispatch` (process start, config, allowlist,
// one nop_hook) with a one-shot Python process doing the same spawn.
func (e *env) oneShot() error {
	home := filepath.Join(e.work, "oneshot-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	cfg := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(cfg, []byte("hooks:\n  pre_tool_call:\n    - command: "+e.nop+"\n      matcher: terminal\n"), 0o644); err != nil {
		return err
	}
	approve := exec.Command(e.bin, "approve", "--all")
	approve.Env = append(os.Environ(), "HERMES_HOME="+home)
	if out, err := approve.CombinedOutput(); err != nil {
		return fmt.Errorf("approve: %v: %s", err, out)
	}
	payload := `{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"s1"}`
	ours := func() (float64, error) {
		start := time.Now()
		for i := 0; i < *oneShots; i++ {
			cmd := exec.Command(e.bin, "dispatch", "pre_tool_call")
			cmd.Env = append(os.Environ(), "HERMES_HOME="+home)
			cmd.Stdin = strings.NewReader(payload)
			out, err := cmd.Output()
			if err != nil || !bytes.Contains(out, []byte(`"ran":true`)) {
				return 0, fmt.Errorf("dispatch: %v: %s", err, out)
			}
		}
		return float64(time.Since(start).Microseconds()) / 1000 / float64(*oneShots), nil
	}
	pyScript := filepath.Join(e.work, "oneshot.py")
	if err := os.WriteFile(pyScript, []byte(`import json, subprocess, sys
payload = sys.stdin.read()
p = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True, encoding="utf-8", errors="replace", process_group=0)
out, err = p.communicate(input=payload, timeout=60)
if out.strip(): json.loads(out)
print(json.dumps({"decision": "none"}))
`), 0o644); err != nil {
		return err
	}
	python := func() (float64, error) {
		start := time.Now()
		for i := 0; i < *oneShots; i++ {
			cmd := exec.Command(e.python, pyScript, e.nop)
			cmd.Stdin = strings.NewReader(payload)
			if out, err := cmd.CombinedOutput(); err != nil {
				return 0, fmt.Errorf("python one-shot: %v: %s", err, out)
			}
		}
		return float64(time.Since(start).Microseconds()) / 1000 / float64(*oneShots), nil
	}
	var so, sp []float64
	for r := 0; r < *rounds; r++ {
		v, err := ours()
		if err != nil {
			return err
		}
		so = append(so, v)
		if e.python != "" {
			v, err = python()
			if err != nil {
				return err
			}
			sp = append(sp, v)
		}
	}
	fmt.Printf("\n3. One-shot process: start, read config and allowlist, run one nop_hook, print the outcome (%d starts a round)\n", *oneShots)
	mo := median(so)
	fmt.Printf("   %-38s %9.2f ms   (rounds: %s)\n", "hermes-hooks dispatch", mo, fmtSamples(so))
	if e.python != "" {
		mp := median(sp)
		fmt.Printf("   %-38s %9.2f ms   (rounds: %s)\n", "python3 one-shot spawn", mp, fmtSamples(sp))
		fmt.Printf("   → Python / hermes-hooks = %.2f×  (target ≥ 5×: %s)\n", mp/mo, verdict(mp/mo >= 5))
	}
	return nil
}

// peakRSS runs a one-shot dispatch whose hook prints 1 GiB and reports the
// dispatcher's peak resident set.
func (e *env) peakRSS() error {
	home := filepath.Join(e.work, "rss-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	flood := filepath.Join(e.work, "flood.sh")
	if err := os.WriteFile(flood, []byte("#!/bin/sh\ncat >/dev/null\nexec head -c 1073741824 /dev/zero\n"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("hooks:\n  post_tool_call:\n    - command: "+flood+"\n      timeout: 120\n"), 0o644); err != nil {
		return err
	}
	envv := append(os.Environ(), "HERMES_HOME="+home)
	approve := exec.Command(e.bin, "approve", "--all")
	approve.Env = envv
	if out, err := approve.CombinedOutput(); err != nil {
		return fmt.Errorf("approve: %v: %s", err, out)
	}
	cmd := exec.Command(e.bin, "dispatch", "post_tool_call")
	cmd.Env = envv
	cmd.Stdin = strings.NewReader(`{"tool_name":"terminal"}`)
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("dispatch: %v", err)
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	fmt.Printf("\n4. Memory: one-shot dispatch whose hook prints 1 GiB on stdout\n")
	truncated := bytes.Contains(out, []byte(`"stdout_truncated":true`))
	if ru != nil {
		fmt.Printf("   peak RSS %.1f MiB, %.2fs, output truncated and reported: %v  (target: bounded: %s)\n",
			float64(ru.Maxrss)/1024, time.Since(start).Seconds(), truncated, verdict(ru.Maxrss < 64*1024 && truncated))
	}
	return nil
}

func microBenchmarks() {
	fmt.Printf("\n5. Go micro-benchmarks (go test -bench, -benchmem)\n")
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", "300ms",
		"./protocol/", "./dispatcher/", "./internal/rule/")
	out, err := cmd.CombinedOutput()
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Benchmark") || strings.HasPrefix(line, "pkg:") {
			fmt.Println("   " + line)
		}
	}
	if err != nil {
		fmt.Printf("   go test -bench failed: %v\n%s", err, out)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtSamples(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strings.Join(parts, " ")
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}
