package permrule

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a line's commands give its variables other than by an
// assignment: read and mapfile from a here-string (values_read.go), getopts, declare run
// through command or builtin (or given NAME=VALUE as one quoted word),
// $_ (the last argument of each command), BASH_REMATCH ([[ S =~ RE ]]),
// and arithmetic ((i=1)), let, for ((…)): static text only.

// maxLoopSteps bounds the steps of a for ((…)) loop's variable read: its
// first value and each step after it, as far as that.
const maxLoopSteps = 64

// fromStmt adds the values statement st's command gives; fed are the
// compound commands around it fed here-strings or here-documents (gather
// keeps them), what its descriptors hold unless its own redirect them.
func (v *lineValues) fromStmt(st *syntax.Stmt, src string, fed []fedRange, execs bool) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return
	}
	static := func(w *syntax.Word) string {
		if sw := shellWordOf(w, src); sw.static {
			return sw.text
		}
		return ""
	}
	// $_: kept aside until a word reads it (lineValues.lastArgs).
	if last := static(call.Args[len(call.Args)-1]); last != "" {
		v.addLastArg(last)
	}
	v.wrapperAssigns(call.Args, src)
	// Every word is read only for the commands below: most give nothing.
	first := 0
	for first < len(call.Args) && (static(call.Args[first]) == "command" || static(call.Args[first]) == "builtin") {
		first++
	}
	if first == len(call.Args) {
		return
	}
	switch static(call.Args[first]) {
	case "declare", "typeset", "local", "export", "readonly", "getopts", "shopt", "eval", "read", "mapfile", "readarray":
	case "printf":
		v.fromPrintf(call.Args[first+1:], src)
		return
	default:
		return
	}
	var words []string
	for _, w := range call.Args[first:] {
		words = append(words, static(w))
	}
	switch words[0] {
	case "declare", "typeset", "local", "export", "readonly":
		for _, w := range words[1:] {
			v.assignWord(w)
		}
	case "getopts":
		// getopts OPTSTRING NAME [ARGS]: NAME is one of the option letters,
		// or ?; OPTARG any of the arguments.
		if len(words) >= 3 && syntax.ValidName(words[2]) {
			for _, c := range strings.ReplaceAll(words[1], ":", "") + "?" {
				v.add(words[2], string(c))
			}
			for _, a := range words[3:] {
				v.add("OPTARG", a)
				if len(a) > 2 && a[0] == '-' {
					v.add("OPTARG", a[2:]) // -tVALUE
				}
			}
		}
	case "shopt":
		// shopt -s extglob / nocasematch: patterns match otherwise.
		if slices.Contains(words, "-s") && (slices.Contains(words, "extglob") || slices.Contains(words, "nocasematch")) {
			v.patterns = true
		}
	case "eval":
		// eval X=-rf, eval "Y=$X": what the string gives, the line has
		// too (read in each round: evalRound). Its words as the shell it
		// runs reads them: quotes removed, expansions as written.
		if !v.inEval {
			var parts []string
			for _, w := range call.Args[len(call.Args)-len(words)+1:] {
				sw := shellWordOf(w, src)
				parts = append(parts, cmp.Or(sw.script, sw.text))
			}
			v.evalTexts = append(v.evalTexts, strings.Join(parts, " "))
		}
	case "read", "mapfile", "readarray":
		args := call.Args[first:]
		fd := parseRead(readWords(args, src)).fd
		own := feedsOf(st.Redirs, src)
		for _, f := range own {
			if f.fd == fd {
				v.readFeed(args, f, prefixIFS(call, src), src)
				return
			}
		}
		// while read c; do …; done <<< TEXT
		if !redirects(st.Redirs, fd, src) && (fd != "0" || stdinOf(st.Redirs, src).stdin == stdinInherited) {
			if fs := fedWith(fed, fd, execs); len(fs) > 0 {
				if len(fs) > 8 {
					fs = fs[:1]
					fs[0].fd = "" // past a few: what it reads cannot be told
				}
				for _, f := range fs {
					v.readFeed(args, f, prefixIFS(call, src), src)
				}
				return
			}
		}
		// -u "$fd", {fd}: which descriptor it reads is only known when
		// it runs; where the line feeds one, what it reads cannot be told.
		if _, err := strconv.Atoi(fd); err != nil && (len(own) > 0 || len(fed) > 0) {
			f := feed{text: ""} // no read's descriptor: readInto makes its names over
			if len(own) > 0 {
				f = own[0]
			} else {
				f = fed[len(fed)-1].feeds[0]
			}
			f.fd = "-"
			v.readFeed(args, f, prefixIFS(call, src), src)
		}
	}
}

