// Package permrule evaluates Claude Code's `if` permission rules. A hook
// handler may carry "if": "<permission rule>": the handler runs only when the
// tool call matches the rule. The package evaluates such a rule against one
// tool call, purely (no file system, no environment: the directories a rule
// is anchored at come in a RuleContext, and symlinks are resolved by the
// caller, which passes the resolved path to MatchFile).
//
// Contract: ParseIfRule never panics; Match never panics and, on any doubt
// about what a call runs or touches, matches (the hook runs).
//
// Sources, read in August 2026: code.claude.com/docs/en/hooks ("Common
// fields", the Bash `if` matching table), /docs/en/hooks-guide ("Filter by
// tool name and arguments with the if field"), /docs/en/permissions
// ("Permission rule syntax", "Wildcard patterns", "Tool-specific permission
// rules": Bash, Compound commands, Wrappers, Read and Edit, WebFetch, MCP,
// Agent). Where the docs are silent, the behaviour of Claude Code's own
// `if` matcher as described by public analyses of its source is followed,
// and the comments say so.
//
// The one rule that shapes everything else: `if` is a filter that decides
// whether a hook runs, and the hooks it guards are often security checks.
// So where Claude Code cannot tell (a command it cannot parse, a pattern it
// cannot evaluate against $(…) or $VAR) it runs the hook, and so does this
// evaluator; and a compound command matches when ANY of its subcommands
// matches ("Bash(git *)" runs "when any subcommand of the Bash input matches
// git *", hooks docs) — the opposite direction of a permission allow rule,
// which must match EVERY subcommand. Without that, `ls && rm -rf x` would
// slip past a hook filtered on Bash(rm *).
//
// Here the same rule goes further than Claude Code (issue 23): a rule
// matches what a call RUNS, not only what it says first. A Bash command is
// followed through wrappers, command strings and paths (sudo rm, sh -c
// 'rm x', /bin/rm; runs.go), and a command word or runner whose
// effect the text does not show is doubt, which runs the hook; a path rule
// also matches where a symlink leads (the dispatcher resolves it: I/O);
// a domain rule reads the host as the fetch will (WHATWG URL parsing,
// url.go), and on any doubt the hook runs. A hook that Claude Code
// would skip may therefore run here; the aim is that none it would run is
// skipped.
package permrule

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// RuleContext holds the directories a rule and a tool input are resolved
// against. An empty field is unknown: a rule or path that needs it cannot be
// evaluated, and the rule then matches (the hook runs) with a why that says
// so.
type RuleContext struct {
	// Cwd is the session's working directory: relative tool paths, and the
	// "x" / "./x" path patterns, are resolved against it.
	Cwd string
	// ProjectDir is where a "/x" path pattern is anchored: the root of the
	// settings source that declared the rule (the project root for
	// .claude/settings.json, ~/.claude for user settings). Empty means Cwd,
	// as Claude Code does for rules given on the command line.
	ProjectDir string
	// Home is the user's home directory, for "~/x" patterns and "~/x" paths.
	Home string
	// Memo, when set, keeps a long command's analysis for the next rule
	// matched against it: one per firing, whose entries' rules are matched
	// in turn against its one command.
	Memo *Memo
	// Stop, when set, ends a command's analysis once it reports true: the
	// rule then matches (the hook runs), as for a command that cannot be
	// read. An agent that stops waiting for its hook reads no answer,
	// which most take as no objection; a hostile command must not keep
	// the dispatch in the analysis of an if rule until then.
	Stop func() bool
}

type ruleKind uint8

const (
	ruleAnyCall ruleKind = iota // bare tool name: every call of the tool
	ruleShell                   // Bash(command pattern)
	rulePath                    // Read(…), Edit(…), …: gitignore-style path pattern
	ruleDomain                  // WebFetch(domain:…)
	ruleAgent                   // Agent(agent-type)
	ruleParam                   // Tool(param:value)
	ruleSkill                   // Skill(name), Skill(name *)
)

