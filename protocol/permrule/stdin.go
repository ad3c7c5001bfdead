package permrule

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Standard input: where a simple command's comes from (its redirections,
// a pipe), and what a shell that reads its script there runs.

// stdinKind is where a simple command's standard input comes from, for a
// shell that reads its script there (bash <<< 'rm x', curl … | sh).
type stdinKind uint8

const (
	// stdinInherited: no redirection and no pipe: what the command line
	// itself reads (the tool's input, unknown text), or in a command
	// string what the command that runs it reads (scriptWith).
	stdinInherited stdinKind = iota
	stdinUnknown             // a pipe, another descriptor, a command's output: unknown text
	stdinFile                // < file: a script file, as opaque as any program
	stdinText                // a here-document or here-string whose text is known
)

// stdinOf reads a statement's redirections for where its standard input
// comes from; the last redirection of fd 0 wins, as in the shell.
func stdinOf(redirs []*syntax.Redirect, src string) shellCommand {
	var c shellCommand
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut:
			// A file, unless it is a pipe by another name: < <(…), < /dev/stdin.
			c.stdin, c.stdinText = stdinFile, ""
			if w := shellWordOf(r.Word, src); !w.static || readsStdin(w.text) {
				c.stdin = stdinUnknown
			}
		case syntax.DplIn:
			if !keepsStdin(r, src) {
				c.stdin, c.stdinText = stdinUnknown, ""
			}
		case syntax.WordHdoc:
			c.stdin, c.stdinText = stdinUnknown, ""
			if v := shellWordOf(r.Word, src); v.static {
				c.stdin, c.stdinText = stdinText, v.text
			}
		case syntax.Hdoc, syntax.DashHdoc:
			c.stdin, c.stdinText = stdinUnknown, ""
			if text, ok := hdocText(r); ok {
				c.stdin, c.stdinText = stdinText, text
			}
		}
	}
	return c
}

// keepsStdin: r is <&0, which gives standard input what it had (while
// read c <&0; do …; done <<< TEXT reads TEXT).
func keepsStdin(r *syntax.Redirect, src string) bool {
	w := shellWordOf(r.Word, src)
	return r.Op == syntax.DplIn && w.static && w.text == "0"
}

// hdocText returns a here-document's text when it is static: as written
// when the delimiter is quoted (<<'EOF', <<"EOF", <<E\OF), else with the
// escapes an unquoted here-document resolves (\$ \` \\ and \newline) — and
// not others: `echo \\; rm x` under <<'EOF' runs rm.
func hdocText(r *syntax.Redirect) (string, bool) {
	quoted := hdocQuoted(r)
	if r.Hdoc == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(lit.Value)
	}
	text := b.String()
	if r.Op == syntax.DashHdoc {
		text = stripHdocTabs(text)
	}
	if quoted {
		return text, true
	}
	return unescapeHeredoc(text), true
}

// stripHdocTabs is a <<- here-document's body as bash reads it: each
// line's leading tabs dropped (the parser keeps them).
func stripHdocTabs(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}

// hdocQuoted: a here-document whose delimiter is quoted, in part or
// whole (<<'EOF', <<"EOF", <<E\OF), which keeps its body as written.
func hdocQuoted(r *syntax.Redirect) bool {
	for _, p := range r.Word.Parts {
		if lit, ok := p.(*syntax.Lit); !ok || strings.Contains(lit.Value, `\`) {
			return true
		}
	}
	return false
}

// hdocEndsEarly: a here-document body where bash 5 finds the end that
// the parser here reads past, so that bash runs as commands what is read
// here as text: a line that is the delimiter once an unquoted body's
// backslash-newlines are joined (EO\⏎F), or one that starts with it and
// holds a ) after it (bash 5.2 ends a here-document inside $(…) at EOF ),
// EOF #), EOF) …).
func hdocEndsEarly(r *syntax.Redirect, src string) bool {
	if r.Hdoc == nil {
		return false
	}
	delim := shellWordOf(r.Word, src).text
	if delim == "" {
		return false
	}
	body := source(r.Hdoc, src)
	// Its source ends with the line the parser here took for the end.
	body = body[:max(strings.LastIndexByte(body, '\n'), 0)]
	if !hdocQuoted(r) {
		body = strings.ReplaceAll(body, "\\\n", "")
	}
	for line := range strings.SplitSeq(body, "\n") {
		if r.Op == syntax.DashHdoc {
			line = strings.TrimLeft(line, "\t")
		}
		if line == delim || strings.HasPrefix(line, delim) && strings.Contains(line[len(delim):], ")") {
			return true
		}
	}
	return false
}

// unescapeHeredoc undoes the backslashes an unquoted here-document's
// body keeps meaning for ($, `, \, a line join); unlike a double-quoted
// string, \" stays as written.
func unescapeHeredoc(s string) string { return unescapeShell(s, "$`\\") }

// readsStdin: a script path that is the standard input or another
// descriptor, whose text is a pipe's, not a file's.
func readsStdin(p string) bool {
	p = cleanDev(p)
	return p == "-" || p == "/dev/stdin" || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/")
}

// isStdin: a script path that is the standard input itself (fd 0), whose
// text is what the command's stdin holds; another descriptor's is not
// known here (bash /dev/fd/3 3<<<TEXT).
func isStdin(p string) bool {
	p = cleanDev(p)
	return p == "-" || p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0"
}

// cleanDev is an absolute path as the kernel resolves its spelling
// (//dev/stdin, /dev/./stdin, /dev/fd//0 are /dev/stdin, /dev/fd/0).
func cleanDev(p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return p
}

// scriptFile follows the script a shell runs, or source reads, from the
// file named by path: its standard input's text (bash - <<< TEXT, source
// /dev/stdin); another descriptor or a command's output (bash
// /dev/fd/3, bash <(…)) cannot be read; a file is as opaque as any
// program; a name only known when it runs is doubt.
func (s *shellRuns) scriptFile(path shellWord, text string, c shellCommand, depth int) {
	switch {
	case path.static && isStdin(path.text):
		s.stdinScript(text, c, depth)
	case strings.HasPrefix(path.text, "<(") && setupScript(path.text):
		// source <(kubectl completion bash): the program's own code.
	case path.static && readsStdin(path.text), strings.HasPrefix(path.text, "<("):
		s.stopped("`" + clip(text) + "` runs a script read from a descriptor or a command's output, which the analysis cannot read")
	case !path.static:
		s.unsure("`" + clip(text) + "` runs a script whose text is not a file the analysis can name")
	}
}

// stdinScript follows what a shell reads from its standard input.
func (s *shellRuns) stdinScript(text string, c shellCommand, depth int) {
	switch c.stdin {
	case stdinText:
		s.script(c.stdinText, text, depth)
	case stdinInherited, stdinUnknown:
		s.stopped("`" + clip(text) + "` runs a shell that reads its commands from standard input (a pipe the analysis cannot read)")
	}
}
