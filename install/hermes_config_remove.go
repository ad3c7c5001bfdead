package install

import (
	"errors"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// DisableHermesPlugin returns src with name taken out of plugins.enabled
// (every time it is listed); changed is false when it is not there. A list
// left empty goes with its key, and a plugins mapping left empty with its
// own, so that what EnableHermesPlugin added to a file comes out whole.
func DisableHermesPlugin(src []byte, name string) (out []byte, changed bool, err error) {
	d, err := parseYAMLDoc(src)
	if err != nil {
		return nil, false, err
	}
	plugins, pkey, err := mappingValue(d.root, "plugins")
	if err != nil || plugins == nil || plugins.Kind != yaml.MappingNode {
		return src, false, err
	}
	enabled, ekey, err := mappingValue(plugins, "enabled")
	if err != nil || enabled == nil || enabled.Kind != yaml.SequenceNode || !contains(enabled, name) {
		return src, false, err
	}
	var dropKeys int // 1: enabled's key goes, 2: plugins' too
	if enabled.Style&yaml.FlowStyle != 0 {
		err = d.flowRemove(enabled, name)
	} else {
		dropKeys, err = d.blockRemove(plugins, pkey, enabled, ekey, name)
	}
	if err != nil {
		return nil, false, err
	}
	out = d.bytes()
	err = checkYAMLEdit(d.value, out, func(v map[string]any) {
		setEnabled(v, name, false)
		p, _ := v["plugins"].(map[string]any)
		if dropKeys >= 1 {
			delete(p, "enabled")
		}
		if dropKeys == 2 {
			delete(v, "plugins")
		}
	})
	if err != nil {
		return nil, false, &EditError{Line: enabled.Line, Msg: err.Error()}
	}
	return out, true, nil
}

// blockRemove drops the lines of the items that are name; when none is
// left, the line of the enabled key too, and when plugins holds nothing
// else, its line as well. It returns how many keys went (0, 1 or 2).
func (d *yamlDoc) blockRemove(plugins, pkey, enabled, ekey *yaml.Node, name string) (int, error) {
	drop := map[int]bool{}
	kept := 0
	for _, it := range enabled.Content {
		if it.Kind != yaml.ScalarNode || it.Value != name {
			kept++
			continue
		}
		line := d.text(it.Line)
		if !dashPrefix().MatchString(line[:offset(line, it.Column)]) {
			return 0, &EditError{Line: it.Line, Msg: "plugins.enabled lists " + name + " on a line shared with more"}
		}
		drop[it.Line] = true
	}
	keys := 0
	if kept == 0 && keyAlone(d.text(ekey.Line), "enabled") {
		drop[ekey.Line], keys = true, 1
		if len(plugins.Content) == 2 && plugins.Style&yaml.FlowStyle == 0 && keyAlone(d.text(pkey.Line), "plugins") {
			drop[pkey.Line], keys = true, 2
		}
	}
	var out []string
	for i, l := range d.lines {
		if !drop[i+1] {
			out = append(out, l)
		}
	}
	d.lines = out
	return keys, nil
}

// keyAlone: the line holds only key: (and maybe a comment).
func keyAlone(line, key string) bool {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), key+":")
	rest = strings.TrimSpace(rest)
	return ok && (rest == "" || strings.HasPrefix(rest, "#"))
}

// flowRemove takes name out of a one-line [list], with the separator
// between it and its neighbour.
func (d *yamlDoc) flowRemove(list *yaml.Node, name string) error {
	n, open, close, err := d.flowList(list)
	if err != nil {
		return err
	}
	for _, it := range list.Content {
		if it.Line != n {
			return &EditError{Line: it.Line, Msg: "plugins.enabled is a [list] spanning lines"}
		}
	}
	line := d.lines[n-1]
	body := line[open+1 : close]
	// The items' spans in body, from their columns: each runs to the
	// comma that ends it (or the bracket).
	type span struct{ start, end int }
	var spans []span
	var match []bool
	for i, it := range list.Content {
		start := offset(line, it.Column) - open - 1
		end := len(body)
		if i+1 < len(list.Content) {
			next := offset(line, list.Content[i+1].Column) - open - 1
			end = strings.LastIndexByte(body[:next], ',')
		}
		if start < 0 || end < start {
			return &EditError{Line: n, Msg: "plugins.enabled: a list this edit cannot place"}
		}
		spans = append(spans, span{start, start + len(strings.TrimRight(body[start:end], " "))})
		match = append(match, it.Kind == yaml.ScalarNode && it.Value == name)
	}
	// Rebuild body from its own pieces: each kept item keeps its text and
	// the separator that follows it; a dropped one takes the separator
	// before it (or, first of the list, the one after it) along.
	var b strings.Builder
	b.WriteString(body[:spans[0].start])
	var kept []int
	for i := range spans {
		if !match[i] {
			kept = append(kept, i)
		}
	}
	for k, i := range kept {
		if k > 0 {
			prev := kept[k-1]
			b.WriteString(body[spans[prev].end:spans[prev+1].start])
		}
		b.WriteString(body[spans[i].start:spans[i].end])
	}
	b.WriteString(body[spans[len(spans)-1].end:])
	d.lines[n-1] = line[:open+1] + b.String() + line[close:]
	return nil
}

// checkYAMLEdit is the safety net of every edit: out must decode to the old
// document with change applied, and to nothing else.
func checkYAMLEdit(old any, out []byte, change func(map[string]any)) error {
	want := cloneValue(old)
	m, ok := want.(map[string]any)
	if !ok {
		if want != nil {
			return errors.New("the file is not a mapping of settings")
		}
		m = map[string]any{}
	}
	change(m)
	var got any
	if err := yaml.Unmarshal(out, &got); err != nil {
		return errors.New("the edited file would not parse; edit it by hand")
	}
	if len(m) == 0 && got == nil {
		return nil
	}
	if !reflect.DeepEqual(got, any(m)) {
		return errors.New("the edit would change more than plugins.enabled; edit it by hand")
	}
	return nil
}

// setEnabled adds name to (or takes it out of) plugins.enabled of the
// decoded document v, as the text edit means to.
func setEnabled(v map[string]any, name string, on bool) {
	p, _ := v["plugins"].(map[string]any)
	if p == nil {
		p = map[string]any{}
		v["plugins"] = p
	}
	list, _ := p["enabled"].([]any)
	if on {
		p["enabled"] = append(list, name)
		return
	}
	kept := []any{}
	for _, x := range list {
		if x != name {
			kept = append(kept, x)
		}
	}
	p["enabled"] = kept
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}