// IfRule is one parsed permission rule, as written in a hook handler's
// "if" field. The zero value matches nothing; use ParseIfRule.
type IfRule struct {
	raw  string
	tool string         // canonical tool name, "" when toolRe or server is set
	glob *regexp.Regexp // tool-name glob (mcp__github__get_*, *)
	mcp  string         // "mcp__server": every tool of the server

	kind   ruleKind
	shell  shellPattern
	path   pathPattern
	domain domainPattern
	agent  string
	param  paramPattern
}

// String returns the rule as written (trimmed).
func (r IfRule) String() string { return r.raw }

// legacyToolNames are Claude Code's renamed tools; a rule written for either
// name applies to both (the rule and the call are both normalised).
var legacyToolNames = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Task":            "Agent",
		"KillShell":       "TaskStop",
		"AgentOutputTool": "TaskOutput",
		"BashOutputTool":  "TaskOutput",
	}
})

func canonicalTool(name string) string {
	if c, ok := legacyToolNames()[name]; ok {
		return c
	}
	return name
}

// pathTools take a gitignore-style path pattern; dirTools name a directory
// rather than a file (and default to the working directory).
var (
	pathTools = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "Glob": true, "Grep": true, "LS": true}
	})
	dirTools = sync.OnceValue(func() map[string]bool { return map[string]bool{"Glob": true, "Grep": true, "LS": true} })
	// agentParams are the Agent tool's input fields other than the agent
	// type, so that Agent(model:opus) is a parameter rule while
	// Agent(my-plugin:reviewer) names a plugin's agent.
	agentParams = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"description": true, "prompt": true, "subagent_type": true, "model": true, "run_in_background": true, "isolation": true, "name": true, "team_name": true, "mode": true}
	})
)

