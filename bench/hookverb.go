//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

var (
	hookBench = flag.Bool("hook", true, "also measure `hermes-hooks hook claude` (in-process and forwarded to serve)")
	hookN     = flag.Int("hook-n", 40, "process starts of each contender per round (hook)")
)

// claudePreToolUse is what Claude Code writes on a PreToolUse hook's stdin
// (the fields the adapter reads).
const claudePreToolUse = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`

// hookVerb measures `hermes-hooks hook claude`, the command an agent runs
// as its hook, against what it must cost at most:
//
//   - a. in-process (--no-server), a PreToolUse that matches no hook,
//     against `hermes-hooks dispatch pre_tool_call` on the same config and
//     fields: the adapter (decode, encode) must add nothing measurable;
//   - b. forwarded to a live serve over its default socket
//     ($HERMES_HOME/hermes-hooks.sock), one approved sh hook running,
//     against what it cannot avoid: a process start (`hermes-hooks
//     version`) plus the serve round trip of the same request (an
//     in-process HTTP POST on a new connection, as the hook process makes).
//
// Every process is timed alone; the contenders alternate start by start
// (the first of each pair alternates too), so drift and noisy neighbours
// hit all of them alike. Ratios are taken per round, then the median over
// rounds; medians and p95 are over every start.
func (e *env) hookVerb() error {
	if !*hookBench {
		return nil
	}
	began := time.Now()
	fmt.Printf("\n7. Agent hook verb: `hermes-hooks hook claude`, a Claude Code PreToolUse payload on stdin (%d starts of each contender a round, %d rounds, interleaved start by start)\n",
		*hookN, *rounds)
	if err := e.hookNoMatch(); err != nil {
		return err
	}
	if err := e.hookForward(); err != nil {
		return err
	}
	fmt.Printf("   (section took %.1fs)\n", time.Since(began).Seconds())
	return nil
}

// hookHome makes a HERMES_HOME holding config with every hook approved,
// and returns it with the environment to run in.
func (e *env) hookHome(name, config string) (string, []string, error) {
	home := filepath.Join(e.work, name)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(config), 0o644); err != nil {
		return "", nil, err
	}
	envv := append(os.Environ(), "HERMES_HOME="+home, "HERMES_ACCEPT_HOOKS=", "HERMES_SAFE_MODE=")
	approve := exec.Command(e.bin, "approve", "--all")
	approve.Env = envv
	if out, err := approve.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("approve: %v: %s", err, out)
	}
	return home, envv, nil
}

// started is a contender that starts bin with args, envv and stdin in the
// work folder, and fails unless it exits 0, prints nothing on stderr, and
// its stdout passes ok.
func (e *env) started(name, bin string, args, envv []string, stdin string, ok func(out []byte) bool) *contender {
	return &contender{name: name, run: func() (usage, error) {
		u, out, errb, err := startTimed(bin, args, envv, e.work, stdin)
		if err != nil || !ok(out) || len(errb) > 0 {
			return usage{}, fmt.Errorf("%v: stdout %q, stderr %q", err, out, errb)
		}
		return u, nil
	}}
}

// holds, starts, is and empty are started's stdout checks.
func holds(s string) func([]byte) bool {
	return func(out []byte) bool { return bytes.Contains(out, []byte(s)) }
}
func starts(s string) func([]byte) bool {
	return func(out []byte) bool { return bytes.HasPrefix(out, []byte(s)) }
}
func is(s string) func([]byte) bool { return func(out []byte) bool { return string(out) == s } }
func empty(out []byte) bool         { return len(out) == 0 }

// usage is what one start of a contender cost: its wall time and CPU
// time (user + system) in ms, and the pages it faulted in (on a VM where
// the first touch of a page costs microseconds, what a start touches for
// the first time weighs as much as what it computes). CPU and faults are
// the process's own with those of the children it waited for (a hook's),
// NaN for a contender that is no process of its own.
type usage struct{ wall, cpu, faults float64 }

// startTimed runs one process to its end and returns what it cost and
// what it printed.
func startTimed(bin string, args []string, envv []string, dir, stdin string) (usage, []byte, []byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = envv, dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	u := usage{wall: float64(time.Since(start).Microseconds()) / 1000, cpu: math.NaN(), faults: math.NaN()}
	if cmd.ProcessState != nil {
		u.cpu = float64((cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Microseconds()) / 1000
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			u.faults = float64(ru.Minflt + ru.Majflt)
		}
	}
	return u, out.Bytes(), errb.Bytes(), err
}

// contender is one thing timed start by start: run returns what one
// start cost, or an error when it did not do what it should.
type contender struct {
	name   string
	run    func() (usage, error)
	all    []float64 // wall time of every start
	cpu    []float64 // CPU time of every start
	faults []float64 // page faults of every start
}