// wrapperAssigns adds the NAME=VALUE words env and sudo give the command
// they run, as an assignment before a command gives them (env c=rm bash
// -c '$c -rf /' runs rm), wherever env or sudo stands among a call's
// words (/usr/bin/env, nice env, sudo -u root env …): after the
// wrapper's options, read as wrapped reads them, each NAME=VALUE up to
// the first other word. A word that only names env as data (echo env
// X=1) gives X a value too: a listing may hold one the command never
// gets.
func (v *lineValues) wrapperAssigns(args []*syntax.Word, src string) {
	named := false // most calls: no word mentions either, no word to read
	for _, w := range args {
		if t := source(w, src); strings.Contains(t, "env") || strings.Contains(t, "sudo") {
			named = true
			break
		}
	}
	if !named {
		return
	}
	words := make([]shellWord, len(args))
	for i, w := range args {
		words[i] = shellWordOf(w, src)
	}
	for i, w := range words {
		spec, ok := wrappers()[w.text[strings.LastIndexByte(w.text, '/')+1:]]
		if !w.static || !ok || !spec.assign {
			continue
		}
		if _, rest, ok := parseOpts(words[i+1:], spec.opts, false); ok {
			for _, r := range rest {
				name, val, _ := strings.Cut(r.text, "=")
				if r.static && r.text == "-" { // env's lone -: -i
					continue
				} else if !isAssignment(r) || !syntax.ValidName(name) {
					break
				}
				v.add(name, val)
			}
		}
	}
}

