package agents

import (
	"maps"
	"reflect"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// cline 3 (the SDK behind cline 3.x) names its own tools; those that run
// a command, write a file or fetch a page are read as their canonical
// twins, so that a guard on terminal, patch or web_extract sees them
// (their input shapes as @cline/core 0.0.86 declares and coerces them).

// clineEditorTwins are the SDK editor's argument names and Claude Code's.
var clineEditorTwins = [][2]string{{"path", "file_path"}, {"old_text", "old_string"}, {"new_text", "new_string"}}

// clineSDKTool is the canonical tool and arguments of a cline 3 tool call:
// run_commands is terminal, its command the commands its input holds
// (clineShellCommand); editor (replace, insert, or create a file) and
// apply_patch are patch; fetch_web_content is web_extract, its url the
// URLs it fetches; other tools keep the SDK's name and raw input.
func clineSDKTool(tool string, input any) (string, any) {
	switch tool {
	case "run_commands":
		return "terminal", map[string]any{"command": clineShellCommand(input)}
	case "editor":
		args := maps.Clone(jsonObject(input).(map[string]any))
		showTwins(args, clineEditorTwins)
		return "patch", args
	case "apply_patch":
		// {input: patch}, or the patch text itself.
		return "patch", patchShape.args(input)
	case "read_files":
		// The paths it reads, from every shape (clineReadPaths); path and
		// file_path when it reads one file.
		args := objectInput(input)
		var paths []any
		clineReadPaths(input, &paths, 0)
		args["paths"] = paths
		delete(args, "path")
		delete(args, "file_path")
		if one, ok := onePath(paths); ok {
			args["path"], args["file_path"] = one, one
		}
		return "read_file", args
	case "fetch_web_content":
		args := maps.Clone(jsonObject(input).(map[string]any))
		var urls []string
		if reqs, ok := args["requests"].([]any); ok {
			for _, r := range reqs {
				if m, ok := r.(map[string]any); ok {
					if u, ok := m["url"].(string); ok {
						urls = append(urls, u)
					}
				}
			}
		}
		args["url"] = strings.Join(urls, "\n")
		return "web_extract", args
	}
	return tool, jsonObject(input)
}

// clineSDKInput is a rewritten call's input as the SDK's tool reads it:
// run_commands' commands, apply_patch's input; the editor's own names are
// kept equal to Claude Code's by the fold, and the SDK drops keys it does
// not declare.
func clineSDKInput(c *Call, args map[string]any) any {
	call, _ := firstPresent(c.Fields, "tool_call", "tool_result").(map[string]any)
	switch name, _ := call["name"].(string); name {
	case "run_commands":
		if cmd, ok := args["command"].(string); ok {
			return map[string]any{"commands": []any{cmd}}
		}
	case "apply_patch":
		if p, ok := args["patch"].(string); ok {
			return map[string]any{"input": p}
		}
	case "read_files":
		return clineReadInput(c, args)
	}
	return args
}

// clineReadPaths adds the paths read_files' input v names to paths, in
// each shape @cline/core 0.0.86 reads it (its read_files input union): a
// path, a list of paths or of {path | file_path | filePath, start_line,
// end_line}, one such object, or an object whose files, file_paths or
// paths holds any of these; the input as JSON text too.
func clineReadPaths(v any, paths *[]any, depth int) {
	if depth > 4 {
		return
	}
	switch x := v.(type) {
	case string:
		if depth == 0 { // JSON text is the whole input, never one of its paths
			if d, err := pyjson.Decode([]byte(x)); err == nil {
				switch d.(type) {
				case map[string]any, []any:
					clineReadPaths(d, paths, depth+1)
					return
				}
			}
		}
		*paths = append(*paths, x)
	case []any:
		for _, item := range x {
			clineReadPaths(item, paths, depth+1)
		}
	case map[string]any:
		for _, k := range []string{"files", "file_paths", "paths"} {
			if inner, ok := x[k]; ok {
				clineReadPaths(inner, paths, depth+1)
				return
			}
		}
		for _, k := range []string{"path", "file_path", "filePath"} {
			if p, ok := x[k].(string); ok {
				*paths = append(*paths, p)
				return
			}
		}
	}
}

// clineReadInput is a rewritten read_files call as the SDK reads it:
// {files: [{path}]}, from the paths a hook rewrote, else from path (which
// the fold keeps equal to file_path).
func clineReadInput(c *Call, args map[string]any) any {
	sent, _ := c.Fields["args"].(map[string]any)
	paths, _ := args["paths"].([]any)
	if p, ok := args["path"].(string); ok && reflect.DeepEqual(paths, sent["paths"]) {
		paths = []any{p}
	}
	files := make([]any, 0, len(paths))
	for _, p := range paths {
		files = append(files, map[string]any{"path": p})
	}
	return map[string]any{"files": files}
}

// clineShellCommand is the command text of cline 3's run_commands input,
// in every shape the SDK's tool takes (@cline/core checks the input
// against a union and runs each: a string, a list of strings or of
// {command, args}, or an object whose commands, command or cmd holds one):
// a line per command, {command, args} as the words it runs. Reading only
// {"commands": [strings]} let {"commands": "rm -rf ~"}, {"command": …}, a
// bare string and six more shapes reach a terminal guard as "" — a
// prompt-injected model needs only to pick one. An input of no shape
// known here is its JSON text, so that a guard reading the command reads
// every word of it, never nothing.
func clineShellCommand(input any) string {
	var lines []string
	if !clineCommands(input, &lines, 0) {
		return string(pyjson.Encode(input, pyjson.Compact))
	}
	return strings.Join(lines, "\n")
}

// clineCommands adds the commands v holds to lines, and says whether v is
// a shape the SDK runs.
func clineCommands(v any, lines *[]string, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case string:
		if d, err := pyjson.Decode([]byte(x)); err == nil {
			switch d.(type) {
			case map[string]any, []any:
				return clineCommands(d, lines, depth+1) // the input as JSON text
			}
		}
		*lines = append(*lines, x)
		return true
	case []any:
		for _, item := range x {
			if !clineCommands(item, lines, depth+1) {
				*lines = append(*lines, string(pyjson.Encode(item, pyjson.Compact)))
			}
		}
		return true
	case map[string]any:
		if c, ok := x["commands"]; ok {
			return clineCommands(c, lines, depth+1)
		}
		if c, ok := x["command"].(string); ok {
			args, _ := x["args"].([]any)
			*lines = append(*lines, commandLine(c, args))
			return true
		}
		if c, ok := x["cmd"].(string); ok {
			*lines = append(*lines, c)
			return true
		}
	}
	return false
}

// commandLine is a command given as a program and its arguments ({command,
// args}: Cline's, a VS Code task's) as one shell line: each argument
// quoted where the shell would split or expand it, one that is no string
// as its JSON.
func commandLine(cmd string, args []any) string {
	words := []string{cmd}
	for _, a := range args {
		s, ok := a.(string)
		if !ok {
			s = string(pyjson.Encode(a, pyjson.Compact))
		}
		words = append(words, shquote.IfNeeded(s))
	}
	return strings.Join(words, " ")
}