// ParseIfRule parses the value of a hook handler's "if" field.
//
// Forms: a bare tool name ("Bash", "mcp__github__create_issue"), a server
// ("mcp__github", every tool of that server), a tool-name glob
// ("mcp__github__*", "mcp__github__get_*", "*"), or Tool(specifier) where
// the specifier's syntax depends on the tool: a command pattern for Bash, a
// gitignore-style path pattern for Read, Edit, Write, MultiEdit,
// NotebookEdit, Glob, Grep and LS, domain:host for WebFetch, an agent type
// for Agent (alias Task), a skill name (with Bash's wildcards) for Skill,
// and param:value for any other tool's top-level input field. Tool(),
// Tool(*) and Tool are the same rule. In the specifier, \( \) and \\ stand
// for ( ) and \.
//
// A rule covers its own tool only: Edit(*.ts) does not fire for Write,
// although a permission check applies Edit rules to every editing tool
// ("A single if rule matches only one tool's calls", hooks docs; the hooks
// guide says to use one handler per tool name). The server form
// (mcp__github) and tool-name globs follow the permissions docs; that `if`
// honours them is UNVERIFIED (the source analyses show `if` comparing the
// tool name exactly), and they can only make a hook run more often.
//
// It returns an error when the rule cannot be evaluated as Claude Code
// would: a malformed rule (unbalanced parentheses, an empty tool name, a
// list such as "Bash|Edit" — "if" holds exactly one rule), a specifier on a
// tool whose specifier syntax is not known here (PowerShell, WebSearch(x),
// an MCP tool without param:value), a path pattern gitignore gives no
// meaning to as a single rule (empty, a comment "#…", a negation "!…", one
// that climbs out of its anchor with ".."), or a WebFetch specifier other
// than domain:. Claude Code would silently never match most of these; a
// caller guarding PreToolUse should refuse the call instead of skipping the
// guard.
func ParseIfRule(s string) (IfRule, error) {
	raw := strings.TrimSpace(s)
	r := IfRule{raw: raw}
	if raw == "" {
		return r, errors.New("empty rule")
	}
	if !utf8.ValidString(raw) {
		return IfRule{}, errors.New("the rule is not valid UTF-8")
	}
	name, content, hasContent := raw, "", false
	if open := firstUnescaped(raw, '('); open >= 0 {
		closeAt := lastUnescaped(raw, ')')
		if closeAt < 0 || closeAt <= open || closeAt != len(raw)-1 {
			return r, fmt.Errorf("%q: unbalanced parentheses (write Tool(specifier), escaping ( and ) inside as \\( \\))", raw)
		}
		name = strings.TrimSpace(raw[:open])
		if name == "" {
			return r, fmt.Errorf("%q: no tool name before (", raw)
		}
		content = raw[open+1 : closeAt]
		if !balancedParens(content) {
			return r, fmt.Errorf("%q: unbalanced parentheses inside the specifier (\"if\" holds exactly one rule; escape a literal paren as \\( or \\))", raw)
		}
		if content != "" && content != "*" {
			hasContent = true
			content = unescapeRuleContent(content)
		}
	} else if lastUnescaped(raw, ')') >= 0 {
		return r, fmt.Errorf("%q: unbalanced parentheses", raw)
	}
	if err := checkToolName(name); err != nil {
		return r, fmt.Errorf("%q: %v", raw, err)
	}
	switch {
	case strings.Contains(name, "*"):
		if hasContent {
			return r, fmt.Errorf("%q: a tool-name pattern cannot take a specifier", raw)
		}
		r.glob = regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(name), `\*`, ".*") + "$")
	case strings.HasPrefix(name, "mcp__") && len(name) > len("mcp__") && !strings.Contains(name[len("mcp__"):], "__"):
		if hasContent {
			return r, fmt.Errorf("%q: an MCP server rule cannot take a specifier; name the tool", raw)
		}
		r.mcp = name
	default:
		r.tool = canonicalTool(name)
	}
	if !hasContent {
		r.kind = ruleAnyCall
		return r, nil
	}
	var err error
	switch {
	case r.tool == "Bash":
		r.kind = ruleShell
		r.shell = compileShellPattern(content)
	case r.tool == "Skill":
		// skills docs: Skill(name) is an exact skill, Skill(name *) the
		// skill with any arguments; the wildcard syntax is Bash's.
		r.kind = ruleSkill
		r.shell = compileShellPattern(content)
	case r.tool == "PowerShell":
		err = errors.New("PowerShell command patterns are not supported (Claude Code parses them with PowerShell's own AST)")
	case pathTools()[r.tool]:
		r.kind = rulePath
		r.path, err = compilePathPattern(content)
	case r.tool == "WebFetch":
		p, ok := parseParamRule(content)
		switch {
		case ok && p.name == "domain":
			r.kind = ruleDomain
			r.domain, err = compileDomainPattern(p.value)
		case !ok || (p.name != "url" && p.name != "prompt"):
			err = errors.New("a WebFetch rule takes domain:host")
		case p.name == "url":
			err = errors.New("url is WebFetch's primary field, which Claude Code ignores in param:value rules; use domain:host")
		default:
			r.kind, r.param = ruleParam, p
		}
	case r.tool == "Agent":
		if p, ok := parseParamRule(content); ok && agentParams()[p.name] {
			r.kind, r.param = ruleParam, p
			break
		}
		r.kind, r.agent = ruleAgent, content
	default:
		p, ok := parseParamRule(content)
		if !ok {
			err = fmt.Errorf("no specifier syntax is known for %s; use %s alone or %s(param:value)", name, name, name)
			break
		}
		r.kind, r.param = ruleParam, p
	}
	if err != nil {
		return IfRule{raw: raw}, fmt.Errorf("%q: %v", raw, err)
	}
	return r, nil
}

func checkToolName(name string) error {
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '_', c == '-', c == '.', c == '*':
		case c == '|' || c == ',' || c == '&' || c == ' ':
			return errors.New(`"if" holds exactly one permission rule; there is no list syntax (use one handler per rule)`)
		default:
			return fmt.Errorf("%q is not a tool name", name)
		}
	}
	return nil
}

