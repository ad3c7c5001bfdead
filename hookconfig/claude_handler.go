package hookconfig

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Claude Code handler types beyond "command".
const (
	TypeCommand = "command"
	TypeHTTP    = "http"
)

// parseClaudeHandler reads one Claude Code handler — from a settings file or
// a Claude group pasted into the YAML — into an entry: a command (shell form,
// or exec form with args), an http endpoint, or a handler type that needs a
// model or an MCP client (prompt, agent, mcp_tool). Those are kept, marked
// Unsupported, so that list shows them and a PreToolUse guard among them is
// never skipped silently. matcher is the group's.
func (cfg *Config) parseClaudeHandler(ev *protocol.Event, name, path string, index int, h *yaml.Node, matcher, source string) *Entry {
	typ := TypeCommand
	if t := pyyaml.MappingGet(h, "type"); t != nil {
		if t.Kind != yaml.ScalarNode || t.Tag != "!!str" {
			cfg.warn(path, ".type must be a string; skipped")
			return nil
		}
		typ = t.Value
	}
	hp, h, ok := cfg.handlerParts(typ, path, h)
	if !ok {
		return nil
	}
	args, url, unsupported, headers, allowedEnv := hp.args, hp.url, hp.unsupported, hp.headers, hp.allowedEnv
	if pyyaml.MappingGet(h, "matcher") == nil && matcher != "" {
		h = pyyaml.WithMapping(h, "matcher", matcher)
	}
	e := cfg.parseEntry(ev, name, path, index, h, protocol.Claude, source)
	if e == nil {
		return nil
	}
	e.Type, e.URL, e.Headers, e.AllowedEnvVars, e.Unsupported = typ, url, headers, allowedEnv, unsupported
	if unsupported != "" {
		cfg.warnUnsupported(path, typ, unsupported)
	}
	if args != nil {
		// Exec form: the program and its arguments, no shell. The approval
		// is of the whole argument vector, so it is keyed by it.
		e.Args = append([]string{e.Command}, args...)
		e.Command = shellJoin(e.Args)
	}
	if sh, _ := strOf(h, "shell"); (sh == "bash" || sh == "powershell") && args == nil {
		// powershell: pwsh, else powershell.exe (internal/cmdpin), as
		// Claude Code runs it.
		e.Shell = sh
	}
	b := func(key string) bool {
		v, ok := pyyaml.Bool(mappingGetOr(h, key))
		return ok && v
	}
	e.Async, e.AsyncRewake, e.Once = b("async"), b("asyncRewake"), b("once")
	if e.AsyncRewake {
		e.Async = true
	}
	if cond := pyyaml.MappingGet(h, "if"); cond != nil {
		if v, ok := strOf(h, "if"); ok && strings.TrimSpace(v) != "" {
			e.If = strings.TrimSpace(v)
		} else {
			cfg.warn(path, ".if must be a permission rule string such as \"Bash(git *)\"; the handler never runs")
			e.If = "\x00invalid"
		}
		if !ev.IfRule {
			cfg.warn(path, ".if only applies to tool events; on "+ev.ClaudeName()+" the handler never runs, as in Claude Code")
		}
		e.CompileIf()
		if e.ifBroken != "" {
			cfg.warn(path, ".if: "+e.ifBroken+"; on PreToolUse the handler blocks every call it would have filtered, rather than be skipped")
		}
	}
	if e.FailClosed && (e.Async || (ev.Can(protocol.CapContinue) && !ev.Can(protocol.CapBlock))) {
		// Claude Code's onFailure: block does not apply to stop hooks (a
		// failing stop hook must not keep the agent going) nor to async
		// hooks (nothing is waiting for them).
		cfg.warn(path, " fail_closed / onFailure: block is ignored on async and stop hooks, as in Claude Code")
		e.FailClosed = false
	}
	if e.Async && e.Unsupported == "" && typ == TypeHTTP {
		e.Async = false
		cfg.warn(path, ".async is ignored on http handlers; it runs synchronously")
	}
	return e
}

