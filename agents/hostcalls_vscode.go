package agents

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// How VS Code reads a Copilot hook file (.github/hooks/*.json,
// ~/.copilot/hooks), for OwnPrograms; facts and sources in
// docs/agent-protocols.md ("VS Code agent hooks"). A repository writes
// that file, so anything it could say to make VS Code run something other
// than our plain line, or our line in another way, must make the reader
// say "not ours" (the hooks then run in both calls: twice at worst):
//
//   - JSON, a repeated key's last value winning (JavaScript's objects),
//     and strictly: a file Go's decoder refuses (comments, NaN, a byte
//     order mark) is not read at all;
//   - the handler's command on this system is the per-OS member (windows,
//     linux, osx), else bash (Linux, macOS) or powershell (Windows), else
//     command — each only as a non-empty string;
//   - a handler runs only with "type": "command";
//   - env, cwd or any member install does not write changes how the line
//     runs (HERMES_SAFE_MODE, HERMES_HOME, PATH …) or is one VS Code may
//     read tomorrow: not ours;
//   - a timeout (timeout, else timeoutSec, else VS Code's 30 s) shorter
//     than install's lets VS Code give up on the guards: not ours;
//   - the event's key exactly as install writes it, and no key but those
//     install writes: VS Code resolves other spellings its own way
//     (preToolUse is PreToolUse too), and of two keys for one event the
//     later one's hooks replace the earlier one's;
//   - the line naming that event and at least install's deadline.

// vscodeHandlerKeys are the members a handler of ours may hold: those
// install writes and the per-OS overrides, read below.
var vscodeHandlerKeys = map[string]bool{
	"type": true, "command": true, "windows": true, "linux": true, "osx": true,
	"bash": true, "powershell": true, "timeout": true, "timeoutSec": true,
}

// vscodeDefaultTimeout is VS Code's deadline for a handler that names none.
const vscodeDefaultTimeout = 30 * time.Second

// vscodeOwnLines is OwnPrograms on the system goos (GOOS's spelling).
func (a *Agent) vscodeOwnLines(data []byte, ev *protocol.Event, goos string) []string {
	key := a.installKey(ev)
	if key == "" || a.HookFile.Layout != Flat {
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil
	}
	doc, _ := v.(map[string]any)
	if !a.plainTop(doc) {
		return nil
	}
	hooks, _ := doc["hooks"].(map[string]any)
	for k := range hooks {
		// VS Code also maps Copilot CLI's names (preToolUse) onto its
		// events, and one key's hooks replace another's for the same
		// event: only the names install writes, each its own event.
		if !slices.Contains(a.HookFile.Events, k) {
			return nil
		}
	}
	list, _ := hooks[key].([]any)
	want := a.Timeout(key)
	var out []string
	for _, item := range list {
		h, _ := item.(map[string]any)
		if exe, ok := a.vscodeOwnHandler(h, key, want, goos); ok {
			out = append(out, exe)
		}
	}
	return out
}

// installKey is the name install writes ev under in a's file ("" when it
// writes none).
func (a *Agent) installKey(ev *protocol.Event) string {
	for _, n := range a.HookFile.Events {
		if e, ok := a.Canonical(n); ok && e == ev {
			return n
		}
	}
	return ""
}

// plainTop reports whether doc's members are only "hooks" and those
// install starts a file with ("version": 1, HookFile.Init), at their
// values: a switch beside them (disableAllHooks) may turn the file off.
func (a *Agent) plainTop(doc map[string]any) bool {
	if doc == nil {
		return false
	}
	init := a.HookFile.Init
	if !a.HookFile.NoVersion {
		init = append([]pyjson.Member{{Key: "version", Value: int64(1)}}, init...)
	}
	if len(doc) != len(init)+1 {
		return false
	}
	if _, ok := doc["hooks"]; !ok {
		return false
	}
	for _, m := range init {
		got, ok := doc[m.Key]
		if !ok {
			return false
		}
		g, err1 := json.Marshal(got)
		w, err2 := json.Marshal(m.Value)
		if err1 != nil || err2 != nil || !bytes.Equal(g, w) {
			return false
		}
	}
	return true
}

// vscodeOwnHandler is the program handler h runs when VS Code runs it on
// goos as one of our lines for key with at least want to answer; ok false
// for anything else.
func (a *Agent) vscodeOwnHandler(h map[string]any, key string, want time.Duration, goos string) (string, bool) {
	if h == nil || h["type"] != "command" {
		return "", false
	}
	for k := range h {
		if !vscodeHandlerKeys[k] {
			return "", false
		}
	}
	if vscodeTimeout(h) < want.Seconds() {
		return "", false
	}
	l, ok := parseOwnOn(vscodeCommand(h, goos), goos)
	if !ok || l.agent != a.Name || l.event != key {
		return "", false
	}
	if s, err := strconv.ParseFloat(l.secs, 64); err != nil || s < want.Seconds() {
		return "", false
	}
	if l.exe == "" {
		return ProgramName, true // looked up on PATH
	}
	return l.exe, true
}

// parseOwnOn reads line as one install writes for VS Code to run on goos:
// PowerShell's form on Windows (where VS Code runs a handler through
// PowerShell), the POSIX one elsewhere.
func parseOwnOn(line, goos string) (ownLine, bool) {
	if goos != "windows" {
		return parseOwn(line)
	}
	l, ok := parseOwnWindows(line, true)
	return l.ownLine, ok
}

// vscodeCommand is the command VS Code runs for h on goos ("" for none).
func vscodeCommand(h map[string]any, goos string) string {
	str := func(k string) string { s, _ := h[k].(string); return s }
	var own, shell string
	switch goos {
	case "windows":
		own, shell = str("windows"), str("powershell")
	case "darwin":
		own, shell = str("osx"), str("bash")
	default: // VS Code counts every other system as Linux
		own, shell = str("linux"), str("bash")
	}
	switch {
	case own != "":
		return own
	case shell != "":
		return shell
	}
	return str("command")
}

// vscodeTimeout is how long VS Code waits for h, in seconds (compared as
// such: a huge number would overflow a Duration).
func vscodeTimeout(h map[string]any) float64 {
	for _, k := range []string{"timeout", "timeoutSec"} {
		if n, ok := h[k].(float64); ok {
			return n
		}
	}
	return vscodeDefaultTimeout.Seconds()
}

// ChoosesFiles reports whether data, one of h's FileSettings, may set
// FileSetting: when in doubt, yes. A settings file is JSON with comments
// in which a key may be nested ("chat": {"hookFilesLocations": …}) or
// spelt with \u escapes, so it is searched, not parsed: the setting's last
// word in any case, or any \u escape at all, is enough.
func (h *Host) ChoosesFiles(data []byte) bool {
	if h.FileSetting == "" {
		return false
	}
	word := h.FileSetting[strings.LastIndexByte(h.FileSetting, '.')+1:]
	return bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(word))) || bytes.Contains(data, []byte(`\u`))
}
