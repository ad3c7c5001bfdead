package permrule

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// What read and mapfile give: the text of a here-string or here-document
// fed to them or to the loop or group around them. Static text is read
// at once; one that expands the line's values (read b <<< "$X", an
// unquoted here-document) is read again in each round with the values
// found so far (readRound), as an assignment is, so that X='rm -rf /';
// read b <<< "$X"; $b lists rm -rf /.

// feed is what a here-string or here-document gives a command's standard
// input: its text when static, else (w) the here-string's word or the
// here-document's body, whose expansions are its texts.
type feed struct {
	fd   string // the descriptor it feeds ("0": standard input)
	text string
	w    *syntax.Word
	dash bool // <<-: its texts read also without each line's leading tabs
}

// feedsOf are what redirs feed standard input (feedOf) and each other
// descriptor a here-string or here-document is the last redirection of
// (read -u 3 x 3<<< TEXT).
func feedsOf(redirs []*syntax.Redirect, src string) []feed {
	var feeds []feed
	if f, ok := feedOf(redirs, src); ok {
		feeds = append(feeds, f)
	}
	// Each descriptor's feed after each redirection, in order: 3<&0
	// after <<< TEXT, 4<&3 after 3<<< TEXT copy it; any other ends it.
	state := map[string]*feed{}
	var fds []string
	for _, r := range redirs {
		fd := redirectFD(r)
		if _, seen := state[fd]; !seen {
			fds = append(fds, fd)
		}
		var f *feed
		switch {
		case r.Op == syntax.WordHdoc && r.Word != nil:
			if w := shellWordOf(r.Word, src); w.static {
				f = &feed{text: w.text}
			} else {
				f = &feed{w: r.Word}
			}
		case r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc:
			if text, ok := hdocText(r); ok {
				f = &feed{text: text}
			} else if r.Hdoc != nil {
				f = &feed{w: r.Hdoc, dash: r.Op == syntax.DashHdoc}
			}
		case (r.Op == syntax.DplIn || r.Op == syntax.DplOut) && r.Word != nil:
			if g := state[fdName(shellWordOf(r.Word, src).text)]; g != nil {
				c := *g
				f = &c
			}
		}
		state[fd] = f
	}
	for _, fd := range fds {
		if f := state[fd]; fd != "0" && f != nil {
			c := *f
			c.fd = fd
			feeds = append(feeds, c)
		}
	}
	return feeds
}

// redirects: one of redirs is descriptor fd's (not <&0, which keeps it).
func redirects(redirs []*syntax.Redirect, fd, src string) bool {
	for _, r := range redirs {
		if !keepsStdin(r, src) && redirectFD(r) == fd {
			return true
		}
	}
	return false
}

// redirectFD is the descriptor r redirects: its number as bash reads it
// (fdName), else standard input for an input redirection, standard
// output for any other.
func redirectFD(r *syntax.Redirect) string {
	switch {
	case r.N != nil:
		return fdName(r.N.Value)
	case r.Op == syntax.RdrIn, r.Op == syntax.RdrInOut, r.Op == syntax.DplIn, r.Op == syntax.WordHdoc, r.Op == syntax.Hdoc, r.Op == syntax.DashHdoc:
		return "0"
	}
	return "1"
}

// feedOf is what redirs feed standard input (ok false: no here-string
// or here-document whose text this analysis can tell or expand).
func feedOf(redirs []*syntax.Redirect, src string) (f feed, ok bool) {
	switch in := stdinOf(redirs, src); in.stdin {
	case stdinText:
		return feed{fd: "0", text: in.stdinText}, true
	case stdinUnknown:
		// The last redirection of fd 0 wins (stdinOf): a here-string
		// whose word is not static text.
		var last *syntax.Redirect
		for _, r := range redirs {
			if (r.N == nil || r.N.Value == "0") && !keepsStdin(r, src) {
				switch r.Op {
				case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc:
					last = r
				}
			}
		}
		switch {
		case last == nil:
		case last.Op == syntax.WordHdoc && last.Word != nil:
			return feed{fd: "0", w: last.Word}, true
		case (last.Op == syntax.Hdoc || last.Op == syntax.DashHdoc) && last.Hdoc != nil:
			// An unquoted here-document's expansions, read as an
			// assignment's: its backslashes all taken as escapes, where
			// it keeps those before other than $ ` \ and a newline (r\m
			// read -r is listed as rm, which bash would not run).
			return feed{fd: "0", w: last.Hdoc, dash: last.Op == syntax.DashHdoc}, true
		}
	}
	return feed{}, false
}

