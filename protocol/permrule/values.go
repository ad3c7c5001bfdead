package permrule

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a line gives its variables. `X=-rf; rm $X /` runs rm -rf /,
// and so does `rm ${X:--rf} /`: a word that expands a variable is only
// known when the line runs, but where the line itself gives the variable
// its values, each command is also listed with each value it may take
// there (parseShell adds them beside the command as written), expanded
// by mvdan.cc/sh's expand as bash expands it (expansion.go). The values
// are every one the line gives, wherever it gives them — an assignment
// after the command counts, as a loop can run it later — and unset where
// a use comes before the first: a listing may hold a value the command
// never gets. A command string the line runs (eval, sh -c, trap, an
// alias) reads them too, and what eval's string gives, the line has.
// Not followed: what a value only has at run time ($(…), read from a
// file or a pipe, the environment), and a value a loop builds over its
// iterations (F=$F$c: each assignment is read once, in order).

// maxVarValues bounds the values one variable takes on a line,
// maxVariants the listings one command gets from them, and
// maxLineVariants those of the whole line (64 KiB of `rm $X;` with many
// values would list millions of commands): past any, the line cannot be
// read (an error), or a thousand assignments would hide the one that
// matters. maxExpandBytes bounds the text the expansions may make,
// counted before they are made (64 KiB of ${X//a/$X} would make
// gigabytes), and maxValueRounds how often the line's values are read
// again, each time with what the last reading found (Y=$X, set -- $X).
const (
	maxVarValues    = 4096
	maxVariants     = 4096
	maxLineVariants = 16384
	maxExpandBytes  = 4 << 20
	maxValueRounds  = 8
	// maxReadBytes bounds the text read and mapfile read on a line, each
	// charged for what it reads times the names it reads it into.
	maxReadBytes = 4 * maxShellCommand
	// maxEvals bounds the expansions of a line (each word under each
	// assignment of values): 64 KiB of C=$A$B, A and B given 16 values,
	// would make millions.
	maxEvals = 1 << 15
)

// shellIFS is the IFS a shell starts with: bash and sh never take IFS
// from the environment (`env IFS=x bash -c 'echo "$IFS"'` prints the
// default), so a line reads it as given from its start, whatever else
// the line gives it: rm${IFS}-rf${IFS}/ runs rm -rf /.
const shellIFS = " \t\n"

// lineValues are the values a line gives its variables.
type lineValues struct {
	vals   map[string][]string
	arrays map[string][]expand.Variable // a=(x y), m=([k]=v), set -- x y
	// over are the variables whose values cannot all be told (past a
	// bound): a command that expands one is an error.
	over map[string]bool
	// outputs are, by variable, the command substitutions whose output
	// the line gives it (X=$(…)), as written: output_code.go.
	outputs map[string][]string
	// derived are the values (NAME\x00VALUE) a chained source made,
	// derivedArr the arrays (arrKey) arrayRound made.
	derived, derivedArr map[string]bool
	// first is where the line first gives each variable a value (an
	// offset): a word before it may read the variable unset.
	first map[string]uint
	// evals is how many more assignments of values the line's
	// expansions may be made under (maxEvals).
	evals int
	// lower, upper and integer are the variables declared -l, -u, -i.
	lower, upper, integer map[string]bool
	// inEval: these are the values of a string eval runs (whose own
	// eval strings are not read again); evalTexts are the strings the
	// line's evals run.
	inEval    bool
	evalTexts []string
	// ariths are the line's assigning arithmetic (arithRound).
	ariths []arith
	// hereReads are its reads and mapfiles fed text (readRound),
	// printfs its printf -v whose words expand values (printfRound).
	hereReads []hereRead
	printfs   []printfCall
	// lastGiven is how many of the commands' last arguments (the values
	// of $_, kept aside in shared until a word reads _: every command has
	// one, and a line whose words read no variable must not be expanded
	// for them) _ has been given (lastValues).
	lastGiven int
	// shared is what the whole line's values share (inherit);
	// exhausted, past maxInherited: the line cannot be read; stopped,
	// the caller's time bound passed (halted).
	shared             *lineShared
	exhausted, stopped bool
	// ifsOutside: an assignment of IFS takes a value from outside the
	// line (outsideIFS).
	ifsOutside bool
	// unreadable: why the line cannot be read (a read storing in a
	// variable named by a value only known when it runs), or "".
	unreadable string
	// index are sets of the values of names with many (has).
	index map[string]*valueIndex
	// arrKeys are the arrays of arrays, by arrKey: an array is kept once.
	arrKeys map[string]bool
	// patterns: the line sets shopt nocasematch or extglob, which change
	// what a pattern in ${X/…}, ${X#…} matches (expansion.go).
	patterns bool
	// bodies are the functions' bodies (offsets): a use in one is taken
	// to come after what it reads is given (unsetAt).
	bodies [][2]uint
	// budget is the listings the line may still add, bytes the text its
	// expansions may still make, braces the brace words its value
	// sources may still make (what read and mapfile may still read is
	// shared: lineShared.read); longest is the longest value so far (an
	// array's, joined).
	budget, bytes, braces, longest int
}