// interleave runs the contenders n times a round for *rounds rounds,
// rotating which goes first, after warm starts of each. It returns the
// per-round means (ms) of each contender and fills c.all.
func interleave(cs []*contender, warm, n int) ([][]float64, error) {
	for i := 0; i < warm; i++ {
		for _, c := range cs {
			if _, err := c.run(); err != nil {
				return nil, fmt.Errorf("%s (warm-up): %w", c.name, err)
			}
		}
	}
	perRound := make([][]float64, len(cs))
	for r := 0; r < *rounds; r++ {
		sums := make([]float64, len(cs))
		for i := 0; i < n; i++ {
			for k := range cs {
				j := (k + i) % len(cs)
				u, err := cs[j].run()
				if err != nil {
					return nil, fmt.Errorf("%s: %w", cs[j].name, err)
				}
				sums[j] += u.wall
				cs[j].all = append(cs[j].all, u.wall)
				cs[j].cpu = append(cs[j].cpu, u.cpu)
				cs[j].faults = append(cs[j].faults, u.faults)
			}
		}
		for j := range cs {
			perRound[j] = append(perRound[j], sums[j]/float64(n))
		}
	}
	return perRound, nil
}

func printHeader(what string) {
	fmt.Printf("   %-46s %9s %9s %9s %7s\n", what, "median ms", "p95 ms", "CPU ms", "faults")
}

func printContender(c *contender, perRound []float64) {
	cpu, faults := "-", "-"
	if m := median(c.cpu); !math.IsNaN(m) {
		cpu = strconv.FormatFloat(m, 'f', 2, 64)
	}
	if m := median(c.faults); !math.IsNaN(m) {
		faults = strconv.FormatFloat(m, 'f', 0, 64)
	}
	fmt.Printf("   %-46s %9.2f %9.2f %9s %7s   (mean ms per round: %s)\n", c.name, median(c.all), pct(c.all, 95), cpu, faults, fmtSamples(perRound))
}

// hookNoMatch is comparison a: hook claude --no-server against dispatch,
// a firing that matches none of the configured hooks.
func (e *env) hookNoMatch() error {
	cfg := "hooks:\n" +
		"  post_tool_call:\n    - command: " + e.nop + "\n" +
		"  pre_llm_call:\n    - command: " + e.nop + "\n" +
		"  on_session_start:\n    - command: " + e.nop + "\n"
	_, envv, err := e.hookHome("hook-nomatch-home", cfg)
	if err != nil {
		return err
	}
	// The same fields dispatch gets as hook's adapter derives from the
	// Claude payload.
	fields, err := claudeFields()
	if err != nil {
		return err
	}
	dispatch := e.started("hermes-hooks dispatch pre_tool_call", e.bin, []string{"dispatch", "pre_tool_call"}, envv, string(fields), holds(`"hooks":[]`))
	// No match: exit 0, nothing on stdout; a warning on stderr would mean
	// the payload was not read, which costs less.
	hook := e.started("hermes-hooks hook claude --no-server", e.bin, []string{"hook", "claude", "--no-server"}, envv, claudePreToolUse, empty)
	cs := []*contender{dispatch, hook}
	perRound, err := interleave(cs, 3, *hookN)
	if err != nil {
		return err
	}
	fmt.Printf("   a. in-process, no matching hook (config: hooks for other events only), process start to exit\n")
	printHeader("command")
	for i, c := range cs {
		printContender(c, perRound[i])
	}
	ratio := pairedRatio(perRound[1], perRound[0])
	fmt.Printf("   → hook / dispatch = %.2f×  (median of per-round ratios, per round: %s)\n", ratio, fmtRatios(perRound[1], perRound[0]))
	fmt.Printf("     medians %.2f×, p95 %.2f×, CPU medians %.2f×  (target ≤ 1.0×, 5%% noise allowed: %s)\n",
		median(hook.all)/median(dispatch.all), pct(hook.all, 95)/pct(dispatch.all, 95), median(hook.cpu)/median(dispatch.cpu),
		verdict(ratio <= 1.05))
	return nil
}

