package pyyaml

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// flattenCases are documents whose flattened reading is checked against
// what PyYAML's safe_load builds (TestFlattenMatchesPyYAML runs them
// through PyYAML itself when python3 has it).
var flattenCases = []struct {
	name, doc, want string // want: the document as JSON, keys in order
}{
	{"no merge", "a: 1\nb: 2\n", `{"a":1,"b":2}`},
	{"one merge", "d: &d {x: 1, y: 2}\ne: {<<: *d, z: 3}\n", `{"d":{"x":1,"y":2},"e":{"x":1,"y":2,"z":3}}`},
	{"explicit wins", "d: &d {x: 1, y: 2}\ne: {<<: *d, x: 9}\n", `{"d":{"x":1,"y":2},"e":{"x":9,"y":2}}`},
	{"explicit before the merge wins", "d: &d {x: 1, y: 2}\ne: {x: 9, <<: *d}\n", `{"d":{"x":1,"y":2},"e":{"x":9,"y":2}}`},
	{"earlier of a list wins", "a: &a {x: a}\nb: &b {x: b, y: b}\ne: {<<: [*a, *b]}\n", `{"a":{"x":"a"},"b":{"x":"b","y":"b"},"e":{"x":"a","y":"b"}}`},
	{"two merge keys: the later wins", "a: &a {x: a}\nb: &b {x: b}\ne: {<<: *a, <<: *b}\n", `{"a":{"x":"a"},"b":{"x":"b"},"e":{"x":"b"}}`},
	{"a merge of a merge", "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\ne: {<<: *b, z: 3}\n", `{"a":{"x":1},"b":{"x":1,"y":2},"e":{"x":1,"y":2,"z":3}}`},
	{"inline", "e: {<<: {x: 1}, y: 2}\n", `{"e":{"x":1,"y":2}}`},
	{"inline list", "e: {<<: [{x: 1}, {x: 2, y: 2}]}\n", `{"e":{"x":1,"y":2}}`},
	{"quoted << is a key", "e: {'<<': {x: 1}}\n", `{"e":{"<<":{"x":1}}}`},
	{"last of a key given twice", "e: {x: 1, y: 2, x: 3}\n", `{"e":{"x":3,"y":2}}`},
	{"quoted and plain are one key", "e: {x: 1, \"x\": 2}\n", `{"e":{"x":2}}`},
	{"merged values nest", "d: &d {x: {y: 1}}\ne: {<<: *d}\n", `{"d":{"x":{"y":1}},"e":{"x":{"y":1}}}`},
	{"block style", "d: &d\n  x: 1\ne:\n  <<: *d\n  y: 2\n", `{"d":{"x":1},"e":{"x":1,"y":2}}`},
	{"in a list", "d: &d {x: 1}\nl:\n  - <<: *d\n    y: 2\n  - <<: *d\n", `{"d":{"x":1},"l":[{"x":1,"y":2},{"x":1}]}`},
	{"an empty list merges nothing", "e: {<<: [], x: 1}\n", `{"e":{"x":1}}`},
	{"an alias key", "k: &k x\ne: {*k : 1, x: 2}\n", `{"k":"x","e":{"x":2}}`},
	{"an alias of a scalar", "c: &c x\ne: {a: *c, b: [*c]}\n", `{"c":"x","e":{"a":"x","b":["x"]}}`},
	{"merge into the top level", "d: &d {x: 1}\n<<: *d\n", `{"x":1,"d":{"x":1}}`},
}

func TestFlatten(t *testing.T) {
	for _, tc := range flattenCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := flatJSON(t, tc.doc); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestFlattenMatchesPyYAML: the expectations above are PyYAML's own.
func TestFlattenMatchesPyYAML(t *testing.T) {
	if exec.Command("python3", "-c", "import yaml").Run() != nil {
		t.Skip("python3 with PyYAML is not installed")
	}
	docs := make([]string, len(flattenCases))
	for i, tc := range flattenCases {
		docs[i] = tc.doc
	}
	in, _ := json.Marshal(docs)
	cmd := exec.Command("python3", "-c", "import json,sys,yaml\nfor d in json.load(sys.stdin): print(json.dumps(yaml.safe_load(d), separators=(',',':')))")
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, tc := range flattenCases {
		if lines[i] != tc.want {
			t.Errorf("%s: PyYAML reads %s, the test expects %s", tc.name, lines[i], tc.want)
		}
	}
}

func TestFlattenRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		line      int
		want      string
	}{
		{"a scalar", "e:\n  <<: 1\n", 2, "takes a mapping or a list of mappings; got int"},
		{"a list of scalars", "e:\n  <<: [{x: 1}, 2]\n", 2, "its list holds int"},
		{"itself", "a: &a\n  <<: *a\n", 2, "merges a mapping that holds it"},
		{"a mapping that holds it", "a: &a\n  k:\n    <<: *a\n", 0, "merges a mapping that holds it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parse(t, tc.doc)
			_, err := Flatten(root, 0)
			me, ok := err.(*MergeError)
			if !ok || !strings.Contains(me.Msg, tc.want) || (tc.line > 0 && me.Node.Line != tc.line) {
				t.Fatalf("err = %v (%+v)", err, me)
			}
		})
	}
}

