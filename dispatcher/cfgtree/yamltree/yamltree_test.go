package yamltree_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree/yamltree"
)

// The cache files trees under the parser's name: a yaml.v3 upgrade in
// go.mod must change cfgtree.Parser, or trees parsed by the old version
// would be served as the new one's.
func TestCacheNamesTheParserInGoMod(t *testing.T) {
	mod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*gopkg\.in/yaml\.v3 (\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod requires no gopkg.in/yaml.v3")
	}
	if regexp.MustCompile(`(?m)^\s*(replace\s+)?gopkg\.in/yaml\.v3( \S+)? =>`).Match(mod) {
		t.Error("go.mod replaces gopkg.in/yaml.v3: name the replacement in cfgtree.Parser and adapt this test")
	}
	if want := "yaml.v3@" + string(m[1]); cfgtree.Parser != want {
		t.Errorf("cfgtree.Parser = %q, go.mod has %q: change cfgtree.Parser with yaml.v3", cfgtree.Parser, want)
	}
}

func TestParse(t *testing.T) {
	root, err := yamltree.Parse([]byte("a: &x [1, 'q']\nb: *x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if root.Kind != cfgtree.MappingNode || len(root.Content) != 4 || root.Line != 1 {
		t.Fatalf("root = %+v", root)
	}
	seq := root.Content[1]
	if seq.Kind != cfgtree.SequenceNode || seq.Content[0].Tag != "!!int" || seq.Content[1].Style == 0 {
		t.Errorf("sequence = %+v %+v %+v", seq, seq.Content[0], seq.Content[1])
	}
	alias := root.Content[3]
	if alias.Kind != cfgtree.AliasNode || alias.Alias != seq || alias.Line != 2 {
		t.Errorf("alias = %+v", alias)
	}
	if root, err := yamltree.Parse(nil); root != nil || err != nil {
		t.Errorf("empty document = %v, %v", root, err)
	}
	if _, err := yamltree.Parse([]byte("a: [")); err == nil || !strings.Contains(err.Error(), "line") {
		t.Errorf("broken document: %v", err)
	}
}
