package permrule

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// How read and mapfile take text, as bash 5.2 does: their options
// (getopt's: grouped, a value attached or the next word), the records a
// delimiter ends, -n and -N's pieces, read's escapes without -r (an
// escaped character is neither a delimiter nor an IFS character), and
// the fields and rests IFS splits a record into, and the IFS and
// descriptors a read has (outsideIFS, fdName). What the read gives the
// line's values is values_read.go's; read_bash_test.go checks the
// splitting against bash itself.

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

// readCall is what a read's or mapfile's options say: where it stores
// (names; read -a's array; an element NAME[i], whose array cannot then
// be told: elements), what ends a record (delim: -d, "\x00" for an empty -d),
// read -r (raw), -n N and -N N (chars, exact), mapfile -s, -n, -O; over:
// what it reads cannot be told (a count or delimiter only known when it
// runs).
type readCall struct {
	mapfile             bool
	names, elements     []string
	array, delim        string
	raw                 bool
	chars               int
	exact               bool
	skip, count, origin int
	over                bool
	// fd is the descriptor it reads (-u; "0" without).
	fd string
	// dynamic are the indexes of the words that name a target by a
	// value only known when the line runs (read "$n", -a "$n").
	dynamic []int
	// trim: mapfile -t; keep: mapfile -O (the array is not cleared)
	trim, keep bool
}

// parseRead reads words as bash's getopt does: options grouped (-ra
// NAME, -rd ”), a value attached or the next word, -- ending them.
func parseRead(words []string) readCall {
	c := readCall{mapfile: words[0] != "read", delim: "\n", fd: "0"}
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
			if w == dynamicWord {
				c.dynamic = append(c.dynamic, i)
			}
			c.target(w)
			continue
		}
		for j := 1; j < len(w); j++ {
			if !strings.ContainsRune(argOpts, rune(w[j])) {
				c.raw = c.raw || w[j] == 'r'
				c.trim = c.trim || w[j] == 't'
				continue
			}
			arg := w[j+1:]
			if arg == "" && i+1 < len(words) {
				i++
				arg = words[i]
				if w[j] == 'a' && arg == dynamicWord {
					c.dynamic = append(c.dynamic, i) // -a "$NAME"
					break
				}
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
		if o == 'u' {
			c.fd = dynamicWord // not standard input's feed
		}
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
		if arg != "" {
			c.delim = arg[:1] // bash 5.2 ends at the first byte, é's too
		}
	case o == 'u':
		c.fd = fdName(strings.TrimSpace(arg))
	case o == 'n' && c.mapfile:
		c.count = num()
	case o == 'n', o == 'N':
		c.chars, c.exact = num(), o == 'N'
	case o == 's':
		c.skip = num()
	case o == 'O':
		c.origin, c.keep = num(), true
	}
}

// readText is text as read takes it: without -r, each backslash makes
// the character after it literal (lit: neither a delimiter nor an IFS
// character) and is dropped, a backslash-newline dropped whole.
type readText struct {
	s   string
	lit []bool // nil: none literal
}

