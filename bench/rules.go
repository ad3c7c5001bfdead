//go:build linux

package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

var (
	rulesBench = flag.Bool("rules", true, "also measure rule: entries (issue 35): the decision in-process and over serve, one-shot hook with 20 rules, a rule against the tutorial's shell guard, expr's package inits")
	rulesN     = flag.Int("rules-n", 1000, "rule dispatches per round (rules; the shell guard runs a twentieth of that)")
)

// rmRFRule is the example rule, as its YAML writes it (single
// quotes: the backslashes reach expr, whose string literal unescapes them).
const rmRFRule = `args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"`

// tutorialGuard is the README tutorial's shell guard (no-rm-rf.sh): the
// same check as rmRFRule, by sh and jq.
const tutorialGuard = `#!/bin/sh
if ! command -v jq >/dev/null 2>&1; then
  echo "no-rm-rf: jq is not installed" >&2
  echo '{"action": "block", "message": "no-rm-rf: jq is not installed, so this guard cannot read the command (install jq)"}'
  exit 0
fi
command=$(jq -r '.tool_input.command // ""')
case "$command" in
  *"rm -rf"*) echo '{"action": "block", "message": "rm -rf is not allowed here"}' ;;
esac
exit 0
`

// terminalRules are twenty checks on a shell command of the kind a
// team's rule file holds; none fires on `ls`.
var terminalRules = []string{
	rmRFRule,
	`args.command matches "git\\s+push\\s+.*(--force|-f)\\b"`,
	`args.command matches "(curl|wget)[^|]*\\|\\s*(ba|z)?sh"`,
	`args.command matches "git\\s+(reset\\s+--hard|clean\\s+-[a-z]*f)"`,
	`any(split(args.command, " "), # in ["shutdown", "reboot", "mkfs"])`,
	`args.command matches "\\bdd\\s+if=.*of=/dev/"`,
	`args.command contains "chmod -R 777"`,
	`args.command matches "\\bsudo\\s"`,
	`lower(args.command) contains "drop table"`,
	`len(args.command) > 100000`,
	`args.command matches ">\\s*/dev/sd[a-z]"`,
	`args.command matches "\\bgit\\s+branch\\s+-D\\b"`,
	`args.command contains ":(){ :|:& };:"`,
	`args.command matches "\\bnpm\\s+publish\\b"`,
	`args.command matches "\\bdocker\\s+system\\s+prune\\b"`,
	`hasPrefix(trim(args.command), "kill -9 1")`,
	`args.command matches "\\b(scp|rsync)\\b.*@"`,
	`args.command matches "\\bterraform\\s+destroy\\b"`,
	`args.command matches "\\bkubectl\\s+delete\\b"`,
	`tool_name == "Bash" && args.command matches "history\\s+-c"`,
}

// otherRules are fifteen checks on other tools, each with the tool its
// matcher names: with the first five of terminalRules, a file of twenty
// of which a terminal firing selects five.
var otherRules = []struct{ tool, src string }{
	{"read_file", `args.path matches "(^|/)\\.env(\\.|$)"`},
	{"read_file", `args.path contains "/.ssh/" || hasSuffix(args.path, ".pem")`},
	{"read_file", `hasPrefix(args.path, "/etc/shadow")`},
	{"read_file", `lower(args.path) contains "credentials"`},
	{"read_file", `args.path matches "\\.(key|p12|pfx)$"`},
	{"write_file", `!hasPrefix(args.path, cwd)`},
	{"write_file", `args.path matches "(^|/)\\.git/"`},
	{"write_file", `hasSuffix(args.path, ".env")`},
	{"write_file", `args.path contains "/.github/workflows/"`},
	{"write_file", `len(args?.content ?? "") > 1000000`},
	{"patch", `args.path matches "(^|/)\\.git/"`},
	{"patch", `!hasPrefix(args.path, cwd)`},
	{"web_extract", `any(args.urls, # startsWith "http://")`},
	{"web_extract", `any(args.urls, # contains "169.254.169.254")`},
	{"web_search", `lower(args.query) contains "password"`},
}

