package cfgtree_test

import (
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

func TestDecodeRejectsWhatEncodeNeverWrites(t *testing.T) {
	for _, bad := range []string{
		``, `{}`, `[]`, `[8,0,1,"!!str","x",[]]`, `[8,0,1,"!!str","x",[],null,1]`,
		`[3,0,1,"!!str","x",[],null]`, `[8,-1,1,"!!str","x",[],null]`, `[8,0,1,5,"x",[],null]`,
		`[4,0,1,"!!map","",[null],null]`, `[8,0,1,"!!str","x",[],null] [8]`,
		strings.Repeat(`[2,0,1,"!!seq","",[`, 100) + strings.Repeat(`],null]`, 100),
	} {
		if root, err := cfgtree.Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%.60q) = %+v, want an error", bad, root)
		}
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
	// A tree the encoding cannot give back exactly is not filed.
	odd := &cfgtree.Node{Kind: cfgtree.ScalarNode, Tag: "!!str", Value: "\xff"}
	if err := c.Put([]byte("odd"), odd); err == nil {
		t.Error("Put filed a value that is not valid UTF-8")
	}
	if _, ok := c.Get([]byte("odd")); ok {
		t.Error("a tree that does not round-trip was served")
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
	f.Add([]byte(`[8,0,1,"!!str","x",[],null]`))
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
	for _, bad := range []string{
		`[8,0,1,"!!str","x",[],0]`,                                                                      // itself
		`[2,0,1,"!!seq","",[[16,0,1,"","",[],0]],null]`,                                                 // its parent
		`[2,0,1,"!!seq","",[[16,0,1,"","",[],5]],null]`,                                                 // not read yet
		`[2,0,1,"!!seq","",[[8,0,1,"!!str","x",[],null],[16,0,1,"","",[],1],[16,0,1,"","",[],2]],null]`, // an alias
	} {
		if _, err := cfgtree.Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%s) accepted", bad)
		}
	}
	ok := `[2,0,1,"!!seq","",[[8,0,1,"!!str","x",[],null],[16,0,1,"","",[],1]],null]`
	if root, err := cfgtree.Decode([]byte(ok)); err != nil || root.Content[1].Alias != root.Content[0] {
		t.Errorf("Decode(%s) = %v, %v", ok, root, err)
	}
}
