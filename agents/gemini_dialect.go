package agents

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pattern"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Gemini CLI's settings.json as a hook source. The file has Claude Code's
// shape, but its scripts speak Gemini's protocol: they read Gemini's event
// and tool names and reply {"decision": "deny"}, which Claude Code's
// protocol would refuse as invalid — a guard skipped. So the entries keep
// Claude's shape (geminiHandler, geminiMatcher) and run with Gemini's
// payload and reply rules (geminiCodec), as Gemini CLI 0.61 runs them.

// geminiDocument takes out what Gemini CLI does not run: every hook when
// hooksConfig.enabled is false, and those hooksConfig.disabled names (a
// hook's name, else its command). The keys Gemini skips inside "hooks"
// (enabled, disabled, notifications: an older place of hooksConfig) go
// too, rather than be reported as unknown events. root is not modified.
func geminiDocument(root map[string]any, warn func(path, msg string)) map[string]any {
	hooks, ok := root["hooks"].(map[string]any)
	if !ok {
		return root
	}
	out := make(map[string]any, len(root))
	for k, v := range root {
		out[k] = v
	}
	cfg, _ := root["hooksConfig"].(map[string]any)
	// Off as Gemini CLI reads it (false, "false" in any case, 0, ""), the
	// reading doctor's switch check makes (geminiEnabledValues).
	if on := geminiEnabledValues(root); on != nil && !on["enabled"] {
		warn("hooksConfig.enabled", "is "+string(pyjson.Encode(cfg["enabled"], pyjson.Compact))+": Gemini CLI runs no hooks, so none of this file's are read")
		delete(out, "hooks")
		return out
	}
	disabled := map[string]bool{}
	if list, ok := cfg["disabled"].([]any); ok {
		for _, v := range list {
			if s, ok := v.(string); ok {
				disabled[s] = true
			}
		}
	}
	kept := make(map[string]any, len(hooks))
	for event, v := range hooks {
		switch event {
		case "enabled", "disabled", "notifications":
			continue
		}
		kept[event] = v
		groups, ok := v.([]any)
		if !ok || len(disabled) == 0 {
			continue
		}
		kept[event] = withoutDisabled(event, groups, disabled, warn)
	}
	out["hooks"] = kept
	return out
}

// geminiDisabled marks a hook hooksConfig disables (geminiDocument said
// so): geminiHandler skips it without another word.
const geminiDisabled = "hermes-hooks: disabled by hooksConfig"

// withoutDisabled is an event's groups with the hooks hooksConfig
// disables marked geminiDisabled.
func withoutDisabled(event string, groups []any, disabled map[string]bool, warn func(path, msg string)) []any {
	out := make([]any, 0, len(groups))
	for gi, g := range groups {
		group, ok := g.(map[string]any)
		handlers, isList := group["hooks"].([]any)
		if !ok || !isList {
			out = append(out, g)
			continue
		}
		var keep []any
		for hi, h := range handlers {
			hm, _ := h.(map[string]any)
			name, _ := hm["name"].(string)
			if name == "" {
				name, _ = hm["command"].(string)
			}
			if name != "" && disabled[name] {
				warn("hooks."+event+"["+strconv.Itoa(gi)+"].hooks["+strconv.Itoa(hi)+"]", "is disabled by hooksConfig.disabled; skipped, as in Gemini CLI")
				// Kept in its place, marked: the later hooks keep their
				// index in messages; geminiHandler drops it.
				h = map[string]any{geminiDisabled: true}
			}
			keep = append(keep, h)
		}
		ng := make(map[string]any, len(group))
		for k, v := range group {
			ng[k] = v
		}
		ng["hooks"] = keep
		out = append(out, ng)
	}
	return out
}