// evalRound adds what the strings eval runs give, read with the values
// known so far (a string eval runs within one is not read again).
func (v *lineValues) evalRound() {
	for _, text := range v.evalTexts {
		if v.stopped = v.stopped || v.halted(); v.stopped {
			return
		}
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil {
			continue
		}
		sub := newLineValues()
		sub.inEval = true
		sub.inherit(v)
		sub.collect(f, text)
		v.stopped = sub.stopped
		v.inherit(sub)
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

// prefixIFS is the IFS=… assignment before call's name.
func prefixIFS(call *syntax.CallExpr, src string) readIFS {
	var ifs readIFS
	for _, a := range call.Assigns {
		if a.Name != nil && a.Name.Value == "IFS" {
			ifs = readIFS{given: true}
			if a.Value != nil {
				w := shellWordOf(a.Value, src)
				ifs.text, ifs.dynamic = w.text, !w.static
				if ifs.dynamic {
					ifs.w, ifs.src = a.Value, src
				}
			}
		}
	}
	return ifs
}

// arith is arithmetic that assigns ((i=n)), let, for ((…)): x, then post
// steps times (a for ((…)) loop's variable, its condition not read).
type arith struct {
	x, post syntax.ArithmExpr
	steps   int
}

// fromArith records arithmetic for arithRound.
func (v *lineValues) fromArith(x, post syntax.ArithmExpr, steps int) {
	if x != nil {
		v.ariths = append(v.ariths, arith{x, post, steps})
	}
}

// arithRound adds the values the line's arithmetic assigns, evaluated
// with each assignment of the values the other sources give (arithEnvs,
// not those arithmetic made: ((i++)) must not count up each round, as
// chains does for X=$X-r).
func (v *lineValues) arithRound() {
	for _, a := range v.ariths {
		var names []string
		arithReads(a.x, func(n string) { names = append(names, n) })
		arithReads(a.post, func(n string) { names = append(names, n) })
		for _, e := range v.arithEnvsOf(names, true) {
			cfg := &expand.Config{Env: e}
			if _, err := arithm(cfg, a.x); err != nil {
				continue
			}
			v.addDerived(e)
			for range a.steps {
				if a.post == nil {
					break
				}
				if _, err := arithm(cfg, a.post); err != nil {
					break
				}
				v.addDerived(e)
			}
		}
	}
}

// addDerived adds each string value e holds, as made by a chained source
// (lineValues.derived).
func (v *lineValues) addDerived(e env) {
	for name, vr := range e {
		if vr.Kind == expand.String && syntax.ValidName(name) && !slices.Contains(v.vals[name], vr.Str) {
			v.add(name, vr.Str)
			v.made()
			v.derived[name+"\x00"+vr.Str] = true
		}
	}
}

// maxArithEnvs bounds the assignments of values arithmetic is evaluated
// with (arithEnvs).
const maxArithEnvs = 64

// arithEnvs are assignments of the values known so far to names (each
// value, or unset), at most maxArithEnvs of them: arithmetic's values are
// numbers, and a few assignments give the ones that matter.
func (v *lineValues) arithEnvs(names []string) []env { return v.arithEnvsOf(names, false) }

// arithEnvsOf is arithEnvs; given leaves out the values chained sources
// made (derived).
func (v *lineValues) arithEnvsOf(names []string, given bool) []env {
	envs := []env{{}}
	for _, n := range slices.Compact(slices.Sorted(slices.Values(names))) {
		vals := []string{""}
		for _, val := range v.vals[n] {
			if !given || !v.derived[n+"\x00"+val] {
				vals = append(vals, val)
			}
		}
		if len(vals) == 1 {
			continue
		}
		var next []env
		for _, e := range envs {
			for _, val := range vals {
				c := maps.Clone(e)
				if val != "" {
					c[n] = expand.Variable{Set: true, Kind: expand.String, Str: val}
				}
				if next = append(next, c); len(next) >= maxArithEnvs {
					break
				}
			}
		}
		envs = next
	}
	return envs
}

// arithIndexes are the indexes x may evaluate to with the values known so
// far (arithIndex under each of arithEnvs).
func (v *lineValues) arithIndexes(x syntax.ArithmExpr) []int {
	var names []string
	arithReads(x, func(n string) { names = append(names, n) })
	var out []int
	for _, e := range v.arithEnvs(names) {
		if i := arithIndexIn(x, e); !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// integerValue is val as declare -i stores it: evaluated as arithmetic.
func integerValue(val string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("_=$(("+val+"))"), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) != 1 || call.Assigns[0].Value == nil || len(call.Assigns[0].Value.Parts) != 1 {
		return "", false
	}
	x, ok := call.Assigns[0].Value.Parts[0].(*syntax.ArithmExp)
	if !ok {
		return "", false
	}
	n, err := arithm(&expand.Config{Env: env{}}, x.X)
	return strconv.Itoa(n), err == nil
}

// arithm is expand.Arithm, whose panics (on some values: a NUL quoted by
// ${x@Q}) are errors.
func arithm(cfg *expand.Config, x syntax.ArithmExpr) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the expander failed: %v", r)
		}
	}()
	return expand.Arithm(cfg, x)
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
			// With the regular expression written (ERE, read as RE2 where
			// both agree), what it matches and its groups.
			if re, ok := t.Y.(*syntax.Word); ok {
				if rw := shellWordOf(re, src); rw.static && len(rw.text) <= 1024 {
					if x, err := regexp.Compile(rw.text); err == nil {
						if m := x.FindStringSubmatch(sw.text); m != nil {
							v.addArray("BASH_REMATCH", expand.Variable{Set: true, Kind: expand.Indexed, List: m})
						}
					}
				}
			}
		}
	}
}

// withArgs is a copy of v with the parameters sh -c STRING NAME ARGS…
// gives STRING: $0 NAME, $1 … ARGS (those with a static value).
func (v *lineValues) withArgs(name shellWord, args []shellWord) *lineValues {
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
	if name.static {
		c.add("0", name.text)
	}
	return c
}