// valueSource is one place the line gives a variable values: name=word
// (append: name+=word), a for loop's word (fields: each field is a
// value), ${name:=word}. chained: an append, or a value that reads the
// variable itself (X=$X-r): read in line order from the values before it
// (chains), not again from what it made.
type valueSource struct {
	name                    string
	w                       *syntax.Word
	append, fields, chained bool
}

// valuesOf collects the values file gives its variables (gather lists
// where). A value that expands others is read with theirs (Y=$X); outer is
// the line that runs this one as a command string (nil: none), whose
// values this one's variables may hold too.
func valuesOf(file *syntax.File, src string, outer *lineValues) *lineValues {
	v := newLineValues()
	v.inherit(outer)
	v.add("IFS", shellIFS)
	v.first["IFS"] = 0
	v.patterns = outer != nil && outer.patterns
	v.collect(file, src)
	return v
}

// collect adds the values file, whose text is src, gives (valuesOf):
// where it gives them (gather), then what they are (settle).
func (v *lineValues) collect(file *syntax.File, src string) {
	g := v.gather(file, src)
	v.noteOutputs(g.sources, src)
	v.settle(g, src)
}

// settle reads the givers' values in rounds, each with the values the
// last one found, until a round adds none and makes nothing over; past
// maxValueRounds, what still grows is over. Whichever way they end, what
// is made of an over name is over (spreadOver).
func (v *lineValues) settle(g *givers, src string) {
	defer v.spreadOver(g)
	sources := g.sources
	v.ifsOutside = v.outsideIFS(sources)
	seen := make([]int, len(sources)) // the values a source's names had when it was last read
	// ${!p} reads the name p's values give, whose own values may grow
	// while p's do not: such a source is read again every round.
	indirect := make([]bool, len(sources))
	for i, s := range sources {
		indirect[i] = readsIndirect(s.w)
	}
	round := func() {
		for i, s := range sources {
			if v.stopped = v.stopped || v.halted(); v.stopped {
				return
			}
			if s.chained || v.over[s.name] { // an over one is an error where used
				continue
			}
			names := wordNames(s.w)
			n := v.countOf(names) + 1
			if slices.ContainsFunc(names, func(n string) bool { return v.over[n] }) {
				// A name it reads became over (arrayRound, after this read
				// it as empty): read again, it is over too.
				n = -1
			}
			if n != seen[i] || indirect[i] {
				seen[i] = n // read again only when what it reads has changed
				v.read(s, src)
			}
		}
		v.chains(sources, src)
		v.arrayRound(g.arrays, src)
		v.positionals(g.sets, src)
		v.evalRound()
		v.arithRound()
		v.readRound()
		v.printfRound()
		for name, others := range g.refs {
			for _, o := range others {
				v.copyValues(name, o)
			}
		}
	}
	for range maxValueRounds {
		// A round that only makes a name over changes what the others read.
		before := v.count() + len(v.over)
		if round(); v.count()+len(v.over) == before || v.stopped {
			return
		}
	}
	// Still growing (a chain of values longer than the rounds, Y=$X; X=$W
	// …): what grows in one more round cannot all be told.
	sizes := map[string]int{}
	for name := range v.vals {
		sizes[name] = len(v.vals[name]) + len(v.arrays[name])
	}
	for name := range v.arrays {
		sizes[name] = len(v.vals[name]) + len(v.arrays[name])
	}
	round()
	for name := range v.vals {
		if len(v.vals[name])+len(v.arrays[name]) != sizes[name] {
			v.over[name] = true
		}
	}
	for name := range v.arrays {
		if len(v.vals[name])+len(v.arrays[name]) != sizes[name] {
			v.over[name] = true
		}
	}
}

