package agents

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestQwenHookCommandOnWindows pins Qwen Code's "command" as install writes
// it on Windows, where Qwen runs a hook with %ComSpec% unless the handler
// says "shell": "powershell" (then powershell -Command): PowerShell's form
// (Get-Command check, or Test-Path of the absolute path, try { & … } catch
// { the refusal }, exit $LASTEXITCODE) with Qwen's own refusal; the POSIX
// form on every other system.
func TestQwenHookCommandOnWindows(t *testing.T) {
	qwen, _ := Lookup("qwen")
	deny := string(qwen.MissingReply("PreToolUse", MissingReason).Stdout)
	denyExe := string(qwen.MissingReply("PreToolUse", MissingProgramReason).Stdout)
	nl := `'+"` + "`n" + `"+''`
	for _, tc := range []struct {
		goos, exe, event, want string
	}{
		{"windows", "", "PreToolUse",
			`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { [Console]::Out.Write('` + strings.TrimSuffix(deny, "\n") + nl + `); exit 0 }; try { & hermes-hooks hook qwen PreToolUse --agent-timeout 600 } catch { [Console]::Out.Write('` + strings.TrimSuffix(deny, "\n") + nl + `); exit 0 }; exit $LASTEXITCODE`},
		{"windows", "", "SessionEnd",
			`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; try { & hermes-hooks hook qwen SessionEnd --agent-timeout 600 } catch { exit 0 }; exit $LASTEXITCODE`},
		{"windows", "C:/Users/o'neil/bin/hermes-hooks.exe", "PreToolUse",
			`if (-not (Test-Path -LiteralPath 'C:\Users\o''neil\bin\hermes-hooks.exe' -PathType Leaf)) { [Console]::Out.Write('` + strings.TrimSuffix(denyExe, "\n") + nl + `); exit 0 }; try { & 'C:\Users\o''neil\bin\hermes-hooks.exe' hook qwen PreToolUse --agent-timeout 600 } catch { [Console]::Out.Write('` + strings.TrimSuffix(denyExe, "\n") + nl + `); exit 0 }; exit $LASTEXITCODE`},
		{"linux", "", "PreToolUse", qwen.HookCommand("", "PreToolUse")},
		{"darwin", "/usr/local/bin/hermes-hooks", "Stop", qwen.HookCommand("/usr/local/bin/hermes-hooks", "Stop")},
	} {
		got, err := qwen.HookCommandOn(tc.goos, tc.exe, tc.event)
		if err != nil || got != tc.want {
			t.Errorf("%s %q %s:\n got %s (%v)\nwant %s", tc.goos, tc.exe, tc.event, got, err, tc.want)
		}
		if !qwen.isOwn(got) || !IsOwnHookCommand(got, "qwen") || !IsOwnHookCommand(got, "") {
			t.Errorf("%s %s: %s is not read as ours", tc.goos, tc.event, got)
		}
		if IsOwnHookCommand(got, "gemini") || IsOwnHookCommand(got, "copilot") {
			t.Errorf("%s %s: taken for another agent's", tc.goos, tc.event)
		}
	}
	// The prologue writes exactly Qwen's refusal, which Qwen reads as a
	// deny of the call (permissionDecision, and continue:false).
	var reply struct {
		Continue *bool `json:"continue"`
		HSO      struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(deny), &reply); err != nil || reply.HSO.PermissionDecision != "deny" || reply.Continue == nil || *reply.Continue {
		t.Errorf("Qwen's missing-program reply %q (%v) is not a deny", deny, err)
	}
	// Qwen's PowerShell line is not Gemini's, nor the other way round.
	gm, _ := gemini.HookCommandOn("windows", "", "BeforeTool")
	if IsOwnHookCommand(gm, "qwen") {
		t.Errorf("gemini's line taken for qwen's: %s", gm)
	}
}

