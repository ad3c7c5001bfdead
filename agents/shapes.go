package agents

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Some host tools take their file, patch or URL in a shape of their own:
// Kiro's fs_read batches its paths in operations, VS Code says filePath,
// Copilot CLI and Factory Droid send apply_patch's envelope as the input
// itself, Gemini CLI's web_fetch reads its URLs out of a prompt. A guard
// reads the canonical shape (file_path, paths, patch, url and urls), so
// read as sent each of these reached every path, patch and web guard as a
// call without one — and went through. A toolShape shows such a call in
// the canonical shape too, and takes a rewritten call back to the host's
// shape, or says the host cannot run it.

// A toolShape is one host tool's input as guards read it.
type toolShape struct {
	// args is the input with its canonical arguments added (a map of its
	// own; input is not modified).
	args func(input any) map[string]any
	// back is a rewritten call's arguments in the host's input, given
	// what the host sent; false when the host's input cannot say them.
	back func(args map[string]any, sent any) (map[string]any, bool)
}

// shapeOf is the shape of the tool c's host called, and the input it sent.
func (c *Call) shapeOf() (toolShape, any, bool) {
	shapes := c.Agent.shapes
	if c.Host != nil {
		shapes = c.Host.shapes
	}
	tool, _ := firstPresent(c.Sent, "tool_name", "toolName").(string)
	s, ok := shapes[tool]
	return s, firstPresent(c.Sent, "tool_input", "toolArgs"), ok && c.Event != nil && c.Event.Tool
}

// hostArgs is the outcome with its rewritten arguments in the host's
// input shape. A rewrite the host's input cannot carry, or one whose
// canonical arguments say other than what the host would then run (a hook
// that rewrote paths, not the replacements they come from), is refused:
// the guards judged the arguments, and the host would run something else.
func hostArgs(c *Call, o *protocol.Outcome, title string) *protocol.Outcome {
	if o.Args == nil || o.Decision == protocol.DecisionBlock {
		return o
	}
	s, sent, ok := c.shapeOf()
	if !ok {
		return o
	}
	out := *o
	host, ok := s.back(o.Args, sent)
	if !ok {
		out.Decision, out.Message, out.Args = protocol.DecisionBlock, rewriteRefusal(c, title, o), nil
		return &out
	}
	var stale []string
	for k, v := range s.args(host) {
		// mode says which of Hermes' patch modes: no guard's question.
		if k != "mode" && !reflect.DeepEqual(o.Args[k], v) {
			stale = append(stale, k)
		}
	}
	if len(stale) > 0 {
		sort.Strings(stale)
		out.Decision, out.Args = protocol.DecisionBlock, nil
		c.refuses(title + " would run other arguments than the guards judged of a rewritten call; this call is refused")
		out.Message = "hermes-hooks: a hook rewrote this call, and what the guards judged of it (" + strings.Join(stale, ", ") +
			") is not what " + title + " would run from it: it is refused. Rewrite the arguments " + title + " reads, and those the guards read to match"
		return &out
	}
	out.Args = host
	return &out
}

// objectInput is a tool's input as a map of its own: an object, or the
// JSON text of one; anything else is empty.
func objectInput(input any) map[string]any {
	if m, ok := jsonObject(input).(map[string]any); ok {
		return maps.Clone(m)
	}
	return map[string]any{}
}

// patchShape is apply_patch's: the envelope as the input itself, as its
// "input" (Copilot CLI, Factory Droid, VS Code) or as "patch"; shown as
// Hermes' patch mode, {mode: "patch", patch}, as Codex's apply_patch is.
// A rewrite goes back under the name the envelope came in; an envelope
// sent as the bare input cannot come back in an object, and is refused.
var patchShape = toolShape{
	args: func(input any) map[string]any {
		if s, ok := input.(string); ok && !isObjectText(s) {
			return map[string]any{"mode": "patch", "patch": s}
		}
		args := objectInput(input)
		if p, ok := args["input"].(string); ok {
			// What the host applies is its input: a "patch" beside it
			// (the model's) must not stand for it.
			args["patch"], args["mode"] = p, "patch"
		}
		return args
	},
	back: func(args map[string]any, sent any) (map[string]any, bool) {
		if s, ok := sent.(string); ok && !isObjectText(s) {
			return nil, false
		}
		in := objectInput(sent)
		if _, ok := in["input"].(string); !ok {
			return args, true
		}
		out := withoutAdded(args, in, "patch", "mode")
		out["input"] = args["patch"]
		return out, true
	},
}

// isObjectText says whether s is the JSON text of an object.
func isObjectText(s string) bool {
	d, err := pyjson.Decode([]byte(s))
	_, ok := d.(map[string]any)
	return ok && err == nil
}

// withoutAdded is args without those of keys the host did not send.
func withoutAdded(args, sent map[string]any, keys ...string) map[string]any {
	out := maps.Clone(args)
	for _, k := range keys {
		if _, ok := sent[k]; !ok {
			delete(out, k)
		}
	}
	return out
}