// newLineValues is an empty lineValues, its bounds whole.
func newLineValues() *lineValues {
	return &lineValues{budget: maxLineVariants, bytes: maxExpandBytes, braces: 4 * maxBraceWords,
		evals: maxEvals, first: map[string]uint{}}
}

// read adds the values s gives, with the values known so far.
func (v *lineValues) read(s valueSource, src string) {
	for _, val := range v.valuesIn(s, src) {
		v.add(s.name, val)
	}
}

// valuesIn are the values s gives, with the values known so far (none
// when it cannot be told: then s's variable is over).
func (v *lineValues) valuesIn(s valueSource, src string) []string {
	var vals []string
	if s.w == nil {
		vals = []string{""}
	} else if w := shellWordOf(s.w, src); w.static && !s.fields {
		vals = []string{w.text}
	} else if w.static && w.glob && strings.ContainsAny(w.text, "*?[") {
		return nil // for f in *.o: a file's name, not the pattern
	} else {
		lists, err := v.expand([]*syntax.Word{s.w}, src, !s.fields, true)
		if err != nil {
			v.made()
			v.over[s.name] = true // what it may hold cannot be told
			return nil
		}
		for _, l := range lists {
			vals = append(vals, l...)
		}
	}
	return vals
}

// chains adds what each chained source of the line makes, in line order,
// each once: from the values the other sources give (and unset), then
// from what the chained ones before it made — each append taken to run,
// once, in order. Read again each round from those, they give the same
// values, so the rounds end.
func (v *lineValues) chains(sources []valueSource, src string) {
	work := map[string][]string{} // the values so far, by name
	for _, s := range sources {
		if !s.chained || v.over[s.name] {
			continue
		}
		cur, ok := work[s.name]
		if !ok {
			cur = []string{""}
			for _, u := range v.vals[s.name] {
				if !v.derived[s.name+"\x00"+u] {
					cur = append(cur, u)
				}
			}
			for _, a := range v.arrays[s.name] {
				if a.Kind == expand.Indexed && len(a.List) > 0 && (a.Indexes == nil || a.Indexes[0] == 0) && !v.derivedArr[arrKey(s.name, a)] {
					cur = append(cur, a.List[0]) // a+=v appends to element 0
				}
			}
		}
		// The source reads its variable as it is so far: cur.
		v.made()
		saved := v.vals[s.name]
		v.vals[s.name] = cur
		vals := v.valuesIn(s, src)
		v.vals[s.name] = saved
		next, ok := v.chained(s, cur, vals)
		if !ok {
			v.over[s.name] = true
			continue
		}
		work[s.name] = next
		for _, val := range next {
			if !slices.Contains(v.vals[s.name], val) {
				v.add(s.name, val)
				v.derived[s.name+"\x00"+val] = true
			}
		}
	}
}

// chained is what source s makes of its variable's values so far (cur)
// and of its own values (vals): each appended to each for an append, else
// its own; ok false past maxVarValues (found as they are made, not
// after: cur and vals may each hold thousands).
func (v *lineValues) chained(s valueSource, cur, vals []string) (next []string, ok bool) {
	seen := map[string]bool{}
	add := func(val string) bool {
		if !seen[val] {
			seen[val] = true
			next = append(next, val)
			v.longest = max(v.longest, len(val)) // what expanding it next may cost
		}
		return len(next) <= maxVarValues
	}
	for _, a := range vals {
		if !s.append {
			if !add(a) {
				return nil, false
			}
			continue
		}
		for _, u := range cur {
			if !add(u + a) {
				return nil, false
			}
			if x, y, ok := ints(u, a); ok && v.integer[s.name] && !add(strconv.Itoa(x+y)) { // declare -i: i+=1 adds
				return nil, false
			}
		}
	}
	return next, true
}

