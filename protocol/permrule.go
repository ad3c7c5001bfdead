package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Claude Code hook handlers may carry "if": "<permission rule>": the handler
// runs only when the tool call matches the rule. This file evaluates such a
// rule against one tool call, purely (no file system, no environment: the
// directories a rule is anchored at come in a RuleContext).
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

// IfRuleEvents are the Claude Code events on which a handler's "if" is
// evaluated. On every other event a handler that has "if" never runs (hooks
// docs, "Common fields").
var IfRuleEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}

// IfRuleApplies reports whether "if" is evaluated on the Claude Code event
// named claudeEvent; when it is not, a handler carrying "if" never runs.
func IfRuleApplies(claudeEvent string) bool {
	for _, e := range IfRuleEvents {
		if e == claudeEvent {
			return true
		}
	}
	return false
}

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
var legacyToolNames = map[string]string{
	"Task":            "Agent",
	"KillShell":       "TaskStop",
	"AgentOutputTool": "TaskOutput",
	"BashOutputTool":  "TaskOutput",
}

func canonicalTool(name string) string {
	if c, ok := legacyToolNames[name]; ok {
		return c
	}
	return name
}

// pathTools take a gitignore-style path pattern; dirTools name a directory
// rather than a file (and default to the working directory).
var (
	pathTools = map[string]bool{"Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "Glob": true, "Grep": true, "LS": true}
	dirTools  = map[string]bool{"Glob": true, "Grep": true, "LS": true}
	// agentParams are the Agent tool's input fields other than the agent
	// type, so that Agent(model:opus) is a parameter rule while
	// Agent(my-plugin:reviewer) names a plugin's agent.
	agentParams = map[string]bool{"description": true, "prompt": true, "subagent_type": true, "model": true, "run_in_background": true, "isolation": true, "name": true, "team_name": true, "mode": true}
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
	case pathTools[r.tool]:
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
		if p, ok := parseParamRule(content); ok && agentParams[p.name] {
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
		return r.shell.match(cmd)
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

// ---------------------------------------------------------------------------
// Bash

// shellPattern is a Bash rule's specifier. Claude Code's syntax
// (permissions docs, "Wildcard patterns" and "Bash"):
//
//   - "x:*" (legacy, only at the very end) is a prefix: the command is x, or
//     starts with "x " — so it keeps a word boundary (npm run test:* matches
//     "npm run test" and "npm run test foo", not "npm run testing");
//   - otherwise the pattern is anchored at both ends and every unescaped *
//     matches any run of characters, spaces included, at any position
//     ("git * main", "* --version"); \* is a literal star and \\ a
//     backslash;
//   - a pattern whose only * is a trailing " *" makes the " …" optional, so
//     "ls *" matches "ls" and "ls -la" but not "lsof" (the word boundary),
//     while "ls*" also matches "lsof";
//   - no * at all is an exact command.
type shellPattern struct {
	raw      string
	prefix   string
	isPrefix bool
	re       *regexp.Regexp
	// nameOnly: the pattern names just the command ("rm *", "rm*",
	// "rm:*"). When a command holds $(…), backticks or $VAR, Claude Code
	// evaluates only such patterns against its subcommands and runs the
	// hook for any other (hooks docs, Bash `if` table: Bash(git push *) on
	// `echo $(date)` → runs).
	nameOnly bool
}

var nameOnlyPattern = regexp.MustCompile(`^[^\s*?\[]+\s?\*$`)

func compileShellPattern(content string) shellPattern {
	p := shellPattern{raw: content}
	if len(content) > 2 && strings.HasSuffix(content, ":*") {
		p.isPrefix, p.prefix = true, content[:len(content)-2]
		p.nameOnly = !strings.ContainsAny(p.prefix, " \t\n\r\f\v")
		return p
	}
	p.nameOnly = nameOnlyPattern.MatchString(content)
	pat := strings.TrimSpace(content)
	var b strings.Builder
	stars := 0
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < len(pat) && (pat[i+1] == '*' || pat[i+1] == '\\'):
			b.WriteString(regexp.QuoteMeta(pat[i+1 : i+2]))
			i++
		case c == '*':
			b.WriteString(".*")
			stars++
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	expr := b.String()
	if stars == 1 && strings.HasSuffix(expr, " .*") {
		expr = expr[:len(expr)-len(" .*")] + "(?: .*)?"
	}
	p.re = regexp.MustCompile(`(?s)^` + expr + `$`)
	return p
}

func (p shellPattern) matches(cmd string) bool {
	if p.isPrefix {
		return cmd == p.prefix || strings.HasPrefix(cmd, p.prefix+" ")
	}
	return p.re.MatchString(cmd)
}

// maxShellCommand bounds what is parsed; a longer command is not analysed
// and the hook runs.
const maxShellCommand = 1 << 16

func (p shellPattern) match(command string) (bool, string) {
	rule := "Bash(" + p.raw + ")"
	if len(command) > maxShellCommand {
		return true, "the command is too long to analyse, so the hook runs (as Claude Code does when it cannot tell)"
	}
	cmds, dynamic, err := analyzeShell(command)
	if err != nil {
		return true, "the command cannot be parsed (" + err.Error() + "), so the hook runs, as in Claude Code"
	}
	if dynamic && !p.nameOnly {
		return true, "the command holds $(…), backticks or $VAR and " + rule + " names more than the command, so the hook runs, as in Claude Code"
	}
	for _, c := range cmds {
		if c.dynName {
			return true, "`" + clip(c.text()) + "` runs a command whose name is only known when it runs, so the hook runs"
		}
		for _, cand := range c.candidates() {
			if p.matches(cand) {
				return true, "subcommand `" + clip(cand) + "` matches " + rule
			}
		}
	}
	if len(cmds) == 0 {
		return false, "the command runs no command"
	}
	return false, "no subcommand matches " + rule
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// shellCommand is one simple command of a Bash command line, as Claude Code
// compares it: its words after the leading VAR=value assignments (which are
// never part of it), joined with single spaces.
//
// A word made only of literal text and quotes counts as its value: quotes
// are removed and backslash escapes resolved ("a b", 'a b' and a\ b are the
// one word a b; $'\t' is a tab), so `git commit -m "fix it"` is compared as
// "git commit -m fix it" — the argv the command will receive. Tilde, braces
// and globs are not expanded (~/x, {a,b} and *.go stay as written: neither
// Claude Code nor this evaluator knows the file system). A word holding a
// $VAR, ${…}, $(…), `…`, $((…)) or <(…) has no value before it runs; it is
// kept as its source text and marks the whole command line dynamic.
type shellCommand struct {
	words  []string
	static []bool
	// dynName: after assignments and wrappers, the command name itself is
	// not static ($CMD -rf /): nothing can be said about what runs.
	dynName bool
}

func (c shellCommand) text() string { return strings.Join(c.words, " ") }

// candidates returns the forms the command is compared in: as written, and
// with the wrappers Claude Code strips before matching Bash rules
// (permissions docs, "Wrappers": timeout, time, nice, nohup, stdbuf, the
// builtins command and builtin, zsh's noglob, and a bare xargs). The hooks
// docs mention only the assignment stripping for `if`; comparing both forms
// keeps a guard on rm * firing for `timeout 5 rm x` while a hook on
// timeout * still fires. env, sudo, sh -c, bash -c and eval are not
// unwrapped (they are not on Claude Code's list).
func (c shellCommand) candidates() []string {
	full := c.text()
	stripped := stripWrappers(c.words)
	if len(stripped) == len(c.words) || len(stripped) == 0 {
		return []string{full}
	}
	return []string{full, strings.Join(stripped, " ")}
}

func stripWrappers(w []string) []string {
	for len(w) > 0 {
		next := w
		switch w[0] {
		case "nohup", "builtin", "noglob":
			next = w[1:]
		case "time":
			next = skipOpts(w[1:], nil)
		case "command":
			if len(w) > 1 && (w[1] == "-v" || w[1] == "-V") {
				return w // the query form looks a command up, it runs nothing
			}
			next = skipOpts(w[1:], nil)
		case "timeout":
			next = skipOpts(w[1:], map[string]bool{"-s": true, "--signal": true, "-k": true, "--kill-after": true})
			if len(next) > 0 {
				next = next[1:] // the duration
			}
		case "nice":
			next = skipOpts(w[1:], map[string]bool{"-n": true, "--adjustment": true})
		case "stdbuf":
			next = skipOpts(w[1:], map[string]bool{"-i": true, "-o": true, "-e": true})
		case "xargs":
			// Only a bare xargs: `xargs -n1 grep p` is matched as xargs.
			if len(w) > 1 && !strings.HasPrefix(w[1], "-") {
				next = w[1:]
			}
		}
		if len(next) == len(w) || len(next) == 0 {
			return w
		}
		w = next
	}
	return w
}

// skipOpts drops leading options; those in withArg take the next word as
// their value unless written --opt=value or -oVALUE.
func skipOpts(w []string, withArg map[string]bool) []string {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") && w[0] != "-" {
		if w[0] == "--" {
			return w[1:]
		}
		opt := w[0]
		w = w[1:]
		if withArg[opt] && len(w) > 0 {
			w = w[1:]
		}
	}
	return w
}

// analyzeShell parses a Bash command line (bash dialect) and returns every
// simple command in it — in pipelines, lists (&&, ||, ;, &, |&, newlines),
// subshells, groups, if/while/for/case bodies, functions, and inside $(…),
// backticks and <(…) — and whether any part of it only has a value when it
// runs.
func analyzeShell(command string) (cmds []shellCommand, dynamic bool, err error) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, false, err
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			dynamic = true
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true // only assignments
			}
			var c shellCommand
			for _, w := range n.Args {
				v, ok := wordValue(w, command)
				c.words, c.static = append(c.words, v), append(c.static, ok)
			}
			c.dynName = nameIsDynamic(c)
			cmds = append(cmds, c)
		case *syntax.DeclClause:
			if n.Variant == nil {
				return true
			}
			c := shellCommand{words: []string{n.Variant.Value}, static: []bool{true}}
			for _, a := range n.Args {
				v, ok := assignValue(a, command)
				c.words, c.static = append(c.words, v), append(c.static, ok)
			}
			cmds = append(cmds, c)
		}
		return true
	})
	return cmds, dynamic, nil
}