// pathsShape is a tool that names several files, each where pathsOf
// finds them: shown with paths, every one in order, and with file_path
// when they are one file. A rewrite goes back without the two; a hook
// that rewrote them and not the host's own keys is refused (hostArgs).
func pathsShape(pathsOf func(in map[string]any) []any, twins [][2]string) toolShape {
	return toolShape{
		args: func(input any) map[string]any {
			args := objectInput(input)
			showTwins(args, twins)
			paths := pathsOf(args)
			if paths == nil {
				return args
			}
			args["paths"] = paths
			if one, ok := onePath(paths); ok {
				args["file_path"] = one
			}
			return args
		},
		back: func(args map[string]any, sent any) (map[string]any, bool) {
			in := objectInput(sent)
			out := withoutAdded(args, in, "paths", "file_path")
			for _, t := range twins {
				if _, host := in[t[0]]; host {
					if _, claude := in[t[1]]; !claude {
						out[t[0]] = args[t[1]]
						delete(out, t[1])
					}
				}
			}
			return out, true
		},
	}
}

// showTwins sets, for each pair of twins (the host's name of an argument,
// then Claude Code's) the host names in args, the value under Claude
// Code's name too. The host acts on its own keys: a Claude Code name the
// model put beside them must not stand for them (with alias's "only if
// absent", Droid's Edit {new_str: KEY, new_string: "ok"} showed a secrets
// guard "ok" and wrote KEY).
func showTwins(args map[string]any, twins [][2]string) {
	for _, t := range twins {
		if v, ok := args[t[0]]; ok {
			args[t[1]] = v
		}
	}
}

// onePath is the path when every one of paths is the same string.
func onePath(paths []any) (any, bool) {
	if len(paths) == 0 {
		return nil, false
	}
	for _, p := range paths[1:] {
		if p != paths[0] {
			return nil, false
		}
	}
	_, ok := paths[0].(string)
	return paths[0], ok
}

// listed is the values under key of each object in list, and each string
// of the list under key2 in them (key2 "" for none).
func listed(list any, key, key2 string) []any {
	items, _ := list.([]any)
	out := []any{}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		if v, ok := m[key]; ok {
			out = append(out, v)
		}
		if more, ok := m[key2].([]any); ok && key2 != "" {
			out = append(out, more...)
		}
	}
	return out
}

// promptShape is Gemini CLI's web_fetch, which fetches its url, or the
// URLs its prompt holds: shown with urls, the url and then each word of
// the prompt that holds "://" (Gemini splits the prompt at white space and
// fetches each word a URL parser takes: a word is taken whole, so that a
// quote or bracket inside it cannot hide the host a parser reads), and
// url when there is one. A rewrite goes back without them, and a hook
// that rewrote them and not the prompt is refused (hostArgs).
var promptShape = toolShape{
	args: func(input any) map[string]any {
		args := objectInput(input)
		urls := []any{}
		if u, ok := args["url"].(string); ok {
			urls = append(urls, u)
		}
		prompt, _ := args["prompt"].(string)
		for _, w := range strings.FieldsFunc(prompt, jsSpace) {
			if strings.Contains(w, "://") {
				urls = append(urls, w)
				// A URL parser drops control characters and spaces
				// before the scheme: that form is the URL it fetches.
				if t := strings.TrimLeftFunc(w, func(r rune) bool { return r <= ' ' }); t != w {
					urls = append(urls, t)
				}
			}
		}
		args["urls"] = urls
		if _, host := args["url"].(string); !host && len(urls) == 1 {
			args["url"] = urls[0]
		}
		return args
	},
	back: func(args map[string]any, sent any) (map[string]any, bool) {
		return withoutAdded(args, objectInput(sent), "urls", "url"), true
	},
}

// jsSpace is white space as JavaScript's \s reads it (Gemini CLI splits a
// prompt with it): Go's unicode.IsSpace and U+FEFF.
func jsSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// shaped is a tool's input with its canonical arguments when the tool has
// a shape among shapes, else the input as sent.
func shaped(shapes map[string]toolShape, tool string, input any) any {
	if s, ok := shapes[tool]; ok {
		return s.args(input)
	}
	return input
}

// unreadableArgs stands for a tool's arguments sent as text that is not
// the JSON of an object (too deep for the decoder, cut short, or no JSON):
// Decode refuses such a call as it refuses an unreadable payload. Read as
// {} instead, a path guard written `args?.path ?? ""` found no path and let
// the call through, while the host, whose parser reads what ours does not,
// ran it.
type unreadableArgs struct{ why string }

// argsObject is a tool's arguments as an object: an object as it is, the
// JSON text of one decoded, nothing ("", null) as {}, and any other text
// unreadableArgs.
func argsObject(v any) any {
	s, ok := v.(string)
	if !ok {
		return jsonObject(v)
	}
	if t := strings.TrimSpace(s); t == "" || t == "null" {
		return map[string]any{}
	}
	d, err := pyjson.Decode([]byte(s))
	if m, ok := d.(map[string]any); ok && err == nil {
		return m
	}
	if err != nil {
		return unreadableArgs{why: err.Error()}
	}
	return unreadableArgs{why: "not an object"}
}

// ErrArgsNotJSON is returned by Decode for a call whose tool arguments are
// text that is not the JSON of an object.
var ErrArgsNotJSON = errors.New("the tool's arguments are text that is not a JSON object")

// argsUnreadable is the error of a call whose arguments argsObject could
// not read (nil when they were read).
func argsUnreadable(fields map[string]any) error {
	for _, k := range []string{"tool_input", "args"} {
		if u, ok := fields[k].(unreadableArgs); ok {
			return fmt.Errorf("%w (%s)", ErrArgsNotJSON, u.why)
		}
	}
	return nil
}
