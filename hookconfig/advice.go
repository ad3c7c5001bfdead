package hookconfig

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/shlex"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Advice: what `hermes-hooks validate` says about a config that loads and
// runs exactly as written, but not as its author meant — a matcher written
// in the other dialect's tool names never matches, a relative command in
// a user-level file runs whatever the agent's working directory holds.
// They are not load warnings: the dispatcher does not print them at every
// event, validate reports them with their file and line.

// maxShown bounds a config-controlled name repeated in advice: a hostile
// or broken file must not turn one line of validate's report into a
// megabyte.
const maxShown = 80

// Advice lists the advice about the config's entries (see above), each
// located by File and Key as a warning is.
func (cfg *Config) Advice() []Warning {
	listed := cfg.Listed
	if listed == nil {
		listed = cfg.Entries
	}
	var out []Warning
	for _, e := range listed {
		if e.Duplicate {
			continue
		}
		if w, ok := toolNameAdvice(e, cfg.Tools); ok {
			out = append(out, w)
		}
		if w, ok := agentNameAdvice(e, cfg.Tools); ok {
			out = append(out, w)
		}
		if w, ok := relativeCommandAdvice(e); ok {
			out = append(out, w)
		}
		out = append(out, unlistedAdvice(e)...)
		if e.Shadow && cfg.Journal.Off {
			out = append(out, shadowUnrecordedAdvice(e, cfg.Journal.OffBy))
		}
	}
	return out
}

// shadowUnrecordedAdvice is about an entry in mode: shadow while the
// journal is off: it decides nothing, and what it would decide goes to a
// journal that is not written, so the rule being tried is seen nowhere.
// offBy is the config's words that turned the journal off, quoted as
// written (JournalConfig.OffBy).
func shadowUnrecordedAdvice(e *Entry, offBy string) Warning {
	if offBy == "" {
		offBy = "journal: false"
	}
	return Warning{Path: entryKeyPath(e), File: e.Source, Key: entryKeyPath(e) + ".mode", Minor: true,
		Message: ".mode: shadow records what the entry would decide in the journal, which " + offBy + " turns off: it decides nothing and is recorded nowhere; turn the journal on, or drop mode: shadow"}
}

// entryKeyPath is the key path of an entry in its file: for a settings
// file the matcher group it is in (Index is the group's).
func entryKeyPath(e *Entry) string {
	return "hooks." + e.DeclaredAs + "[" + strconv.Itoa(e.Index) + "]"
}

// toolNameAdvice reports a matcher naming a tool in the other dialect's
// spelling: a Hermes-dialect matcher sees Hermes tool names (terminal), a
// Claude-dialect one Claude Code's (Bash), so `matcher: Bash` under
// pre_tool_call never matches. Only matchers that are plain names (or an
// alternation of them) are judged; the names come from the config's own
// tool table (defaults plus tool_aliases:), so an alias the user removed
// is no longer a twin.
func toolNameAdvice(e *Entry, tools *protocol.ToolTable) (Warning, bool) {
	// An agent's own tool names (Cursor's, Gemini's) are not judged here;
	// a codec in the Claude dialect (Codex's, Copilot's) matches Claude
	// Code's names, as the matcher does (matcher.subject).
	if e.Matcher == "" || e.Codec != nil && e.Dialect != protocol.Claude {
		return Warning{}, false
	}
	var names []string
	var twin func(string) string
	switch {
	case e.Dialect == protocol.Hermes && e.Event.Tool:
		if !plainNames(e.Matcher, "|") {
			return Warning{}, false
		}
		names = strings.Split(e.Matcher, "|")
		twin = tools.Hermes
	case e.Dialect == protocol.Claude && e.Event.ClaudeMatchOn == "tool_name":
		if !e.Event.ClaudeNameList(e.Matcher) {
			return Warning{}, false
		}
		for _, n := range strings.FieldsFunc(e.Matcher, func(r rune) bool { return r == '|' || r == ',' }) {
			names = append(names, strings.TrimSpace(n))
		}
		twin = tools.Claude
	default:
		return Warning{}, false
	}
	for _, n := range names {
		t := twin(n)
		if n == "" || t != n && slices.Contains(names, t) {
			continue
		}
		if t != n {
			return Warning{Path: entryKeyPath(e), File: e.Source, Key: entryKeyPath(e) + ".matcher",
				Message: toolNameMessage(e, n, t)}, true
		}
		if w, ok := nativeNameAdvice(e, n, names, tools, twin); ok {
			return w, true
		}
	}
	return Warning{}, false
}

