package cmdpin

import (
	"os"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// The shell (Claude dialect): what /bin/sh -c runs.

// resolveShell works out what `/bin/sh -c text` runs. Only one shape can be
// resolved exactly: an optional `cd DIR &&`, then one simple command whose
// words use quotes, $VAR and ${VAR} and a leading ~ — which covers the way
// Claude Code hooks are written ("$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh).
// Everything else runs through the shell and is approved by its text.
func resolveShell(c Command, depth int) Target {
	if c.ShellPath == PowerShellShell {
		return resolvePowerShell(c)
	}
	t := Target{Dir: c.Dir, Shell: true, ShellPath: "/bin/sh", assigned: slices.Clone(c.assigned)}
	// A syntax.Parser keeps state between calls and is not safe for
	// concurrent use (serve resolves hooks from many requests at once), so
	// every call gets its own.
	lang := syntax.LangPOSIX
	if onWindows && depth > 0 {
		// A command string of the shell the outer command named: Git
		// Bash, found (or not) for the outer one already.
		lang = syntax.LangBash
	} else if onWindows {
		// Claude Code runs shell commands through Git Bash on Windows
		// (shell: "bash" too: a bash.exe on PATH may well be WSL's).
		p, err := GitBashPath(func(k string) (string, bool) { return Getenv(c.Env, k) }, isRegularFile, func(name string) (string, bool) {
			p, err := lookPathWindows(name, c.Env, c.Dir)
			return p, err == ""
		})
		if err != "" {
			return Target{Dir: c.Dir, Err: err}
		}
		t.ShellPath, lang = p, syntax.LangBash
	} else if c.ShellPath != "" && c.ShellPath != "sh" && c.ShellPath != "/bin/sh" {
		p, err := lookPath(c.ShellPath, c.Env, c.Dir)
		if err != "" {
			return Target{Dir: c.Dir, Err: c.ShellPath + ": " + err}
		}
		t.ShellPath, lang = p, syntax.LangBash
	}
	file, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(c.Text), "")
	if err != nil {
		t.Opaque = "the command cannot be parsed as a shell command"
		return t
	}
	if len(file.Stmts) != 1 {
		t.Opaque = "compound shell command"
		if len(file.Stmts) == 0 {
			t.Opaque = ""
			t.Err = "empty command"
		}
		return t
	}
	st := file.Stmts[0]
	if st.Negated || st.Background || st.Coprocess {
		t.Opaque = "compound shell command"
		return t
	}
	call := simpleCall(st)
	if bin, ok := st.Cmd.(*syntax.BinaryCmd); ok && bin.Op == syntax.AndStmt && len(st.Redirs) == 0 {
		// `cd DIR && cmd`: Claude Code hooks often start in their project.
		cd := simpleCall(bin.X)
		if cd == nil || len(cd.Assigns) != 0 || len(bin.X.Redirs) != 0 || len(cd.Args) != 2 || lit(cd.Args[0]) != "cd" ||
			bin.Y.Negated || bin.Y.Background {
			t.Opaque = "compound shell command"
			return t
		}
		dirs, ok := staticFields(cd.Args[1:], c.Env)
		if !ok || len(dirs) != 1 {
			t.Opaque = "the directory of its `cd` is not a plain word"
			return t
		}
		t.Dir = absIn(dirs[0], c.Dir)
		st = bin.Y
		call = simpleCall(st)
	}
	if call == nil {
		t.Opaque = "compound shell command"
		return t
	}
	env := c.Env
	for _, as := range call.Assigns {
		if as.Append || as.Naked || as.Index != nil || as.Array != nil || as.Name == nil {
			t.Opaque = "an assignment that is not NAME=word"
			return t
		}
		v := ""
		if as.Value != nil {
			var ok bool
			if v, ok = staticWord(as.Value, c.Env); !ok {
				t.Opaque = "an assignment whose value is not a plain word"
				return t
			}
		}
		t.Env = append(t.Env, as.Name.Value+"="+v)
	}
	if len(t.Env) > 0 {
		env = append(slices.Clip(c.Env), t.Env...)
	}
	argv, ok := staticFields(call.Args, c.Env)
	if !ok {
		t.Opaque = "its words use shell features other than quotes, $VAR and ~ (globs, $(…), arithmetic)"
		return t
	}
	if len(argv) == 0 {
		return t // only assignments: nothing runs
	}
	t.Argv = argv
	envLoads(&t, t.Env)
	// Redirections do not change what runs, but only the shell can apply
	// them; such a command keeps running through /bin/sh.
	analyze(&t, env, true, depth)
	stdinProgram(&t, st.Redirs, c.Env)
	flushLoads(&t)
	if t.Opaque == "" && t.Err == "" && t.Path != "" && len(st.Redirs) == 0 && !t.viaShell {
		t.Shell = false
	}
	return t
}

// stdinProgram handles an interpreter that reads its program from standard
// input (`sh < g.sh`, `python3 - < g.py`): the file redirected there is
// the script that runs. Any other redirection of standard input (a here
// document, a pipe) carries the program in the text itself.
func stdinProgram(t *Target, redirs []*syntax.Redirect, env []string) {
	if !t.stdinProg {
		return
	}
	file := ""
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut:
			words, ok := staticFields([]*syntax.Word{r.Word}, env)
			if !ok || len(words) != 1 {
				t.Opaque, file = "reads its program from a redirection that is not a plain word", ""
				return
			}
			file = absIn(words[0], t.Dir)
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
			file = ""
		}
	}
	if file == "" {
		return
	}
	if t.Opaque == stdinOpaque {
		t.Opaque = ""
	}
	t.Files = append([]string{file}, t.Files...)
}

func simpleCall(st *syntax.Stmt) *syntax.CallExpr {
	if st == nil {
		return nil
	}
	c, _ := st.Cmd.(*syntax.CallExpr)
	return c
}

// lit is the word when it is one literal part, else "".
func lit(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}

// staticParts reports whether every part of w is something the resolver
// can expand exactly as the shell would: literal text without glob
// characters, quotes, and plain $VAR / ${VAR}.
func staticParts(parts []syntax.WordPart, quoted bool) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && strings.ContainsAny(p.Value, "*?[") {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			if p.Dollar || !staticParts(p.Parts, true) {
				return false
			}
		case *syntax.ParamExp:
			if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 || p.Param == nil {
				return false
			}
			if !shquote.IsName(p.Param.Value) {
				// $1, $@, $?, $$ …: the shell's own values.
				return false
			}
		default:
			return false
		}
	}
	return true
}

func shellConfig(env []string) *expand.Config {
	if env == nil {
		env = os.Environ()
	}
	return &expand.Config{Env: expand.ListEnviron(env...), NoUnset: false}
}

// staticWord expands an assignment's value (no field splitting).
func staticWord(w *syntax.Word, env []string) (string, bool) {
	if !staticParts(w.Parts, false) {
		return "", false
	}
	s, err := expand.Literal(shellConfig(env), w)
	return s, err == nil
}

// staticFields expands words as the shell would (field splitting of an
// unquoted $VAR included), or reports that it cannot do so exactly.
func staticFields(words []*syntax.Word, env []string) ([]string, bool) {
	for _, w := range words {
		if !staticParts(w.Parts, false) {
			return nil, false
		}
	}
	fields, err := expand.Fields(shellConfig(env), words...)
	if err != nil {
		return nil, false
	}
	return fields, true
}
