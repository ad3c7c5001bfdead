package hookconfig

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"os"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	agenthooks "github.com/hermes-hooks/hermes-hooks/agent-hooks"
	"github.com/hermes-hooks/hermes-hooks/internal/yamltree"
)

var updateTrees = flag.Bool("update-trees", false, "write builtin_rules.tree from agent-hooks/rules/*.yaml")

// appendTree appends the record of the built-in file name, text data
// whose parsed tree is root, to trees (the layout findTree reads).
func appendTree(trees []byte, name string, data []byte, root *yaml.Node) ([]byte, error) {
	tree, err := yamltree.Encode(root)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	trees = binary.AppendUvarint(trees, uint64(len(name)))
	trees = append(trees, name...)
	trees = append(trees, sum[:]...)
	trees = binary.AppendUvarint(trees, uint64(len(tree)))
	return append(trees, tree...), nil
}

// TestBuiltinTrees: builtin_rules.tree holds, for every built-in rule
// file, the tree parseYAML makes of its text now, so a load reads the
// same entries, lines and all, as a parse would; a file edited without
// the trees written again fails here (and only costs a parse at run
// time: TestBuiltinTreeOfOtherTextIsNotUsed).
func TestBuiltinTrees(t *testing.T) {
	var want []byte
	for _, name := range agenthooks.Rules() {
		data, _ := agenthooks.Rule(name)
		root, err := parseYAML(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want, err = appendTree(want, name, data, root); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if *updateTrees {
			continue
		}
		got, ok := builtinTree(BuiltinPrefix+name, data)
		if !ok {
			t.Fatalf("builtin_rules.tree has no tree of agent-hooks/rules/%s.yaml as it is now: run go test ./hookconfig -run TestBuiltinTrees -update-trees", name)
		}
		if !reflect.DeepEqual(got, root) {
			t.Fatalf("%s: the kept tree differs from a parse of the text", name)
		}
	}
	if *updateTrees {
		if err := os.WriteFile("builtin_rules.tree", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A built-in name with text that is not the text its tree was made
// from (an edit not written to the trees yet) is parsed: the tree of
// other text is never read in its place.
func TestBuiltinTreeOfOtherTextIsNotUsed(t *testing.T) {
	data, _ := agenthooks.Rule("force-push")
	other := append([]byte("# edited\n"), data...)
	if _, ok := builtinTree(BuiltinPrefix+"force-push", other); ok {
		t.Fatal("a tree was used for text it was not made from")
	}
	if _, ok := builtinTree("force-push", data); ok {
		t.Fatal("a tree was used for a name without builtin:")
	}
	cfg, err := parseConfigWithin(other, BuiltinPrefix+"force-push", 0, false, nil)
	if err != nil || len(cfg.Entries) == 0 {
		t.Fatalf("%v, %d entries", err, len(cfg.Entries))
	}
	if e := cfg.Entries[0]; e.Rule() == nil || e.Rule().Line != builtinFirstRuleLine(t, "force-push")+1 {
		t.Fatalf("the edited text's lines were not read: %+v", e.Rule())
	}
}

// builtinFirstRuleLine is the line of name's first rule, as loaded.
func builtinFirstRuleLine(t *testing.T, name string) int {
	t.Helper()
	data, _ := agenthooks.Rule(name)
	cfg, err := parseConfigWithin(data, BuiltinPrefix+name, 0, false, nil)
	if err != nil || len(cfg.Entries) == 0 || cfg.Entries[0].Rule() == nil {
		t.Fatalf("%v", err)
	}
	return cfg.Entries[0].Rule().Line
}

func TestFindTreeRefusesDamage(t *testing.T) {
	for i := range builtinTrees {
		for _, name := range agenthooks.Rules() {
			_, _, _ = findTree(builtinTrees[:i], name) // must not panic
		}
	}
}
