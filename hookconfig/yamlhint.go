package hookconfig

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Where a YAML syntax error really is. yaml.v3 reports the line where its
// parser gave up, often the line after the mistake or the start of the
// block around it, and in its own terms ("did not find expected key").
// yamlHint reads the text itself, line by line, for the everyday
// mistakes — a tab in the indentation, an indentation that does not line
// up with its neighbours, a quote never closed, a missing space after
// ":" — and names the first one found, at its line, in plain words.
//
// It only reads the text: no YAML is parsed and no alias expanded, so a
// document built to explode when parsed (a "billion laughs") costs it one
// pass over its bytes. Each line is looked at a bounded number of times.

// yamlHint is the line of the first everyday mistake in data and what to
// do about it; ok is false when none is recognised (the parser's own line
// and reason are then the best there is).
func yamlHint(data []byte) (line int, hint string, ok bool) {
	s := yamlScan{levels: []level{{}}, r: lineReader{data: data}}
	for {
		raw, more := s.r.next()
		if !more {
			return 0, "", false
		}
		// The hint is about this line, whatever further lines a quoted
		// or flow value made line consume.
		at := s.r.n
		if hint := s.line(raw); hint != "" {
			return at, hint, true
		}
	}
}

// lineReader hands out the lines of data one at a time, forward only: a
// document of sixteen million empty lines costs no slice of them.
type lineReader struct {
	data []byte
	pos  int // offset of the next line; past len(data) at the end
	n    int // number of the line last handed out (1-based)
}

// next is the next line, without its "\n"; more is false past the last.
func (r *lineReader) next() (line []byte, more bool) {
	if r.pos > len(r.data) {
		return nil, false
	}
	rest := r.data[r.pos:]
	r.n++
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		r.pos = len(r.data) + 1
		return rest, true
	}
	r.pos += i + 1
	return rest[:i], true
}

// yamlScan is the state of a scan: the indentations of the open block
// levels, and how the previous content line ended.
type yamlScan struct {
	// levels are the enclosing block levels, their indentations strictly
	// increasing (levels[0] is the top level, 0).
	levels []level
	// opens: the previous content line ended with "key:" (a block that
	// must be indented under it follows) or was a "- " item.
	opens bool
	// blockScalar is the indentation of a "key: |" line whose more
	// indented lines are text, or -1.
	blockScalar int
	inBlock     bool
	r           lineReader
}

// level is one block level: its indentation, and whether it holds "- "
// items (a sequence) rather than keys.
type level struct {
	indent int
	dash   bool
}

// line looks at one line (a quoted or flow value starting on it consumes
// the further lines it spans) and returns a hint when it is a mistake.
func (s *yamlScan) line(b []byte) string {
	raw := strings.TrimSuffix(string(b), "\r")
	body := strings.TrimLeft(raw, " ")
	indent := len(raw) - len(body)
	if s.inBlock {
		if strings.TrimSpace(raw) == "" || indent > s.blockScalar {
			return ""
		}
		s.inBlock = false
	}
	if rest := strings.TrimLeft(raw, " \t"); strings.Contains(leadingBlank(raw), "\t") && rest != "" && !strings.HasPrefix(rest, "#") {
		return "a tab is used for indentation: YAML indents with spaces only (replace the tab with spaces, lined up with the lines it belongs with)"
	}
	if body == "" || strings.HasPrefix(body, "#") || body == "---" || body == "..." {
		return ""
	}
	if hint := s.indentation(indent, body); hint != "" {
		return hint
	}
	// The content of "- " items: "- key: value" opens a mapping two (or
	// more) columns further in.
	content, col := body, indent
	for strings.HasPrefix(content, "- ") || content == "-" {
		rest := strings.TrimLeft(strings.TrimPrefix(content, "-"), " ")
		col += len(content) - len(rest)
		content = rest
		s.push(col, strings.HasPrefix(rest, "-"))
	}
	_, value, isKey := splitKey(content)
	if !isKey {
		if k, v, ok := missingSpace(content); ok {
			return "missing space after ':' — write `" + truncate(k) + ": " + truncate(v) + "` (without the space YAML reads `" + truncate(k) + ":" + truncate(v) + "` as one piece of text, not a key and its value)"
		}
		s.opens = false
		if content != "" && (content[0] == '[' || content[0] == '{') {
			return s.flow(content)
		}
		return ""
	}
	value = strings.TrimSpace(value)
	switch {
	case value == "" || strings.HasPrefix(value, "#"):
		s.opens = true
		return ""
	case value[0] == '|' || value[0] == '>':
		s.inBlock, s.blockScalar, s.opens = true, indent, false
		return ""
	case value[0] == '"' || value[0] == '\'':
		s.opens = false
		return s.quoted(value)
	case value[0] == '[' || value[0] == '{':
		s.opens = false
		return s.flow(value)
	}
	s.opens = false
	return ""
}