// nativeNameAdvice reports name, in a plain-name matcher of e (names),
// when it is another agent's own name of a tool that its decoding renames
// (agents.NativeTool: Gemini CLI's run_shell_command is Bash): every
// agent's call reaches the matcher under Claude Code's name or the
// canonical one (twin of the renamed name), never under this one. A name
// of either table (write_file, which Gemini CLI also calls its own) is
// left alone: a host that sends it as it is reaches the matcher with it.
func nativeNameAdvice(e *Entry, name string, names []string, tools *protocol.ToolTable, twin func(string) string) (Warning, bool) {
	if tools.Claude(name) != name || tools.Hermes(name) != name {
		return Warning{}, false // a name of the tool table, in either dialect
	}
	if a, ok := e.Codec.(protocol.MatchAliases); ok && a.MatchAliases(e.DeclaredAs, name) != nil {
		return Warning{}, false // a name the file's agent matches (Codex's apply_patch)
	}
	title, renamed, ok := agents.NativeTool(name)
	if !ok {
		return Warning{}, false
	}
	want := twin(renamed)
	if want == name || slices.Contains(names, want) {
		return Warning{}, false
	}
	return Warning{Path: entryKeyPath(e), File: e.Source, Key: entryKeyPath(e) + ".matcher",
		Message: ".matcher: '" + textutil.Truncate(name, maxShown) + "' is " + title + "'s own tool name, which reaches a " + e.DeclaredAs +
			" matcher as " + want + ", so it never matches: write `" + want + "`"}, true
}

// agentNameAdvice reports a codec's regex matcher that fits one of Claude
// Code's tool names but never the name the codec compares it with on the
// entry's event: a Copilot hook under preToolUse sees Copilot's own names
// (bash, view …), so `Bash.*` there never runs, as in Copilot, though it
// did before its matcher saw Copilot's names. Lists of names are expanded
// to every name of their tool by the codec and are not judged here.
func agentNameAdvice(e *Entry, tools *protocol.ToolTable) (Warning, bool) {
	if e.Codec == nil || e.Dialect != protocol.Claude || e.Event.ClaudeMatchOn != "tool_name" || e.match.kind != matchSearch {
		return Warning{}, false
	}
	claude := slices.Sorted(maps.Values(tools.Pairs()))
	for _, c := range slices.Compact(claude) {
		s, ok := e.Codec.MatchSubject(e.DeclaredAs, e.Event, map[string]any{"tool_name": c}, tools)
		if !ok || s == c || e.match.anyMatches([]string{s}, nil) == FitYes || e.match.anyMatches([]string{c}, nil) != FitYes {
			continue
		}
		msg := ".matcher: '" + textutil.Truncate(e.Matcher, maxShown) + "' matches Claude Code's tool name " + c +
			", but a " + e.DeclaredAs + " matcher of a " + e.FileOf + " hook file sees that tool as " + s +
			", so it never matches it: write `" + c + "` or `" + s + "`"
		if n := e.Event.ClaudeName(); n != "" && n != e.DeclaredAs {
			msg += ", or use the event name " + n
		}
		return Warning{Path: entryKeyPath(e), File: e.Source, Key: entryKeyPath(e) + ".matcher", Message: msg}, true
	}
	return Warning{}, false
}

// toolNameMessage says what is wrong with name in e's matcher and the two
// ways out: the name the matcher sees, or (in the YAML, where both event
// spellings may be written) the event name of the other dialect.
func toolNameMessage(e *Entry, name, want string) string {
	shown := textutil.Truncate(name, maxShown)
	if e.Dialect == protocol.Hermes {
		msg := ".matcher: '" + shown + "' is a Claude Code tool name, but a " + e.DeclaredAs +
			" matcher sees Hermes tool names, so it never matches: write `" + want + "`"
		if c := e.Event.ClaudeName(); c != "" && c != e.DeclaredAs {
			msg += ", or use the Claude event name " + c
		}
		return msg
	}
	if e.Codec != nil {
		// A codec may compare another name (a camelCase Copilot entry:
		// bash); want, expanded by the codec's matcher, fits as well.
		if s, ok := e.Codec.MatchSubject(e.DeclaredAs, e.Event, map[string]any{"tool_name": want}, nil); ok && s != want {
			return ".matcher: '" + shown + "' is a Hermes tool name, but a " + e.DeclaredAs + " matcher of a " + e.FileOf +
				" hook file sees that tool as " + s + ", so it never matches: write `" + s + "` or `" + want + "`"
		}
	}
	msg := ".matcher: '" + shown + "' is a Hermes tool name, but a " + e.DeclaredAs +
		" matcher sees Claude Code tool names, so it never matches: write `" + want + "`"
	if e.FileOf == "" && protocol.IsClaudeName(e.DeclaredAs) && e.Event.Name != e.DeclaredAs {
		// Written in the YAML under the Claude name: the Hermes name makes
		// the entry a Hermes-dialect one, whose matcher sees terminal.
		msg += ", or use the Hermes event name " + e.Event.Name
	}
	return msg
}

