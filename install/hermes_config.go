package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Enabling the Hermes plugin: Hermes loads a plugin of $HERMES_HOME/plugins
// only when its name is in plugins.enabled of $HERMES_HOME/config.yaml (and
// not in plugins.disabled). `hermes plugins enable` rewrites the whole file
// through a YAML dumper, which loses comments and order; these edits add
// (or take out) the one list item and keep every other byte.
//
// The file is parsed (yaml.v3, with each node's line and column), the item
// is spliced into the text at the place the nodes give, and the result is
// parsed again: it must decode to exactly the old document with that one
// change, or the edit is refused. Shapes handled: no plugins key (appended
// at the end), an empty plugins or enabled key, enabled as a block list (the
// item goes after the last one, in its layout) or as a flow list on one
// line ([a, b]). Anything else is refused with its line: the user edits it
// by hand, or runs `hermes plugins enable hermes-hooks`.

// EditError is a config the edit refuses, and the line that makes it so.
type EditError struct {
	Line int
	Msg  string
}

func (e *EditError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// yamlDoc is a config's text cut into lines (each with its line break) and
// its parsed root mapping (nil for an empty document).
type yamlDoc struct {
	lines []string
	nl    string
	root  *yaml.Node
	value any // the decoded document, for the check after an edit
}

func parseYAMLDoc(src []byte) (*yamlDoc, error) {
	// YAML also breaks lines at a lone CR, NEL, LS and PS; the lines here
	// are cut at LF only, so such a file would put nodes on other lines.
	if i := bytes.IndexFunc(src, func(r rune) bool { return r == '\u0085' || r == '\u2028' || r == '\u2029' }); i >= 0 {
		return nil, &EditError{Line: bytes.Count(src[:i], []byte("\n")) + 1, Msg: "a line break other than LF or CRLF"}
	}
	for i := bytes.IndexByte(src, '\r'); i >= 0; i = nextCR(src, i) {
		if i+1 == len(src) || src[i+1] != '\n' {
			return nil, &EditError{Line: bytes.Count(src[:i], []byte("\n")) + 1, Msg: "a line break other than LF or CRLF"}
		}
	}
	d := &yamlDoc{lines: strings.SplitAfter(string(src), "\n"), nl: "\n"}
	if d.lines[len(d.lines)-1] == "" {
		d.lines = d.lines[:len(d.lines)-1]
	}
	if len(d.lines) > 0 && strings.HasSuffix(d.lines[0], "\r\n") {
		d.nl = "\r\n"
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, &EditError{Line: yamlErrLine(err), Msg: "not valid YAML (" + err.Error() + ")"}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := next.Line
		if err != nil {
			line = yamlErrLine(err)
		}
		return nil, &EditError{Line: max(line, 1), Msg: "more than one YAML document"}
	}
	if err := yaml.Unmarshal(src, &d.value); err != nil {
		return nil, &EditError{Line: yamlErrLine(err), Msg: "not valid YAML (" + err.Error() + ")"}
	}
	if len(doc.Content) == 0 {
		return d, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 || root.Column != 1 {
		return nil, &EditError{Line: root.Line, Msg: "the file is not a block mapping of settings"}
	}
	d.root = root
	return d, nil
}

func nextCR(src []byte, i int) int {
	j := bytes.IndexByte(src[i+1:], '\r')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// Compiled at first use, not at every start of the binary.
var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

func yamlErrLine(err error) int {
	n := 1
	if m := yamlLineRE().FindStringSubmatch(err.Error()); m != nil {
		fmt.Sscan(m[1], &n)
	}
	return n
}

// mappingValue is the value (and key) of key in mapping m; nil when absent. A
// key given twice, an alias or a merge key is refused: which one Hermes
// would read is not this edit's to guess.
func mappingValue(m *yaml.Node, key string) (value, k *yaml.Node, err error) {
	if m == nil {
		return nil, nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, vn := m.Content[i], m.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Value == "<<" && kn.Tag == "!!merge" {
			return nil, nil, &EditError{Line: kn.Line, Msg: "a merge key (<<) where plugins are set"}
		}
		if kn.Kind != yaml.ScalarNode || kn.Value != key {
			continue
		}
		if value != nil {
			return nil, nil, &EditError{Line: kn.Line, Msg: key + " is set twice"}
		}
		if vn.Kind == yaml.AliasNode || vn.Anchor != "" {
			return nil, nil, &EditError{Line: vn.Line, Msg: key + " is an alias or an anchor"}
		}
		value, k = vn, kn
	}
	return value, k, nil
}

// emptyValue: a key with nothing after it ("plugins:"), which YAML reads as
// null; an explicit null or ~ is not (it is text this edit would have to
// replace).
func emptyValue(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == ""
}

func indent(col int) string { return strings.Repeat(" ", col-1) }

// offset is the byte offset in line of the 1-based column col (yaml.v3
// counts characters).
func offset(line string, col int) int {
	i := 0
	for pos := range line {
		if i == col-1 {
			return pos
		}
		i++
	}
	return len(line)
}

// text is line n (1-based) without its line break.
func (d *yamlDoc) text(n int) string {
	if n < 1 || n > len(d.lines) {
		return "" // a node past the text: the check after the edit refuses it
	}
	return strings.TrimRight(d.lines[n-1], "\r\n")
}

// insertAfter puts text (whole lines) after line n (0: at the top).
func (d *yamlDoc) insertAfter(n int, text string) {
	if n > 0 && !strings.HasSuffix(d.lines[n-1], "\n") {
		d.lines[n-1] += d.nl
	}
	d.lines = append(d.lines[:n], append([]string{text}, d.lines[n:]...)...)
}

func (d *yamlDoc) bytes() []byte { return []byte(strings.Join(d.lines, "")) }

// contains reports whether the list node holds name.
func contains(list *yaml.Node, name string) bool {
	for _, it := range list.Content {
		if it.Kind == yaml.ScalarNode && it.Value == name {
			return true
		}
	}
	return false
}

// EnableHermesPlugin returns src with name added to plugins.enabled;
// changed is false when it is there already. note warns of what still
// keeps Hermes from loading it (plugins.disabled).
func EnableHermesPlugin(src []byte, name string) (out []byte, changed bool, note string, err error) {
	d, err := parseYAMLDoc(src)
	if err != nil {
		return nil, false, "", err
	}
	plugins, pkey, err := mappingValue(d.root, "plugins")
	if err != nil {
		return nil, false, "", err
	}
	if plugins != nil && plugins.Kind == yaml.MappingNode {
		if dis, _, _ := mappingValue(plugins, "disabled"); dis != nil && dis.Kind == yaml.SequenceNode && contains(dis, name) {
			note = fmt.Sprintf("plugins.disabled lists %s (line %d), and Hermes does not load a disabled plugin: take it out there", name, dis.Line)
		}
	}
	changed, err = d.enable(plugins, pkey, name)
	if err != nil || !changed {
		return src, false, note, err
	}
	out = d.bytes()
	if err := checkYAMLEdit(d.value, out, func(v map[string]any) { setEnabled(v, name, true) }); err != nil {
		return nil, false, note, &EditError{Line: lineOf(pkey), Msg: err.Error()}
	}
	return out, true, note, nil
}

func lineOf(n *yaml.Node) int {
	if n == nil {
		return 1
	}
	return n.Line
}

// enable splices the item into d's lines.
func (d *yamlDoc) enable(plugins, pkey *yaml.Node, name string) (bool, error) {
	nl := d.nl
	switch {
	case plugins == nil:
		d.insertAfter(len(d.lines), "plugins:"+nl+"  enabled:"+nl+"  - "+name+nl)
		return true, nil
	case emptyValue(plugins):
		ind := indent(pkey.Column) + "  "
		d.insertAfter(pkey.Line, ind+"enabled:"+nl+ind+"- "+name+nl)
		return true, nil
	case plugins.Kind != yaml.MappingNode:
		return false, &EditError{Line: plugins.Line, Msg: "plugins is not a mapping"}
	}
	enabled, ekey, err := mappingValue(plugins, "enabled")
	if err != nil {
		return false, err
	}
	flow := plugins.Style&yaml.FlowStyle != 0
	switch {
	case enabled == nil && !flow && len(plugins.Content) > 0:
		first := plugins.Content[0]
		ind := indent(first.Column)
		d.insertAfter(first.Line-1, ind+"enabled:"+nl+ind+"- "+name+nl)
		return true, nil
	case enabled == nil:
		return false, &EditError{Line: plugins.Line, Msg: "plugins is written on one line ({…}) without an enabled list"}
	case emptyValue(enabled) && !flow:
		d.insertAfter(ekey.Line, indent(ekey.Column)+"- "+name+nl)
		return true, nil
	case enabled.Kind != yaml.SequenceNode:
		return false, &EditError{Line: enabled.Line, Msg: "plugins.enabled is not a list"}
	case contains(enabled, name):
		return false, nil
	case enabled.Style&yaml.FlowStyle != 0:
		return true, d.flowInsert(enabled, name)
	}
	last := enabled.Content[len(enabled.Content)-1]
	line := d.text(last.Line)
	prefix := line[:offset(line, last.Column)]
	if last.Kind != yaml.ScalarNode || last.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || !dashPrefix().MatchString(prefix) {
		return false, &EditError{Line: last.Line, Msg: "the last item of plugins.enabled is not a plain one-line item"}
	}
	d.insertAfter(last.Line, prefix+name+nl)
	return true, nil
}

// dashPrefix is what starts a block list item's line: indentation, the
// dash, and the space after it.
// Compiled at first use, not at every start of the binary.
var dashPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ *- +$`) })

// flowList finds the brackets of a flow list on its one line: the byte
// offsets of '[' and ']' in line n.
func (d *yamlDoc) flowList(list *yaml.Node) (n, open, close int, err error) {
	n = list.Line
	line := d.text(n)
	open = offset(line, list.Column)
	if open >= len(line) || line[open] != '[' {
		return 0, 0, 0, &EditError{Line: n, Msg: "plugins.enabled: a list this edit cannot place"}
	}
	var quote byte
	for i := open + 1; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			return 0, 0, 0, &EditError{Line: n, Msg: "plugins.enabled holds nested lists"}
		case c == ']':
			return n, open, i, nil
		}
	}
	return 0, 0, 0, &EditError{Line: n, Msg: "plugins.enabled is a [list] spanning lines"}
}

func (d *yamlDoc) flowInsert(list *yaml.Node, name string) error {
	n, open, close, err := d.flowList(list)
	if err != nil {
		return err
	}
	body := d.lines[n-1]
	inside := strings.TrimRight(body[open+1:close], " ")
	at := open + 1 + len(inside)
	add := ", " + name
	if strings.TrimSpace(inside) == "" {
		at, add = open+1, name
	}
	d.lines[n-1] = body[:at] + add + body[at:]
	return nil
}
