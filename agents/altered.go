package agents

import (
	"encoding/json"
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// An entry of ours is its command line and what surrounds it: the
// handler's other keys and, in a Grouped file, its group. A file can keep
// our command line and change the rest so that the agent no longer runs it
// as a guard: a matcher no tool has on the group, "async": true (Claude
// Code does not wait), a timeout of one second (the call goes on without
// the answer), "once", an "if" rule, another "type". Install writes an
// entry again when it is not as install writes it, and doctor says so
// rather than that it fires.

// altered says why h, a handler of ours for event (the agent's name for
// it) in group (nil in a Flat file), is not as Install writes it; "" when
// it is. The handler holds only the keys Install writes ("type":
// "command" where the file is typed, "command", the Windows key, Extra
// with at least its timeouts) and shownOnly ones, the group only "hooks",
// and the command line, and the Windows one, name event when they name
// one; the Windows line is a line of ours for the agent's Windows shell.
func (a *Agent) altered(event string, group, h pyjson.OrderedObject) string {
	for _, m := range group {
		if m.Key != "hooks" {
			return fmt.Sprintf("its group has %q", m.Key)
		}
	}
	want := map[string]any{"command": nil}
	if a.HookFile.Layout == Grouped || a.HookFile.Typed {
		want["type"] = "command"
	}
	if a.HookFile.WindowsKey != "" {
		want[a.HookFile.WindowsKey] = nil
	}
	c, _ := get(h, "command").(string)
	if sh := a.commandShellFor(c); sh != "" {
		// The shell the form needs: without it the agent runs the line
		// with another, where it fails and lets the call through.
		want[a.HookFile.CommandShellKey] = sh
	}
	extra, ok := a.HookFile.EventExtra[event]
	if !ok {
		extra = a.HookFile.Extra
	}
	for _, m := range extra {
		want[m.Key] = m.Value
	}
	for _, m := range h {
		if shownOnly[m.Key] {
			continue
		}
		w, known := want[m.Key]
		if !known || !sameOrMore(m.Value, w) {
			return fmt.Sprintf("it has %q", m.Key)
		}
	}
	for k, w := range want {
		if _, ok := h.Get(k); !ok && w != nil {
			return fmt.Sprintf("it has no %q", k)
		}
	}
	if why := a.windowsAltered(event, h); why != "" {
		return why
	}
	return otherEvent(event, c)
}

// windowsAltered says why h's Windows command (HookFile.WindowsKey), where
// it has one, is not a line install writes for event: not a string, not
// a form of ours in the agent's Windows shell, for another agent, or for
// another event. On Windows the agent runs that line in place of
// "command": an entry whose "command" is ours but whose Windows line runs
// something else guards nothing there, and is written again by install.
// The older forms ownWindowsForms still knows stay ours.
func (a *Agent) windowsAltered(event string, h pyjson.OrderedObject) string {
	key := a.HookFile.WindowsKey
	v, ok := h.Get(key)
	if key == "" || !ok {
		return ""
	}
	s, isString := v.(string)
	if !isString {
		return fmt.Sprintf("its %q is not a command line", key)
	}
	l, own := parseOwnWindows(s, false)
	if !own || l.ps != (a.HookFile.WindowsShell == PowerShell) || l.agent != a.Name {
		return fmt.Sprintf("its %q is not a line of ours", key)
	}
	if l.event != "" && l.event != event {
		return fmt.Sprintf("its %q runs 'hook %s %s'", key, l.agent, l.event)
	}
	return ""
}

// shownOnly are the keys of a handler that only change what the agent
// shows while it runs (Claude Code's statusMessage, a description): one a
// user added to an entry of ours leaves it guarding, and is kept.
var shownOnly = map[string]bool{"statusMessage": true, "description": true}

// otherEvent says which event command, a line of ours (the POSIX form, or
// the PowerShell one an agent runs "command" with on Windows), runs 'hook'
// for when that is not event ("" when it is, or names none).
func otherEvent(event, command string) string {
	l, ok := parseOwn(command)
	if !ok {
		var w winLine
		w, ok = parseOwnWindows(command, true)
		l = w.ownLine
	}
	if ok && l.event != "" && l.event != event {
		return fmt.Sprintf("it runs 'hook %s %s'", l.agent, l.event)
	}
	return ""
}

// ScriptAltered is why the script of event in a Scripts folder, whose
// command line is command (ScriptCommand), is not as install writes it:
// it names another event ("" when it does not).
func ScriptAltered(event, command string) string { return otherEvent(event, command) }

// sameOrMore reports whether v, a value read from the file, is want (nil:
// anything), or for a number at least want: a timeout raised by hand
// still gives the hook its time.
func sameOrMore(v, want any) bool {
	switch w := want.(type) {
	case nil:
		return true
	case int64:
		switch n := v.(type) {
		case json.Number:
			i, err := n.Int64()
			return err == nil && i >= w
		case int64:
			return n >= w
		}
		return false
	}
	return v == want
}