// ruleEntry is one rule: entry of a Hermes config.
func ruleEntry(matcher, src string) string {
	return "    - matcher: " + matcher + "\n      rule: '" + strings.ReplaceAll(src, "'", "''") + "'\n" +
		"      decision: block\n      message: \"refused by a rule\"\n"
}

// rulesConfigs are the configs the section compares: nothing on
// pre_tool_call (a hook elsewhere), the one rule, the tutorial's guard,
// twenty rules all on the terminal (each selected and evaluated: the
// worst case) and the twenty across their tools.
func (e *env) rulesConfigs(guard string) map[string]string {
	other := "  post_tool_call:\n    - command: " + e.nop + "\n"
	all, mixed, none, plain := "", "", "", ""
	for i, src := range terminalRules {
		all += ruleEntry("terminal", src)
		none += ruleEntry("terminal", fmt.Sprintf("false && %d == 0", i))
		plain += ruleEntry("terminal", fmt.Sprintf(`args.command contains "never-%d"`, i))
		if i < 20-len(otherRules) {
			mixed += ruleEntry("terminal", src)
		}
	}
	for _, r := range otherRules {
		mixed += ruleEntry(r.tool, r.src)
	}
	return map[string]string{
		"nomatch": "hooks:\n" + other,
		"rule":    "hooks:\n" + other + "  pre_tool_call:\n" + ruleEntry("terminal", rmRFRule),
		"false":   "hooks:\n" + other + "  pre_tool_call:\n" + ruleEntry("terminal", "false"),
		"guard": "hooks:\n" + other + "  pre_tool_call:\n    - command: " + guard +
			"\n      matcher: terminal\n      timeout: 10\n      fail_closed: true\n",
		"rules20":    "hooks:\n" + other + "  pre_tool_call:\n" + all,
		"rules20mix": "hooks:\n" + other + "  pre_tool_call:\n" + mixed,
		"false20":    "hooks:\n" + other + "  pre_tool_call:\n" + none,
		"plain20":    "hooks:\n" + other + "  pre_tool_call:\n" + plain,
	}
}