// nameIsDynamic reports whether the word that names the command, once
// wrappers are skipped, has no value before it runs.
func nameIsDynamic(c shellCommand) bool {
	stripped := stripWrappers(c.words)
	i := len(c.words) - len(stripped)
	return i < len(c.static) && !c.static[i]
}

func source(n syntax.Node, src string) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

// wordValue returns a word's value when it is static, or its source text.
func wordValue(w *syntax.Word, src string) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			if !p.Dollar {
				b.WriteString(p.Value)
				continue
			}
			v, err := expand.Literal(&expand.Config{}, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return source(w, src), false
			}
			b.WriteString(v)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return source(w, src), false
				}
				b.WriteString(unescapeDoubleQuoted(lit.Value))
			}
		default:
			return source(w, src), false
		}
	}
	return b.String(), true
}

func assignValue(a *syntax.Assign, src string) (string, bool) {
	if a.Name == nil || a.Index != nil || a.Array != nil {
		return source(a, src), false
	}
	if a.Naked {
		return a.Name.Value, true
	}
	if a.Value == nil {
		return a.Name.Value + "=", true
	}
	v, ok := wordValue(a.Value, src)
	if !ok {
		return source(a, src), false
	}
	return a.Name.Value + "=" + v, true
}

func unescapeUnquoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unescapeDoubleQuoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// File paths

