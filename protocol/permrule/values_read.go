package permrule

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
	text string
	w    *syntax.Word
}

// feedOf is what redirs feed standard input (ok false: no here-string
// or here-document whose text this analysis can tell or expand).
func feedOf(redirs []*syntax.Redirect, src string) (f feed, ok bool) {
	switch in := stdinOf(redirs, src); in.stdin {
	case stdinText:
		return feed{text: in.stdinText}, true
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
			return feed{w: last.Word}, true
		case (last.Op == syntax.Hdoc || last.Op == syntax.DashHdoc) && last.Hdoc != nil:
			// An unquoted here-document's expansions, read as an
			// assignment's: its backslashes all taken as escapes, where
			// it keeps those before other than $ ` \ and a newline (r\m
			// read -r is listed as rm, which bash would not run).
			return feed{w: last.Hdoc}, true
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
	w     *syntax.Word
	text  string
	src   string
	ifs   readIFS
	seen  int
}

// readIFS is an IFS=… before read (given), static or not (dynamic).
type readIFS struct {
	text           string
	given, dynamic bool
}

// readFeed keeps what read or mapfile (words) reads from f, on a line
// whose text is src, for readRound.
func (v *lineValues) readFeed(words []string, f feed, ifs readIFS, src string) {
	v.hereReads = append(v.hereReads, hereRead{words: words, w: f.w, text: f.text, src: src, ifs: ifs})
}

// readRound reads each read again with the values the last round found:
// static text once (again when IFS gains values), each text a word
// expands to. One that expands a value this analysis cannot tell makes
// what the read gives over.
func (v *lineValues) readRound() {
	for i := range v.hereReads {
		r := &v.hereReads[i]
		names := append(wordNames(r.w), "IFS")
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
		if r.w == nil {
			v.readInto(r.words, r.text, r.ifs)
			continue
		}
		lists, err := v.expand([]*syntax.Word{r.w}, r.src, true, true)
		if err != nil {
			v.readOver(r.words)
			continue
		}
		for _, l := range lists {
			for _, text := range l {
				v.readInto(r.words, text, r.ifs)
			}
		}
	}
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

// dynamicWord stands for a word of read's only known when the line runs
// (readWords).
const dynamicWord = "\x00"

// readWords are a read's or mapfile's words, static text or dynamicWord.
func readWords(args []*syntax.Word, src string) []string {
	words := make([]string, len(args))
	for i, a := range args {
		if w := shellWordOf(a, src); w.static {
			words[i] = w.text
		} else {
			words[i] = dynamicWord
		}
	}
	return words
}

// readTargets are the names a read or mapfile (words) may give values:
// its words that are names, REPLY and MAPFILE.
func readTargets(words []string) []string {
	names := []string{"REPLY", "MAPFILE"}
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

// readCall is what a read's or mapfile's options say: where it stores
// (names; read -a's array; an element NAME[i], whose array cannot then
// be told: elements), what ends a record (delim: -d, "\x00" for an empty -d),
// read -r (raw), -n N and -N N (chars, exact), mapfile -s, -n, -O; over:
// what it reads cannot be told (another descriptor, -u; a count or
// delimiter only known when it runs).
type readCall struct {
	mapfile             bool
	names, elements     []string
	array, delim        string
	raw                 bool
	chars               int
	exact               bool
	skip, count, origin int
	over                bool
}

// parseRead reads words as bash's getopt does: options grouped (-ra
// NAME, -rd ”), a value attached or the next word, -- ending them.
func parseRead(words []string) readCall {
	c := readCall{mapfile: words[0] != "read", delim: "\n"}
	argOpts := "adinNptu"
	if c.mapfile {
		argOpts = "dnOsuCc"
	}
	opts := true
	for i := 1; i < len(words); i++ {
		w := words[i]
		if opts && w == "--" {
			opts = false
			continue
		}
		if !opts || len(w) < 2 || w[0] != '-' || w == dynamicWord {
			c.target(w)
			continue
		}
		for j := 1; j < len(w); j++ {
			if !strings.ContainsRune(argOpts, rune(w[j])) {
				c.raw = c.raw || w[j] == 'r'
				continue
			}
			arg := w[j+1:]
			if arg == "" && i+1 < len(words) {
				i++
				arg = words[i]
			}
			c.option(w[j], arg)
			break
		}
	}
	return c
}

// target adds a word that names where read or mapfile stores.
func (c *readCall) target(w string) {
	switch i := strings.IndexByte(w, '['); {
	case syntax.ValidName(w):
		c.names = append(c.names, w)
	case i > 0 && syntax.ValidName(w[:i]) && strings.HasSuffix(w, "]"):
		c.elements = append(c.elements, w[:i])
	}
}

// option reads option o's value arg.
func (c *readCall) option(o byte, arg string) {
	if arg == dynamicWord {
		c.over = c.over || strings.IndexByte("adnNuOs", o) >= 0
		return
	}
	num := func() int {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 || n > maxArrayElems {
			c.over = true
		}
		return n
	}
	switch {
	case o == 'a':
		c.array = arg
		c.over = c.over || !syntax.ValidName(arg)
	case o == 'd':
		c.delim = "\x00"
		if r, _ := utf8.DecodeRuneInString(arg); arg != "" {
			c.delim = string(r)
		}
	case o == 'u':
		c.over = c.over || strings.TrimSpace(arg) != "0"
	case o == 'n' && c.mapfile:
		c.count = num()
	case o == 'n', o == 'N':
		c.chars, c.exact = num(), o == 'N'
	case o == 's':
		c.skip = num()
	case o == 'O':
		c.origin = num()
	}
}

// readInto adds what read or mapfile (words) reads from text, IFS=…
// before it ifs: for read, each record it may read (each line, or what
// -d ends; -n and -N cut; without -r, escapes resolved) whole, trimmed,
// each of its fields and each rest after a field (which one a name gets
// depends on their count), under each IFS the line may have; -a NAME, an
// array of the fields. For mapfile (readarray), an array of the records.
func (v *lineValues) readInto(words []string, text string, ifs readIFS) {
	c := parseRead(words)
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
	for _, rec := range readRecords(c, text) {
		values = append(values, rec)
		for _, sep := range ifss {
			fields := strings.FieldsFunc(rec, func(r rune) bool { return strings.ContainsRune(sep, r) })
			if c.array != "" {
				v.addArray(c.array, expand.Variable{Set: true, Kind: expand.Indexed, List: fields})
			}
			for _, f := range fields {
				if !seen[f] {
					seen[f] = true
					values = append(values, f)
				}
			}
			values = appendRests(values, rec, sep, len(c.names))
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

// appendRests appends what follows rec's start and each of its first
// runs of IFS characters, n in all (the last of n names takes the rest
// after n-1 fields), as is and without trailing IFS blanks. A value for
// each blank of a long text, each trimmed again, was quadratic: 8 s for
// 60,000 spaces.
func appendRests(values []string, rec, sep string, n int) []string {
	blanks := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return r
		}
		return -1
	}, sep)
	if sep == "" {
		return values
	}
	for i, k := 0, 0; k < n; k++ {
		rest := strings.TrimLeft(rec[i:], sep)
		values = append(values, rest)
		if t := strings.TrimRight(rest, blanks); len(t) < len(rest) {
			values = append(values, t)
		}
		next := strings.IndexAny(rest, sep)
		if next < 0 {
			break
		}
		i = len(rec) - len(rest) + next
	}
	return values
}

// readIFSs are the IFS values a read splits under: its IFS=… prefix, or
// each the line gives IFS (its start's among them). ok false past a few.
func (v *lineValues) readIFSs(ifs readIFS) ([]string, bool) {
	switch {
	case ifs.dynamic:
		return nil, false
	case ifs.given:
		return []string{ifs.text}, true
	}
	vals := v.vals["IFS"]
	if len(vals) == 0 {
		vals = []string{shellIFS}
	}
	return vals, len(vals) <= 8
}

// readRecords are the records read may read from text: its lines (or
// what c's delimiter ends), with -n N cut into pieces of N characters,
// with -N N all of text so; without -r, a backslash-newline joins lines
// and each other backslash escapes the character after it.
func readRecords(c readCall, text string) []string {
	if !c.raw {
		text = strings.ReplaceAll(text, "\\\n", "")
	}
	var recs []string
	switch {
	case c.exact && c.chars > 0:
		recs = chunks(text, c.chars)
	case c.delim == "\x00":
		recs = []string{text}
	default:
		recs = strings.Split(strings.TrimSuffix(text, c.delim), c.delim)
	}
	if !c.raw {
		for i, r := range recs {
			recs[i] = unescapeRead(r)
		}
	}
	if c.chars > 0 && !c.exact {
		var cut []string
		for _, r := range recs {
			cut = append(cut, chunks(r, c.chars)...)
		}
		recs = cut
	}
	return recs
}

// chunks cuts s into pieces of n characters (the last may be shorter).
func chunks(s string, n int) []string {
	var out []string
	for s != "" {
		i, k := 0, 0
		for i < len(s) && k < n {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			k++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// unescapeRead is s as read without -r takes it: each backslash escapes
// the character after it.
func unescapeRead(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mapfileInto adds the array mapfile reads from text: its records (what
// the delimiter ends), past -s's count, up to -n's, from index -O on.
func (v *lineValues) mapfileInto(c readCall, text string) {
	recs := []string{text}
	if c.delim != "\x00" {
		recs = strings.Split(strings.TrimSuffix(text, c.delim), c.delim)
	}
	recs = recs[min(c.skip, len(recs)):]
	if c.count > 0 && c.count < len(recs) {
		recs = recs[:c.count]
	}
	name := "MAPFILE"
	if len(c.names) > 0 {
		name = c.names[len(c.names)-1]
	}
	list := append(make([]string, c.origin, c.origin+len(recs)), recs...)
	v.addArray(name, expand.Variable{Set: true, Kind: expand.Indexed, List: list})
}
