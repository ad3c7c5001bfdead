package permrule

import (
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The value printf -v NAME FORMAT ARGS… gives NAME: printf -v c rm;
// $c -rf / runs rm.

// Bounds of the printf -v values read (fromPrintf): a field width, and
// the value made.
const (
	maxPrintfWidth = 256
	maxPrintfValue = 64 << 10
)

// fromPrintf adds the value printf -v NAME FORMAT ARGS… gives NAME (also
// -vNAME; the last -v is the one bash takes; after --), made by
// mvdan.cc/sh's expand.Format as its interpreter's printf makes it (the
// format again while arguments are left), where NAME is a plain name. A
// format with a directive that expand.Format does not make as bash does
// (printfRound), or past the bounds (a width over maxPrintfWidth, a
// value over maxPrintfValue), makes NAME over: an error where a command
// expands it (printf -v c %.2s rmx; $c -rf / would run rm). Words that
// expand the line's values are read in each round with each of them
// (printfs: X=rm; printf -v c %s "$X"; $c -rf / runs rm); a NAME only
// known when the line runs makes the line unreadable.
func (v *lineValues) fromPrintf(args []*syntax.Word, src string) {
	words := make([]string, 0, len(args))
	for _, w := range args {
		sw := shellWordOf(w, src)
		if !sw.static {
			v.printfs = append(v.printfs, printfCall{args: args, src: src})
			return
		}
		words = append(words, sw.text)
	}
	v.printfInto(words, true)
}

// printfCall is a printf whose words expand values, read in each round
// (printfRound) once what they read has changed (seen).
type printfCall struct {
	args []*syntax.Word
	src  string
	seen int
}

// printfRound reads each printf of printfs again with the values the
// last round found: each argv its words expand to.
func (v *lineValues) printfRound() {
	for i := range v.printfs {
		if v.unreadable != "" {
			return
		}
		p := &v.printfs[i]
		var names []string
		indirect := false
		for _, w := range p.args {
			names = append(names, wordNames(w)...)
			indirect = indirect || readsIndirect(w)
		}
		n := v.countOf(names) + 1
		if n == p.seen && !indirect {
			continue
		}
		p.seen = n
		if len(p.args) > 1 && shellWordOf(p.args[0], p.src).text == "-v" && !shellWordOf(p.args[1], p.src).static {
			for _, name := range wordNames(p.args[1]) {
				if _, given := v.first[name]; !given && v.countOf([]string{name}) == 0 && !positionalName(name) {
					v.unreadable = "`printf -v` stores in a variable named by a value only known when it runs"
					return
				}
			}
			// As a read's (readTargetWords): a few names at most, told
			// before every argument is expanded with each.
			if names, err := v.expand(p.args[1:2], p.src, true, true); err != nil || len(names) > 8 {
				v.unreadable = "`printf -v` stores in one of more variables than this analysis follows"
				return
			}
		}
		// A format this analysis does not make (%q, %.1f, %X …) leaves
		// NAME as written, as these printfs were before their values
		// were read here: making it over refused everyday lines (printf
		// -v q %q "$f"; ssh host "cat $q"), and a value from $(…), a
		// glob or $1 is as written anyway.
		lists, err := v.expand(p.args, p.src, false, true)
		if err != nil {
			continue
		}
		for _, argv := range lists {
			v.printfInto(argv, false)
		}
	}
}

// printfInto adds what printf's argv (after printf) gives its -v NAME;
// one it cannot make makes NAME over where over says so.
func (v *lineValues) printfInto(words []string, over bool) {
	name := ""
	for len(words) > 0 && strings.HasPrefix(words[0], "-v") {
		if words[0] != "-v" {
			name, words = words[0][2:], words[1:]
		} else if len(words) > 1 {
			name, words = words[1], words[2:]
		} else {
			return
		}
	}
	if len(words) > 0 && words[0] == "--" {
		words = words[1:]
	}
	if !syntax.ValidName(name) || len(words) == 0 {
		return
	}
	if val, ok := printfValue(words[0], words[1:]); ok {
		v.add(name, val)
	} else if over {
		v.made()
		v.over[name] = true
	}
}

// printfValue is what printf FORMAT ARGS… prints, if every round of the
// format is one expand.Format makes as bash does, within the bounds.
func printfValue(format string, rest []string) (string, bool) {
	// Most a round of the format can make, counted before it is made.
	most := len(format) + strings.Count(format, "%")*maxPrintfWidth
	for _, a := range rest {
		most += len(a)
	}
	if most > maxPrintfValue {
		return "", false
	}
	format, cut, ok := precisions(format)
	if !ok {
		return "", false
	}
	var out strings.Builder
	for {
		args := append([]string{}, rest...) // never nil: expand.Format reads no directive in nil

		for at, p := range cut {
			if at < len(args) && len(args[at]) > p {
				args[at] = args[at][:p] // bash cuts bytes
			}
		}
		if !printfRound(format, args) {
			return "", false
		}
		s, n, err := expand.Format(&expand.Config{}, format, args)
		if err != nil {
			return "", false
		}
		if out.WriteString(s); out.Len() > maxPrintfValue {
			return "", false
		}
		rest = rest[n:]
		if n == 0 || len(rest) == 0 {
			return out.String(), true
		}
	}
}

// isASCII: s has no byte past 0x7f.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// precisions takes the precision out of each %s that has one (%.2s,
// %-5.1s), which expand.Format does not read: the format without them,
// and for each such directive (by its place among those that take an
// argument in a round) the bytes bash keeps of its argument. ok false
// for a precision on another directive (printfRound refuses what else
// it does not make). printf -v c %.2s rmx; $c -rf / runs rm.
func precisions(format string) (plain string, cut map[int]int, ok bool) {
	if !strings.Contains(format, ".") {
		return format, nil, true
	}
	var b strings.Builder
	at := 0
	for i := 0; i < len(format); i++ {
		b.WriteByte(format[i])
		switch format[i] {
		case '\\':
			if i+1 < len(format) {
				i++
				b.WriteByte(format[i])
			}
			continue
		case '%':
		default:
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-0123456789", format[j]) >= 0 {
			j++
		}
		b.WriteString(format[i+1 : j])
		if j < len(format) && format[j] == '%' {
			b.WriteByte('%')
			i = j
			continue
		}
		if j < len(format) && format[j] == '.' {
			k := j + 1
			for k < len(format) && format[k] >= '0' && format[k] <= '9' {
				k++
			}
			p, _ := strconv.Atoi(format[j+1 : k])
			if k == len(format) || format[k] != 's' || p > maxPrintfValue {
				return "", nil, false
			}
			if cut == nil {
				cut = map[int]int{}
			}
			cut[at] = p
			j = k
		}
		if j < len(format) {
			b.WriteByte(format[j])
		}
		i = j
		at++
	}
	return b.String(), cut, true
}

// plainNumber is an argument a numeric directive reads alike in bash and
// expand.Format (not 'c, whose code bash takes, nor " 5").
var plainNumber = regexp.MustCompile(`^[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)$`)

// printfRound: one round of format over args has only directives that
// expand.Format makes as bash 5.2 does: %%; %s with - and a width (of
// an ASCII argument; a precision is precisions'); %d,
// %i, %u, %o, %x with - or 0 and a width, of a plain number (or none);
// %b of an argument without \c (bash stops there) or \0 (bash reads up
// to three digits after it); %c of a non-empty argument, no width (an
// empty one is a NUL, which ends the value in bash). Widths up to
// maxPrintfWidth; a backslash escape in the format is read alike, but
// for \% (not checked: refused).
func printfRound(format string, args []string) bool {
	for i := 0; i < len(format); i++ {
		switch format[i] {
		case '\\':
			if i++; i < len(format) && format[i] == '%' {
				return false
			}
			continue
		case '%':
		default:
			continue
		}
		j := i + 1
		for j < len(format) && (format[j] == '-' || format[j] == '0') {
			j++
		}
		flags, w := format[i+1:j], j
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		width, _ := strconv.Atoi(format[w:j])
		if j == len(format) || width > maxPrintfWidth {
			return false
		}
		plain := j == i+1
		conv := format[j]
		i = j
		if conv == '%' {
			if !plain {
				return false
			}
			continue
		}
		arg := ""
		if len(args) > 0 {
			arg, args = args[0], args[1:]
		}
		switch conv {
		case 's':
			if strings.Contains(flags, "0") {
				return false // expand.Format pads a string with zeros, bash with spaces
			}
			if width > 0 && !isASCII(arg) {
				return false // bash pads by bytes in a C locale, by characters in others; fmt by characters
			}
		case 'd', 'i', 'u', 'o', 'x':
			if arg != "" && !plainNumber.MatchString(arg) {
				return false
			}
		case 'b':
			if !plain || strings.Contains(arg, `\c`) || strings.Contains(arg, `\0`) {
				return false
			}
		case 'c':
			if !plain || arg == "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}