// hereRead is a read or mapfile (words: readWords) fed text (w nil) or
// a here-string or here-document that expands values (w), read in each
// round (readRound) once what it reads has changed (seen: the count of
// those values and IFS's then), so that the line's IFS is known.
type hereRead struct {
	words []string
	args  []*syntax.Word // the words as written (a target named by a value: readTargetWords)
	w     *syntax.Word
	text  string
	fd    string
	dash  bool
	src   string
	ifs   readIFS
	seen  int
}

// readIFS is an IFS=… before read (given), static or not (dynamic).
type readIFS struct {
	text           string
	given, dynamic bool
	w              *syntax.Word // dynamic: the word, expanded with the line's values
	src            string
}

// readFeed keeps what read or mapfile (words) reads from f, on a line
// whose text is src, for readRound.
func (v *lineValues) readFeed(args []*syntax.Word, f feed, ifs readIFS, src string) {
	v.hereReads = append(v.hereReads, hereRead{words: readWords(args, src), args: args, w: f.w, text: f.text, fd: f.fd, dash: f.dash, src: src, ifs: ifs})
}

// readRound reads each read again with the values the last round found:
// static text once (again when IFS gains values), each text a word
// expands to. One that expands a value this analysis cannot tell makes
// what the read gives over.
func (v *lineValues) readRound() {
	for i := range v.hereReads {
		if v.unreadable != "" {
			return // the line is an error: reading more only costs
		}
		r := &v.hereReads[i]
		c := parseRead(r.words)
		names := append(append(wordNames(r.w), wordNames(r.ifs.w)...), "IFS")
		if c.keep {
			names = append(names, readTargets(r.words)...) // mapfile -O: the array it keeps
		}
		for _, at := range c.dynamic {
			names = append(names, wordNames(r.args[at])...)
		}
		if slices.ContainsFunc(names, func(n string) bool { return v.over[n] }) {
			v.readOver(r.words)
			continue
		}
		// ${!p} reads a name p's values give, whose own values may grow
		// while p's do not: read again every round.
		n := v.countOf(names) + 1
		if n == r.seen && !readsIndirect(r.w) {
			continue
		}
		r.seen = n
		variants, ok := v.readTargetWords(r, c.dynamic)
		if variants == nil && ok {
			continue // a function's read "$1": its calls are read as such
		}
		if !ok {
			// It may store the text in any variable, the one a later
			// word runs among them.
			v.unreadable = "`" + r.words[0] + "` stores what it reads in a variable named by a value only known when it runs"
			continue
		}
		for _, words := range variants {
			v.readText(r, words)
		}
	}
}

// readText reads what r is fed into words: its static text, or each
// text its word expands to.
func (v *lineValues) readText(r *hereRead, words []string) {
	if r.w == nil {
		v.readInto(words, r.text, r.ifs, r.fd)
		return
	}
	if v.outsideText(r.w) {
		return // nothing of it is the line's: what it gives stays as written
	}
	lists, err := v.expand([]*syntax.Word{r.w}, r.src, true, true)
	if err != nil {
		v.readOver(words)
		return
	}
	for _, l := range lists {
		for _, text := range l {
			v.readInto(words, text, r.ifs, r.fd)
			if r.dash {
				v.readInto(words, stripHdocTabs(text), r.ifs, r.fd)
			}
		}
	}
}