// indentation checks a content line's indentation against the open levels:
// one that falls between two levels lines up with neither (the "one space
// short" mistake); one deeper than the line above, which opened no block,
// is indented too far.
func (s *yamlScan) indentation(indent int, body string) string {
	dash := strings.HasPrefix(body, "-")
	top := s.levels[len(s.levels)-1]
	switch {
	case indent > top.indent && s.opens:
		s.levels = append(s.levels, level{indent, dash})
		return ""
	case indent > top.indent:
		if _, _, isKey := splitKey(strings.TrimLeft(strings.TrimPrefix(body, "-"), " ")); isKey || strings.HasPrefix(body, "- ") {
			return "this line is indented " + spaces(indent) + ", more than the line above it (" + spaces(top.indent) + "), which opens no block: " + offBy(indent, top.indent)
		}
		return "" // the continuation of a plain value
	}
	var popped level
	for len(s.levels) > 1 && s.levels[len(s.levels)-1].indent > indent {
		popped = s.levels[len(s.levels)-1]
		s.levels = s.levels[:len(s.levels)-1]
	}
	if top = s.levels[len(s.levels)-1]; top.indent == indent {
		return ""
	}
	// Between two levels: the one holding what this line is (a key, or a
	// "- " item) was meant; else the nearer, the outer on a tie.
	meant := top.indent
	switch {
	case popped.dash == dash && top.dash != dash:
		meant = popped.indent
	case top.dash == dash && popped.dash != dash:
	case popped.indent-indent < indent-top.indent:
		meant = popped.indent
	case popped.indent-indent == indent-top.indent:
		return "the indentation does not line up: this line is indented " + spaces(indent) + ", the lines around it " + strconv.Itoa(top.indent) +
			" or " + spaces(popped.indent) + ": indent it exactly as the lines it belongs with"
	}
	s.levels = append(s.levels, level{indent, dash}) // report this line only
	return "the indentation does not line up: this line is indented " + spaces(indent) + ", the lines it belongs with " + spaces(meant) + ": " + offBy(indent, meant)
}

// push opens the level of a "- " item's content (at col; dash: it is
// another "- " item).
func (s *yamlScan) push(col int, dash bool) {
	for len(s.levels) > 1 && s.levels[len(s.levels)-1].indent >= col {
		s.levels = s.levels[:len(s.levels)-1]
	}
	if s.levels[len(s.levels)-1].indent < col {
		s.levels = append(s.levels, level{col, dash})
	}
	s.opens = false
}

// flow checks a flow collection ([…] or {…}) starting value: closed on its
// line or a later one; never closed is the mistake. The lines it spans
// are consumed (their indentation is free).
func (s *yamlScan) flow(value string) string {
	depth, quote := 0, byte(0)
	for text, more := value, true; more; {
		for k := 0; k < len(text); k++ {
			c := text[k]
			switch {
			case quote != 0 && c == '\\' && quote == '"':
				k++
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '[' || c == '{':
				depth++
			case c == ']' || c == '}':
				depth--
			case c == '#' && (k == 0 || text[k-1] == ' '):
				k = len(text)
			}
			if depth == 0 && quote == 0 {
				return ""
			}
		}
		var b []byte
		b, more = s.r.next()
		text = string(b)
	}
	return "the " + value[:1] + " opened on this line is never closed: close it with " + map[byte]string{'[': "]", '{': "}"}[value[0]]
}

// quoted checks a value starting with a quote: closed on its line, or on a
// later one (a quoted value may span lines); never closed is the mistake.
func (s *yamlScan) quoted(value string) string {
	q := value[0]
	if end := closingQuote(value[1:], q); end >= 0 {
		return ""
	}
	for b, more := s.r.next(); more; b, more = s.r.next() {
		if closingQuote(string(b), q) >= 0 {
			return ""
		}
	}
	return "the quote " + string(q) + " opened on this line is never closed: end the value with " + string(q) + " on the same line"
}

// closingQuote is the index of the quote q that closes a quoted value in
// s (the text after the opening quote), or -1: in double quotes a
// backslash escapes, in single quotes ” is a quote.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// splitKey splits "key: value" (or "key:" at the end of the line) at its
// mapping colon; isKey is false for anything else.
func splitKey(content string) (key, value string, isKey bool) {
	if content == "" || strings.ContainsRune("\"'[{&*!|>%@`#", rune(content[0])) {
		return "", "", false
	}
	for i := 0; i < len(content); i++ {
		if content[i] == ':' && (i+1 == len(content) || content[i+1] == ' ' || content[i+1] == '\t') {
			return content[:i], content[i+1:], true
		}
		if content[i] == ' ' && i+1 < len(content) && content[i+1] == '#' {
			break
		}
	}
	return "", "", false
}

// missingSpace recognises "key:value": a name (letters, digits, "_")
// followed by ":" and, without a space, a value that is not a URL's "//"
// or a second ":".
func missingSpace(content string) (key, value string, ok bool) {
	i := strings.IndexByte(content, ':')
	if i <= 0 || i+1 >= len(content) {
		return "", "", false
	}
	key, value = content[:i], content[i+1:]
	if strings.HasPrefix(value, "//") || value[0] == ':' {
		return "", "", false
	}
	for _, r := range key {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", "", false
		}
	}
	return key, value, true
}

// entryTextHint is what an entry written as text was meant to be ("" when
// it is not that): one key of an entry with no space after its ':'
// ("command:/g.sh"), which YAML reads as one piece of text, not a
// mapping. That is valid YAML, so no parse error points at it; the
// warning that skips the entry says it instead.
func entryTextHint(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return ""
	}
	k, v, ok := missingSpace(n.Value)
	if !ok || !slices.Contains(entryKeys, k) {
		return ""
	}
	if k == "opa" {
		// As every message shows an opa: URL: its password or token is
		// the request's, and this warning reaches serve's log too.
		v = ShownURL(v)
	}
	return "; missing space after ':' — write `" + truncate(k) + ": " + truncate(v) + "`"
}

// leadingBlank is the run of spaces and tabs a line starts with.
func leadingBlank(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return strconv.Itoa(n) + " spaces"
}

// offBy says how far indent is from meant: "one space short".
func offBy(indent, meant int) string {
	switch d := meant - indent; {
	case d == 1:
		return "one space short"
	case d == -1:
		return "one space too many"
	case d > 0:
		return strconv.Itoa(d) + " spaces short"
	default:
		return strconv.Itoa(-d) + " spaces too many"
	}
}

// truncate bounds a piece of the file quoted in a hint.
func truncate(s string) string { return textutil.Truncate(s, 40) }