// rulesAccepted runs `validate` on a config with a rule: "" when the
// binary accepts rule: entries, else what it said.
func (e *env) rulesAccepted(config string) (string, error) {
	home := filepath.Join(e.work, "rules-probe")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(config), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command(e.bin, "validate")
	cmd.Env = append(os.Environ(), "HERMES_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return "", nil
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return fmt.Sprintf("%v: %s", err, line), nil
}

// rules is section 11 (issue 35): rule: entries against the no-match start
// and the tutorial's shell guard, in-process, over serve and one-shot, and
// what linking expr costs at every start. Until the binary accepts rule:
// entries, it says so and measures nothing.
func (e *env) rules() error {
	if !*rulesBench {
		return nil
	}
	began := time.Now()
	guard := filepath.Join(e.work, "no-rm-rf.sh")
	if err := os.WriteFile(guard, []byte(tutorialGuard), 0o755); err != nil {
		return err
	}
	cfgs := e.rulesConfigs(guard)
	fmt.Printf("\n11. Rules (issue 35): rule: entries decided in-process, against the no-match start and the README tutorial's shell guard (sh + jq), the same rm -rf check (load average %s)\n", loadAvg())
	why, err := e.rulesAccepted(cfgs["rule"])
	if err != nil {
		return err
	}
	if why != "" {
		fmt.Printf("   skipped: this binary does not accept rule: entries (`hermes-hooks validate` on a config with one: %s)\n", why)
		return nil
	}
	for _, name := range []string{"rules20", "rules20mix", "false20", "plain20"} {
		why, err := e.rulesAccepted(cfgs[name])
		if err != nil {
			return err
		}
		if why != "" {
			return fmt.Errorf("the %s config does not validate: %s", name, why)
		}
	}
	if _, err := exec.LookPath("jq"); err != nil {
		fmt.Printf("   skipped: jq is not installed (the tutorial's guard needs it)\n")
		return nil
	}
	for _, step := range []func(map[string]string) error{e.rulesInProcess, e.rulesServe, e.rulesOneShot, e.rulesInit} {
		if err := step(cfgs); err != nil {
			return err
		}
	}
	fmt.Printf("   (section took %.1fs)\n", time.Since(began).Seconds())
	return nil
}

// timedDispatches dispatches fields k times and returns each dispatch's
// time in µs; every outcome must be want with one hook report and no error.
func timedDispatches(d *dispatcher.Dispatcher, fields map[string]any, k int, want protocol.Decision) ([]float64, error) {
	ctx := context.Background()
	out := make([]float64, 0, k)
	for i := 0; i < k; i++ {
		start := time.Now()
		o, err := d.Dispatch(ctx, "pre_tool_call", fields)
		took := float64(time.Since(start).Nanoseconds()) / 1000
		if err != nil {
			return nil, err
		}
		if len(o.Hooks) != 1 || o.Hooks[0].Error != "" || o.Decision != want {
			return nil, fmt.Errorf("decision %q, want %q: %+v", o.Decision, want, o.Hooks)
		}
		out = append(out, took)
	}
	return out, nil
}

// rulesInProcess is a: the decision serve makes per request, without
// HTTP: the library dispatcher deciding one firing that the check blocks.
func (e *env) rulesInProcess(cfgs map[string]string) error {
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "s1"}
	type side struct {
		name   string
		d      *dispatcher.Dispatcher
		k      int
		all    []float64
		rounds []float64
	}
	var sides []*side
	for _, c := range []struct {
		name, cfg string
		k         int
	}{{"rule (rm -rf pattern, fires: block)", "rule", *rulesN}, {"shell guard (no-rm-rf.sh, fires: block)", "guard", max(*rulesN/20, 5)}} {
		d, err := e.newDispatcher(cfgs[c.cfg])
		if err != nil {
			return fmt.Errorf("%s: %w", c.cfg, err)
		}
		defer d.Close()
		sides = append(sides, &side{name: c.name, d: d, k: c.k})
	}
	for r := -1; r < *rounds; r++ { // round -1 warms up
		for _, s := range sides {
			t, err := timedDispatches(s.d, fields, s.k, protocol.DecisionBlock)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if r >= 0 {
				s.all = append(s.all, t...)
				s.rounds = append(s.rounds, median(t))
			}
		}
	}
	fmt.Printf("   a. the decision inside serve, without HTTP: the library dispatcher (consent gate on) deciding one terminal firing of `rm -rf /` (%d rule and %d guard dispatches a round)\n", sides[0].k, sides[1].k)
	fmt.Printf("   %-46s %10s %10s\n", "method", "median µs", "p95 µs")
	for _, s := range sides {
		fmt.Printf("   %-46s %10.1f %10.1f   (median µs per round: %s)\n", s.name, median(s.all), pct(s.all, 95), fmtSamples(s.rounds))
	}
	m := median(sides[0].all)
	ratio := pairedRatio(sides[1].rounds, sides[0].rounds)
	fmt.Printf("   → rule median %.1f µs (target ≤ 20 µs: %s); guard / rule = %.0f× (median of per-round ratios; target ≥ 100×: %s)\n",
		m, verdict(m <= 20), ratio, verdict(ratio >= 100))
	return nil
}

