package yamltree

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func parsed(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

const sample = `# a head comment
hooks:
  pre_tool_call:
    - matcher: terminal # a line comment
      rule: 'args.command matches "rm"'
      decision: block
      message: "no"
      examples:
        - {args: {command: "rm -rf /"}, expect: block}
        - {args: {command: ls}, expect: none}
      timeout: 0x1f
    - &a {x: [1, 2.5, ~, true, "s", [], {}]}
    - text: |
        literal
        block
      folded: >-
        folded
# a foot comment
`

// roundTrip is the tree Decode reads from Encode's bytes of doc.
func roundTrip(t *testing.T, doc *yaml.Node) *yaml.Node {
	t.Helper()
	b, err := Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRoundTrip(t *testing.T) {
	doc := parsed(t, sample)
	got := roundTrip(t, doc)
	if !reflect.DeepEqual(got, doc) {
		t.Fatalf("decoded tree differs from the parsed one")
	}
	var a, c bytes.Buffer
	if err := yaml.NewEncoder(&a).Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := yaml.NewEncoder(&c).Encode(got); err != nil {
		t.Fatal(err)
	}
	if a.String() != c.String() {
		t.Fatalf("re-encoded YAML differs:\n%s\n---\n%s", a.String(), c.String())
	}
}

// TestChildrenDoNotShareRoom: each node's Content is capped, so an
// append to one (as a merge key's flattening does) leaves its
// neighbours' children alone.
func TestChildrenDoNotShareRoom(t *testing.T) {
	got := roundTrip(t, parsed(t, "a: [1, 2]\nb: [3, 4]\n"))
	m := got.Content[0]
	first, second := m.Content[1], m.Content[3]
	first.Content = append(first.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "x"})
	if second.Content[0].Value != "3" || len(m.Content) != 4 || m.Content[2].Value != "b" {
		t.Fatalf("an append to one node's children changed another's: %+v", second.Content[0])
	}
}

func TestEncodeRefusesAliasesAndDepth(t *testing.T) {
	if _, err := Encode(parsed(t, "a: &x 1\nb: *x\n")); err == nil || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("an alias was written: %v", err)
	}
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	if _, err := Encode(parsed(t, deep)); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Fatalf("a tree deeper than MaxDepth was written: %v", err)
	}
}

func TestDecodeRefusesDamage(t *testing.T) {
	b, err := Encode(parsed(t, sample))
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"empty":         nil,
		"another magic": append([]byte("yamltree2\n"), b[len(magic):]...),
		"cut short":     b[:len(b)-3],
		"trailing":      append(append([]byte{}, b...), 0),
		"huge count":    append([]byte(magic), 0xff, 0xff, 0xff, 0xff, 0x0f),
	} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	for i := len(magic); i < len(b); i++ {
		c := append([]byte{}, b...)
		c[i] ^= 0xff
		_, _ = Decode(c) // must not panic
	}
}

func FuzzDecode(f *testing.F) {
	if b, err := Encode(parsed(f, sample)); err == nil {
		f.Add(b)
	}
	f.Add([]byte(magic + "\x01\x03\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Encode(n)
		if err != nil {
			t.Fatalf("a decoded tree does not encode: %v", err)
		}
		if !bytes.Equal(again, b) {
			// Varints have one shortest form; a longer one decodes to the
			// same tree, which must then encode to the shortest.
			n2, err := Decode(again)
			if err != nil || !reflect.DeepEqual(n, n2) {
				t.Fatalf("a decoded tree encodes to another tree")
			}
		}
	})
}

func FuzzRoundTrip(f *testing.F) {
	f.Add(sample)
	f.Add("a: [1, {b: c}]\n# x\n")
	f.Fuzz(func(t *testing.T, src string) {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(src), &doc) != nil {
			return
		}
		b, err := Encode(&doc)
		if err != nil {
			return // an alias or a deep tree
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("an encoding does not decode: %v", err)
		}
		if !reflect.DeepEqual(got, &doc) {
			t.Fatalf("the tree changed")
		}
	})
}
