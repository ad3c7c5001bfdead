//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

var (
	workerBench  = flag.Bool("workers", true, "also measure worker entries against a spawn per event, and one-shot start costs (issue 16)")
	workerN      = flag.Int("worker-n", 1000, "requests to a worker per round (workers)")
	workerPy     = flag.Int("worker-py", 20, "py-guard.py one-shot runs per round (workers)")
	workerSpawn  = flag.Int("worker-spawn", 300, "spawns per round of spawn_limit and of the one-shot nop_hook (workers)")
	workerStarts = flag.Int("worker-starts", 25, "process starts of each contender per round (workers, one-shot costs)")
)

// nopWorkerC is the cheapest possible worker: a reply with no opinion for
// every line it reads (the request's id echoed, as the protocol asks),
// flushed at once, until stdin closes. Built static, as nop_hook.
const nopWorkerC = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
	static const char key[] = "\"hermes_hooks_request_id\":";
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, stdin) > 0) {
		const char *k = strstr(line, key);
		long long id = k ? strtoll(k + sizeof key - 1, NULL, 10) : -1;
		printf("{\"hermes_hooks_request_id\":%lld}\n", id);
		fflush(stdout);
	}
	free(line);
	return 0;
}
`

// goHookSrc is a compiled one-shot hook: reads its payload to EOF, replies
// {}. goHelloSrc is the cheapest Go program start.
const (
	goHookSrc = `package main

import (
	"io"
	"os"
)

func main() {
	_, _ = io.Copy(io.Discard, os.Stdin)
	_, _ = os.Stdout.WriteString("{}\n")
}
`
	goHelloSrc = `package main

import "fmt"