// rulesServe is b: the same over serve's Unix socket, one client on a
// kept-alive connection, each check in a serve of its own.
func (e *env) rulesServe(cfgs map[string]string) error {
	payload := `{"tool_name":"terminal","args":{"command":"rm -rf /"},"session_id":"s1"}`
	type side struct {
		name   string
		client *http.Client
		k      int
		all    []float64
		rounds []float64
	}
	var sides []*side
	for _, c := range []struct {
		name, cfg string
		k         int
	}{{"rule, serve round trip", "rule", max(*rulesN/4, 20)}, {"shell guard, serve round trip", "guard", max(*rulesN/20, 5)}} {
		_, envv, err := e.hookHome("rules-serve-"+c.cfg, cfgs[c.cfg])
		if err != nil {
			return err
		}
		sock := filepath.Join(e.work, "rules-"+c.cfg+".sock")
		client := &http.Client{Transport: unixTransport(sock)}
		srv, err := startServe(e.bin, envv, e.work, sock, filepath.Join(e.work, "rules-"+c.cfg+".log"), client)
		if err != nil {
			return err
		}
		defer srv.kill()
		sides = append(sides, &side{name: c.name, client: client, k: c.k})
	}
	for r := -1; r < *rounds; r++ {
		for _, s := range sides {
			var t []float64
			for i := 0; i < s.k; i++ {
				d, err := post(s.client, "pre_tool_call", payload, `"decision":"block"`)
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				t = append(t, float64(d.Nanoseconds())/1000)
			}
			if r >= 0 {
				s.all = append(s.all, t...)
				s.rounds = append(s.rounds, median(t))
			}
		}
	}
	fmt.Printf("   b. over serve: POST /v1/dispatch/pre_tool_call on a kept-alive connection, the same firing, each check in its own serve\n")
	fmt.Printf("   %-46s %10s %10s\n", "method", "median µs", "p95 µs")
	for _, s := range sides {
		fmt.Printf("   %-46s %10.1f %10.1f   (median µs per round: %s)\n", s.name, median(s.all), pct(s.all, 95), fmtSamples(s.rounds))
	}
	fmt.Printf("   → guard / rule over HTTP = %.1f× (median of per-round ratios; the round trip is a floor both pay)\n",
		pairedRatio(sides[1].rounds, sides[0].rounds))
	return nil
}

// rulesOneShot is c: `hook claude --no-server` started per event, a
// PreToolUse of `ls` (nothing fires), interleaved start by start.
func (e *env) rulesOneShot(cfgs map[string]string) error {
	var cs []*contender
	for _, c := range []struct{ name, cfg string }{
		{"no match (nothing on pre_tool_call)", "nomatch"},
		{"one rule (rm -rf pattern)", "rule"},
		{"one rule `false` (a matching entry, no work)", "false"},
		{"shell guard (no-rm-rf.sh)", "guard"},
		{"20 rules, all on terminal (20 evaluated)", "rules20"},
		{"20 rules across 6 tools (5 evaluated)", "rules20mix"},
		{"20 rules `false && N == 0` (each compiled)", "false20"},
		{"20 rules `args.command contains` (no compile)", "plain20"},
	} {
		_, envv, err := e.hookHome("rules-oneshot-"+c.cfg, cfgs[c.cfg])
		if err != nil {
			return err
		}
		cs = append(cs, e.started(c.name, e.bin, []string{"hook", "claude", "--no-server"}, envv, claudePreToolUse, empty))
	}
	perRound, err := interleave(cs, 3, *hookN)
	if err != nil {
		return err
	}
	fmt.Printf("   c. one-shot `hook claude --no-server`, a Claude Code PreToolUse of `ls` (nothing fires; %d starts of each a round, interleaved)\n", *hookN)
	printHeader("config")
	for i, c := range cs {
		printContender(c, perRound[i])
	}
	r20 := pairedRatio(perRound[4], perRound[0])
	mix := pairedRatio(perRound[5], perRound[0])
	fmt.Printf("   → 20 rules / no match = %.2f× all evaluated (per round: %s), %.2f× across tools  (target ≤ 1.1×: %s, %s)\n",
		r20, fmtRatios(perRound[4], perRound[0]), mix, verdict(r20 <= 1.1), verdict(mix <= 1.1))
	fmt.Printf("     pages faulted in a start (medians): no match %.0f, twenty rules all evaluated %.0f (+%.0f; BENCHMARKS.md: a first touch costs 5-11 µs on a VM that charges for it)\n",
		median(cs[0].faults), median(cs[4].faults), median(cs[4].faults)-median(cs[0].faults))
	// What each check adds over the start, per round.
	added := make([]float64, len(perRound[0]))
	var ruleAdds, guardAdds, entryAdds []float64
	for r := range added {
		ruleAdds = append(ruleAdds, perRound[1][r]-perRound[0][r])
		entryAdds = append(entryAdds, perRound[2][r]-perRound[0][r])
		guardAdds = append(guardAdds, perRound[3][r]-perRound[0][r])
		added[r] = ruleAdds[r] / guardAdds[r]
	}
	share := median(added)
	fmt.Printf("   → added over the no-match start: rule %.3f ms, shell guard %.3f ms (medians of per-round means); rule / guard = %.3f (median of per-round ratios; target ≤ 0.2: %s)\n",
		median(ruleAdds), median(guardAdds), share, verdict(share <= 0.2))
	var false20Adds, plain20Adds []float64
	for r := range perRound[0] {
		false20Adds = append(false20Adds, perRound[6][r]-perRound[0][r])
		plain20Adds = append(plain20Adds, perRound[7][r]-perRound[0][r])
	}
	fmt.Printf("     of that, what firing matching entries costs a one-shot whatever they decide (journal, consent, session, one goroutine each): one entry that does no work (`false`, compiled by expr) %.3f ms, twenty (each compiled) %.3f ms\n",
		median(entryAdds), median(false20Adds))
	// The floor: twenty entries read, selected, gated, decided by a
	// substring test and journaled, none compiled by expr. What twenty
	// evaluated rules add beyond it is their compiling.
	plain := pairedRatio(perRound[7], perRound[0])
	fmt.Printf("     twenty entries decided without expr (`args.command contains \"never-N\"`) %.3f ms, %.2f× the no-match start (per round: %s): the floor for twenty rules; the rest of the twenty evaluated rules' extra is compiling them\n",
		median(plain20Adds), plain, fmtRatios(perRound[7], perRound[0]))
	return nil
}

