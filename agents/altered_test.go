package agents

import (
	"encoding/json"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestInstalledEntriesAreNotAltered: every entry Install writes, for every
// agent whose hook file is a file, in every form (PATH, absolute, the
// Windows ones), reads as install writes it; a second Install changes
// nothing.
func TestInstalledEntriesAreNotAltered(t *testing.T) {
	for _, a := range All() {
		if a.HookFile.Layout == Scripts || len(a.HookFile.Events) == 0 {
			continue
		}
		for _, exe := range []string{"", "/opt/hermes hooks/hermes-hooks", "C:/Users/o'neil/bin/hermes-hooks.exe"} {
			for _, goos := range []string{"linux", "windows"} {
				if goos == "windows" && exe != "" && exe[0] == '/' {
					continue // no Windows path
				}
				command := func(ev string) string {
					c, err := a.HookCommandOn(goos, exe, ev)
					if err != nil {
						t.Fatalf("%s %s %q: %v", a.Name, goos, exe, err)
					}
					return c
				}
				doc, _, err := a.Install(pyjson.OrderedObject{}, command)
				if err != nil {
					t.Fatalf("%s: %v", a.Name, err)
				}
				for _, e := range a.Entries(doc) {
					if e.Altered != "" {
						t.Errorf("%s %s %q: %s: %s", a.Name, goos, exe, e.Event, e.Altered)
					}
				}
				if _, changed, _ := a.Install(doc, command); changed {
					t.Errorf("%s %s %q: a second install changed the file", a.Name, goos, exe)
				}
			}
		}
	}
}

// TestAltered: what around a command line of ours makes it not install's.
func TestAltered(t *testing.T) {
	claude, _ := Lookup("claude")
	gemini, _ := Lookup("gemini")
	cmd := func(a *Agent, ev string) string { return a.HookCommand("", ev) }
	h := func(kv ...any) pyjson.OrderedObject {
		var o pyjson.OrderedObject
		for i := 0; i < len(kv); i += 2 {
			o = append(o, pyjson.Member{Key: kv[i].(string), Value: kv[i+1]})
		}
		return o
	}
	for _, c := range []struct {
		a          *Agent
		event      string
		group, obj pyjson.OrderedObject
		want       string
	}{
		{claude, "PreToolUse", h("hooks", nil), h("type", "command", "command", cmd(claude, "PreToolUse")), ""},
		{claude, "PreToolUse", h("matcher", "Bash", "hooks", nil), h("type", "command", "command", cmd(claude, "PreToolUse")), `its group has "matcher"`},
		{claude, "PreToolUse", nil, h("type", "command", "command", cmd(claude, "PreToolUse"), "async", true), `it has "async"`},
		{claude, "PreToolUse", nil, h("type", "command", "command", cmd(claude, "PreToolUse"), "once", true), `it has "once"`},
		{claude, "PreToolUse", nil, h("type", "command", "command", cmd(claude, "PreToolUse"), "statusMessage", "checking…"), ""},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool"), "timeout", json.Number("600000"), "description", "guard"), ""},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool"), "timeout", json.Number("600000"), "name", "guard"), `it has "name"`},
		{claude, "PreToolUse", nil, h("type", "prompt", "command", cmd(claude, "PreToolUse")), `it has "type"`},
		{claude, "PreToolUse", nil, h("command", cmd(claude, "PreToolUse")), `it has no "type"`},
		{claude, "PreToolUse", nil, h("type", "command", "command", cmd(claude, "Stop")), `it runs 'hook claude Stop'`},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool"), "timeout", json.Number("600000")), ""},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool"), "timeout", json.Number("900000")), ""},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool"), "timeout", json.Number("1000")), `it has "timeout"`},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool"), "timeout", "600000"), `it has "timeout"`},
		{gemini, "BeforeTool", nil, h("type", "command", "command", cmd(gemini, "BeforeTool")), `it has no "timeout"`},
	} {
		if got := c.a.altered(c.event, c.group, c.obj); got != c.want {
			t.Errorf("%s %s %v %v: %q, want %q", c.a.Name, c.event, c.group, c.obj, got, c.want)
		}
	}
}
