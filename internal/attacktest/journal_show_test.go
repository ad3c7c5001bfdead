//go:build linux

package attacktest

import (
	"os"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
)

// What the journal shows afterwards of text a payload (the model's tool
// arguments) or a hook's output chose: no character a terminal acts on
// or that reorders or hides text may reach a person raw, through `log`,
// `log --json` (a person runs it on a terminal as often as into jq) or
// the journal file itself (tail, less, a log shipper's console).

// hostileText holds a C1 CSI (U+009B: "ESC [" to terminals that take
// 8-bit controls), a right-to-left override and a zero-width space, all
// valid JSON string content that a JSON encoder writes raw.
const hostileText = `x\u009b31m\u202egnp.sh\u200b`

func hostileJournalEnv(t *testing.T) *env {
	e := newEnv(t)
	e.write("block.sh", "#!/bin/sh\ncat >/dev/null\nprintf '%s' '{\"action\":\"block\",\"message\":\"no "+hostileText+"\"}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("block.sh")+
		"\njournal:\n  include_payload: true\n", 0o644)
	e.run("", "approve", e.path("block.sh"))
	return e
}

// unsafeLines names the lines of out a terminal would act on.
func unsafeLines(out string) []string {
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		if termsafe.Escape(l) != l {
			bad = append(bad, termsafe.Escape(l))
		}
	}
	return bad
}

func TestJournalLinesAreTerminalSafe(t *testing.T) {
	e := hostileJournalEnv(t)
	e.dispatchWithin(`{"tool_name":"terminal","session_id":"s` + hostileText + `","args":{"command":"ls ` + hostileText + `"}}`)
	data, err := os.ReadFile(e.path("home/hook-journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if bad := unsafeLines(string(data)); len(bad) > 0 {
		t.Errorf("the journal file holds characters a terminal acts on: %q", bad)
	}
	for _, args := range [][]string{{"log"}, {"log", "--json"}} {
		if bad := unsafeLines(e.run("", args...)); len(bad) > 0 {
			t.Errorf("%v printed characters a terminal acts on: %q", args, bad)
		}
	}
	// The text itself is kept: escaped as JSON, it reads back the same.
	if out := e.run("", "log", "--json"); !strings.Contains(out, `"session":"s`+hostileText+`"`) {
		t.Errorf("log --json lost the session's text: %s", out)
	}
}

// A line a local process appended to the journal (no chain, but valid
// JSON, so log shows it) with the characters raw: log --json escapes
// them as JSON, the same value.
func TestLogJSONEscapesAForgedLine(t *testing.T) {
	e := hostileJournalEnv(t)
	e.dispatchWithin(`{"tool_name":"terminal","args":{"command":"ls"}}`)
	forged := `{"seq":2,"prev":"x","time":"2026-01-01T00:00:00Z","event":"pre_tool_call","tool":"t` + "\u009b\u202e" + `","decision":"allow","hooks":[]}` + "\n"
	f, err := os.OpenFile(e.path("home/hook-journal.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(forged); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := e.run("", "log", "--json")
	if bad := unsafeLines(out); len(bad) > 0 {
		t.Errorf("log --json printed a forged line's characters raw: %q", bad)
	}
	if !strings.Contains(out, `"tool":"t\u009b\u202e"`) {
		t.Errorf("log --json did not show the forged line, escaped: %s", out)
	}
}

// A payload's megabyte tool name and session id (the model chose them)
// and a hook's long message are cut in the lines log and replay print
// for people, saying they were cut: one record printed a 3 MB line. The
// record keeps the first 4 KiB of each and its length (journal.maxText).
func TestLogAndReplayCutMegabyteFields(t *testing.T) {
	e := newEnv(t)
	msg := strings.Repeat("m", 50<<10)
	e.write("block.sh", "#!/bin/sh\ncat >/dev/null\nprintf '%s' '{\"action\":\"block\",\"message\":\""+msg+"\"}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("block.sh")+
		"\njournal:\n  include_payload: true\n", 0o644)
	e.write("none.yaml", "hooks: {}\n", 0o644)
	e.run("", "approve", e.path("block.sh"))
	e.dispatchWithin(`{"tool_name":"` + strings.Repeat("t", 2<<20) + `","session_id":"` + strings.Repeat("s", 1<<20) + `","args":{"command":"ls"}}`)
	for _, args := range [][]string{{"log"}, {"replay", "--config", e.path("none.yaml")}} {
		out := e.run("", args...)
		for _, l := range strings.Split(out, "\n") {
			if len(l) > 16<<10 {
				t.Errorf("%v printed a line of %d bytes: %.200s…", args, len(l), l)
			}
		}
		if !strings.Contains(out, "tttt… (") {
			t.Errorf("%v does not say the tool name was cut: %.300s", args, out)
		}
	}
	// The record's tool keeps 4 KiB of it, and its length (the payload,
	// kept with include_payload, has it whole).
	if out := e.run("", "log", "--json"); !strings.Contains(out, `"tool":"`+strings.Repeat("t", 4096)+`… (2097152 bytes)"`) {
		t.Errorf("log --json: the record does not keep the tool name's first 4 KiB and its length")
	}
}

// A record a local process edited (a block turned into an allow) is
// shown by log and fired by replay as any other, but they say on stderr
// that the chain is broken there: before, only `log verify` told, and a
// person reading log took the forged line at its word.
func TestLogAndReplaySayTheChainIsBroken(t *testing.T) {
	e := hostileJournalEnv(t)
	for i := 0; i < 3; i++ {
		e.dispatchWithin(`{"tool_name":"terminal","args":{"command":"ls"}}`)
	}
	p := e.path("home/hook-journal.jsonl")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = strings.Replace(lines[1], `"decision":"block"`, `"decision":"allow"`, 1)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"log"}, {"log", "--json"}, {"replay"}} {
		var out, errb strings.Builder
		c := e.cmd("", args...)
		c.Stdout, c.Stderr = &out, &errb
		_ = c.Run()
		if !strings.Contains(out.String(), "allow") {
			t.Errorf("%v did not show the edited record: %s", args, out.String())
		}
		if !strings.Contains(errb.String(), "hook-journal.jsonl:2: changed after it was written") {
			t.Errorf("%v did not say the chain is broken at line 2: stderr %q", args, errb.String())
		}
	}
}

// A forged record with thousands of hooks, each with a long command, is
// one line of log for a person, bounded: the hooks past the hundredth are
// counted, not listed.
func TestLogBoundsAForgedRecordsHooks(t *testing.T) {
	e := hostileJournalEnv(t)
	e.dispatchWithin(`{"tool_name":"terminal","args":{"command":"ls"}}`)
	hook := `{"command":"` + strings.Repeat("c", 900) + `","dialect":"hermes","ran":true,"exit_code":0,"elapsed_ms":1,"timed_out":false,"decision":"none"}`
	hooks := strings.TrimSuffix(strings.Repeat(hook+",", 5000), ",")
	forged := `{"seq":2,"prev":"x","time":"2026-01-01T00:00:00Z","event":"pre_tool_call","decision":"allow","hooks":[` + hooks + `]}` + "\n"
	f, err := os.OpenFile(e.path("home/hook-journal.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(forged); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := e.run("", "log")
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 256<<10 {
			t.Errorf("log printed a line of %d bytes", len(l))
		}
	}
	if !strings.Contains(out, "4900 more hooks") {
		t.Errorf("log does not count the hooks it left out: %.300s", out[max(0, len(out)-300):])
	}
}