func TestFlattenRepeated(t *testing.T) {
	root := parse(t, "a: 1\nb: 2\na: 3\nb: 4\na: 5\nd: &d {c: 1}\ne: {<<: *d, c: 2}\n")
	f, err := Flatten(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Repeated(root) {
		got = append(got, r.String())
	}
	// Each key once, at its first repetition; a merged key overridden is
	// no repetition.
	if want := "key 'a' is given twice (lines 1 and 3)|key 'b' is given twice (lines 2 and 4)"; strings.Join(got, "|") != want {
		t.Fatalf("got %q", got)
	}
	if r := f.Repeated(root.Content[len(root.Content)-1]); r != nil {
		t.Fatalf("merged key counted as repeated: %v", r)
	}
}

// TestFlattenKeepsLines: a merged key and value are the nodes written in
// the anchor, with its lines.
func TestFlattenKeepsLines(t *testing.T) {
	root := parse(t, "d: &d\n  x: 1\ne:\n  <<: *d\n")
	if _, err := Flatten(root, 0); err != nil {
		t.Fatal(err)
	}
	e := MappingGet(root, "e")
	if x := MappingGet(e, "x"); x == nil || x.Line != 2 || e.Content[0].Line != 2 {
		t.Fatalf("e = %+v", e.Content)
	}
}

// TestFlattenBound: many merges of a wide mapping are refused past the
// bound; nested merges of merges (a billion laughs) cost their text.
func TestFlattenBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("w: &w {")
	for i := range 1000 {
		b.WriteString("k" + strconv.Itoa(i) + ": 1, ")
	}
	b.WriteString("}\nl:\n")
	for range 300 {
		b.WriteString("  - <<: *w\n")
	}
	_, err := Flatten(parse(t, b.String()), 0)
	if me, ok := err.(*MergeError); !ok || !strings.Contains(me.Msg, "more than 250000 keys") {
		t.Fatalf("err = %v", err)
	}
	b.Reset()
	b.WriteString("l0: &l0 {a: 1}\n")
	for i := 1; i < 40; i++ {
		p := "*l" + strconv.Itoa(i-1)
		b.WriteString("l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " {<<: [" + strings.Repeat(p+", ", 9) + p + "], k" + strconv.Itoa(i) + ": 1}\n")
	}
	root := parse(t, b.String())
	if _, err := Flatten(root, 0); err != nil {
		t.Fatal(err)
	}
	if top := MappingGet(root, "l39"); len(top.Content) != 2*40 {
		t.Fatalf("l39 has %d keys", len(top.Content)/2)
	}
}

// TestFlattenWithinSharesBudget: documents flattened within one budget
// share its bound. Each of these copies 60% of it, within a bound of its
// own; a reader that gave each its own (a config and 64 files it
// includes) let them copy 64 bounds' worth on every load.
func TestFlattenWithinSharesBudget(t *testing.T) {
	const max = 1000
	doc := "w: &w {"
	for i := range 100 {
		doc += "k" + strconv.Itoa(i) + ": 1, "
	}
	doc += "}\nl:\n" + strings.Repeat("  - <<: *w\n", 6)
	b := NewMergeBudget(max)
	if _, err := FlattenWithin(parse(t, doc), b); err != nil || b.Copied() != 600 {
		t.Fatalf("first: %v, copied %d", err, b.Copied())
	}
	_, err := FlattenWithin(parse(t, doc), b)
	me, ok := err.(*MergeError)
	if !ok || me.Before != 600 || !strings.Contains(me.Msg, "more than 1000 keys in this file and the files read with it (600 in those read before it)") {
		t.Fatalf("second: %v", err)
	}
	// Spent: a third fails at its first merge (counted, not copied).
	copied := b.Copied()
	if _, err := FlattenWithin(parse(t, doc), b); err == nil || b.Copied() != copied+100 {
		t.Fatalf("third: %v, copied %d then %d", err, copied, b.Copied())
	}
	// Each on its own is within the bound.
	if _, err := Flatten(parse(t, doc), max); err != nil {
		t.Fatal(err)
	}
}

func parse(t testing.TB, doc string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	return n.Content[0]
}

func flatJSON(t *testing.T, doc string) string {
	root := parse(t, doc)
	if _, err := Flatten(root, 0); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeJSON(&b, root)
	return b.String()
}

// writeJSON writes n as JSON with its keys in order, aliases followed.
func writeJSON(b *strings.Builder, n *yaml.Node) {
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(n.Content[i].Value))
			b.WriteByte(':')
			writeJSON(b, n.Content[i+1])
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, c)
		}
		b.WriteByte(']')
	default:
		if n.Tag == "!!int" {
			b.WriteString(n.Value)
			return
		}
		b.WriteString(jsonString(n.Value))
	}
}