// TestQwenWindowsInstall: install on Windows writes "shell": "powershell"
// beside the PowerShell form (without it Qwen runs the line with
// %ComSpec%, where it fails and the call goes through); install on another
// system brings such an entry to the POSIX form and takes the key out;
// install on Windows over a POSIX entry puts the key in; uninstall removes
// both forms; a second install changes nothing.
func TestQwenWindowsInstall(t *testing.T) {
	qwen, _ := Lookup("qwen")
	on := func(goos string) func(string) string {
		return func(ev string) string {
			c, err := qwen.HookCommandOn(goos, "", ev)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	shellOf := func(doc pyjson.OrderedObject, ev string) (any, bool) {
		return firstHandler(t, doc, ev).Get("shell")
	}
	win, _, err := qwen.Install(nil, on("windows"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range qwen.HookFile.Events {
		if sh, ok := shellOf(win, ev); !ok || sh != "powershell" {
			t.Errorf("%s on Windows: shell %v, want powershell", ev, sh)
		}
	}
	h := firstHandler(t, win, "PreToolUse")
	if keys := memberKeys(h); strings.Join(keys, ",") != "type,command,shell,timeout" {
		t.Errorf("handler keys %v", keys)
	}
	for _, e := range qwen.Entries(win) {
		if !e.Own("qwen") || e.Altered != "" || e.Shell != "powershell" {
			t.Errorf("%s: own %v altered %q shell %q", e.Event, e.Own("qwen"), e.Altered, e.Shell)
		}
	}
	if _, changed, _ := qwen.Install(win, on("windows")); changed {
		t.Error("a second install on Windows changed the file")
	}
	posix, changed, err := qwen.Install(win, on("linux"))
	if err != nil || !changed {
		t.Fatalf("install on Linux over the Windows form: changed %v, %v", changed, err)
	}
	for _, e := range qwen.Entries(posix) {
		if e.Command != qwen.HookCommand("", e.Event) || e.Shell != "" || e.Altered != "" {
			t.Errorf("after install on Linux: %+v", e)
		}
	}
	if len(qwen.Entries(posix)) != len(qwen.HookFile.Events) {
		t.Errorf("install on Linux over the Windows form: %d entries", len(qwen.Entries(posix)))
	}
	if _, ok := shellOf(posix, "PreToolUse"); ok {
		t.Error("the POSIX form kept \"shell\"")
	}
	back, changed, _ := qwen.Install(posix, on("windows"))
	if !changed {
		t.Fatal("install on Windows over the POSIX form changed nothing")
	}
	if sh, _ := shellOf(back, "PreToolUse"); sh != "powershell" || len(qwen.Entries(back)) != len(qwen.HookFile.Events) {
		t.Errorf("install on Windows over the POSIX form: shell %v, %d entries", sh, len(qwen.Entries(back)))
	}
	for _, doc := range []pyjson.OrderedObject{win, back} {
		if out, _ := qwen.Uninstall(doc); len(out) != 0 {
			t.Errorf("uninstall left %v", out)
		}
	}
}

// TestQwenAlteredShell: the "shell" beside a command line of ours says
// which shell Qwen runs it with, so it must be the one install writes for
// that form: "powershell" beside PowerShell's, none beside the POSIX one.
// Anything else is not install's, and install writes the entry again.
func TestQwenAlteredShell(t *testing.T) {
	qwen, _ := Lookup("qwen")
	ps, _ := qwen.HookCommandOn("windows", "", "PreToolUse")
	posix := qwen.HookCommand("", "PreToolUse")
	psStop, _ := qwen.HookCommandOn("windows", "", "Stop")
	gm, _ := gemini.HookCommandOn("windows", "", "BeforeTool")
	to := json.Number("600")
	for _, c := range []struct {
		obj  pyjson.OrderedObject
		want string
	}{
		{obj("type", "command", "command", ps, "shell", "powershell", "timeout", to), ""},
		{obj("type", "command", "command", posix, "timeout", to), ""},
		{obj("type", "command", "command", ps, "timeout", to), `it has no "shell"`},
		{obj("type", "command", "command", ps, "shell", "bash", "timeout", to), `it has "shell"`},
		{obj("type", "command", "command", ps, "shell", true, "timeout", to), `it has "shell"`},
		{obj("type", "command", "command", posix, "shell", "powershell", "timeout", to), `it has "shell"`},
		{obj("type", "command", "command", posix, "shell", "bash", "timeout", to), `it has "shell"`},
		{obj("type", "command", "command", psStop, "shell", "powershell", "timeout", to), `it runs 'hook qwen Stop'`},
	} {
		if got := qwen.altered("PreToolUse", nil, c.obj); got != c.want {
			t.Errorf("%v: %q, want %q", c.obj, got, c.want)
		}
	}
	// Gemini's PowerShell form for another event is not install's either.
	if got := gemini.altered("AfterTool", nil, obj("type", "command", "command", gm, "timeout", json.Number("600000"))); got != `it runs 'hook gemini BeforeTool'` {
		t.Errorf("gemini's BeforeTool line under AfterTool: %q", got)
	}
	// Install writes an altered entry again, as install writes it.
	doc := pyjson.OrderedObject{{Key: "hooks", Value: pyjson.OrderedObject{{Key: "PreToolUse", Value: []any{
		pyjson.OrderedObject{{Key: "hooks", Value: []any{obj("type", "command", "command", ps, "timeout", to)}}}}}}}}
	out, changed, err := qwen.Install(doc, func(ev string) string { c, _ := qwen.HookCommandOn("windows", "", ev); return c })
	if err != nil || !changed {
		t.Fatalf("%v %v", changed, err)
	}
	if h := firstHandler(t, out, "PreToolUse"); get(h, "shell") != "powershell" || len(qwen.Entries(out)) != len(qwen.HookFile.Events) {
		t.Errorf("rewritten: %v", h)
	}
}

// TestQwenEntryShell: FileEntry.Shell is the shell Qwen runs the handler
// with as it reads "shell" (getShellConfigForHook): "powershell" for that
// value, bash for any other truthy one, Qwen's default for a falsy one.
// An agent without the key has none.
func TestQwenEntryShell(t *testing.T) {
	qwen, _ := Lookup("qwen")
	for v, want := range map[any]string{"powershell": "powershell", "bash": "bash", "pwsh": "bash", true: "bash", json.Number("1"): "bash",
		"": "", false: "", json.Number("0"): "", nil: ""} {
		if got := qwen.commandShellOf(obj("type", "command", "command", "x", "shell", v)); got != want {
			t.Errorf("shell %#v: %q, want %q", v, got, want)
		}
	}
	if got := qwen.commandShellOf(obj("type", "command", "command", "x")); got != "" {
		t.Errorf("no shell: %q", got)
	}
	if got := gemini.commandShellOf(obj("type", "command", "command", "x", "shell", "powershell")); got != "" {
		t.Errorf("gemini: %q", got)
	}
}

func obj(kv ...any) pyjson.OrderedObject {
	var o pyjson.OrderedObject
	for i := 0; i < len(kv); i += 2 {
		o = append(o, pyjson.Member{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}

func memberKeys(o pyjson.OrderedObject) []string {
	var keys []string
	for _, m := range o {
		keys = append(keys, m.Key)
	}
	return keys
}
