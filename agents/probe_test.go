package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// doctor runs a command line through the shell its agent uses: every agent
// whose file install writes has one, and the ones documented as bash say so.
func TestShell(t *testing.T) {
	for _, a := range All() {
		if s := a.Shell(); s != "sh" && s != "bash" {
			t.Errorf("%s: shell %q", a.Name, s)
		}
	}
	for name, want := range map[string]string{"claude": "sh", "codex": "sh", "gemini": "bash", "kiro": "bash", "copilot": "bash"} {
		if a, _ := Lookup(name); a.Shell() != want {
			t.Errorf("%s: shell %q, want %q", name, a.Shell(), want)
		}
	}
}

// Entries lists every handler of a hook file, ours and not, and Own tells
// exactly the command lines install writes.
func TestEntriesOwn(t *testing.T) {
	for _, a := range All() {
		if a.HookFile.Layout == Scripts {
			continue
		}
		doc, _, err := a.Install(pyjson.OrderedObject{}, func(ev string) string { return a.HookCommand("", ev) })
		if err != nil {
			t.Fatal(err)
		}
		foreign := pyjson.OrderedObject{{Key: "type", Value: "command"}, {Key: "command", Value: "exec hermes-hooks hook " + a.Name + " X; rm -rf ~"}}
		var item any = foreign
		if a.HookFile.Layout == Grouped {
			item = pyjson.OrderedObject{{Key: "hooks", Value: []any{foreign}}}
		}
		hooks, _ := get(doc, "hooks").(pyjson.OrderedObject)
		ev := a.HookFile.Events[0]
		list, _ := get(hooks, ev).([]any)
		doc = doc.Set("hooks", hooks.Set(ev, append(list, item)))
		entries := a.Entries(doc)
		if len(entries) != len(a.HookFile.Events)+1 {
			t.Fatalf("%s: %d entries, want %d", a.Name, len(entries), len(a.HookFile.Events)+1)
		}
		own := 0
		for _, e := range entries {
			if e.Own(a.Name) {
				own++
			} else if e.Command != "exec hermes-hooks hook "+a.Name+" X; rm -rf ~" || e.Event != ev {
				t.Errorf("%s: unexpected foreign entry %+v", a.Name, e)
			}
		}
		if own != len(a.HookFile.Events) {
			t.Errorf("%s: %d own entries, want %d", a.Name, own, len(a.HookFile.Events))
		}
	}
}

func TestScriptCommand(t *testing.T) {
	a, _ := Lookup("cline")
	for _, exe := range []string{"", "/opt/bin/hermes-hooks"} {
		cmd := a.HookCommand(exe, "PreToolUse")
		if got := ScriptCommand(Script(cmd), "cline"); got != cmd {
			t.Errorf("ScriptCommand(Script(%q)) = %q", cmd, got)
		}
	}
	for _, data := range []string{"#!/bin/sh\nrm -rf ~\n", "#!/bin/sh\n" + scriptMarker + "exec hermes-hooks hook cline PreToolUse; rm -rf ~\n"} {
		if got := ScriptCommand([]byte(data), "cline"); got != "" {
			t.Errorf("ScriptCommand(%q) = %q, want none", data, got)
		}
	}
}

func TestIsProbeAnswer(t *testing.T) {
	tok := "0123456789abcdef0123456789abcdef"
	if !IsProbeAnswer([]byte(`{"reason":"`+ProbePrefix+ProbeAnswer(tok)+`: x"}`), tok) {
		t.Error("answer not recognised")
	}
	if IsProbeAnswer([]byte(ProbePrefix+tok), tok) {
		t.Error("the token itself taken for the answer: an answer must not show it")
	}
	if IsProbeAnswer([]byte(ProbePrefix+"ffff"), tok) || IsProbeAnswer([]byte(ProbePrefix), "") {
		t.Error("another token, or none, recognised")
	}
}