// rulesInit is d: the package inits the rule engine adds to every start
// (GODEBUG=inittrace=1, as section 10), against a Go hello world's start.
func (e *env) rulesInit(cfgs map[string]string) error {
	_, envv, err := e.hookHome("rules-init", cfgs["rule"])
	if err != nil {
		return err
	}
	hello, err := e.goHello()
	if err != nil {
		return err
	}
	payload := `{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"s1"}`
	ours, _, err := inits(e.bin, []string{"dispatch", "post_llm_call"}, envv, payload, *initRuns, holds(`"hooks":[]`))
	if err != nil {
		return err
	}
	// A hello world's start, process start to exit, as the start-up
	// targets measure it.
	var helloMs []float64
	for i := 0; i < *initRuns; i++ {
		u, out, _, err := startTimed(hello, nil, envv, e.work, "")
		if err != nil || string(out) != "hello, world\n" {
			return fmt.Errorf("go-hello: %v: %q", err, out)
		}
		helloMs = append(helloMs, u.wall)
	}
	helloStart := median(helloMs)
	var lines bytes.Buffer
	sum, n := 0.0, 0
	for _, c := range ours {
		if strings.HasPrefix(c.pkg, "github.com/expr-lang/") {
			sum += c.ms
			n++
			fmt.Fprintf(&lines, "      %-56s %9.3f %8d\n", c.pkg, c.ms, c.allocs)
		}
	}
	fmt.Printf("   d. package inits of the rule engine (github.com/expr-lang/expr) at every start (GODEBUG=inittrace=1, least of %d starts per package)\n", *initRuns)
	fmt.Print(lines.String())
	ratio := sum / helloStart
	fmt.Printf("   → %d packages, %.3f ms summed (what the binary without expr does not run); a Go hello world's start %.3f ms (median of %d); expr / hello = %.3f (target ≤ 0.15: %s)\n",
		n, sum, helloStart, len(helloMs), ratio, verdict(ratio <= 0.15))
	return nil
}