// copyValues gives name every value of other too (declare -n, for name).
func (v *lineValues) copyValues(name, other string) {
	if v.made(); v.over[other] || !syntax.ValidName(other) && !positionalName(other) {
		// What it refers to cannot be told: over, or not a name this
		// analysis keeps values of (declare -n r='a[0]': an element).
		v.over[name] = true
	}
	for _, s := range slices.Clone(v.vals[other]) {
		v.add(name, s)
	}
	for _, a := range slices.Clone(v.arrays[other]) {
		if other == "@" {
			for _, s := range a.List {
				v.add(name, s)
			}
			continue
		}
		v.addArray(name, a)
	}
}

// ints reads u (empty: 0) and a as integers.
func ints(u, a string) (x, y int, ok bool) {
	x, err1 := strconv.Atoi(cmp.Or(u, "0"))
	y, err2 := strconv.Atoi(a)
	return x, y, err1 == nil && err2 == nil
}

// countOf is how many values names hold.
func (v *lineValues) countOf(names []string) int {
	n := 0
	for _, name := range names {
		n += len(v.vals[name]) + len(v.arrays[name])
	}
	return n
}

// count is how many values v holds.
func (v *lineValues) count() int {
	n := 0
	for _, vals := range v.vals {
		n += len(vals)
	}
	for _, a := range v.arrays {
		n += len(a)
	}
	return n
}

func (v *lineValues) add(name, val string) {
	v.made()
	switch {
	case v.over[name]: // an error where used: no value matters
	case v.has(name, val):
	case len(v.vals[name])+len(v.arrays[name]) >= maxVarValues:
		v.over[name] = true
	default:
		v.vals[name] = append(v.vals[name], val)
		v.indexed(name, val)
		v.longest = max(v.longest, len(val))
		if v.lower[name] {
			v.add(name, strings.ToLower(val))
		}
		if v.upper[name] {
			v.add(name, strings.ToUpper(val))
		}
		if v.integer[name] {
			if n, ok := integerValue(val); ok {
				v.add(name, n) // declare -i n; n=1+1 stores 2
			}
		}
	}
}

func (v *lineValues) addArray(name string, a expand.Variable) {
	v.made()
	k := arrKey(name, a)
	if v.arrKeys[k] {
		return
	}
	if len(v.vals[name])+len(v.arrays[name]) >= maxVarValues {
		v.over[name] = true
		return
	}
	v.arrKeys[k] = true
	v.arrays[name] = append(v.arrays[name], a)
	for _, cased := range []struct {
		on bool
		f  func(string) string
	}{{v.lower[name], strings.ToLower}, {v.upper[name], strings.ToUpper}} {
		if cased.on && a.Kind == expand.Indexed {
			c := a
			c.List = make([]string, len(a.List))
			for i, s := range a.List {
				c.List[i] = cased.f(s)
			}
			v.addArray(name, c)
		}
	}
	n := len(a.List) + len(a.Map)
	for _, s := range a.List {
		n += len(s)
	}
	for k, s := range a.Map {
		n += len(k) + len(s)
	}
	v.longest = max(v.longest, n)
}

// made makes v's maps: most lines give no value, and pay for none.
func (v *lineValues) made() {
	if v.vals == nil {
		v.vals, v.arrays = map[string][]string{}, map[string][]expand.Variable{}
		v.over, v.derived, v.derivedArr = map[string]bool{}, map[string]bool{}, map[string]bool{}
		v.lower, v.upper, v.integer = map[string]bool{}, map[string]bool{}, map[string]bool{}
		v.arrKeys = map[string]bool{}
		if v.first == nil {
			v.first = map[string]uint{}
		}
	}
}
