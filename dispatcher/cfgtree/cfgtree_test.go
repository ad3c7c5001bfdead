package cfgtree_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree/yamltree"
)

// docs are YAML texts with every node kind, style, tag and alias the
// config reader meets.
var docs = []string{
	"",
	"# only a comment\n",
	"null\n",
	"hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      matcher: term\\w+\n      fail_closed: yes\n      timeout: 1.5\n",
	"a: 'single'\nb: \"double \\u00e9 \\t\"\nc: |\n  literal\n  block\nd: >\n  folded\ne: [1, 2.5, true, ~, 0x1F]\nf: {x: y}\n",
	"base: &b\n  command: x\nuse: *b\nlist: [*b, *b]\n",
	"tagged: !!str 123\ncustom: !mine value\nbin: !!binary aGk=\nts: 2001-12-14\n",
	"k: \"\\x00\\x1b[2K\\u202e\"\n",
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, doc := range docs {
		root, err := yamltree.Parse([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		back, err := cfgtree.Decode(cfgtree.Encode(root))
		if err != nil {
			t.Fatalf("%q: decode: %v", doc, err)
		}
		if !reflect.DeepEqual(back, root) {
			t.Errorf("%q: round trip changed the tree:\n got %s\nwant %s", doc, cfgtree.Encode(back), cfgtree.Encode(root))
		}
	}
}

// enc writes a raw encoding: the magic, then each part (an int as a
// varint, a string with its length first, a []byte as it is).
func enc(parts ...any) []byte {
	out := []byte("cfgtree3")
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			out = binary.AppendUvarint(out, uint64(v))
		case string:
			out = binary.AppendUvarint(out, uint64(len(v)))
			out = append(out, v...)
		case []byte:
			out = append(out, v...)
		}
	}
	return out
}

// scalar is a childless "!!str x" node with the given alias field.
func scalar(alias int) []any { return []any{8, 0, 1, "!!str", "x", 0, alias} }

