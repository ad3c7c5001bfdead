package protocol

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// ParseEnvFile reads what a Claude Code hook wrote to CLAUDE_ENV_FILE: shell
// lines that Claude Code sources before the session's later Bash commands,
// by convention `export NAME=value`. It returns the variables set by export
// statements whose values are plain words (quotes, and $VAR of variables set
// earlier in the file); anything else — a command, a substitution, a
// reference to the host's own environment — is left out and counted in the
// note, since it would mean running the file rather than reading it.
func ParseEnvFile(data []byte) (vars map[string]string, note string) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(data)), "")
	if err != nil {
		return nil, "CLAUDE_ENV_FILE is not valid shell: " + err.Error()
	}
	vars = map[string]string{}
	var skipped int
	env := func(name string) expand.Variable {
		if v, ok := vars[name]; ok {
			return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
		}
		return expand.Variable{}
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(func(name string) string { return env(name).Str })}
	for _, st := range file.Stmts {
		decl, ok := st.Cmd.(*syntax.DeclClause)
		if !ok || decl.Variant == nil || decl.Variant.Value != "export" || st.Negated || st.Background || len(st.Redirs) > 0 {
			skipped++
			continue
		}
		for _, as := range decl.Args {
			if as.Name == nil || as.Naked || as.Append || as.Index != nil || as.Array != nil {
				skipped++
				continue
			}
			val := ""
			if as.Value != nil {
				if !plainWord(as.Value, vars) {
					skipped++
					continue
				}
				s, err := literalValue(cfg, as.Value)
				if err != nil {
					skipped++
					continue
				}
				val = s
			}
			vars[as.Name.Value] = val
		}
	}
	if skipped > 0 {
		note = "CLAUDE_ENV_FILE: " + itoa(skipped) + " statement(s) other than `export NAME=value` were not applied"
	}
	if len(vars) == 0 {
		vars = nil
	}
	return vars, note
}

// plainWord reports a word made of literals, quotes and plain $VAR of
// variables the file itself set earlier (the host's own values are not
// known here, so "$PATH:/opt/bin" is left out rather than truncated).
func plainWord(w *syntax.Word, known map[string]string) bool {
	var ok func(parts []syntax.WordPart) bool
	ok = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			case *syntax.DblQuoted:
				if !ok(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				if p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil || p.Length || p.Excl || p.Param == nil {
					return false
				}
				if _, set := known[p.Param.Value]; !set {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return ok(w.Parts)
}

// literalValue is the value a shell assigns for w: expand.Literal, with
// the backslashes of unquoted text removed as the shell removes them
// (Literal keeps them: it:\'s would read as it\'s, not it's).
func literalValue(cfg *expand.Config, w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok {
			b.WriteString(unescape(lit.Value))
			continue
		}
		s, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// unescape removes the quoting backslashes of unquoted shell text: \X is
// X, and a backslash before a newline joins the lines.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// AppendEnvExports appends vars to buf as the lines a shell sources:
// `export NAME='value'`, one per variable, in name order, every value
// single-quoted so that no value can run anything. Names that are not
// shell identifiers, values holding a NUL (no environment can carry one)
// and values that are not UTF-8 (what ParseEnvFile and JSON give never
// are) are left out. It is how hook AGENT hands the exports of the hooks
// it ran to the agent's own CLAUDE_ENV_FILE.
func AppendEnvExports(buf []byte, vars map[string]string) []byte {
	names := make([]string, 0, len(vars))
	for k := range vars {
		if shellName(k) && !strings.ContainsRune(vars[k], 0) && utf8.ValidString(vars[k]) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		buf = append(buf, "export "+k+"="+shquote.Quote(vars[k])+"\n"...)
	}
	return buf
}

func shellName(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}