// plainNames reports a matcher made only of names joined by sep: letters,
// digits and "_".
func plainNames(m, sep string) bool {
	for _, part := range strings.Split(m, sep) {
		if part == "" {
			return false
		}
		for _, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// scriptExt are the file name endings of scripts handed to an interpreter
// (python3 hooks/guard.py): an argument ending so is a file the command
// runs.
var scriptExt = []string{".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php"}

// relativeCommandAdvice reports a relative path in the command of an entry
// of a user-level file: such an entry runs in the agent's working
// directory (a repository's hooks run in their project's root instead), so
// `./guard.sh` is whatever guard.sh the agent's current directory holds —
// usually none, which fails open. The fix is an absolute path or ~/.
func relativeCommandAdvice(e *Entry) (Warning, bool) {
	if e.WorkDir != "" || e.Scope.Project != "" || !e.RunsCommand() {
		return Warning{}, false
	}
	rel := relativePath(e.Command)
	if rel == "" {
		return Warning{}, false
	}
	key := entryKeyPath(e)
	if e.FileOf == "" && e.Dialect != protocol.Claude {
		key += ".command"
	}
	return Warning{Path: entryKeyPath(e), File: e.Source, Key: key, Minor: true,
		Message: ".command runs '" + textutil.Truncate(rel, maxShown) + "', a path relative to whatever directory the agent is working in when the event fires, so the hook finds its file only there: write the absolute path, or one starting with ~/"}, true
}

// relativePath is the first relative file path the command runs: its
// program (after VAR=value assignments), or a script argument (./x,
// ../x, or a name ending in a script extension); "" when none, or when the
// command cannot be split (a shell construct: nothing is guessed).
func relativePath(command string) string {
	if len(command) > 1<<16 {
		return ""
	}
	words, err := shlex.Split(command)
	if err != nil {
		return ""
	}
	for len(words) > 0 && isAssignment(words[0]) {
		words = words[1:]
	}
	for i, w := range words {
		if strings.ContainsAny(w, "$`;|&<>(){}") {
			// A variable ($HOME/x.sh, "$CLAUDE_PROJECT_DIR"/x.sh) or the
			// end of the first simple command: nothing further is judged.
			return ""
		}
		// A rooted path (/x, and on Windows \x, on the current drive) names
		// the same file from every working directory.
		if w == "" || filepath.IsAbs(w) || strings.HasPrefix(w, "/") || filepath.VolumeName(w) == "" && strings.HasPrefix(w, string(filepath.Separator)) ||
			strings.HasPrefix(w, "~") || strings.HasPrefix(w, "-") {
			continue
		}
		switch {
		case i == 0 && strings.Contains(w, "/"):
			return w
		case i > 0 && (strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../")):
			return w
		case i > 0 && slices.ContainsFunc(scriptExt, func(ext string) bool { return strings.HasSuffix(w, ext) }):
			return w
		}
	}
	return ""
}

// isAssignment reports a VAR=value word.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// claudeGroupKeys are the keys of a Claude Code matcher group.
var claudeGroupKeys = []string{"matcher", "hooks"}

// claudeHandlerKeys are the keys of a Claude Code handler (Claude Code's
// own, the undocumented ones its plugins use, and ours: entryKeys).
var claudeHandlerKeys = sync.OnceValue(func() []string {
	return append([]string{"type", "command", "args", "timeout", "async", "asyncRewake", "shell", "if",
		"statusMessage", "once", "url", "headers", "allowedEnvVars", "server", "tool", "input", "prompt",
		"model", "rewakeMessage", "rewakeSummary", "id"}, entryKeys...)
})

// nearKey is the known key an unknown key k most likely meant: the same
// key in another case (timeOut), else one at least 0.8 similar (comand,
// matchers); "" for a known key or one unlike any.
func nearKey(k string, known []string) string {
	if slices.Contains(known, k) || len(k) > 4*maxShown {
		return ""
	}
	for _, c := range known {
		if strings.EqualFold(c, k) {
			return c
		}
	}
	return suggest.ClosestCutoff(k, known, 0.8)
}
