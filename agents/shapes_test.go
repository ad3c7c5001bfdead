package agents

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

const testPatch = "*** Begin Patch\n*** Add File: /etc/x\n+x\n*** End Patch\n"

// Each host shape shows the call with the canonical arguments a guard
// reads: read as sent, every one of these reached a path, patch or URL
// guard with none (ready_rules_host_shapes.txtar refuses each through the
// ready-made rules).
func TestHostShapesShowCanonicalArgs(t *testing.T) {
	patch, _ := json.Marshal(testPatch)
	for _, c := range []struct {
		agent, event, payload, key string
		want                       any
	}{
		{"kiro", "preToolUse", `{"tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":"a"},{"mode":"Line","path":"/k/id_rsa"}]}}`,
			"paths", []any{"a", "/k/id_rsa"}},
		{"kiro", "preToolUse", `{"tool_name":"fs_read","tool_input":{"operations":[{"mode":"Image","image_paths":["/k/x.pem","/k/y"]}]}}`,
			"paths", []any{"/k/x.pem", "/k/y"}},
		{"kiro", "preToolUse", `{"tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":"/k/.env"},{"mode":"Search","path":"/k/.env"}]}}`,
			"file_path", "/k/.env"},
		{"kiro", "preToolUse", `{"tool_name":"fs_read","tool_input":{"path":"/k/.env"}}`, "file_path", "/k/.env"},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"create_file","tool_input":{"filePath":"/k/.env","content":"x"}}`,
			"file_path", "/k/.env"},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"replace_string_in_file","tool_input":{"filePath":"/k/a","oldString":"a","newString":"b"}}`,
			"new_string", "b"},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"filePath":"a"},{"filePath":"/etc/hosts"}]}}`,
			"paths", []any{"a", "/etc/hosts"}},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"editFiles","tool_input":{"files":["/etc/hosts"]}}`,
			"file_path", "/etc/hosts"},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"apply_patch","tool_input":{"input":` + string(patch) + `}}`,
			"patch", testPatch},
		{"copilot", "preToolUse", `{"sessionId":"s","toolName":"apply_patch","toolArgs":` + string(patch) + `}`, "patch", testPatch},
		{"copilot", "preToolUse", `{"sessionId":"s","toolName":"apply_patch","toolArgs":` + quoteJSON(`{"input":`+string(patch)+`}`) + `}`, "patch", testPatch},
		{"copilot", "PreToolUse", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":` + string(patch) + `}`, "patch", testPatch},
		{"factory", "", `{"hook_event_name":"PreToolUse","tool_name":"ApplyPatch","tool_input":` + string(patch) + `}`, "patch", testPatch},
		{"factory", "", `{"hook_event_name":"PreToolUse","tool_name":"ApplyPatch","tool_input":{"input":` + string(patch) + `}}`, "patch", testPatch},
		// read_file's absolute_path (Qwen Code, older Gemini CLI); with a
		// file_path beside it, each is judged.
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/k/.env"}}`, "file_path", "/k/.env"},
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/k/.env","file_path":"a"}}`,
			"paths", []any{"a", "/k/.env"}},
		{"qwen", "", `{"hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"absolute_path":"/k/.env"}}`, "file_path", "/k/.env"},
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"see http://169.254.169.254/x, and https://a.example/b."}}`,
			"urls", []any{"http://169.254.169.254/x,", "https://a.example/b."}},
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"see (http://169.254.169.254/x)"}}`,
			"url", "(http://169.254.169.254/x)"},
		// A quote inside a word cannot cut the host a URL parser reads.
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"get http://x\"@169.254.169.254/m now"}}`,
			"urls", []any{`http://x"@169.254.169.254/m`}},
		// JavaScript splits at U+FEFF; a parser drops what precedes a
		// scheme below a space.
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"see\ufeffhttp://169.254.169.254/ \u0001http://169.254.169.254/x"}}`,
			"urls", []any{"http://169.254.169.254/", "\u0001http://169.254.169.254/x", "http://169.254.169.254/x"}},
		// Its url (direct fetch) is read too, and a urls of the model's
		// own stands for nothing.
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"url":"http://169.254.169.254/","urls":[]}}`,
			"urls", []any{"http://169.254.169.254/"}},
		// Canonical keys the model put beside the host's do not stand
		// for what the host acts on.
		{"kiro", "preToolUse", `{"tool_name":"fs_read","tool_input":{"paths":[],"operations":[{"path":"/k/id_rsa"}]}}`,
			"paths", []any{"/k/id_rsa"}},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"apply_patch","tool_input":{"patch":"","input":"P"}}`,
			"patch", "P"},
		{"claude", "", `{"hookEventName":"PreToolUse","tool_name":"create_file","tool_input":{"filePath":"/k/.env","file_path":"ok"}}`,
			"file_path", "/k/.env"},
		// Kiro's fs_write writes its path and file_text.
		{"kiro", "preToolUse", `{"tool_name":"fs_write","tool_input":{"command":"create","path":"/k/.env","file_path":"ok","file_text":"AKIA1234","content":"ok"}}`,
			"content", "AKIA1234"},
		{"kiro", "preToolUse", `{"tool_name":"fs_write","tool_input":{"command":"create","path":"/k/.env","file_path":"ok"}}`,
			"file_path", "/k/.env"},
		// Droid's Edit writes its new_str, whatever new_string says.
		{"factory", "", `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a","old_str":"x","new_str":"AKIA1234","new_string":"ok"}}`,
			"new_string", "AKIA1234"},
		{"factory", "", `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a","old_str":"x","new_str":"y","change_all":true,"replace_all":false}}`,
			"replace_all", true},
	} {
		a, _ := Lookup(c.agent)
		call, err := a.Decode([]byte(c.payload), c.event)
		if err != nil {
			t.Fatalf("%s %s: %v", c.agent, c.payload, err)
		}
		f := protocol.NewFiring(call.Event, "", call.Fields)
		if got := f.ArgsMap()[c.key]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: args.%s = %#v, want %#v", c.agent, c.payload, c.key, got, c.want)
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A rewrite goes back in the host's shape; one the host's input cannot
// carry, or whose canonical arguments say other than what the host would
// then run, is refused — never sent to run unjudged.
func TestHostShapesRewriteBack(t *testing.T) {
	patch, _ := json.Marshal(testPatch)
	for _, c := range []struct {
		name, agent, event, payload string
		args                        map[string]any
		want                        map[string]any // nil: refused
	}{
		{"vscode filePath back", "claude", "", `{"hookEventName":"PreToolUse","tool_name":"create_file","tool_input":{"filePath":"a","content":"x"}}`,
			map[string]any{"filePath": "b", "file_path": "b", "content": "y"}, map[string]any{"filePath": "b", "content": "y"}},
		{"vscode paths rewritten alone", "claude", "", `{"hookEventName":"PreToolUse","tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"filePath":"/etc/hosts"}]}}`,
			map[string]any{"replacements": []any{map[string]any{"filePath": "/etc/hosts"}}, "paths": []any{"a"}, "file_path": "a"}, nil},
		{"vscode replacements rewritten", "claude", "", `{"hookEventName":"PreToolUse","tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"filePath":"/etc/hosts"}]}}`,
			map[string]any{"replacements": []any{map[string]any{"filePath": "a"}}, "paths": []any{"a"}, "file_path": "a"},
			map[string]any{"replacements": []any{map[string]any{"filePath": "a"}}}},
		{"vscode patch back as input", "claude", "", `{"hookEventName":"PreToolUse","tool_name":"apply_patch","tool_input":{"input":"x","explanation":"e"}}`,
			map[string]any{"input": "y", "explanation": "e", "mode": "patch", "patch": "y"}, map[string]any{"input": "y", "explanation": "e"}},
		{"vscode patch and input apart", "claude", "", `{"hookEventName":"PreToolUse","tool_name":"apply_patch","tool_input":{"input":"x","explanation":"e"}}`,
			map[string]any{"input": "x", "explanation": "e", "mode": "patch", "patch": "y"}, nil},
		// A Claude-dialect hook's whole input in Copilot's own names: the
		// fold kept patch equal to input; mode is no guard's question.
		{"copilot input rewritten", "copilot", "preToolUse", `{"sessionId":"s","toolName":"apply_patch","toolArgs":` + quoteJSON(`{"input":"x"}`) + `}`,
			map[string]any{"input": "y", "patch": "y"}, map[string]any{"input": "y"}},
		{"copilot bare envelope", "copilot", "preToolUse", `{"sessionId":"s","toolName":"apply_patch","toolArgs":` + string(patch) + `}`,
			map[string]any{"mode": "patch", "patch": "other"}, nil},
		{"factory bare envelope", "factory", "", `{"hook_event_name":"PreToolUse","tool_name":"ApplyPatch","tool_input":` + string(patch) + `}`,
			map[string]any{"mode": "patch", "patch": "other"}, nil},
		{"qwen absolute_path back", "qwen", "", `{"hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"absolute_path":"/k/a"}}`,
			map[string]any{"absolute_path": "/k/b", "file_path": "/k/b", "paths": []any{"/k/b"}}, map[string]any{"absolute_path": "/k/b"}},
		{"qwen file_path rewritten alone", "qwen", "", `{"hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"absolute_path":"/k/.env"}}`,
			map[string]any{"absolute_path": "/k/.env", "file_path": "/k/ok", "paths": []any{"/k/ok"}}, nil},
		{"gemini urls rewritten alone", "gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"http://169.254.169.254/"}}`,
			map[string]any{"prompt": "http://169.254.169.254/", "urls": []any{"https://ok.example/"}, "url": "https://ok.example/"}, nil},
		{"gemini prompt rewritten", "gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"http://a.example/"}}`,
			map[string]any{"prompt": "http://b.example/", "urls": []any{"http://b.example/"}, "url": "http://b.example/"}, map[string]any{"prompt": "http://b.example/"}},
	} {
		a, _ := Lookup(c.agent)
		call, err := a.Decode([]byte(c.payload), c.event)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		title := a.Title
		if call.Host != nil {
			title = call.Host.Title
		}
		o := hostArgs(call, &protocol.Outcome{Event: call.Event.Name, Args: c.args}, title)
		switch {
		case c.want == nil && (o.Decision != protocol.DecisionBlock || o.Args != nil):
			t.Errorf("%s: %+v, want the rewrite refused", c.name, o)
		case c.want != nil && (o.Decision != "" || !reflect.DeepEqual(o.Args, c.want)):
			t.Errorf("%s: decision %q, args %#v, want %#v", c.name, o.Decision, o.Args, c.want)
		}
	}
}

// Tool arguments sent as text that does not read as a JSON object are an
// unreadable call, refused where a fail_closed guard covers it — not {},
// which a path guard reads as a call without a path. Go's decoder stops
// at 10,000 levels, where a JavaScript host's JSON.parse goes on.
func TestUnreadableToolArgs(t *testing.T) {
	deep := `{"path":"/etc/cron.d/x","x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`
	for _, c := range []struct{ agent, event, payload string }{
		{"copilot", "preToolUse", `{"sessionId":"s","toolName":"create","toolArgs":` + quoteJSON(deep) + `}`},
		{"copilot", "preToolUse", `{"sessionId":"s","toolName":"create","toolArgs":"{\"path\": \"/etc/x\", "}`},
		{"cursor", "", `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":"[1]"}`},
	} {
		a, _ := Lookup(c.agent)
		_, err := a.Decode([]byte(c.payload), c.event)
		if !errors.Is(err, ErrArgsNotJSON) {
			t.Errorf("%s %.80s: err %v, want ErrArgsNotJSON", c.agent, c.payload, err)
		}
	}
	for _, empty := range []string{`""`, `"null"`, `"{}"`} {
		a, _ := Lookup("copilot")
		if _, err := a.Decode([]byte(`{"sessionId":"s","toolName":"bash","toolArgs":`+empty+`}`), "preToolUse"); err != nil {
			t.Errorf("toolArgs %s: %v, want no arguments", empty, err)
		}
	}
}

// FuzzToolShapes: every shape reads any input without panicking, and a
// call nobody rewrote goes back as it is shown — an unchanged call is
// never refused, and what goes back reads as what the guards judged.
func FuzzToolShapes(f *testing.F) {
	f.Add(`{"operations":[{"path":"a"},{"image_paths":["b"]}]}`)
	f.Add(`{"filePath":"a","oldString":"x","newString":"y"}`)
	f.Add(`{"replacements":[{"filePath":"a"},{"filePath":"a"}]}`)
	f.Add(`{"files":["a",1]}`)
	f.Add(`{"input":"*** Begin Patch"}`)
	f.Add(`"*** Begin Patch"`)
	f.Add(`{"prompt":"http://a/ b https://c/."}`)
	f.Add(`{"paths":["x"],"file_path":"y","urls":3}`)
	shapes := map[string]toolShape{"patch": patchShape, "prompt": promptShape}
	for _, m := range []map[string]toolShape{kiroShapes, vscodeShapes} {
		for k, s := range m {
			shapes[k] = s
		}
	}
	f.Fuzz(func(t *testing.T, input string) {
		sent, err := pyjson.Decode([]byte(input))
		if err != nil {
			return
		}
		for name, s := range shapes {
			args := s.args(sent)
			host, ok := s.back(args, sent)
			if !ok {
				if str, isStr := sent.(string); isStr && !isObjectText(str) {
					continue // a bare text input cannot come back in an object
				}
				t.Fatalf("%s: %s: unchanged call refused", name, input)
			}
			for k, v := range s.args(host) {
				if !reflect.DeepEqual(args[k], v) {
					t.Fatalf("%s: %s: %s reads %#v going back, was judged as %#v", name, input, k, v, args[k])
				}
			}
		}
	})
}