func main() { fmt.Println("hello, world") }
`
)

// hookSize is what the compiled one-shot hook is padded to.
const hookSize = 2 << 20

// workers measures worker entries (issue 16), in-process through the Go
// library as a host runs them, against spawning per event:
//
//   - a. py-guard.py (a copy run by the real interpreter, not a version
//     manager's shim) as a worker against the same entry without worker;
//   - b. a C nop worker against spawn_limit (and the library's one-shot
//     nop_hook, for reference);
//   - c. one-shot costs with no server: a dispatch running one approved
//     2 MiB compiled hook against that hook run directly plus a no-match
//     dispatch, and a no-match dispatch against a Go hello world's start.
//
// a and b interleave their contenders round by round, c start by start;
// the ratios are medians of per-round ratios.
func (e *env) workers() error {
	if !*workerBench {
		return nil
	}
	began := time.Now()
	fmt.Printf("\n8. Workers (issue 16): worker entries through the Go library against a spawn per event, and one-shot start costs (%d rounds)\n", *rounds)
	if err := e.workerPyGuard(); err != nil {
		return err
	}
	if err := e.workerNop(); err != nil {
		return err
	}
	if err := e.oneShotCosts(); err != nil {
		return err
	}
	fmt.Printf("   (section took %.1fs)\n", time.Since(began).Seconds())
	return nil
}

// dispatchLoop dispatches k times and returns ms per dispatch; every
// dispatch must run its one hook cleanly with the decision want.
func dispatchLoop(d *dispatcher.Dispatcher, payload map[string]any, k int, want protocol.Decision) (float64, error) {
	ctx := context.Background()
	start := time.Now()
	for i := 0; i < k; i++ {
		o, err := d.Dispatch(ctx, "pre_tool_call", payload)
		if err != nil {
			return 0, err
		}
		if err := cleanRun(&o, want); err != nil {
			return 0, err
		}
	}
	return float64(time.Since(start).Microseconds()) / 1000 / float64(k), nil
}

func cleanRun(o *protocol.Outcome, want protocol.Decision) error {
	if len(o.Hooks) != 1 {
		return fmt.Errorf("%d hook reports, want 1", len(o.Hooks))
	}
	h := o.Hooks[0]
	if !h.Ran || h.Error != "" || h.TimedOut || h.ExitCode == nil || *h.ExitCode != 0 || o.Decision != want {
		return fmt.Errorf("hook did not run cleanly (decision %q, want %q): %+v", o.Decision, want, h)
	}
	return nil
}

// liveWorkers is the number of live workers of d's entries.
func liveWorkers(d *dispatcher.Dispatcher) int {
	n := 0
	for _, w := range d.Workers() {
		if w.Failed != "" {
			return -1
		}
		n += w.Live
	}
	return n
}

// workerPair makes a dispatcher running command on pre_tool_call as a
// worker and one running it per event, and checks both answer as they
// should: the same outcome, the first from one live worker.
func (e *env) workerPair(command string, check func(*dispatcher.Dispatcher) error) (worker, oneShot *dispatcher.Dispatcher, err error) {
	entry := "hooks:\n  pre_tool_call:\n    - command: " + command + "\n      matcher: terminal\n"
	if worker, err = e.newDispatcher(entry + "      worker: true\n"); err != nil {
		return nil, nil, err
	}
	if oneShot, err = e.newDispatcher(entry); err != nil {
		worker.Close()
		return nil, nil, err
	}
	for _, d := range []*dispatcher.Dispatcher{worker, oneShot} {
		if err = check(d); err != nil {
			break
		}
	}
	if err == nil && liveWorkers(worker) != 1 {
		err = fmt.Errorf("%d live workers after the first requests, want 1 (not run as a worker?): %+v", liveWorkers(worker), worker.Workers())
	}
	if err == nil && liveWorkers(oneShot) != 0 {
		err = fmt.Errorf("the entry without worker: true has workers: %+v", oneShot.Workers())
	}
	if err != nil {
		worker.Close()
		oneShot.Close()
		return nil, nil, err
	}
	return worker, oneShot, nil
}

// workerPyGuard is comparison a.
func (e *env) workerPyGuard() error {
	if e.python == "" {
		fmt.Printf("   a. skipped: no python3\n")
		return nil
	}
	// A copy of agent-hooks/py-guard.py and its helper whose #! names the
	// interpreter python3 resolves to: a version manager's shim in front
	// of it (pyenv: a shell script) would be measured on every spawn.
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	dir := filepath.Join(e.work, "py-guard")
	if err := os.MkdirAll(filepath.Join(dir, "lib", "python"), 0o755); err != nil {
		return err
	}
	src, err := os.ReadFile(filepath.Join(wd, "agent-hooks", "py-guard.py"))
	if err != nil {
		return err
	}
	body, ok := bytes.CutPrefix(src, []byte("#!/usr/bin/env python3\n"))
	if !ok {
		return errors.New("agent-hooks/py-guard.py does not start with #!/usr/bin/env python3")
	}
	guard := filepath.Join(dir, "py-guard.py")
	if err := os.WriteFile(guard, append([]byte("#!"+e.python+"\n"), body...), 0o755); err != nil {
		return err
	}
	lib, err := os.ReadFile(filepath.Join(wd, "agent-hooks", "lib", "python", "hermes_hook.py"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "lib", "python", "hermes_hook.py"), lib, 0o644); err != nil {
		return err
	}

	block := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "s1"}
	worker, oneShot, err := e.workerPair(guard, func(d *dispatcher.Dispatcher) error {
		if _, err := dispatchLoop(d, block, 1, protocol.DecisionBlock); err != nil {
			return fmt.Errorf("py-guard, rm -rf /: %w", err)
		}
		if _, err := dispatchLoop(d, e.payload, 1, protocol.DecisionNone); err != nil {
			return fmt.Errorf("py-guard, ls -la: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer worker.Close()
	defer oneShot.Close()

	var ws, ss []float64
	for r := 0; r < *rounds; r++ {
		v, err := dispatchLoop(worker, e.payload, *workerN, protocol.DecisionNone)
		if err != nil {
			return fmt.Errorf("py-guard worker: %w", err)
		}
		ws = append(ws, v)
		if v, err = dispatchLoop(oneShot, e.payload, *workerPy, protocol.DecisionNone); err != nil {
			return fmt.Errorf("py-guard one-shot: %w", err)
		}
		ss = append(ss, v)
	}
	if n := liveWorkers(worker); n != 1 {
		return fmt.Errorf("py-guard: %d live workers after the rounds, want 1 (restarted?): %+v", n, worker.Workers())
	}
	fmt.Printf("   a. py-guard.py (agent-hooks, #!%s), one matching pre_tool_call entry, Go library, consent gate (%d requests to the worker, %d spawns a round)\n",
		e.python, *workerN, *workerPy)
	fmt.Printf("   %-42s %12s %14s\n", "method", "ms/dispatch", "vs worker")
	fmt.Printf("   %-42s %12.3f %13.2f×   (ms per round: %s)\n", "worker: true (one live process)", median(ws), 1.0, fmtSamples(ws))
	fmt.Printf("   %-42s %12.3f %13.2f×   (ms per round: %s)\n", "spawned per event", median(ss), pairedRatio(ss, ws), fmtSamples(ss))
	ratio := pairedRatio(ss, ws)
	fmt.Printf("   → spawned / worker = %.1f×  (median of per-round ratios, per round: %s; target ≥ 30×: %s)\n",
		ratio, fmtRatios(ss, ws), verdict(ratio >= 30))
	return nil
}

// workerNop is comparison b.
func (e *env) workerNop() error {
	nopWorker := filepath.Join(e.work, "nop_worker")
	src := nopWorker + ".c"
	if err := os.WriteFile(src, []byte(nopWorkerC), 0o644); err != nil {
		return err
	}
	if out, err := exec.Command("gcc", "-O2", "-static", "-o", nopWorker, src).CombinedOutput(); err != nil {
		return fmt.Errorf("build nop_worker: %v: %s", err, out)
	}
	worker, oneShot, err := e.workerPair(nopWorker, func(d *dispatcher.Dispatcher) error {
		_, err := dispatchLoop(d, e.payload, 1, protocol.DecisionNone)
		return err
	})
	if err != nil {
		return fmt.Errorf("nop_worker: %w", err)
	}
	defer worker.Close()
	defer oneShot.Close()
	oneShotNop, err := e.newDispatcher("hooks:\n  pre_tool_call:\n    - command: " + e.nop + "\n      matcher: terminal\n")
	if err != nil {
		return err
	}
	defer oneShotNop.Close()

	contenders := []struct {
		name string
		f    func() (float64, error)
	}{
		{"C posix_spawn loop (spawn_limit, nop_hook)", func() (float64, error) {
			return perDispatchOf(e.spawn, strconv.Itoa(*workerSpawn), e.nop)
		}},
		{"nop_worker, worker: true", func() (float64, error) {
			return dispatchLoop(worker, e.payload, *workerN, protocol.DecisionNone)
		}},
		{"nop_hook spawned per event (library)", func() (float64, error) {
			return dispatchLoop(oneShotNop, e.payload, *workerSpawn, protocol.DecisionNone)
		}},
	}
	samples := make([][]float64, len(contenders))
	for r := 0; r < *rounds; r++ {
		for i, c := range contenders {
			v, err := c.f()
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			samples[i] = append(samples[i], v)
		}
	}
	if n := liveWorkers(worker); n != 1 {
		return fmt.Errorf("nop_worker: %d live workers after the rounds, want 1 (restarted?): %+v", n, worker.Workers())
	}
	fmt.Printf("   b. nop_worker (C, static: a `{}` reply, its request id echoed, per line read, flushed) through the Go library, against spawn_limit (%d requests to the worker, %d spawns a round)\n",
		*workerN, *workerSpawn)
	fmt.Printf("   %-42s %12s %16s\n", "method", "ms/dispatch", "vs spawn_limit")
	for i, c := range contenders {
		fmt.Printf("   %-42s %12.4f %15.3f×   (ms per round: %s)\n", c.name, median(samples[i]), pairedRatio(samples[i], samples[0]), fmtSamples3(samples[i]))
	}
	ratio := pairedRatio(samples[0], samples[1])
	fmt.Printf("   → spawn_limit / nop worker = %.1f×  (median of per-round ratios, per round: %s; target ≥ 10×: %s)\n",
		ratio, fmtRatios(samples[0], samples[1]), verdict(ratio >= 10))
	return nil
}

// oneShotCosts is comparison c: process starts, no server.
func (e *env) oneShotCosts() error {
	hook, helloSize, hookBuilt, err := e.buildGoPrograms()
	if err != nil {
		return err
	}
	hello := filepath.Join(e.work, "go-hello")
	_, envv, err := e.hookHome("worker-oneshot-home", "hooks:\n  pre_tool_call:\n    - command: "+hook+"\n      matcher: terminal\n")
	if err != nil {
		return err
	}
	payload := `{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"s1"}`
	withHook := e.started("dispatch pre_tool_call, the 2 MiB hook runs", e.bin, []string{"dispatch", "pre_tool_call"}, envv, payload, holds(`"ran":true,"exit_code":0`))
	direct := e.started("the 2 MiB hook run directly", hook, nil, envv, payload, is("{}\n"))
	noMatch := e.started("dispatch post_llm_call (no matching hook)", e.bin, []string{"dispatch", "post_llm_call"}, envv, payload, holds(`"hooks":[]`))
	// What Claude Code starts per event: hook claude, no hook matching
	// (--no-server: no serve to ask; the payload names the event).
	claudePayload := `{"hook_event_name":"Stop","session_id":"s1","stop_hook_active":false}`
	hookClaude := e.started("hook claude Stop (no matching hook)", e.bin, []string{"hook", "claude", "--no-server"}, envv, claudePayload, is(""))
	helloC := e.started("Go hello world (CGO_ENABLED=0)", hello, nil, envv, "", is("hello, world\n"))
	cs := []*contender{withHook, direct, noMatch, helloC, hookClaude}
	perRound, err := interleave(cs, 3, *workerStarts)
	if err != nil {
		return err
	}
	fmt.Printf("   c. one-shot costs, no server: process start to exit (%d starts of each contender a round, interleaved start by start)\n", *workerStarts)
	fmt.Printf("      hook: static Go program replying {} (built %.2f MiB, padded to %.2f MiB), approved; hello world %.2f MiB\n",
		float64(hookBuilt)/(1<<20), float64(max(hookBuilt, hookSize))/(1<<20), float64(helloSize)/(1<<20))
	printHeader("command")
	for i, c := range cs {
		printContender(c, perRound[i])
	}
	floor := make([]float64, len(perRound[0]))
	for r := range floor {
		floor[r] = perRound[1][r] + perRound[2][r]
	}
	ratio := pairedRatio(perRound[0], floor)
	fmt.Printf("   → dispatch with the hook / (hook directly + no-match dispatch) = %.2f×  (median of per-round ratios, per round: %s; target ≤ 1.3×: %s)\n",
		ratio, fmtRatios(perRound[0], floor), verdict(ratio <= 1.3))
	ratio = pairedRatio(perRound[2], perRound[3])
	fmt.Printf("   → no-match dispatch / Go hello world = %.2f×  (median of per-round ratios, per round: %s; CPU medians %.2f×; target ≤ 2×: %s)\n",
		ratio, fmtRatios(perRound[2], perRound[3]), median(noMatch.cpu)/median(helloC.cpu), verdict(ratio <= 2))
	ratio = pairedRatio(perRound[4], perRound[2])
	fmt.Printf("   → hook claude no-match / dispatch no-match = %.2f×  (median of per-round ratios, per round: %s; target ≤ 1.1×: %s)\n",
		ratio, fmtRatios(perRound[4], perRound[2]), verdict(ratio <= 1.1))
	return nil
}

// buildGoPrograms builds go-hook (padded to hookSize with trailing bytes
// the ELF loader ignores) and go-hello in the work folder, static
// (CGO_ENABLED=0), and returns the hook's path, hello's size and the
// hook's size as built.
func (e *env) buildGoPrograms() (string, int64, int64, error) {
	dir := filepath.Join(e.work, "go-programs")
	for name, src := range map[string]string{"hook": goHookSrc, "hello": goHelloSrc} {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", 0, 0, err
		}
		if err := os.WriteFile(filepath.Join(d, "go.mod"), []byte("module "+name+"\n\ngo 1.22\n"), 0o644); err != nil {
			return "", 0, 0, err
		}
		if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644); err != nil {
			return "", 0, 0, err
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(e.work, "go-"+name), ".")
		cmd.Dir = d
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", 0, 0, fmt.Errorf("build go-%s: %v: %s", name, err, out)
		}
	}
	hook := filepath.Join(e.work, "go-hook")
	fi, err := os.Stat(hook)
	if err != nil {
		return "", 0, 0, err
	}
	built := fi.Size()
	if built < hookSize {
		// Written, not a hole: every byte is read when it is hashed.
		f, err := os.OpenFile(hook, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return "", 0, 0, err
		}
		_, err = f.Write(make([]byte, hookSize-built))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", 0, 0, err
		}
	}
	hi, err := os.Stat(filepath.Join(e.work, "go-hello"))
	if err != nil {
		return "", 0, 0, err
	}
	return hook, hi.Size(), built, nil
}

func fmtSamples3(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strings.Join(parts, " ")
}