type pathAnchor uint8

const (
	anchorCwd     pathAnchor = iota // "x", "./x": the working directory
	anchorRoot                      // "//x": the file system root
	anchorHome                      // "~/x": the home directory
	anchorProject                   // "/x": the settings source's root
)

// pathPattern is a file tool's specifier: gitignore pattern syntax under one
// of four anchors (permissions docs, "Read and Edit"): "//x" is the
// absolute path /x, "~/x" is under the home directory, "/x" is under the
// root of the settings source (ProjectDir — NOT the file system root), and
// "x" or "./x" is under the working directory. Under its anchor the pattern
// is gitignore's: * and ? stay within one path segment, [a-z] is a class,
// ** spans directories, a pattern with no slash (other than a trailing one)
// matches at any depth (".env" = "**/.env"), one with a slash is anchored
// ("src/**" is <cwd>/src only — the docs give this reading for `if`, and
// for allow rules, since v2.1.214), a trailing slash matches directories
// only, and a pattern that matches a directory matches everything in it.
// Matching is case-sensitive and nothing is resolved on disk (no symlinks).
type pathPattern struct {
	raw     string
	anchor  pathAnchor
	segs    []string // path.Match patterns, "**" for any number of segments
	dirOnly bool
}

func compilePathPattern(content string) (pathPattern, error) {
	p := pathPattern{raw: content}
	rest := content
	anchored := true
	switch {
	case strings.HasPrefix(rest, "//"):
		p.anchor, rest = anchorRoot, strings.TrimLeft(rest, "/")
	case strings.HasPrefix(rest, "~/"):
		p.anchor, rest = anchorHome, rest[2:]
	case strings.HasPrefix(rest, "/"):
		p.anchor, rest = anchorProject, rest[1:]
	default:
		p.anchor, anchored = anchorCwd, false
		rest = strings.TrimPrefix(rest, "./")
	}
	switch {
	case strings.HasPrefix(rest, "#"):
		return p, errors.New("a path pattern starting with # is a gitignore comment and matches nothing (escape it as \\#)")
	case strings.HasPrefix(rest, "!"):
		return p, errors.New("a negated path pattern (!…) means nothing as a single rule (escape it as \\!)")
	}
	// gitignore: trailing spaces are ignored unless escaped.
	for strings.HasSuffix(rest, " ") && !strings.HasSuffix(rest, `\ `) {
		rest = rest[:len(rest)-1]
	}
	if strings.HasSuffix(rest, "/") {
		p.dirOnly = true
		rest = strings.TrimRight(rest, "/")
	}
	if strings.HasPrefix(rest, "/") {
		anchored, rest = true, strings.TrimLeft(rest, "/")
	}
	if strings.Contains(rest, "/") {
		anchored = true
	}
	for _, s := range strings.Split(rest, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return p, errors.New(`a path pattern cannot climb out of its anchor with ".."; write an absolute //path or ~/path`)
		case "**":
			if len(p.segs) > 0 && p.segs[len(p.segs)-1] == "**" {
				continue
			}
			p.segs = append(p.segs, s)
			continue
		}
		s = strings.ReplaceAll(s, "[!", "[^")
		if _, err := path.Match(s, ""); err != nil {
			return p, fmt.Errorf("bad path pattern segment %q: %v", s, err)
		}
		p.segs = append(p.segs, s)
	}
	if len(p.segs) == 0 {
		return p, errors.New("empty path pattern")
	}
	if !anchored && p.segs[0] != "**" {
		p.segs = append([]string{"**"}, p.segs...)
	}
	return p, nil
}