// hookForward is comparison b: hook claude forwarding to a live serve
// against a process start plus the serve round trip of the same request.
func (e *env) hookForward() error {
	sh := filepath.Join(e.work, "tiny-hook.sh")
	if err := os.WriteFile(sh, []byte("#!/bin/sh\ncat >/dev/null\necho '{}'\n"), 0o755); err != nil {
		return err
	}
	home, envv, err := e.hookHome("hook-forward-home", "hooks:\n  pre_tool_call:\n    - command: "+sh+"\n")
	if err != nil {
		return err
	}
	sock := filepath.Join(home, "hermes-hooks.sock") // where hook looks by default
	logPath := filepath.Join(e.work, "hook-serve.log")
	ready := &http.Client{Transport: unixTransport(sock)}
	srv, err := startServe(e.bin, envv, e.work, sock, logPath, ready)
	if err != nil {
		return err
	}
	defer srv.kill()
	ready.CloseIdleConnections()

	// The request hook makes: the adapter's fields, the caller, project
	// and config in the query (the server answers only its own).
	fields, err := claudeFields()
	if err != nil {
		return err
	}
	q := url.Values{"called_by": {"claude"}, "project": {e.work}, "config": {filepath.Join(home, "config.yaml")}}
	// A new connection per request, as a hook process has to dial.
	tr := unixTransport(sock)
	tr.DisableKeepAlives = true
	client := &http.Client{Transport: tr}
	var dispatched int // requests that should reach serve
	hook := &contender{name: "hermes-hooks hook claude (forwarded)", run: func() (usage, error) {
		u, out, errb, err := startTimed(e.bin, []string{"hook", "claude"}, envv, e.work, claudePreToolUse)
		if err != nil || len(out) > 0 || len(errb) > 0 {
			return usage{}, fmt.Errorf("%v: stdout %q, stderr %q", err, out, errb)
		}
		dispatched++
		return u, nil
	}}
	roundTrip := &contender{name: "serve round trip (POST, new connection)", run: func() (usage, error) {
		start := time.Now()
		resp, err := client.Post("http://serve/v1/dispatch/pre_tool_call?"+q.Encode(), "application/json", bytes.NewReader(fields))
		if err != nil {
			return usage{}, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			return usage{}, err
		}
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"ran":true,"exit_code":0`)) {
			return usage{}, fmt.Errorf("HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(body))
		}
		dispatched++
		return usage{wall: took, cpu: math.NaN(), faults: math.NaN()}, nil
	}}
	version := e.started("process start (hermes-hooks version)", e.bin, []string{"version"}, envv, "", starts("hermes-hooks "))
	cs := []*contender{hook, roundTrip, version}
	perRound, err := interleave(cs, 3, *hookN)
	if err != nil {
		return fmt.Errorf("%w; serve's log ends:\n%s", err, tailFile(logPath))
	}

	// hook falls back to dispatching by itself, silently, when the
	// default socket does not answer (or answers 409): that would not
	// measure forwarding. serve counts the dispatches it answered.
	answered, err := servedDispatches(ready, "pre_tool_call")
	if err != nil {
		return fmt.Errorf("%w; serve's log ends:\n%s", err, tailFile(logPath))
	}
	if err := srv.stop(); err != nil {
		return err
	}
	if answered != dispatched {
		return fmt.Errorf("serve answered %d dispatches, %d were sent (hook forwarded none or some?); serve's log ends:\n%s",
			answered, dispatched, tailFile(logPath))
	}

	fmt.Printf("   b. forwarded to a live `hermes-hooks serve` on its default socket, one approved matching sh hook (serve answered all %d dispatches)\n", answered)
	printHeader("method")
	for i, c := range cs {
		printContender(c, perRound[i])
	}
	floor := make([]float64, len(perRound[1]))
	for r := range floor {
		floor[r] = perRound[1][r] + perRound[2][r]
	}
	ratio := pairedRatio(perRound[0], floor)
	fmt.Printf("   → hook / (round trip + process start) = %.2f×  (median of per-round ratios, per round: %s; target ≤ 1.5×: %s)\n",
		ratio, fmtRatios(perRound[0], floor), verdict(ratio <= 1.5))
	return nil
}

// claudeFields is the body hook claude sends for claudePreToolUse: the
// adapter's host fields, compact JSON.
func claudeFields() ([]byte, error) {
	claude, ok := agents.Lookup("claude")
	if !ok {
		return nil, errors.New("no claude adapter")
	}
	call, err := claude.Decode([]byte(claudePreToolUse), "")
	if err != nil {
		return nil, err
	}
	if call.Event == nil || call.Event.Name != "pre_tool_call" {
		return nil, fmt.Errorf("claude PreToolUse decodes to %v, want pre_tool_call", call.Event)
	}
	return pyjson.Encode(call.Fields, pyjson.Compact), nil
}

// fmtRatios is a[i]/b[i] per round.
func fmtRatios(a, b []float64) string {
	parts := make([]string, len(a))
	for i := range a {
		parts[i] = fmt.Sprintf("%.2f", a[i]/b[i])
	}
	return strings.Join(parts, " ")
}

// servedDispatches is how many dispatches of event serve answered with
// 200 (GET /v1/stats): at its default log level serve logs only blocks
// and failures, so its log cannot be counted.
func servedDispatches(c *http.Client, event string) (int, error) {
	resp, err := c.Get("http://serve/v1/stats")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var st struct {
		Dispatches map[string]int `json:"dispatches"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return 0, fmt.Errorf("GET /v1/stats: %v", err)
	}
	return st.Dispatches[event], nil
}
