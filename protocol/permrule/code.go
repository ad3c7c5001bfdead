package permrule

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code is command with the text that only mentions commands blanked: the
// same line, byte for byte the same length and parsing the same way, but
// with data no command of it runs made spaces, so that a rule matching
// the line's text (curl … | sh, .env, git push --force) is not set off by
// a commit message or a note that only names them (internal/rule's
// code()). Blanked are, in a command that is a statement of the line
// itself or of its && / || / ; lists (never one in a pipeline, a
// subshell, a group, a loop, $(…) or <(…)):
//
//   - the literal words of echo and printf (not printf -v);
//   - the literal message of git commit, tag, merge, stash push and
//     save, and notes add and append (-m, -am, -mMSG, --message,
//     --message=MSG, stash save's words: their words read as git reads
//     its options, after -C DIR and the -c settings that run nothing, a
//     merge only beside git's own strategies — code_messages.go), and the
//     literal value of gh pr create|edit|comment|review's and gh issue
//     create|edit|comment's --title, -t, --body or -b (also =MSG, -bMSG,
//     -dt MSG, after pr -R REPO — code_messages_gh.go), and a literal
//     here-document these read;
//   - the body of a literal here-document cat reads (cat <<'EOF' … EOF).
//
// A literal word is quoted or plain text with no expansion ($x, $(…),
// `…`, $((…))) in it, or "$(cat <<'EOF' … EOF)": cat printing a literal
// here-document (Claude Code's commit and pull-request form). Nothing
// is blanked where the data could still run: a pipeline (echo … | sh,
// git commit's summary line piped), a redirect other than to /dev/null,
// a descriptor or a file named as text (a .md, .txt … file — see
// dataFile; a script or a dotfile is not one), and a write to a file
// only on a line that is that one command (echo … > n.md; sh n.md is
// left whole). Nothing at all is blanked on a line that could make echo,
// printf, cat, git or gh something else: one that defines a function,
// sets PATH or runs alias, hash, enable, shopt, source, ., eval, exec or
// trap; nor on a line that does not parse, is longer than 64 KiB or
// nests too deep. Code is pure, and cheap on a line naming none of the
// programs.
func Code(command string) string {
	if !mayHoldData(command) || len(command) > maxShellCommand || nests(command, maxNesting) {
		return command
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || strings.Contains(command, "PATH") || redefines(file) {
		return command
	}
	c := codeLine{src: command}
	for _, st := range file.Stmts {
		_, c.single = st.Cmd.(*syntax.CallExpr)
		c.single = c.single && len(file.Stmts) == 1
		c.stmt(st)
	}
	if c.out == nil {
		return command
	}
	return string(c.out)
}

// mayHoldData is the cheap test before the parse: the programs Code
// reads data of, by name.
func mayHoldData(s string) bool {
	return strings.Contains(s, "echo") || strings.Contains(s, "printf") ||
		strings.Contains(s, "cat") || strings.Contains(s, "git") || strings.Contains(s, "gh")
}

// codeLine is one Code: the line, whether it is one command alone (a
// write to a file is data only then), and the copy being blanked (nil
// until something is).
type codeLine struct {
	src    string
	single bool
	out    []byte
}

// blank makes the bytes of [from, to) spaces, newlines kept; quote keeps
// the first and last byte as ' so that a blanked word stays one word (a
// word of one byte mentions nothing and is kept).
func (c *codeLine) blank(from, to uint, quote bool) {
	if to <= from || int(to) > len(c.src) || quote && to-from < 2 {
		return
	}
	if c.out == nil {
		c.out = []byte(c.src)
	}
	for i := from; i < to; i++ {
		if c.out[i] != '\n' {
			c.out[i] = ' '
		}
	}
	if quote && c.src[from] != '\n' && c.src[to-1] != '\n' {
		c.out[from], c.out[to-1] = '\'', '\''
	}
}

// stmt walks the line's own statements and its && / || lists only.
func (c *codeLine) stmt(st *syntax.Stmt) {
	if st == nil || st.Coprocess {
		return
	}
	switch x := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
			c.stmt(x.X)
			c.stmt(x.Y)
		}
	case *syntax.CallExpr:
		c.call(st, x)
	}
}

