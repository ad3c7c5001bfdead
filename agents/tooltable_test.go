package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The tool table (issue 31, item 2): for every agent of the registry (and
// every host that runs an agent's hook file), the tools its documentation
// or code lists, and the canonical tool a guard sees each as. A tool that
// can act (run a command, write or edit a file, fetch from the network, call
// an MCP server) maps to a canonical tool — Hermes' terminal, write_file,
// patch, web_extract, web_search, or the MCP tool in Hermes' spelling — or
// has an explicit row saying why no canonical guard sees it. A new agent
// without a table, or a documented tool missing from its table, fails.
//
// Sources are cited per agent; docs/agent-protocols.md cites them again.

// toolRow is one tool of an agent.
type toolRow struct {
	// tool is the agent's name of the tool (Windsurf: its action).
	tool string
	// want is the canonical tool a Hermes matcher sees the call as; "" when
	// it has none.
	want string
	// acts: the tool runs a command, writes or edits a file, fetches from
	// the network or calls an MCP server.
	acts bool
	// why: for a tool that acts without a canonical tool, the reason no
	// canonical guard sees it (a guard must match the agent's own name).
	why string
}

// toolTable is an agent's documented tool list, its rows and how a
// pre-tool-call payload naming one of its tools is written.
type toolTable struct {
	source     string
	documented []string
	rows       []toolRow
	// call is the payload of a pre-tool call of tool and the command-line
	// event (for agents that do not name it in the payload).
	call func(tool string) (payload, event string)
}

func claudeCall(event string) func(string) (string, string) {
	return func(tool string) (string, string) {
		return `{"session_id":"s","cwd":"/p","hook_event_name":"` + event + `","tool_name":"` + tool + `","tool_input":{}}`, ""
	}
}

func rw(tool, want string) toolRow { return toolRow{tool: tool, want: want, acts: true} }
func ro(tool string) toolRow       { return toolRow{tool: tool} }
func roAs(tool, want string) toolRow {
	return toolRow{tool: tool, want: want}
}
func unguarded(tool, why string) toolRow { return toolRow{tool: tool, acts: true, why: why} }

// toolTables is keyed by agent name, and by "agent/host" for a host.
var toolTables = map[string]toolTable{
	// Claude Code: the tools of its settings documentation ("Tools
	// available to Claude", code.claude.com/docs/en/settings), the legacy
	// names its matchers still accept (Task, MultiEdit, KillShell,
	// BashOutput; Claude reference §3.2) and MCP tools mcp__SERVER__TOOL
	// (hooks reference, "Working with MCP tools").
	"claude": {
		source: "code.claude.com/docs/en/settings (tools available to Claude); hooks reference (MCP tools)",
		documented: []string{"Agent", "AskUserQuestion", "Bash", "BashOutput", "Edit", "ExitPlanMode", "Glob", "Grep",
			"KillShell", "LS", "ListMcpResourcesTool", "MultiEdit", "NotebookEdit", "NotebookRead", "PowerShell", "Read",
			"ReadMcpResourceTool", "SlashCommand", "Skill", "Task", "TaskOutput", "TaskStop", "TodoWrite", "ToolSearch",
			"WebFetch", "WebSearch", "Write", "mcp__github__create_issue"},
		rows: []toolRow{
			rw("Bash", "terminal"), rw("PowerShell", "terminal"),
			rw("Write", "write_file"), rw("Edit", "patch"), rw("MultiEdit", "patch"), rw("NotebookEdit", "patch"),
			rw("WebFetch", "web_extract"), rw("WebSearch", "web_search"),
			rw("mcp__github__create_issue", "mcp_github_create_issue"),
			roAs("Read", "read_file"), roAs("Task", "delegate_task"), roAs("Agent", "delegate_task"),
			ro("AskUserQuestion"), ro("BashOutput"), ro("TaskOutput"), ro("ExitPlanMode"), ro("Glob"), ro("Grep"), ro("LS"),
			ro("NotebookRead"), ro("ListMcpResourcesTool"), ro("ReadMcpResourceTool"), ro("SlashCommand"), ro("Skill"),
			ro("TodoWrite"), ro("ToolSearch"),
			unguarded("KillShell", "it stops a shell the session started, no command or file of its own"),
			unguarded("TaskStop", "it stops a task the session started (KillShell's newer name), no command or file of its own"),
		},
		call: claudeCall("PreToolUse"),
	},
	// VS Code running Claude Code's settings: its own tool ids (VS Code's
	// agent hooks documentation and chat tools reference).
	"claude/vscode": vscodeTable,
	// VS Code running Copilot's hook files (.github/hooks): the same tool
	// ids as when it runs Claude Code's settings.
	"copilot/vscode": vscodeTable,
	// Codex: Bash, apply_patch and MCP tools are what its PreToolUse
	// fires for (docs/agent-protocols.md, Codex).
	"codex": {
		source:     "docs/agent-protocols.md (Codex: tool names); openai/codex hook_names.rs",
		documented: []string{"Bash", "apply_patch", "mcp__github__create_issue"},
		rows: []toolRow{
			rw("Bash", "terminal"), rw("apply_patch", "patch"), rw("mcp__github__create_issue", "mcp_github_create_issue"),
		},
		call: claudeCall("PreToolUse"),
	},
	// Copilot CLI's runtime names (camelCase payloads' toolName), per its
	// hooks documentation's table.
	"copilot": {
		source: "docs.github.com Copilot CLI hooks reference (toolName); docs/agent-protocols.md",
		documented: []string{"bash", "powershell", "view", "create", "edit", "str_replace_editor", "apply_patch", "grep", "rg",
			"glob", "web_fetch", "web_search", "ask_user", "update_todo", "task"},
		rows: []toolRow{
			rw("bash", "terminal"), rw("powershell", "terminal"), rw("create", "write_file"), rw("edit", "patch"),
			rw("str_replace_editor", "patch"), rw("apply_patch", "patch"), rw("web_fetch", "web_extract"),
			rw("web_search", "web_search"),
			roAs("view", "read_file"), roAs("task", "delegate_task"),
			ro("grep"), ro("rg"), ro("glob"), ro("ask_user"), ro("update_todo"),
		},
		call: func(tool string) (string, string) {
			return `{"sessionId":"s","cwd":"/p","toolName":"` + tool + `","toolArgs":"{}"}`, "preToolUse"
		},
	},
	// Cursor: preToolUse's tool names (Cursor's hooks documentation; the
	// Claude reference §6.2) and those its users' matchers name (StrReplace,
	// Delete).
	"cursor": {
		source: "cursor.com/docs/agent/hooks (preToolUse tool names); Claude reference §6.2",
		documented: []string{"Shell", "Read", "Write", "Edit", "StrReplace", "Delete", "Grep", "Glob", "Task", "WebSearch",
			"WebFetch", "TabRead", "TabWrite", "MCP:create_issue"},
		rows: []toolRow{
			rw("Shell", "terminal"), rw("Write", "write_file"), rw("Edit", "patch"), rw("StrReplace", "patch"),
			rw("Delete", "write_file"), rw("WebSearch", "web_search"), rw("WebFetch", "web_extract"),
			roAs("Read", "read_file"), roAs("Task", "delegate_task"),
			ro("Grep"), ro("Glob"), ro("TabRead"),
			unguarded("TabWrite", "it is the user's own accepted Tab completion, not the agent's call"),
			unguarded("MCP:create_issue", "Cursor names an MCP tool without its server, so no mcp_SERVER_ matcher can tell whose it is: match MCP:TOOL"),
		},
		call: func(tool string) (string, string) {
			return `{"conversation_id":"c","hook_event_name":"preToolUse","workspace_roots":["/p"],"tool_name":"` + tool + `","tool_input":{}}`, ""
		},
	},
	// Factory Droid: the hooks reference's matchers and tool names, and the
	// tool categories of its custom droids (read-only, edit, execute, web).
	"factory": {
		source: "docs.factory.ai/reference/hooks-reference; docs.factory.ai custom droids (tool categories); @factory/cli 0.225",
		documented: []string{"Read", "LS", "Grep", "Glob", "Create", "Edit", "MultiEdit", "ApplyPatch", "Execute", "WebSearch",
			"FetchUrl", "TodoWrite", "Task", "AskUser", "mcp__github__create_issue"},
		rows: []toolRow{
			rw("Execute", "terminal"), rw("Create", "write_file"), rw("Edit", "patch"), rw("MultiEdit", "patch"),
			rw("ApplyPatch", "patch"), rw("FetchUrl", "web_extract"), rw("WebSearch", "web_search"),
			rw("mcp__github__create_issue", "mcp_github_create_issue"),
			roAs("Read", "read_file"), roAs("Task", "delegate_task"),
			ro("LS"), ro("Grep"), ro("Glob"), ro("TodoWrite"), ro("AskUser"),
		},
		call: claudeCall("PreToolUse"),
	},
	// Gemini CLI: its built-in tools (geminicli.com/docs/tools) and MCP
	// tools mcp_SERVER_TOOL (hooks documentation, "Matchers").
	"gemini": {
		source: "geminicli.com/docs/tools; geminicli.com/docs/hooks (matchers, MCP names)",
		documented: []string{"run_shell_command", "read_file", "read_many_files", "write_file", "replace", "glob",
			"grep_search", "list_directory", "web_fetch", "google_web_search", "save_memory", "write_todos", "ask_user",
			"invoke_agent", "activate_skill", "mcp_github_create_issue"},
		rows: []toolRow{
			rw("run_shell_command", "terminal"), rw("write_file", "write_file"), rw("replace", "patch"),
			rw("web_fetch", "web_extract"), rw("google_web_search", "web_search"),
			rw("mcp_github_create_issue", "mcp_github_create_issue"),
			roAs("read_file", "read_file"), roAs("invoke_agent", "delegate_task"),
			ro("read_many_files"), ro("glob"), ro("grep_search"), ro("list_directory"), ro("write_todos"), ro("ask_user"),
			ro("activate_skill"),
			unguarded("save_memory", "it appends a fact to Gemini's own memory file (~/.gemini/GEMINI.md), never a project file"),
		},
		call: func(tool string) (string, string) {
			return `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"` + tool + `","tool_input":{}}`, ""
		},
	},
	// Kiro CLI: its native tools (kiro.dev/docs/cli built-in tools; its
	// source's NATIVE_TOOLS) in both spellings, and MCP tools @server/tool.
	"kiro": {
		source: "kiro.dev/docs/cli/reference/built-in-tools; Kiro CLI source NATIVE_TOOLS, hook.rs",
		documented: []string{"fs_read", "fs_write", "execute_bash", "execute_cmd", "read", "write", "shell", "grep", "glob",
			"use_aws", "gh_issue", "knowledge", "thinking", "todo_list", "delegate", "@github/create_issue"},
		rows: []toolRow{
			rw("execute_bash", "terminal"), rw("execute_cmd", "terminal"), rw("shell", "terminal"),
			rw("fs_write", "write_file"), rw("write", "write_file"),
			rw("@github/create_issue", "mcp_github_create_issue"),
			roAs("fs_read", "read_file"), roAs("read", "read_file"), roAs("delegate", "delegate_task"),
			ro("grep"), ro("glob"), ro("thinking"), ro("todo_list"),
			unguarded("use_aws", "it calls the AWS API itself, no shell command: match use_aws"),
			unguarded("gh_issue", "it opens a prefilled GitHub issue in the browser, which the user submits"),
			unguarded("knowledge", "it writes Kiro's own knowledge base index, not a project file"),
		},
		call: func(tool string) (string, string) {
			return `{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"` + tool + `","tool_input":{}}`, ""
		},
	},
	// Qwen Code: its tools' runtime names and the display names its
	// matchers also take (qwenlm.github.io/qwen-code-docs tools; 0.24's
	// ToolNames), and MCP tools mcp__SERVER__TOOL.
	"qwen": {
		source: "qwenlm.github.io/qwen-code-docs (tools, hooks); @qwen-code/qwen-code 0.24 ToolNames",
		documented: []string{"run_shell_command", "Shell", "edit", "write_file", "WriteFile", "read_file", "ReadFile",
			"read_many_files", "grep_search", "glob", "list_directory", "web_fetch", "web_search", "todo_write", "TodoList",
			"save_memory", "agent", "notebook_edit", "skill", "ask_user_question", "exit_plan_mode", "enter_plan_mode",
			"mcp__github__create_issue"},
		rows: []toolRow{
			rw("run_shell_command", "terminal"), rw("Shell", "terminal"), rw("edit", "patch"), rw("write_file", "write_file"),
			rw("WriteFile", "write_file"), rw("notebook_edit", "patch"), rw("web_fetch", "web_extract"),
			rw("web_search", "web_search"), rw("mcp__github__create_issue", "mcp_github_create_issue"),
			roAs("read_file", "read_file"), roAs("ReadFile", "read_file"), roAs("agent", "delegate_task"),
			ro("read_many_files"), ro("grep_search"), ro("glob"), ro("list_directory"), ro("todo_write"), ro("TodoList"),
			ro("skill"), ro("ask_user_question"), ro("exit_plan_mode"), ro("enter_plan_mode"),
			unguarded("save_memory", "it appends a fact to Qwen's own memory file (QWEN.md in its home), never a project file"),
		},
		call: claudeCall("PreToolUse"),
	},
	// Windsurf: Cascade's hooks are per action, not per tool (Cascade Hooks
	// documentation): the action is the "tool".
	"windsurf": {
		source:     "docs.windsurf.com Cascade Hooks (pre_read_code, pre_write_code, pre_run_command, pre_mcp_tool_use)",
		documented: []string{"read_code", "write_code", "run_command", "mcp_tool_use"},
		rows: []toolRow{
			rw("write_code", "patch"), rw("run_command", "terminal"), rw("mcp_tool_use", "mcp_github_create_issue"),
			roAs("read_code", "read_file"),
		},
		call: func(action string) (string, string) {
			return `{"agent_action_name":"pre_` + action + `","trajectory_id":"t","tool_info":{"mcp_server_name":"github","mcp_tool_name":"create_issue"}}`, ""
		},
	},
	// Cline: its tools (docs.cline.bot tools reference) as its PreToolUse
	// file sees them, and cline 3's run_commands (@cline/core 0.0.86).
	"cline": {
		source: "docs.cline.bot/exploring-clines-tools/cline-tools-guide; docs.cline.bot hook reference; @cline/core 0.0.86",
		documented: []string{"execute_command", "read_file", "write_to_file", "replace_in_file", "search_files", "list_files",
			"list_code_definition_names", "browser_action", "use_mcp_tool", "access_mcp_resource", "ask_followup_question",
			"attempt_completion", "new_task", "plan_mode_respond", "web_fetch", "web_search", "sdk:run_commands"},
		rows: []toolRow{
			rw("execute_command", "terminal"), rw("write_to_file", "write_file"), rw("replace_in_file", "patch"),
			rw("web_fetch", "web_extract"), rw("web_search", "web_search"),
			rw("use_mcp_tool", "mcp_github_create_issue"), rw("sdk:run_commands", "terminal"),
			roAs("read_file", "read_file"),
			ro("search_files"), ro("list_files"), ro("list_code_definition_names"), ro("access_mcp_resource"),
			ro("ask_followup_question"), ro("attempt_completion"), ro("plan_mode_respond"),
			unguarded("browser_action", "it drives a browser (launch, click, type), not one fetch: match browser_action"),
			unguarded("new_task", "it starts a new task with the user's consent; the new task's tool calls are guarded"),
		},
		call: func(tool string) (string, string) {
			if sdk, ok := strings.CutPrefix(tool, "sdk:"); ok {
				return `{"hookName":"tool_call","taskId":"t","tool_call":{"name":"` + sdk + `","input":{"commands":["ls"]}}}`, ""
			}
			return `{"hookName":"PreToolUse","taskId":"t","preToolUse":{"toolName":"` + tool +
				`","parameters":{"server_name":"github","tool_name":"create_issue","arguments":"{}"}}}`, ""
		},
	},
}

// canonicalTools are the tools a guard is written for: Hermes' names.
var canonicalTools = []string{"terminal", "write_file", "patch", "read_file", "web_extract", "web_search", "delegate_task"}

func TestToolTable(t *testing.T) {
	keys := map[string]bool{}
	for _, a := range All() {
		keys[a.Name] = true
		for _, h := range a.hosts {
			keys[a.Name+"/"+h.Name] = true
		}
	}
	for k := range keys {
		if _, ok := toolTables[k]; !ok {
			t.Errorf("%s: no tool table: list its documented tools (cited) and the canonical tool of each", k)
		}
	}
	for k, tt := range toolTables {
		if !keys[k] {
			t.Errorf("%s: a tool table for no agent of the registry", k)
			continue
		}
		t.Run(strings.ReplaceAll(k, "/", "_"), func(t *testing.T) { checkToolTable(t, k, tt) })
	}
}

func checkToolTable(t *testing.T, key string, tt toolTable) {
	if tt.source == "" {
		t.Errorf("no source cited")
	}
	name, host, _ := strings.Cut(key, "/")
	a, _ := Lookup(name)
	rows := map[string]toolRow{}
	for _, r := range tt.rows {
		if _, dup := rows[r.tool]; dup {
			t.Errorf("%s: two rows", r.tool)
		}
		rows[r.tool] = r
		if !slices.Contains(tt.documented, r.tool) {
			t.Errorf("%s: a row for a tool the documented list does not have", r.tool)
		}
	}
	for _, tool := range tt.documented {
		r, ok := rows[tool]
		if !ok {
			t.Errorf("%s: documented, but the table has no row: map it to a canonical tool or say why nothing guards it", tool)
			continue
		}
		if r.acts && r.want == "" && r.why == "" {
			t.Errorf("%s acts and maps to no canonical tool, and no row says why", tool)
		}
		payload, event := tt.call(tool)
		c, err := a.Decode([]byte(payload), event)
		if err != nil || c.Event == nil || c.Event.Name != "pre_tool_call" {
			t.Errorf("%s: %s does not decode to pre_tool_call: %v", tool, payload, err)
			continue
		}
		if host != "" && (c.Host == nil || c.Host.Name != host) {
			t.Errorf("%s: the payload is not %s's", tool, host)
		}
		seen := seenAs(c.Fields)
		switch {
		case r.want != "" && !slices.Contains(seen, r.want):
			t.Errorf("%s is seen as %q by a Hermes matcher, want %q", tool, seen, r.want)
		case r.want == "" && slices.ContainsFunc(seen, isCanonical):
			t.Errorf("%s is seen as %q, a canonical tool: give its row that tool", tool, seen)
		}
	}
}

// seenAs is what a Hermes matcher is compared with for a decoded call: the
// Hermes name of its tool, and an MCP tool's other spellings.
func seenAs(fields map[string]any) []string {
	name, _ := fields["tool_name"].(string)
	h := protocol.DefaultTools().Hermes(name)
	if mcp := protocol.MCPToolNames(h); mcp != nil {
		return mcp
	}
	return []string{h}
}

func isCanonical(s string) bool {
	return slices.Contains(canonicalTools, s) || protocol.MCPToolNames(s) != nil
}

// vscodeTable is VS Code's tools, whichever agent's hook file it runs.
var vscodeTable = toolTable{
	source: "code.visualstudio.com/docs/copilot/customization/hooks; chat tools reference",
	documented: []string{"run_in_terminal", "runInTerminal", "runTerminalCommand", "create_file", "createFile",
		"replace_string_in_file", "multi_replace_string_in_file", "insert_edit_into_file", "apply_patch", "editFiles",
		"edit_notebook_file", "read_file", "readFile", "file_search", "grep_search", "fetch_webpage", "runSubagent",
		"list_dir", "semantic_search", "get_errors", "get_terminal_output", "create_directory", "run_task",
		"run_notebook_cell", "run_vscode_command", "install_extension",
		// microsoft/vscode chatAgentTools: send_to_terminal sends a command
		// to a shell run_in_terminal left running; create_and_run_task
		// writes a shell task into .vscode/tasks.json and runs it.
		"send_to_terminal", "create_and_run_task"},
	rows: []toolRow{
		rw("run_in_terminal", "terminal"), rw("runInTerminal", "terminal"), rw("runTerminalCommand", "terminal"),
		rw("send_to_terminal", "terminal"), rw("create_and_run_task", "terminal"),
		rw("create_file", "write_file"), rw("createFile", "write_file"),
		rw("replace_string_in_file", "patch"), rw("multi_replace_string_in_file", "patch"), rw("insert_edit_into_file", "patch"),
		rw("apply_patch", "patch"), rw("editFiles", "patch"), rw("edit_notebook_file", "patch"),
		rw("fetch_webpage", "web_extract"),
		roAs("read_file", "read_file"), roAs("readFile", "read_file"), roAs("runSubagent", "delegate_task"),
		ro("file_search"), ro("grep_search"), ro("list_dir"), ro("semantic_search"), ro("get_errors"), ro("get_terminal_output"),
		unguarded("create_directory", "it creates an empty folder: no content is written"),
		unguarded("run_task", "it runs a task of the workspace's tasks.json by its label: the call carries no command"),
		unguarded("run_notebook_cell", "it runs a cell in the notebook's kernel, not a shell; its code is the notebook's"),
		unguarded("run_vscode_command", "it runs an editor command, not a shell command"),
		unguarded("install_extension", "VS Code asks the user itself before it installs an extension"),
	},
	call: func(tool string) (string, string) {
		return `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/p","tool_name":"` + tool + `","tool_input":{}}`, ""
	},
}