func readUnescape(text string, raw bool) readText {
	if raw || !strings.Contains(text, `\`) {
		return readText{s: text}
	}
	var b strings.Builder
	lit := make([]bool, 0, len(text))
	for i := 0; i < len(text); i++ {
		esc := text[i] == '\\'
		if esc {
			if i++; i == len(text) || text[i] == '\n' {
				continue
			}
		}
		b.WriteByte(text[i])
		lit = append(lit, esc)
		// the rest of an escaped character's bytes
		for esc && i+1 < len(text) && !utf8.RuneStart(text[i+1]) {
			i++
			b.WriteByte(text[i])
			lit = append(lit, true)
		}
	}
	return readText{b.String(), lit}
}

func (t readText) cut(i, j int) readText {
	if t.lit == nil {
		return readText{s: t.s[i:j]}
	}
	return readText{t.s[i:j], t.lit[i:j]}
}

func (t readText) isLit(i int) bool { return t.lit != nil && t.lit[i] }

// readSep is an IFS value as a set of characters.
type readSep struct {
	ascii [utf8.RuneSelf]bool
	other map[rune]bool
	empty bool
}

func newReadSep(sep string) *readSep {
	p := &readSep{empty: sep == ""}
	for _, r := range sep {
		if r < utf8.RuneSelf {
			p.ascii[r] = true
		} else {
			if p.other == nil {
				p.other = map[rune]bool{}
			}
			p.other[r] = true
		}
	}
	return p
}

func (p *readSep) has(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && p.ascii[r]
	}
	return p.other[r]
}

// readSplit is what read takes from rec under IFS sep: the fields -a
// stores (an empty one between two other IFS characters, none after a
// last one), and for k < n what the last of k+1 names gets: the rest
// after k fields, trailing IFS blanks dropped, or its one field.
func readSplit(rec readText, sep *readSep, n int) (fields, lasts []string) {
	if sep.empty {
		if rec.s == "" {
			return nil, []string{""}
		}
		return []string{rec.s}, []string{rec.s}
	}
	at := func(i int) (r rune, w int, isSep, blank bool) {
		r, w = utf8.DecodeRuneInString(rec.s[i:])
		isSep = !rec.isLit(i) && sep.has(r)
		return r, w, isSep, isSep && (r == ' ' || r == '\t' || r == '\n')
	}
	skipBlanks := func(i int) int {
		for i < len(rec.s) {
			_, w, _, blank := at(i)
			if !blank {
				break
			}
			i += w
		}
		return i
	}
	// word is the field from i: its end, and where the next starts.
	word := func(i int) (end, next int) {
		for end = i; end < len(rec.s); {
			_, w, isSep, _ := at(end)
			if isSep {
				break
			}
			end += w
		}
		next = skipBlanks(end)
		if next < len(rec.s) {
			if _, w, isSep, blank := at(next); isSep && !blank {
				next = skipBlanks(next + w)
			}
		}
		return end, next
	}
	trimEnd := func(i int) string {
		j := len(rec.s)
		for j > i {
			_, w := utf8.DecodeLastRuneInString(rec.s[i:j])
			// an escaped blank too: bash's strip_trailing_ifs_whitespace
			if r, _ := utf8.DecodeRuneInString(rec.s[j-w:]); !sep.has(r) || r != ' ' && r != '\t' && r != '\n' {
				break
			}
			j -= w
		}
		return rec.s[i:j]
	}
	i := skipBlanks(0)
	for k := 0; i < len(rec.s); k++ {
		end, next := word(i)
		if k < n {
			if next == len(rec.s) {
				lasts = append(lasts, rec.s[i:end])
			} else {
				lasts = append(lasts, trimEnd(i))
			}
		}
		fields = append(fields, rec.s[i:end])
		i = next
	}
	return fields, lasts
}

// readRecords are the records read may read from text: what c's
// delimiter ends (not one a backslash escapes, without -r), with -n N
// cut into pieces of N characters, with -N N all of text so; N counted
// in characters and, for a C locale (LC_ALL=C read …), in bytes.
func readRecords(c readCall, text string) []readText {
	t := readUnescape(text, c.raw)
	var recs []readText
	switch {
	case c.exact && c.chars > 0:
		return readChunks(t, c.chars)
	case c.delim == "\x00":
		recs = []readText{t}
	default:
		start := 0
		for i := 0; i < len(t.s); i++ {
			if t.s[i] == c.delim[0] && !t.isLit(i) {
				recs = append(recs, t.cut(start, i))
				start = i + 1
			}
		}
		if start < len(t.s) || len(recs) == 0 {
			recs = append(recs, t.cut(start, len(t.s)))
		}
	}
	if c.chars > 0 {
		var cut []readText
		for _, r := range recs {
			cut = append(cut, readChunks(r, c.chars)...)
		}
		recs = cut
	}
	return recs
}

// readChunks cuts t into pieces of n characters (the last may be
// shorter), and of n bytes when it has other than ASCII.
func readChunks(t readText, n int) []readText {
	var out []readText
	ascii := true
	for i := 0; i < len(t.s); {
		j, k := i, 0
		for j < len(t.s) && k < n {
			r, size := utf8.DecodeRuneInString(t.s[j:])
			ascii = ascii && r < utf8.RuneSelf
			j += size
			k++
		}
		out = append(out, t.cut(i, j))
		i = j
	}
	if !ascii {
		for i := 0; i < len(t.s); i += n {
			out = append(out, t.cut(i, min(i+n, len(t.s))))
		}
	}
	return out
}

// fdName is descriptor s as bash reads it: 03 and 3 are one.
func fdName(s string) string {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return strconv.Itoa(n)
	}
	return s
}

// outsideIFS: one of the line's assignments of IFS takes a value from
// outside the line (IFS=$SEP, SEP not given; IFS=$(…)), which the values
// read as empty: what a read splits at cannot be told.
func (v *lineValues) outsideIFS(sources []valueSource) bool {
	for _, s := range sources {
		if s.name != "IFS" || s.w == nil {
			continue
		}
		outside := false
		syntax.Walk(s.w, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				outside = true
			case *syntax.ParamExp:
				if n.Param == nil {
					break
				}
				name := n.Param.Value
				if name == "IFS" {
					break
				}
				key := name
				if positionalName(name) {
					key = "@" // set -- X; IFS=$1
				}
				// Not given, or read before the line first gives it
				// (IFS=$OLD; …; OLD=$IFS): the value from outside.
				_, given := v.first[key]
				if !given && v.countOf([]string{name}) == 0 || given && v.unsetAt(name, uint(n.Pos().Offset())) {
					outside = true
				}
			case *syntax.ArithmExp: // IFS=$((SHLVL))
				syntax.Walk(n.X, func(m syntax.Node) bool {
					if l, ok := m.(*syntax.Lit); ok && syntax.ValidName(l.Value) && v.countOf([]string{l.Value}) == 0 {
						outside = true
					}
					return !outside
				})
			}
			return !outside
		})
		if outside {
			return true
		}
	}
	return false
}