func nodes(parts ...[]any) []any {
	var out []any
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestDecodeRejectsWhatEncodeNeverWrites(t *testing.T) {
	deep := []any{1}
	for i := 0; i < 100; i++ {
		deep = append(deep, 2, 0, 1, "!!seq", "", 1)
	}
	for name, bad := range map[string][]byte{
		"empty":          nil,
		"another magic":  []byte("cfgtree2\x00"),
		"no root flag":   enc(),
		"a bad flag":     enc(2),
		"trailing bytes": append(enc(1), append(enc(nodes(scalar(0))...)[8:], 0)...),
		"empty + more":   enc(0, 0),
		"kind 3":         enc(1, 3, 0, 1, "!!str", "x", 0, 0),
		"truncated":      enc(1, 8, 0, 1, "!!str"),
		"a long string":  enc(1, 8, 0, 1, []byte{0xff, 0x01}, "x"),
		"a huge count":   enc(1, 2, 0, 1, "!!seq", "", 1000000, 0),
		"too deep":       enc(deep...),
		"a nil child":    enc(1, 2, 0, 1, "!!seq", "", 1, 0, 0, 0, "", "", 0, 0, 0),
	} {
		if root, err := cfgtree.Decode(bad); err == nil {
			t.Errorf("%s: Decode(%q) = %+v, want an error", name, bad, root)
		}
	}
	if root, err := cfgtree.Decode(enc(append([]any{1}, scalar(0)...)...)); err != nil || root.Value != "x" {
		t.Errorf("a well-formed scalar: %v, %v", root, err)
	}
}

func TestCacheGetPutAndBound(t *testing.T) {
	c := cfgtree.Cache{Dir: filepath.Join(t.TempDir(), "cache")}
	text := []byte(docs[3])
	if _, ok := c.Get(text); ok {
		t.Fatal("hit in an empty cache")
	}
	root, _ := yamltree.Parse(text)
	if err := c.Put(text, root); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(text)
	if !ok || !reflect.DeepEqual(got, root) {
		t.Fatalf("Get after Put = %v, %v", got, ok)
	}
	// Another text (one byte edited) misses: an entry is only ever the
	// parse of its own text.
	if _, ok := c.Get([]byte(strings.Replace(docs[3], "yes", "no", 1))); ok {
		t.Fatal("an edited text hit the cache")
	}
	// An empty document is cached as such.
	if err := c.Put(nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(nil); !ok || got != nil {
		t.Fatalf("empty document: %v, %v", got, ok)
	}
	// A value that is not valid UTF-8 round-trips exactly.
	odd := &cfgtree.Node{Kind: cfgtree.ScalarNode, Tag: "!!str", Value: "\xff"}
	if err := c.Put([]byte("odd"), odd); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get([]byte("odd")); !ok || !reflect.DeepEqual(got, odd) {
		t.Errorf("a non-UTF-8 value: %+v, %v", got, ok)
	}
	// A tree the encoding cannot give back exactly is not filed.
	var deep, at *cfgtree.Node
	for i := 0; i < 100; i++ {
		n := &cfgtree.Node{Kind: cfgtree.SequenceNode, Tag: "!!seq"}
		if deep == nil {
			deep = n
		} else {
			at.Content = []*cfgtree.Node{n}
		}
		at = n
	}
	if err := c.Put([]byte("deep"), deep); err == nil {
		t.Error("Put filed a tree deeper than the encoding keeps")
	}
	if _, ok := c.Get([]byte("deep")); ok {
		t.Error("a tree that does not round-trip was served")
	}
	// Entries of another encoding or parser go at the next Put.
	stale := filepath.Join(c.Dir, "tree1-yaml.v3@v0.0.1-0123.json")
	if err := os.WriteFile(stale, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Put([]byte("again"), root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("an entry of another encoding was kept")
	}
	// The directory stays bounded.
	for i := 0; i < 100; i++ {
		_ = c.Put([]byte{byte(i), byte(i >> 8)}, root)
	}
	des, _ := os.ReadDir(c.Dir)
	if len(des) > 64 {
		t.Errorf("%d entries kept, want at most 64", len(des))
	}
}

// FuzzDecode: Decode never panics, and what it accepts encodes back to a
// tree it reads the same.
func FuzzDecode(f *testing.F) {
	for _, doc := range docs {
		root, _ := yamltree.Parse([]byte(doc))
		f.Add(cfgtree.Encode(root))
	}
	f.Add(enc(append([]any{1}, scalar(0)...)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := cfgtree.Decode(data)
		if err != nil {
			return
		}
		again, err := cfgtree.Decode(cfgtree.Encode(root))
		if err != nil || !reflect.DeepEqual(again, root) {
			t.Fatalf("re-encoding %q changed it: %v", data, err)
		}
	})
}

// FuzzParseRoundTrip: any text yaml.v3 parses gives a tree that the cache
// either files exactly or refuses to file.
func FuzzParseRoundTrip(f *testing.F) {
	for _, doc := range docs {
		f.Add([]byte(doc))
	}
	c := cfgtree.Cache{Dir: f.TempDir()}
	f.Fuzz(func(t *testing.T, text []byte) {
		root, err := yamltree.Parse(text)
		if err != nil {
			return
		}
		if c.Put(text, root) != nil {
			return
		}
		got, ok := c.Get(text)
		if !ok || !reflect.DeepEqual(got, root) {
			t.Fatalf("%q: cached tree differs from the parse", text)
		}
	})
}

// A document of nested aliases ("billion laughs": each level lists the one
// before ten times) is small as text and as a tree, whose aliases are
// pointers; copying them would take 10^20 nodes. The cache files it in its
// own size, in no time (a repository's hooks file goes through Put at
// every load).
func TestAliasBombEncodesInItsOwnSize(t *testing.T) {
	var b strings.Builder
	b.WriteString("l0: &l0 [x]\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	text := []byte(b.String())
	root, err := yamltree.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	enc := cfgtree.Encode(root)
	if len(enc) > 100*len(text) {
		t.Fatalf("%d bytes of YAML encode to %d", len(text), len(enc))
	}
	c := cfgtree.Cache{Dir: t.TempDir()}
	if err := c.Put(text, root); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(text)
	if !ok || !reflect.DeepEqual(got, root) {
		t.Fatal("the alias document does not round-trip")
	}
	last := got.Content[len(got.Content)-1]
	if a := last.Content[9]; a.Kind != cfgtree.AliasNode || a.Alias != got.Content[len(got.Content)-3] {
		t.Errorf("an alias lost its target: %+v", a)
	}
}

// An alias must stand for a node read whole before it, never for itself,
// an ancestor or another alias: the config reader recurses through them.
func TestDecodeRefusesAliasCycles(t *testing.T) {
	seq := func(children int, kids ...[]any) []any {
		return append([]any{1, 2, 0, 1, "!!seq", "", children}, append(nodes(kids...), 0)...)
	}
	alias := func(to int) []any { return []any{16, 0, 1, "", "", 0, to} }
	for name, bad := range map[string][]any{
		"itself":     append([]any{1}, scalar(1)...),
		"its parent": seq(1, alias(1)),
		"not read":   seq(1, alias(6)),
		"an alias":   seq(3, scalar(0), alias(2), alias(3)),
	} {
		if _, err := cfgtree.Decode(enc(bad...)); err == nil {
			t.Errorf("%s: Decode accepted it", name)
		}
	}
	root, err := cfgtree.Decode(enc(seq(2, scalar(0), alias(2))...))
	if err != nil || root.Content[1].Alias != root.Content[0] {
		t.Errorf("an alias to an earlier node: %v, %v", root, err)
	}
}