// jsonString is s as Python's json.dumps writes it (< and > as they are).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// FuzzFlatten: no document panics Flatten, and what it leaves reads as
// PyYAML's mappings: no merge key, no key twice, no cycle but aliases,
// and a second Flatten changes nothing.
func FuzzFlatten(f *testing.F) {
	for _, tc := range flattenCases {
		f.Add(tc.doc)
	}
	for _, s := range []string{
		"a: &a\n  <<: *a\n", "a: &a\n  k:\n    <<: *a\n", "e: {<<: 1}\n", "e: {<<: [*x]}\n", "a: &a [*a]\n",
		"l0: &l0 {a: 1}\nl1: &l1 {<<: [*l0, *l0], b: 1}\nl2: {<<: [*l1, *l1], c: [*l1]}\n",
		"? [a]\n: 1\n? {b: 1}\n: 2\n<<: {x: 1}\n", "&a {<<: &b {<<: &c {x: 1}}}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(doc), &n) != nil {
			return
		}
		if _, err := Flatten(&n, 10_000); err != nil {
			return
		}
		seen := map[*yaml.Node]bool{}
		var check func(*yaml.Node, int)
		check = func(m *yaml.Node, depth int) {
			if seen[m] || m.Kind == yaml.AliasNode {
				return
			}
			if depth > 100_000 {
				t.Fatal("a cycle survived Flatten")
			}
			seen[m] = true
			if m.Kind == yaml.MappingNode {
				keys := map[string]bool{}
				for i := 0; i+1 < len(m.Content); i += 2 {
					if isMergeKey(m.Content[i]) {
						t.Fatalf("a merge key survived at line %d", m.Content[i].Line)
					}
					if id, ok := keyID(m.Content[i]); ok {
						if keys[id] {
							t.Fatalf("key %q twice after Flatten", m.Content[i].Value)
						}
						keys[id] = true
					}
				}
			}
			for _, c := range m.Content {
				check(c, depth+1)
			}
		}
		check(&n, 0)
		again, err := Flatten(&n, 10_000)
		if err != nil {
			t.Fatalf("a second Flatten failed: %v", err)
		}
		for m := range seen {
			if r := again.Repeated(m); r != nil {
				t.Fatalf("a second Flatten found %v", r)
			}
		}
	})
}

// TestFlattenScalarAliases: a scalar written as an alias is its anchor's
// scalar node after Flatten, for readers that look at a value's kind.
func TestFlattenScalarAliases(t *testing.T) {
	root := parse(t, "c: &c /bin/x\ne: {command: *c, l: [*c]}\n")
	if _, err := Flatten(root, 0); err != nil {
		t.Fatal(err)
	}
	e := MappingGet(root, "e")
	if c := MappingGet(e, "command"); c.Kind != yaml.ScalarNode || c.Value != "/bin/x" || c.Line != 1 {
		t.Fatalf("command = %+v", c)
	}
	if l := MappingGet(e, "l"); l.Content[0].Kind != yaml.ScalarNode {
		t.Fatalf("l = %+v", l.Content[0])
	}
}
