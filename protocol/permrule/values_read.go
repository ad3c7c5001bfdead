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
			if r.N == nil || r.N.Value == "0" {
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

// hereRead is a read or mapfile (words, its static words) fed a
// here-string or here-document that expands values: read again in each round (readRound)
// once what it reads has changed (seen: the count of those values then).
type hereRead struct {
	words    []string
	w        *syntax.Word
	src, ifs string
	seen     int
}

// readFeed adds what read or mapfile (words) reads from f, on a line whose
// text is src: static text now, a here-string's expansions in each round.
func (v *lineValues) readFeed(words []string, f feed, ifs, src string) {
	if f.w == nil {
		v.readInto(words, f.text, ifs)
		return
	}
	v.hereReads = append(v.hereReads, hereRead{words: words, w: f.w, src: src, ifs: ifs})
}

// readRound reads each here-string read again with the values the last
// round found: each text its word expands to is read. One that expands
// a value this analysis cannot tell makes what the read gives over.
func (v *lineValues) readRound() {
	for i := range v.hereReads {
		r := &v.hereReads[i]
		names := wordNames(r.w)
		if slices.ContainsFunc(names, func(n string) bool { return v.over[n] }) {
			v.readOver(r.words)
			continue
		}
		n := v.countOf(names) + 1
		if n == r.seen {
			continue
		}
		r.seen = n
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

// readInto adds what read NAME… or mapfile NAME reads from text: for read,
// each name gets the text and each of its fields (split at blanks and at
// ifs, read's own IFS; which one goes where depends on the count of
// names); -a NAME, an array of its fields; for mapfile (readarray), an
// array of its lines (or of what -d DELIM ends).
func (v *lineValues) readInto(words []string, text, ifs string) {
	if v.readText -= len(text) * len(words); v.readText < 0 {
		// Past the line's bound (a group fed a long text, read by
		// thousands of reads in it): what they read (into the names
		// given, or REPLY, MAPFILE) cannot be told.
		v.readOver(words)
		return
	}
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(ifs, r) })
	delim := "\n"
	var names []string
	array := ""
	argOpts := "dinNptu" // read's options that take an argument
	if words[0] != "read" {
		argOpts = "dnOsuCc" // mapfile's
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case words[0] == "read" && len(w) > 1 && w[0] == '-' && strings.HasSuffix(w, "a") && i+1 < len(words):
			array, i = words[i+1], i+1 // -a NAME, -ra NAME
		case w == "-d" && i+1 < len(words) && words[0] != "read":
			delim, i = words[i+1], i+1
			if delim == "" {
				delim = "\x00"
			}
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
		lines := strings.Split(strings.TrimSuffix(text, "\n"), delim)
		v.addArray(names[len(names)-1], expand.Variable{Set: true, Kind: expand.Indexed, List: lines})
		return
	}
	if array != "" && syntax.ValidName(array) {
		v.addArray(array, expand.Variable{Set: true, Kind: expand.Indexed, List: fields})
	}
	if len(names) == 0 && array == "" {
		names = []string{"REPLY"}
	}
	// Each line may be the one read (a loop reads them in turn), whole
	// or from a field on (the last name takes the rest), and without
	// its backslashes (read without -r drops them).
	values := []string{text, strings.ReplaceAll(text, "\\", "")}
	values = append(values, fields...)
	blanks := " \t" + ifs
	for _, line := range strings.Split(text, "\n") {
		for _, l := range []string{line, strings.ReplaceAll(line, "\\", "")} {
			// What follows each run of blanks (and the start): one value a
			// run, found in one pass (a value for each blank in it, each
			// trimmed again, was quadratic: 8 s for 60,000 spaces).
			for i := 0; ; {
				rest := strings.TrimLeft(l[i:], blanks)
				values = append(values, rest)
				next := strings.IndexAny(rest, blanks)
				if next < 0 {
					break
				}
				i = len(l) - len(rest) + next
			}
		}
	}
	for _, n := range names {
		for _, val := range values {
			v.add(n, val)
		}
	}
}
