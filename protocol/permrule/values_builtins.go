package permrule

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a line's commands give its variables other than by an
// assignment: read and mapfile from a here-string, getopts, declare run
// through command or builtin (or given NAME=VALUE as one quoted word),
// $_ (the last argument of each command), BASH_REMATCH ([[ S =~ RE ]]),
// and arithmetic ((i=1)), let, for ((…)): static text only.

// maxLoopSteps bounds the steps of a for ((…)) loop's variable read: its
// first value and each step after it, as far as that.
const maxLoopSteps = 64

// fromStmt adds the values statement st's command gives.
func (v *lineValues) fromStmt(st *syntax.Stmt, src string) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return
	}
	var words []string
	for _, w := range call.Args {
		sw := shellWordOf(w, src)
		if !sw.static {
			sw.text = ""
		}
		words = append(words, sw.text)
	}
	if last := words[len(words)-1]; last != "" {
		v.add("_", last)
	}
	for len(words) > 0 && (words[0] == "command" || words[0] == "builtin") {
		words = words[1:]
	}
	if len(words) == 0 {
		return
	}
	switch words[0] {
	case "declare", "typeset", "local", "export", "readonly":
		for _, w := range words[1:] {
			v.assignWord(w)
		}
	case "getopts":
		// getopts OPTSTRING NAME: NAME is one of the option letters, or ?.
		if len(words) >= 3 && syntax.ValidName(words[2]) {
			for _, c := range strings.ReplaceAll(words[1], ":", "") + "?" {
				v.add(words[2], string(c))
			}
		}
	case "eval":
		// eval X=-rf: what the string it runs gives, the line has too
		// (a string eval runs within it is not read again).
		text := strings.Join(words[1:], " ")
		if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), ""); err == nil && !v.inEval {
			sub := newLineValues()
			sub.inEval = true
			sub.collect(f, text)
			v.inherit(sub)
		}
	case "read", "mapfile", "readarray":
		if text, ok := hereString(st, src); ok {
			v.readInto(words, text)
		}
	}
}

// assignWord adds NAME=VALUE, a word given to declare (declare "X=-rf").
func (v *lineValues) assignWord(w string) {
	name, val, ok := strings.Cut(w, "=")
	name = strings.TrimSuffix(name, "+")
	if ok && syntax.ValidName(name) {
		v.add(name, val)
	}
}

// hereString is the static text of st's here-string (<<< WORD), without
// the newline bash adds.
func hereString(st *syntax.Stmt, src string) (string, bool) {
	for _, r := range st.Redirs {
		if r.Op == syntax.WordHdoc && r.Word != nil {
			if w := shellWordOf(r.Word, src); w.static {
				return w.text, true
			}
		}
	}
	return "", false
}

// readInto adds what read NAME… or mapfile NAME reads from text: for read,
// each name gets the text and each of its fields (which one goes where
// depends on IFS and the count of names); -a NAME, an array of its
// fields; for mapfile (readarray), an array of its lines.
func (v *lineValues) readInto(words []string, text string) {
	fields := strings.Fields(text)
	var names []string
	array := ""
	argOpts := "dinNptu" // read's options that take an argument
	if words[0] != "read" {
		argOpts = "dnOsuCc" // mapfile's
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-a" && i+1 < len(words):
			array, i = words[i+1], i+1
		case len(w) == 2 && w[0] == '-' && strings.ContainsRune(argOpts, rune(w[1])):
			i++ // an option with its argument (-d DELIM, -u FD …)
		case strings.HasPrefix(w, "-"):
		case syntax.ValidName(w):
			names = append(names, w)
		}
	}
	if words[0] != "read" {
		if len(names) == 0 {
			names = []string{"MAPFILE"}
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		v.addArray(names[len(names)-1], expand.Variable{Set: true, Kind: expand.Indexed, List: lines})
		return
	}
	if array != "" && syntax.ValidName(array) {
		v.addArray(array, expand.Variable{Set: true, Kind: expand.Indexed, List: fields})
	}
	if len(names) == 0 && array == "" {
		names = []string{"REPLY"}
	}
	for _, n := range names {
		v.add(n, text)
		for _, f := range fields {
			v.add(n, f)
		}
	}
}

// fromArith adds the values arithmetic x assigns (i=1, i+=2, i++), as
// evaluated with no other value known; steps > 0 also evaluates post that
// many times after it, for a for ((…)) loop's variable.
func (v *lineValues) fromArith(x, post syntax.ArithmExpr, steps int) {
	if x == nil {
		return
	}
	e := env{}
	cfg := &expand.Config{Env: e}
	if _, err := expand.Arithm(cfg, x); err != nil {
		return
	}
	v.addEnv(e)
	for range steps {
		if post == nil {
			return
		}
		if _, err := expand.Arithm(cfg, post); err != nil {
			return
		}
		v.addEnv(e)
	}
}

// addEnv adds each string value e holds.
func (v *lineValues) addEnv(e env) {
	for name, vr := range e {
		if vr.Kind == expand.String && syntax.ValidName(name) {
			v.add(name, vr.Str)
		}
	}
}

// fromRematch adds what [[ S =~ RE ]] may leave in BASH_REMATCH: S, the
// most a match can be.
func (v *lineValues) fromRematch(t *syntax.BinaryTest, src string) {
	if t.Op != syntax.TsReMatch {
		return
	}
	if w, ok := t.X.(*syntax.Word); ok {
		if sw := shellWordOf(w, src); sw.static {
			v.addArray("BASH_REMATCH", expand.Variable{Set: true, Kind: expand.Indexed, List: []string{sw.text}})
		}
	}
}

// withArgs is a copy of v with the positional parameters args give: sh
// -c STRING NAME ARGS… runs STRING with $1 … set to ARGS (those with a
// static value).
func (v *lineValues) withArgs(args []shellWord) *lineValues {
	c := newLineValues()
	c.inherit(v)
	var list []string
	for i, w := range args {
		if w.static {
			c.add(strconv.Itoa(i+1), w.text)
		}
		list = append(list, w.text)
	}
	all := expand.Variable{Set: true, Kind: expand.Indexed, List: list}
	c.addArray("@", all)
	c.addArray("*", all)
	c.add("#", strconv.Itoa(len(list)))
	c.first["@"] = 0 // given before the string runs
	return c
}
