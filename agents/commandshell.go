package agents

import "github.com/hermes-hooks/hermes-hooks/internal/pyjson"

// An agent whose hook "command" runs through PowerShell on Windows only
// where the handler says so (HookFile.CommandShellKey: Qwen Code's
// "shell": "powershell") needs that key beside the PowerShell form install
// writes there, and must not have it beside the POSIX form: the key, not
// the system, picks the shell. These keep the key in step with the form.

// powerShellValue is the value of HookFile.CommandShellKey that runs
// "command" with PowerShell (Qwen Code's getShellConfigForHook: exactly
// "powershell"; it runs powershell -Command on every system).
const powerShellValue = "powershell"

// commandShellFor is what HookFile.CommandShellKey holds beside command,
// a line install writes: "powershell" beside the PowerShell form; ""
// (no key) beside the POSIX one, or for an agent without the key.
func (a *Agent) commandShellFor(command string) string {
	if a.HookFile.CommandShellKey == "" || a.HookFile.CommandShellWindows != PowerShell {
		return ""
	}
	if _, ps := ownWindows(command, true); ps {
		return powerShellValue
	}
	return ""
}

// withCommandShell is h with HookFile.CommandShellKey as install writes it
// beside command (commandShellFor): set right after "command", or taken
// out. ok false when h already had it so.
func (a *Agent) withCommandShell(h pyjson.OrderedObject, command string) (pyjson.OrderedObject, bool) {
	key := a.HookFile.CommandShellKey
	if key == "" {
		return h, false
	}
	want := a.commandShellFor(command)
	v, has := h.Get(key)
	switch {
	case want == "" && has:
		return h.Delete(key), true
	case want == "" || has && v == want:
		return h, false
	case has:
		return h.Set(key, want), true
	}
	out := make(pyjson.OrderedObject, 0, len(h)+1)
	for _, m := range h {
		out = append(out, m)
		if m.Key == "command" {
			out = append(out, pyjson.Member{Key: key, Value: want})
		}
	}
	return out, true
}

// commandShellOf is the shell h's HookFile.CommandShellKey makes the
// agent run "command" with, as Qwen Code reads "shell"
// (getShellConfigForHook): "powershell" for exactly that value, "bash"
// for any other truthy one, "" (the agent's own shell) for none or a
// falsy one, and for an agent without the key.
func (a *Agent) commandShellOf(h pyjson.OrderedObject) string {
	key := a.HookFile.CommandShellKey
	if key == "" {
		return ""
	}
	v, _ := h.Get(key)
	switch {
	case v == powerShellValue:
		return powerShellValue
	case pyjson.Truthy(v):
		return "bash"
	}
	return ""
}