// handlerParts is what a Claude Code handler's type makes of it: the exec
// form's arguments, an http handler's URL, headers and allowed variables,
// or why it cannot run here.
type handlerParts struct {
	args        []string
	url         string
	unsupported string
	headers     map[string]string
	allowedEnv  []string
}

// handlerParts reads the parts of handler h of type typ, and h with the
// command an entry is keyed by (an http handler's URL …); ok is false for
// a handler that is skipped, with its warning.
func (cfg *Config) handlerParts(typ, path string, h *yaml.Node) (handlerParts, *yaml.Node, bool) {
	var p handlerParts
	switch typ {
	case TypeCommand:
		if a := pyyaml.MappingGet(h, "args"); a != nil {
			if a.Kind != yaml.SequenceNode {
				cfg.warn(path, ".args must be a list of strings; skipped")
				return p, h, false
			}
			p.args = []string{}
			for _, item := range a.Content {
				if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || item.Kind == yaml.MappingNode {
					cfg.warn(path, ".args must be a list of strings; skipped")
					return p, h, false
				}
				p.args = append(p.args, item.Value)
			}
		}
		if sh, ok := strOf(h, "shell"); ok && sh != "" && sh != "bash" && sh != "sh" && sh != "powershell" {
			p.unsupported = "a " + sh + " shell command (only bash, sh and powershell run here)"
		}
	case TypeHTTP:
		url, ok := strOf(h, "url")
		if !ok || strings.TrimSpace(url) == "" {
			cfg.warn(path, " is an http handler without a 'url'; skipped")
			return p, h, false
		}
		p.url = strings.TrimSpace(url)
		if hn := pyyaml.MappingGet(h, "headers"); hn != nil && hn.Kind == yaml.MappingNode {
			p.headers = map[string]string{}
			for i := 0; i+1 < len(hn.Content); i += 2 {
				p.headers[hn.Content[i].Value] = hn.Content[i+1].Value
			}
		}
		if an := pyyaml.MappingGet(h, "allowedEnvVars"); an != nil && an.Kind == yaml.SequenceNode {
			for _, item := range an.Content {
				p.allowedEnv = append(p.allowedEnv, item.Value)
			}
		}
		h = pyyaml.WithMapping(h, "command", p.url)
	case "prompt", "agent":
		prompt, _ := strOf(h, "prompt")
		p.unsupported = "a " + typ + " handler: it needs a model"
		h = pyyaml.WithMapping(h, "command", typ+": "+protocol.Truncate(strings.Join(strings.Fields(prompt), " "), 60))
	case "mcp_tool":
		server, _ := strOf(h, "server")
		tool, _ := strOf(h, "tool")
		p.unsupported = "an mcp_tool handler: it needs an MCP client"
		h = pyyaml.WithMapping(h, "command", "mcp_tool: "+server+"/"+tool)
	default:
		cfg.warn(path, " has unknown type '"+typ+"'; skipped")
		return p, h, false
	}
	return p, h, true
}

// warnUnsupported reports a handler that cannot run here (why), and what
// becomes of it: a guard among such handlers is never skipped silently.
func (cfg *Config) warnUnsupported(path, typ, why string) {
	cfg.warn(path, " has type '"+typ+"': "+why+", so it cannot run here; once approved it blocks PreToolUse calls rather than let a guard be skipped, and is skipped on other events")
}

// mappingGetOr is mappingGet with a null node for a missing key.
func mappingGetOr(n *yaml.Node, key string) *yaml.Node {
	if v := pyyaml.MappingGet(n, key); v != nil {
		return v
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
}

// shellJoin quotes words so that the string reads (and splits) back into
// them: the consent key of an exec-form command.
func shellJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`!*?[](){}<>|&;#~") {
			b.WriteString(w)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

// strOf is the string value of key in mapping h ("", false: none, or not a
// string).
func strOf(h *yaml.Node, key string) (string, bool) {
	n := pyyaml.MappingGet(h, key)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return "", false
	}
	return n.Value, true
}
