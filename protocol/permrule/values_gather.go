package permrule

import (
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Where a line gives its variables values (gather), for settle to read
// them: assignments, for loops, ${X:=…}, set and shift, arrays, declare's
// attributes, and what commands give (values_builtins.go).

// givers are the places one line gives its variables values.
type givers struct {
	sources []valueSource
	sets    []positional        // set -- WORDS, shift
	arrays  []*syntax.Assign    // a=(…), a+=(…), a[i]=v, in line order
	refs    map[string][]string // declare -n NAME=OTHER; for NAME (no in): "@"
}

// gather walks file once for its givers; it records where each variable
// is first given a value (lineValues.first), and adds the values that are
// static text on the line at once (declare's attributes, what commands
// give).
func (v *lineValues) gather(file *syntax.File, src string) *givers {
	g := &givers{refs: map[string][]string{}}
	var fed []fedRange // compound commands fed a here-document or here-string
	// exec N<<< TEXT anywhere: a function defined before it, or a loop
	// that runs it after, reads it too.
	allExecs := execFeeds(file, src)
	var transient func(syntax.Node) bool // found when first asked: most lines give no value
	given := func(n syntax.Node, name string) {
		if transient == nil {
			transient, v.bodies = transients(file)
		}
		if at, ok := v.first[name]; !transient(n) && (!ok || n.Pos().Offset() < at) {
			v.first[name] = n.Pos().Offset()
		}
	}
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name != nil {
					given(n, a.Name.Value)
				}
			}
			var flags string
			for _, a := range n.Args {
				if a.Naked && a.Name == nil && a.Value != nil {
					if f := shellWordOf(a.Value, src).text; strings.HasPrefix(f, "-") {
						flags += f
					}
				}
			}
			if strings.Contains(flags, "n") {
				g.refs = namerefs(g.refs, n.Args, src)
				return false
			}
			for _, a := range n.Args {
				v.attributes(a, flags, src)
			}
		case *syntax.Assign:
			// Alone, before a command, or one of declare's (given above).
			if n.Name != nil && !n.Naked {
				given(n, n.Name.Value)
				g.assign(n)
			}
		case *syntax.Stmt:
			around := fed // those around it, not its own
			if len(allExecs) > 0 {
				// exec 3<<< TEXT feeds the rest of the shell: outermost.
				around = append([]fedRange{{feeds: allExecs}}, fed...)
			}
			if _, simple := n.Cmd.(*syntax.CallExpr); !simple && n.Cmd != nil {
				if feeds := feedsOf(n.Redirs, src); len(feeds) > 0 {
					fed = append(fed, fedRange{n, feeds})
				}
			}
			v.fromStmt(n, src, around, len(allExecs) > 0)
		case *syntax.ArithmCmd:
			v.fromArith(n.X, nil, 0)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				v.fromArith(x, nil, 0)
			}
		case *syntax.CStyleLoop:
			v.fromArith(n.Init, n.Post, maxLoopSteps)
		case *syntax.BinaryTest:
			v.fromRematch(n, src)
		case *syntax.CallExpr:
			if p, ok := positionalOf(n.Args, src); ok {
				g.sets = append(g.sets, p)
				given(n, "@")
			}
		case *syntax.ForClause:
			it, ok := n.Loop.(*syntax.WordIter)
			switch {
			case !ok:
			case !it.InPos.IsValid(): // for NAME; do: the positional parameters
				given(n, it.Name.Value)
				g.refs[it.Name.Value] = append(g.refs[it.Name.Value], "@")
			default:
				given(n, it.Name.Value)
				for _, w := range it.Items {
					g.sources = append(g.sources, valueSource{name: it.Name.Value, w: w, fields: true})
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				g.sources = append(g.sources, valueSource{name: n.Param.Value, w: n.Exp.Word})
				given(n, n.Param.Value)
			}
		}
		return true
	}
	open := make([]syntax.Node, 0, 32) // what the walk is inside: a fed compound is done with when it closes
	syntax.Walk(file, func(n syntax.Node) bool {
		if n == nil {
			if len(fed) > 0 && fed[len(fed)-1].stmt == open[len(open)-1] {
				fed = fed[:len(fed)-1]
			}
			open = open[:len(open)-1]
			return true
		}
		if !visit(n) {
			return false
		}
		open = append(open, n)
		return true
	})
	return g
}

// fedRange is a compound command (a loop, a group) fed here-strings or
// here-documents (feedsOf): what the read and mapfile inside it read,
// unless theirs comes from elsewhere (while read c; do $c -rf /; done <<<
// rm; read -u 3 in { …; } 3<<< TEXT). gather keeps them on a stack while
// its walk is inside them.
type fedRange struct {
	stmt  *syntax.Stmt
	feeds []feed
}

// fedWith is what the innermost of fed feeds descriptor fd, if one
// does; of the exec ones (fed[0] when there are any), each that does,
// as which ran last is only known when the line runs (a loop, a branch,
// an exec inside the group: { exec 3<<< A; read -u 3 x; } 3<<< B reads A).
func fedWith(fed []fedRange, fd string, execs bool) []feed {
	var out []feed
	for i := len(fed) - 1; i >= 0; i-- {
		for _, f := range fed[i].feeds {
			if f.fd == fd && (len(out) == 0 || execs && i == 0) {
				if out = append(out, f); len(out) > 8 {
					return out // past a few: the caller reads none
				}
			}
		}
	}
	return out
}

// assign adds NAME=VALUE, NAME+=VALUE, NAME=(…), NAME[i]=VALUE.
func (g *givers) assign(a *syntax.Assign) {
	if a.Index != nil || a.Array != nil {
		g.arrays = append(g.arrays, a)
		return
	}
	g.sources = append(g.sources, valueSource{name: a.Name.Value, w: a.Value, append: a.Append, chained: a.Append || reads(a.Value, a.Name.Value)})
}

