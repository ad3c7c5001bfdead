package agents

import (
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// VS Code's agent hooks (Copilot agent mode, Preview) run the hooks of
// .github/hooks/*.json, .claude/settings.json, .claude/settings.local.json
// and ~/.claude/settings.json (and the user's ~/.copilot/hooks): so they
// run what `install claude` wrote there, and `hook claude` is then called
// by VS Code, not Claude Code. Its payload tells it: the common fields are
// camelCase (sessionId, hookEventName, timestamp), the event's own fields
// snake_case as Claude Code's (tool_name, tool_input, tool_use_id …), tool
// names VS Code's own (run_in_terminal, editFiles …). Its replies are
// Claude Code's, but Stop reads its block from hookSpecificOutput and
// UserPromptSubmit only the common output (continue, stopReason).
// Facts and sources: docs/agent-protocols.md.
//
// VS Code calls `hook copilot` from .github/hooks/*.json and `hook claude`
// from Claude Code's settings, each for the same event when both installs
// are in place: under either, a payload of VS Code's is VS Code's (Copilot
// CLI's own camelCase payload has sessionId too, but never hookEventName,
// hence eventNamed for that agent).
func vscodeHost(eventNamed bool) *Host {
	return &Host{
		Name: "vscode", Title: "VS Code",
		EventKey: "hookEventName",
		// A handler's timeout defaults to 30 s [VS-REF "timeout"], not
		// Claude Code's 600: the entries install wrote for Claude Code
		// say Claude's deadline, and VS Code's is shorter.
		Timeout: vscodeDefaultTimeout,
		// VS Code runs Claude Code's settings and Copilot's hook files
		// itself: their entries must not run a second time. The hooks of
		// no agent's file run in its call from Copilot's file when it makes
		// one for the event, else in the one from Claude Code's
		// (PreferredCallers): once either way.
		RunsFilesOf: []string{"copilot", "claude"},
		// A workspace's settings (its .vscode/settings.json, a
		// .code-workspace file) may set chat.hookFilesLocations, which
		// turns .github/hooks and ~/.copilot/hooks off [VS-REF]: the
		// Copilot call may then never come.
		FileSettings: []string{".vscode/settings.json", "*.code-workspace"},
		FileSetting:  "chat.hookFilesLocations",
		is: func(p map[string]any) bool {
			_, event := p["hookEventName"].(string)
			_, session := p["sessionId"].(string)
			_, snakeEvent := p["hook_event_name"]
			_, snakeSession := p["session_id"]
			return (event || session && !eventNamed) && !snakeEvent && !snakeSession
		},
		decode: decodeVSCode,
		encode: encodeVSCode,
		shapes: vscodeShapes,
		// systemMessage, one of the common output fields.
		notice: noticeSystemMessage,
	}
}

// vscodeTools maps VS Code's built-in tool names (its tool ids, and the
// names its hooks documentation's examples use) to Claude Code's, which
// the dispatcher's tool table takes from there. Others pass through.
var vscodeTools = map[string]string{
	"run_in_terminal": "Bash", "runTerminalCommand": "Bash", "runInTerminal": "Bash",
	"read_file": "Read", "readFile": "Read",
	"create_file": "Write", "createFile": "Write",
	"replace_string_in_file": "Edit", "multi_replace_string_in_file": "Edit", "insert_edit_into_file": "Edit",
	"apply_patch": "Edit", "editFiles": "Edit", "edit_notebook_file": "NotebookEdit",
	"file_search": "Glob", "grep_search": "Grep", "fetch_webpage": "WebFetch", "runSubagent": "Task",
	// A command sent to a shell run_in_terminal left running, and a shell
	// task written into .vscode/tasks.json and run (microsoft/vscode
	// chatAgentTools: sendToTerminalTool, createAndRunTaskTool).
	"send_to_terminal": "Bash", "create_and_run_task": "Bash",
}

// vscodeTwins are VS Code's names of a file tool's arguments and Claude
// Code's.
var vscodeTwins = [][2]string{{"filePath", "file_path"}, {"oldString", "old_string"}, {"newString", "new_string"}}

// vscodeShapes: VS Code's file tools say filePath, oldString and
// newString; multi_replace_string_in_file names a file in each of its
// replacements and editFiles its files; apply_patch's envelope is its
// input.
var vscodeShapes = func() map[string]toolShape {
	one := pathsShape(func(map[string]any) []any { return nil }, vscodeTwins)
	m := map[string]toolShape{
		"multi_replace_string_in_file": pathsShape(func(in map[string]any) []any {
			if _, ok := in["replacements"]; !ok {
				return nil
			}
			return listed(in["replacements"], "filePath", "")
		}, vscodeTwins),
		"editFiles": pathsShape(func(in map[string]any) []any {
			files, _ := in["files"].([]any)
			return files
		}, vscodeTwins),
		"apply_patch":         patchShape,
		"create_and_run_task": vscodeTaskShape,
	}
	for _, t := range []string{"read_file", "readFile", "create_file", "createFile", "replace_string_in_file", "insert_edit_into_file", "edit_notebook_file"} {
		m[t] = one
	}
	return m
}()

// vscodeTaskShape: create_and_run_task's {workspaceFolder, task: {label,
// type: "shell", command, args}} runs its task's command and args in a
// shell: shown as the command a terminal guard reads (a task of no shape
// known here as its JSON text, never ""). A rewrite of that command
// cannot be put back into the task: refused.
var vscodeTaskShape = toolShape{
	args: func(input any) map[string]any {
		args := objectInput(input)
		args["command"] = vscodeTaskCommand(args["task"])
		return args
	},
	back: func(args map[string]any, sent any) (map[string]any, bool) {
		in := objectInput(sent)
		if args["command"] != vscodeTaskCommand(args["task"]) {
			return nil, false
		}
		return withoutAdded(args, in, "command"), true
	},
}

// vscodeTaskCommand is a task's command line: its command and args.
func vscodeTaskCommand(task any) string {
	t, _ := task.(map[string]any)
	cmd, ok := t["command"].(string)
	if !ok {
		return string(pyjson.Encode(task, pyjson.Compact))
	}
	args, _ := t["args"].([]any)
	return commandLine(cmd, args)
}

func decodeVSCode(name string, ev *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 4)
	alias(f, "sessionId", "session_id")
	alias(f, "hookEventName", "hook_event_name")
	if t, ok := p["tool_name"].(string); ok {
		if c, ok := vscodeTools[t]; ok {
			f["tool_name"] = c
		}
		if ev.Tool {
			f["tool_input"] = shaped(vscodeShapes, t, f["tool_input"])
		}
	}
	if s, _ := f["source"].(string); s == "new" && ev.ClaudeMatchOn == "source" {
		f["source"] = "startup" // VS Code's only SessionStart source, Claude's name for it
	}
	return decodeClaude(name, ev, f)
}

