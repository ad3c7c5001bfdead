package rule

import (
	"context"
	"testing"
)

// twentyRules are the kind of rules a team's file holds: patterns on a
// command, path prefixes, tool names. BenchmarkCompile20 compiles them
// all, as a one-shot `hook` with 20 rules would.
var twentyRules = []string{
	rmRF,
	`args.command matches "git\\s+push\\s+.*(--force|-f)\\b"`,
	`args.command matches "curl[^|]*\\|\\s*(ba|z)?sh"`,
	`args.command matches "wget[^|]*\\|\\s*(ba|z)?sh"`,
	`tool == "read_file" && args.path matches "(^|/)\\.env(\\.|$)"`,
	`tool == "write_file" && !hasPrefix(args.path, cwd)`,
	`tool == "terminal" && args.command contains "mkfs"`,
	`tool == "terminal" && args.command matches "dd\\s+if=.*of=/dev/"`,
	`args?.path != nil && hasSuffix(args.path, ".pem")`,
	`args?.path != nil && args.path contains "/.ssh/"`,
	`tool_name == "Bash" && args.command contains "chmod -R 777"`,
	`any(split(args.command, " "), # in ["shutdown", "reboot", "halt"])`,
	`event == "pre_tool_call" && tool == "terminal" && len(args.command) > 2000`,
	`args.command matches "git\\s+reset\\s+--hard"`,
	`args.command matches "git\\s+clean\\s+-[a-z]*f"`,
	`lower(args.command) contains "drop table"`,
	`agent == "codex" && tool == "terminal" && args.command startsWith "sudo "`,
	`"url" in args && !(args.url startsWith "https://")`,
	`payload?.hook_event_name == "PreToolUse" && tool_name == "Write"`,
	`session_id == "" && tool == "terminal"`,
}

func benchInput() *Input {
	return &Input{Event: "pre_tool_call", Tool: "terminal", ToolName: "Bash", Cwd: "/srv/app",
		Args:    map[string]any{"command": "ls -la /tmp"},
		Payload: map[string]any{"hook_event_name": "PreToolUse"}}
}

// BenchmarkCompile is one rule (the rm -rf pattern) compiled.
func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(rmRF); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile20 is twenty different rules compiled, what a one-shot
// process with a 20-rule file pays before its first decision.
func BenchmarkCompile20(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range twentyRules {
			if _, err := Compile(src); err != nil {
				b.Fatalf("%s: %v", src, err)
			}
		}
	}
}

// BenchmarkEval is one evaluation of the rm -rf rule on a command it does
// not match: the decision a dispatcher makes per firing.
func BenchmarkEval(b *testing.B) { benchEval(b, rmRF) }

// benchEval evaluates src on benchInput, which it must find false.
func benchEval(b *testing.B, src string) {
	r, err := Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	in := benchInput()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := r.Eval(ctx, in); err != nil || ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkEval20 is the twenty rules evaluated on one firing.
func BenchmarkEval20(b *testing.B) {
	var rs []*Rule
	for _, src := range twentyRules {
		r, err := Compile(src)
		if err != nil {
			b.Fatalf("%s: %v", src, err)
		}
		rs = append(rs, r)
	}
	in := benchInput()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range rs {
			if _, err := r.Eval(ctx, in); err != nil {
				b.Fatalf("%s: %v", r.Source(), err)
			}
		}
	}
}

// BenchmarkEvalLoop is a rule whose work is a loop of 1,000 steps of
// small bodies: what the stop check each step makes (stop.go) costs most.
func BenchmarkEvalLoop(b *testing.B) {
	benchEval(b, `count(1..1000, args.command contains "zzz" || # < 0) > 0`)
}