// spreadOver makes over each name the line gives a value made of an over
// one (B=$A, b=("${a[@]}"), b[0]=${a[0]}, declare -n b=a, set -- $A),
// and what is made of those: at the end of every settle, not only when
// its rounds run out — a copy read before its source was found over
// (arrayRound finds a past its bound after b=${a[1]} read it empty) is
// not read again when the source's values do not grow, and b=${a[1]};
// rm $b / listed rm / where bash runs rm -rf /.
func (v *lineValues) spreadOver(g *givers) {
	if len(v.over) == 0 {
		return
	}
	madeOf := map[string][]string{} // the names given values that read each name
	reads := func(w *syntax.Word, to ...string) {
		for _, n := range wordNames(w) {
			madeOf[n] = append(madeOf[n], to...)
		}
	}
	index := func(to string, x syntax.ArithmExpr) {
		arithReads(x, func(n string) { madeOf[n] = append(madeOf[n], to) })
	}
	for _, s := range g.sources {
		reads(s.w, s.name)
	}
	for _, a := range g.arrays {
		reads(a.Value, a.Name.Value)
		index(a.Name.Value, a.Index)
		if a.Array != nil {
			for _, el := range a.Array.Elems {
				reads(el.Value, a.Name.Value)
				index(a.Name.Value, el.Index)
			}
		}
	}
	for name, others := range g.refs {
		for _, o := range others {
			madeOf[o] = append(madeOf[o], name)
		}
	}
	for _, r := range v.hereReads {
		reads(r.w, readTargets(r.words)...)
	}
	for _, p := range g.sets {
		for _, w := range p.args {
			reads(w, "@", "*", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9") // as positionals makes them
		}
	}
	todo := slices.Collect(maps.Keys(v.over))
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, to := range madeOf[n] {
			if !v.over[to] {
				v.over[to] = true
				todo = append(todo, to)
			}
		}
	}
}

// transients reports, of a node of file, whether what it gives a variable
// may not last to what follows it: an assignment before a command's name
// (X=1 cmd), or anything in a function's body (the function may never
// be called). Such a value is still a value; only where it is given does
// not count (lineValues.first). It also returns the functions' bodies.
func transients(file *syntax.File) (func(syntax.Node) bool, [][2]uint) {
	prefix := map[syntax.Node]bool{}
	var bodies [][2]uint
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				for _, a := range n.Assigns {
					prefix[a] = true
				}
			}
		case *syntax.FuncDecl:
			bodies = append(bodies, [2]uint{n.Body.Pos().Offset(), n.Body.End().Offset()})
		}
		return true
	})
	return func(n syntax.Node) bool {
		at := n.Pos().Offset()
		for _, b := range bodies {
			if at >= b[0] && at < b[1] {
				return true
			}
		}
		return prefix[n]
	}, bodies
}

// namerefs adds declare -n NAME=OTHER to refs: NAME reads OTHER's values.
func namerefs(refs map[string][]string, args []*syntax.Assign, src string) map[string][]string {
	for _, a := range args {
		if a.Name != nil && a.Value != nil {
			if w := shellWordOf(a.Value, src); w.static && w.text != "" {
				refs[a.Name.Value] = append(refs[a.Name.Value], w.text)
			}
		}
	}
	return refs
}

// attributes reads one NAME of a declare whose options are flags: -l and
// -u make every value of NAME lower or upper case, wherever it is given
// (declare -l c; c=RM); declare -a NAME='(…)' is an array; a quoted
// "NAME=VALUE" is an assignment.
func (v *lineValues) attributes(a *syntax.Assign, flags, src string) {
	if a.Naked && a.Name == nil && a.Value != nil {
		if w := shellWordOf(a.Value, src); w.static && !strings.HasPrefix(w.text, "-") {
			v.assignWord(w.text)
		}
		return
	}
	if a.Name == nil {
		return
	}
	v.made()
	v.lower[a.Name.Value] = v.lower[a.Name.Value] || strings.Contains(flags, "l")
	v.upper[a.Name.Value] = v.upper[a.Name.Value] || strings.Contains(flags, "u")
	v.integer[a.Name.Value] = v.integer[a.Name.Value] || strings.Contains(flags, "i")
	if a.Value == nil || !strings.ContainsAny(flags, "aA") {
		return
	}
	if w := shellWordOf(a.Value, src); w.static && strings.HasPrefix(w.text, "(") {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("a="+w.text), "")
		if err == nil && len(f.Stmts) == 1 {
			if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Assigns) == 1 && call.Assigns[0].Array != nil {
				arrs, ok := v.arrayOf(call.Assigns[0].Array, "a="+w.text, env{})
				if !ok {
					v.over[a.Name.Value] = true // bash expands the string's words
				}
				for _, arr := range arrs {
					v.addArray(a.Name.Value, arr)
				}
			}
		}
	}
}

// execFeeds is what every exec on the line feeds a descriptor with
// (exec 3<<< TEXT), wherever it is: which one ran last is only known when
// the line runs.
func execFeeds(file *syntax.File, src string) []feed {
	var feeds []feed
	syntax.Walk(file, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok && slices.ContainsFunc(call.Args, func(w *syntax.Word) bool {
				if lit := w.Lit(); lit != "" && !strings.Contains(lit, `\`) {
					return lit == "exec" // most words: nothing to take off
				}
				return shellWordOf(w, src).text == "exec"
			}) {
				feeds = append(feeds, feedsOf(st.Redirs, src)...)
			}
		}
		return true
	})
	return feeds
}