// encodeVSCode is Claude Code's reply with VS Code's differences: a Stop
// block is also in hookSpecificOutput (decision, reason), where VS Code's
// reference reads it; a refused prompt also stops the turn (continue:
// false, stopReason), as VS Code reads only the common output there and a
// refusal must not be ignored.
func encodeVSCode(c *Call, o *protocol.Outcome) Reply {
	obj := claudeReply(c, o)
	ev := c.Event
	if o.Decision != protocol.DecisionBlock {
		return jsonReply(obj)
	}
	switch {
	case ev.Stops && ev.HermesReply == protocol.ReplyVerify:
		extra := protocol.Object{{Key: "decision", Value: "block"}, {Key: "reason", Value: blockReason(o)}}
		for i, kv := range obj {
			if kv.Key == "hookSpecificOutput" {
				obj[i].Value = append(kv.Value.(protocol.Object), extra...)
				return jsonReply(obj)
			}
		}
		hso := append(protocol.Object{{Key: "hookEventName", Value: ev.ClaudeName()}}, extra...)
		obj = append(obj, protocol.KV{Key: "hookSpecificOutput", Value: hso})
	case ev.HermesReply == protocol.ReplyLLM && !o.Stop:
		obj = append(protocol.Object{{Key: "continue", Value: false}, {Key: "stopReason", Value: blockReason(o)}}, obj...)
	}
	return jsonReply(obj)
}