func (p pathPattern) match(tool string, input map[string]any, ctx RuleContext) (bool, string) {
	rule := tool + "(" + p.raw + ")"
	var file string
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s, ok := input[k].(string); ok && s != "" {
			file = s
			break
		}
	}
	isDir := dirTools[tool]
	if file == "" {
		if !isDir {
			return false, "tool_input has no file_path"
		}
		file = "." // Glob and Grep search the working directory by default
	}
	switch {
	case file == "~" || strings.HasPrefix(file, "~/"):
		if ctx.Home == "" {
			return true, "the home directory is unknown, so " + file + " cannot be resolved; the hook runs"
		}
		file = ctx.Home + file[1:]
	case !strings.HasPrefix(file, "/"):
		if ctx.Cwd == "" {
			return true, "the working directory is unknown, so " + file + " cannot be resolved; the hook runs"
		}
		file = ctx.Cwd + "/" + file
	}
	file = path.Clean(file)
	var root string
	switch p.anchor {
	case anchorRoot:
		root = "/"
	case anchorHome:
		root = ctx.Home
	case anchorProject:
		root = ctx.ProjectDir
		if root == "" {
			root = ctx.Cwd
		}
	default:
		root = ctx.Cwd
	}
	if root == "" {
		return true, "the directory " + rule + " is anchored at is unknown; the hook runs"
	}
	root = path.Clean(root)
	var rel string
	switch {
	case root == "/":
		rel = strings.TrimPrefix(file, "/")
	case strings.HasPrefix(file, root+"/"):
		rel = file[len(root)+1:]
	}
	if rel == "" {
		if file == root {
			return false, file + " is the directory " + rule + " is anchored at, not a path under it"
		}
		return false, file + " is not under " + root + ", where " + rule + " is anchored"
	}
	segs := strings.Split(rel, "/")
	for n := len(segs); n >= 1; n-- {
		if p.dirOnly && n == len(segs) && !isDir {
			continue
		}
		if matchSegments(p.segs, segs[:n]) {
			if n < len(segs) {
				return true, file + " is inside " + path.Join(root, strings.Join(segs[:n], "/")) + ", which matches " + rule
			}
			return true, file + " matches " + rule
		}
	}
	return false, file + " does not match " + rule
}