// readTargetWords are r's words with each word at an index of dynamic (a
// target named by a value: read "$n") replaced by each name the line's
// values make it, up to a few in all; ok false where one is not a name
// this analysis can tell (a value from outside the line); none and ok
// for a positional parameter's (a function's read "$1", which a function
// that runs its arguments is refused for as a whole).
func (v *lineValues) readTargetWords(r *hereRead, dynamic []int) (variants [][]string, ok bool) {
	variants = [][]string{r.words}
	for _, at := range dynamic {
		for _, n := range wordNames(r.args[at]) {
			if positionalName(n) {
				return nil, true
			}
			if v.countOf([]string{n}) == 0 {
				return nil, false
			}
		}
		lists, err := v.expand([]*syntax.Word{r.args[at]}, r.src, true, true)
		if err != nil || len(lists) == 0 {
			return nil, false
		}
		if len(lists)*len(variants) > 8 {
			return nil, false
		}
		var next [][]string
		for _, l := range lists {
			name := strings.Join(l, "")
			if !syntax.ValidName(name) {
				return nil, false
			}
			for _, w := range variants {
				w = slices.Clone(w)
				w[at] = name
				next = append(next, w)
			}
		}
		variants = next
	}
	return variants, true
}

// outsideText: w's text is only known when the line runs: it is made
// only of plain expansions of names the line gives no value ("$line",
// $a$b), so nothing of it is the line's (IFS="$SEP" read a b <<< "$line"
// splits an outside text: it is not refused for the IFS it does not
// know).
func (v *lineValues) outsideText(w *syntax.Word) bool {
	var plain func(parts []syntax.WordPart) bool
	plain = func(parts []syntax.WordPart) bool {
		for _, part := range parts {
			switch p := part.(type) {
			case *syntax.DblQuoted:
				if !plain(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				if p.Param == nil || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil || p.Excl || p.Length || p.Names != 0 ||
					p.Param.Value == "IFS" || v.countOf([]string{p.Param.Value}) > 0 {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return w != nil && len(w.Parts) > 0 && plain(w.Parts)
}

// readsIndirect: w expands ${!NAME} or ${!prefix*}, whose values are
// other names'.
func readsIndirect(w *syntax.Word) bool {
	found := false
	if w != nil {
		syntax.Walk(w, func(n syntax.Node) bool {
			if p, ok := n.(*syntax.ParamExp); ok && (p.Excl || p.Names != 0) {
				found = true
			}
			return !found
		})
	}
	return found
}

// readTargets are the names a read or mapfile (words) may give values:
// its targets (parseRead), its words that are names, REPLY and MAPFILE.
func readTargets(words []string) []string {
	c := parseRead(words)
	names := append([]string{"REPLY", "MAPFILE"}, c.names...)
	names = append(names, c.elements...)
	if c.array != "" {
		names = append(names, c.array) // -aNAME attached too
	}
	for _, w := range words[1:] {
		if syntax.ValidName(w) {
			names = append(names, w)
		}
	}
	return names
}

// readOver makes over what a read or mapfile (words) gives: it cannot be
// told.
func (v *lineValues) readOver(words []string) {
	v.made()
	for _, n := range readTargets(words) {
		v.over[n] = true
	}
}

// readInto adds what read or mapfile (words) reads from text, IFS=…
// before it ifs: for read, each record it may read (each line, or what
// -d ends; -n and -N cut; without -r, escapes resolved) whole, trimmed,
// each of its fields and each rest after a field (which one a name gets
// depends on their count), under each IFS the line may have; -a NAME, an
// array of the fields. For mapfile (readarray), an array of the records.
func (v *lineValues) readInto(words []string, text string, ifs readIFS, fd string) {
	c := parseRead(words)
	c.over = c.over || c.fd != fd // another descriptor than the text's
	sh := v.share()
	sh.read += len(text) * len(words)
	ifss, ok := v.readIFSs(ifs)
	if sh.read > maxReadBytes || c.over || !ok {
		// Past the line's bound (a group fed a long text, read by
		// thousands of reads in it), or read otherwise than this
		// analysis follows: what it reads cannot be told.
		v.readOver(words)
		return
	}
	for _, n := range c.elements {
		v.made()
		v.over[n] = true
	}
	if c.mapfile {
		v.mapfileInto(c, text)
		return
	}
	if len(c.names) == 0 && c.array == "" {
		c.names = []string{"REPLY"}
	}
	var values []string
	seen := map[string]bool{} // fields are many and short: each added once (add scans a name's values)
	seps := make([]*readSep, len(ifss))
	for i, sep := range ifss {
		seps[i] = newReadSep(sep)
	}
	for _, rec := range readRecords(c, text) {
		values = append(values, rec.s)
		for _, sep := range seps {
			fields, lasts := readSplit(rec, sep, len(c.names))
			if c.array != "" {
				v.addArray(c.array, expand.Variable{Set: true, Kind: expand.Indexed, List: fields})
			}
			for _, f := range append(fields, lasts...) {
				if !seen[f] {
					seen[f] = true
					values = append(values, f)
				}
			}
		}
		if len(values) > maxVarValues {
			break // over below
		}
	}
	for _, n := range c.names {
		if len(values) > maxVarValues {
			// More values than a name holds (add would find so after
			// thousands of scans of its values): it cannot be told.
			v.made()
			v.over[n] = true
			continue
		}
		for _, val := range values {
			v.add(n, val)
		}
	}
}

// readIFSs are the IFS values a read splits under: its IFS=… prefix, or
// each the line gives IFS (its start's among them). ok false past a few.
func (v *lineValues) readIFSs(ifs readIFS) ([]string, bool) {
	switch {
	case ifs.dynamic:
		for _, n := range wordNames(ifs.w) {
			if v.countOf([]string{n}) == 0 {
				return nil, false // a value from outside the line: any IFS
			}
		}
		lists, err := v.expand([]*syntax.Word{ifs.w}, ifs.src, true, true)
		if err != nil || lists == nil || len(lists) > 8 {
			return nil, false
		}
		vals := make([]string, len(lists))
		for i, l := range lists {
			vals[i] = strings.Join(l, "")
		}
		return vals, true
	case ifs.given:
		return []string{ifs.text}, true
	}
	vals := v.vals["IFS"]
	if len(vals) == 0 {
		vals = []string{shellIFS}
	}
	return vals, len(vals) <= 8 && !v.ifsOutside
}

// mapfileInto adds the array mapfile reads from text: its records (what
// the delimiter ends), past -s's count, up to -n's, from index -O on.
func (v *lineValues) mapfileInto(c readCall, text string) {
	name := "MAPFILE"
	if len(c.names) > 0 {
		name = c.names[len(c.names)-1]
	}
	recs := []string{text}
	if c.delim != "\x00" {
		recs = strings.SplitAfter(text, c.delim)
		if recs[len(recs)-1] == "" {
			recs = recs[:len(recs)-1]
		}
		if c.trim {
			for i, r := range recs {
				recs[i] = strings.TrimSuffix(r, c.delim)
			}
		}
	}
	recs = recs[min(c.skip, len(recs)):]
	if c.count > 0 && c.count < len(recs) {
		recs = recs[:c.count]
	}
	list := append(make([]string, c.origin, c.origin+len(recs)), recs...)
	if c.keep {
		// -O keeps the array's other elements: each array it may hold
		// (a scalar is its element 0) with recs from origin on
		// (readRound reads it again as those grow).
		olds := slices.Clone(v.arrays[name])
		for _, s := range v.vals[name] {
			olds = append(olds, expand.Variable{Set: true, Kind: expand.Indexed, List: []string{s}})
		}
		for _, old := range olds {
			if old.Kind != expand.Indexed {
				continue
			}
			l := slices.Clone(old.List)
			if n := c.origin + len(recs); len(l) < n {
				l = append(l, make([]string, n-len(l))...)
			}
			copy(l[c.origin:], recs)
			v.addArray(name, expand.Variable{Set: true, Kind: expand.Indexed, List: l})
		}
	}
	v.addArray(name, expand.Variable{Set: true, Kind: expand.Indexed, List: list})
}