// call blanks the data of one command, if its redirects let its output
// and input be data too.
func (c *codeLine) call(st *syntax.Stmt, x *syntax.CallExpr) {
	if len(x.Assigns) > 0 || len(x.Args) == 0 {
		return
	}
	prog := x.Args[0].Lit()
	var hdoc *syntax.Word // a here-document's body, or a here-string
	hstring := false
	for _, r := range st.Redirs {
		switch {
		case r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc:
			body := r.Hdoc
			if r.Op == syntax.WordHdoc {
				body = r.Word
			}
			if hdoc != nil || !literalWord(body, r.Op == syntax.WordHdoc) {
				return
			}
			hdoc, hstring = body, r.Op == syntax.WordHdoc
		case !c.dataOutput(r):
			return
		}
	}
	words := x.Args[1:]
	switch prog {
	case "echo":
		c.words(words)
	case "printf":
		c.words(words) // printf -v: the line is left whole (redefines)
		return
	case "cat":
		if len(words) != 0 {
			return
		}
	case "git", "gh":
		if !c.messages(prog, words) {
			return
		}
	default:
		return
	}
	if hdoc != nil {
		from, to := hdoc.Pos().Offset(), hdoc.End().Offset()
		if hstring {
			c.blank(from, to, true)
			return
		}
		// The parser's range of a here-document's body ends with its
		// closing line, which stays.
		if to > uint(len(c.src)) {
			return
		}
		if i := strings.LastIndexByte(c.src[from:to], '\n'); i >= 0 {
			c.blank(from, from+uint(i), false)
		}
	}
}

// dataOutput says whether a redirect keeps the command's output data: to
// /dev/null, a descriptor duplicated (2>&1), or — on a line of this one
// command — a file whose name says it holds text.
func (c *codeLine) dataOutput(r *syntax.Redirect) bool {
	if r.N != nil && r.N.Value != "1" && r.N.Value != "2" {
		return false
	}
	target := r.Word.Lit()
	switch r.Op {
	case syntax.DplOut:
		return target == "1" || target == "2"
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
		return target == "/dev/null" || c.single && dataFile(target)
	}
	return false
}

// dataFile: a file named as documentation or notes, which no shell or
// interpreter is asked to run by its name. A script, a dotfile (.bashrc,
// .env), a file named without a kind, MDX and CMakeLists.txt (a build
// runs code in them) are not.
func dataFile(name string) bool {
	base := strings.ToLower(path.Base(name))
	if name == "" || strings.HasPrefix(base, ".") || base == "cmakelists.txt" {
		return false // CMake runs its lists' execute_process
	}
	switch path.Ext(base) {
	case ".md", ".markdown", ".txt", ".rst", ".adoc", ".org", ".log", ".csv": // not .mdx: its JavaScript runs at build
		return true
	}
	return false
}

// words blanks each literal word.
func (c *codeLine) words(ws []*syntax.Word) {
	for _, w := range ws {
		if literalWord(w, true) {
			c.blank(uint(w.Pos().Offset()), uint(w.End().Offset()), true)
		}
	}
}

// redefines says whether the line could make a program Code reads data
// of run something else, or keep data to run later: a function, or a
// builtin that changes what a name runs, runs text or sets a variable
// whose name may be spelt in pieces (export PA""TH=…, read, printf -v;
// a PATH the line spells is seen by Code on the text), and a command
// named by an expansion (it could be any of them).
func redefines(file *syntax.File) bool {
	found := false
	syntax.Walk(file, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl, *syntax.DeclClause:
			found = true
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				prog := x.Args[0].Lit()
				found = prog == "" || redefiners[prog]
				for _, w := range x.Args[1:] {
					found = found || prog == "printf" && strings.HasPrefix(w.Lit(), "-v")
				}
			}
		}
		return !found
	})
	return found
}

// redefiners are the builtins redefines refuses.
var redefiners = map[string]bool{
	"alias": true, "hash": true, "enable": true, "shopt": true, "source": true, ".": true,
	"eval": true, "exec": true, "trap": true, "read": true, "mapfile": true, "readarray": true,
	"export": true, "declare": true, "typeset": true, "readonly": true, "local": true,
	"builtin": true, "command": true, "getopts": true,
}

// literalWord: a word with no expansion, or (cmdsubst) the one command
// substitution cat <<'EOF' … EOF printing a literal here-document.
func literalWord(w *syntax.Word, cmdsubst bool) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		if !literalPart(p, cmdsubst) {
			return false
		}
	}
	return true
}

func literalPart(p syntax.WordPart, cmdsubst bool) bool {
	switch x := p.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
		return true
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			if !literalPart(q, cmdsubst) {
				return false
			}
		}
		return true
	case *syntax.CmdSubst:
		return cmdsubst && catHeredoc(x)
	}
	return false
}

// catHeredoc: $(cat <<'EOF' … EOF), cat with no word but a literal
// here-document.
func catHeredoc(x *syntax.CmdSubst) bool {
	if len(x.Stmts) != 1 || len(x.Last) != 0 {
		return false
	}
	st := x.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) != 0 ||
		len(call.Args) != 1 || call.Args[0].Lit() != "cat" || len(st.Redirs) != 1 {
		return false
	}
	r := st.Redirs[0]
	return (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && literalWord(r.Hdoc, false)
}