func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return len(name) > 0 // a trailing /** is everything inside, not the directory
			}
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// ---------------------------------------------------------------------------
// WebFetch

// domainPattern is WebFetch(domain:…) (permissions docs, "WebFetch"): the
// URL's host name, case-insensitively, a trailing dot ignored on both sides.
// "*" is every host; a leading "*." is any subdomain at any depth but not
// the domain itself; any other * matches within one label (example.*
// matches example.org, not example.evil.com). Without a wildcard the host
// must be exactly the domain: domain:example.com does not cover
// www.example.com.
type domainPattern struct {
	raw    string
	any    bool
	sub    bool     // leading "*."
	labels []string // label patterns (* within a label)
}

func compileDomainPattern(v string) (domainPattern, error) {
	d := domainPattern{raw: "domain:" + v}
	v = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(v)), ".")
	switch {
	case v == "":
		return d, errors.New("domain: needs a host name")
	case v == "*":
		d.any = true
		return d, nil
	case strings.HasPrefix(v, "*."):
		d.sub, v = true, v[2:]
	}
	d.labels = strings.Split(v, ".")
	for _, l := range d.labels {
		if l == "" {
			return d, fmt.Errorf("%q is not a host name", v)
		}
	}
	return d, nil
}

func (d domainPattern) match(input map[string]any) (bool, string) {
	rule := "WebFetch(" + d.raw + ")"
	raw, _ := input["url"].(string)
	u, err := url.Parse(strings.TrimSpace(raw))
	if raw == "" || err != nil || u.Hostname() == "" {
		return false, "tool_input has no URL with a host"
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if d.any {
		return true, host + " matches " + rule
	}
	labels := strings.Split(host, ".")
	if d.sub {
		if len(labels) <= len(d.labels) {
			return false, host + " is not a subdomain matching " + rule
		}
		labels = labels[len(labels)-len(d.labels):]
	}
	if len(labels) != len(d.labels) {
		return false, host + " does not match " + rule
	}
	for i, l := range d.labels {
		if !starMatch(l, labels[i]) {
			return false, host + " does not match " + rule
		}
	}
	return true, host + " matches " + rule
}

// starMatch matches s against a pattern whose only metacharacter is *.
func starMatch(pat, s string) bool {
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return pat == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// ---------------------------------------------------------------------------
// Tool(param:value)

// paramPattern is Tool(param:value) (permissions docs, "Match by input
// parameter"): the tool_input's top-level field param, a scalar, equals
// value, where * in value matches any run of characters. A missing field
// never matches. The docs describe it for deny and ask rules; that `if`
// honours it is UNVERIFIED, and it is accepted here so that such a rule
// filters rather than errors.
type paramPattern struct {
	name, value string
}

var paramRule = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$`)

func parseParamRule(content string) (paramPattern, bool) {
	m := paramRule.FindStringSubmatch(content)
	if m == nil {
		return paramPattern{}, false
	}
	return paramPattern{name: m[1], value: m[2]}, true
}

func (p paramPattern) match(input map[string]any) (bool, string) {
	rule := p.name + ":" + p.value
	var s string
	switch v := input[p.name].(type) {
	case string:
		s = v
	case bool:
		s = strconv.FormatBool(v)
	case float64:
		s = strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		s = v.String()
	case int:
		s = strconv.Itoa(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	default:
		return false, "tool_input has no scalar " + p.name
	}
	if !starMatch(p.value, s) {
		return false, p.name + " is " + s + ", not " + p.value
	}
	return true, "tool_input matches " + rule
}