// balancedParens reports whether the unescaped parentheses of a
// specifier pair up; "git *) && Edit(x" is two rules run together.
func balancedParens(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		if (s[i] != '(' && s[i] != ')') || precedingBackslashes(s, i)%2 != 0 {
			continue
		}
		if s[i] == '(' {
			depth++
		} else if depth--; depth < 0 {
			return false
		}
	}
	return depth == 0
}

func precedingBackslashes(s string, i int) int {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n
}

func firstUnescaped(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c && precedingBackslashes(s, i)%2 == 0 {
			return i
		}
	}
	return -1
}

func lastUnescaped(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c && precedingBackslashes(s, i)%2 == 0 {
			return i
		}
	}
	return -1
}

// unescapeRuleContent undoes the rule string's own escapes, parentheses
// first, backslashes last (Claude Code's order).
func unescapeRuleContent(s string) string {
	s = strings.ReplaceAll(s, `\(`, "(")
	s = strings.ReplaceAll(s, `\)`, ")")
	return strings.ReplaceAll(s, `\\`, `\`)
}

// Match reports whether the tool call (a Claude Code tool name, and its
// tool_input) matches the rule, and why, in one sentence for logs and
// `hermes-hooks test`. Tool names are Claude names; a Hermes host's names
// must be translated first (ToolTable.Claude). The legacy names Task/Agent,
// KillShell/TaskStop, AgentOutputTool/BashOutputTool/TaskOutput are the same
// tool.
func (r IfRule) Match(toolName string, toolInput map[string]any, ctx RuleContext) (bool, string) {
	switch {
	case r.raw == "":
		return false, "empty rule"
	case r.glob != nil:
		if !r.glob.MatchString(toolName) && !r.glob.MatchString(canonicalTool(toolName)) {
			return false, toolName + " does not match the tool pattern " + r.raw
		}
		return true, toolName + " matches the tool pattern " + r.raw
	case r.mcp != "":
		if toolName != r.mcp && !strings.HasPrefix(toolName, r.mcp+"__") {
			return false, toolName + " is not a tool of the MCP server " + r.mcp
		}
		return true, toolName + " is a tool of the MCP server " + r.mcp
	case canonicalTool(toolName) != r.tool:
		return false, "the rule is for " + r.tool + ", the call is " + toolName
	}
	switch r.kind {
	case ruleShell:
		cmd, ok := toolInput["command"].(string)
		if !ok {
			// Claude Code validates the input against the tool's schema
			// first; an input without a command matches no Bash(…) rule.
			return false, "tool_input has no command string"
		}
		return r.shell.match(cmd, ctx.Memo, ctx.Stop)
	case rulePath:
		return r.path.match(r.tool, toolInput, ctx)
	case ruleDomain:
		return r.domain.match(toolInput)
	case ruleAgent:
		t, ok := toolInput["subagent_type"].(string)
		if !ok {
			return false, "tool_input has no subagent_type"
		}
		if t != r.agent {
			return false, "agent type " + t + " is not " + r.agent
		}
		return true, "agent type " + t + " matches"
	case ruleParam:
		return r.param.match(toolInput)
	case ruleSkill:
		// The skill's name, then its arguments after a space (UNVERIFIED:
		// the docs do not spell out the string Skill(name *) is matched
		// against).
		name, ok := toolInput["skill"].(string)
		if !ok {
			return false, "tool_input has no skill"
		}
		if args, _ := toolInput["args"].(string); args != "" {
			name += " " + args
		}
		if !r.shell.matches(name) {
			return false, "skill `" + clip(name) + "` does not match " + r.raw
		}
		return true, "skill `" + clip(name) + "` matches " + r.raw
	}
	return true, "every " + r.tool + " call matches " + r.raw
}