// geminiHandler turns a Gemini CLI hook into the Claude Code handler that
// runs the same command: type and command as they are, timeout from
// milliseconds to seconds (Gemini's default, 60 s, when it has none). A
// hook without a type is one Gemini discards (nil: skipped). name and
// description only label it; env is read by geminiEnv; any
// other key is dropped, as Gemini ignores it (a Claude key such as async
// or if must not change how a Gemini hook runs).
func geminiHandler(_ string, h map[string]any, warn func(string)) map[string]any {
	if _, off := h[geminiDisabled]; off {
		return nil
	}
	typ, present := h["type"]
	if !present || typ == nil || typ == "" {
		warn(" has no type: Gemini CLI discards such a hook; skipped")
		return nil
	}
	out := map[string]any{"type": typ}
	if c, ok := h["command"]; ok {
		out["command"] = c
	}
	out["timeout"] = json.Number("60")
	if t, ok := h["timeout"]; ok && t != nil {
		out["timeout"] = t // not a number: the Claude reading warns
		if n, isNum := t.(json.Number); isNum {
			if ms, err := n.Float64(); err == nil {
				if ms < 1000 {
					warn(".timeout is " + n.String() + " ms; hermes-hooks gives a hook 1 s at least")
					ms = 1000
				}
				out["timeout"] = json.Number(strconv.FormatFloat(ms/1000, 'f', -1, 64))
			}
		}
	}
	// Gemini CLI has no fail-closed key; neither has its file here (only
	// the keys above are read). An author who wrote one believes the guard
	// refuses when it fails: say it does not, rather than drop it in
	// silence and let a failing guard's call through.
	for _, k := range []string{"fail_closed", "failClosed", "onFailure"} {
		if _, ok := h[k]; ok {
			warn("." + k + " is ignored: Gemini CLI has no such key, and a Gemini settings file's hooks cannot fail closed (a guard that must: list it in hermes-hooks' config with fail_closed: true)")
		}
	}
	return out
}

// geminiTriggerEvents are the Gemini events whose matcher is compared,
// exactly, with the firing's trigger (its source, reason or trigger
// field); tool events compare it with the tool's name as a regular
// expression, and Gemini ignores it on the others.
var geminiTriggerEvents = map[string]bool{"SessionStart": true, "SessionEnd": true, "PreCompress": true}

// geminiMatcher reads a Gemini matcher as a Claude Code one compared with
// what Gemini compares it with (geminiCodec.MatchSubject): on tool events
// an unanchored JavaScript regex — also when it looks like a list of
// names, which Claude's rule would take as exact names — or, when it is
// not a valid regex, the exact name; on trigger events the exact string.
func geminiMatcher(event, m string) string {
	m = strings.TrimSpace(m)
	if m == "" || m == "*" {
		return m
	}
	exact := func() string { return "^" + regexp.QuoteMeta(m) + "$" }
	switch {
	case geminiTriggerEvents[event]:
		if protocol.IsClaudeNameList(m) && !strings.ContainsAny(m, "|, ") {
			return m // one name: exact under Claude's rule too
		}
		return exact()
	case event == "BeforeTool" || event == "AfterTool":
		if _, err := pattern.CompileJS(m); err != nil {
			return exact() // Gemini then compares the names
		}
		if protocol.IsClaudeNameList(m) {
			return "(?:" + m + ")"
		}
	}
	return m
}

// geminiCodec is Gemini CLI 0.61's hook protocol seen from the other side:
// what it sends its hooks and how it reads them (hookRunner,
// hookAggregator, the tool scheduler), for the hooks of its settings files
// run by hermes-hooks.
type geminiCodec struct{}

func (geminiCodec) Dialect() protocol.Dialect { return "gemini" }

func (geminiCodec) ProjectVars() []string {
	// Gemini sets all three to the session's directory, Claude's name for
	// the scripts written for Claude Code.
	return []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"}
}

func (geminiCodec) MatchSubject(declared string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	switch {
	case declared == "BeforeTool" || declared == "AfterTool":
		name, _ := fields["tool_name"].(string)
		return GeminiToolName(name, tools), true
	case geminiTriggerEvents[declared]:
		return protocol.ClaudeMatchQuery(ev, fields, tools)
	}
	return "", false
}
