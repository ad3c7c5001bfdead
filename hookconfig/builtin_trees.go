package hookconfig

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // builtin_rules.tree
	"encoding/binary"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/yamltree"
)

// The built-in rule files are YAML in the tree (agent-hooks/rules) and in
// the binary, where every start that included them parsed their 136 KB
// with yaml.v3: ~10 ms of a one-shot `hook` with all five. Their parsed
// trees, as parseYAML returns them, are kept beside them in
// builtin_rules.tree, each with the SHA-256 of the text it was parsed
// from; Load reads a built-in file's tree from there when that hash is
// its text's, and parses the text otherwise. So a tree that has not been
// written again after an edit of its file (TestBuiltinTrees fails and
// says how) costs time, never a rule: what Load reads is the text's.

//go:embed builtin_rules.tree
var builtinTrees []byte

// parseYAMLOf is parseYAML of data, the text of the file path names: for
// a built-in rule file, the tree kept of that text when there is one.
func parseYAMLOf(path string, data []byte) (*yaml.Node, error) {
	if root, ok := builtinTree(path, data); ok {
		return root, nil
	}
	return parseYAML(data)
}

// builtinTree is the parsed tree of data, the text of the built-in rule
// file source (builtin:NAME), when builtin_rules.tree holds one made
// from exactly that text; false otherwise.
func builtinTree(source string, data []byte) (*yaml.Node, bool) {
	name, ok := strings.CutPrefix(source, BuiltinPrefix)
	if !ok {
		return nil, false
	}
	tree, sum, found := findTree(builtinTrees, name)
	if !found || sha256.Sum256(data) != sum {
		return nil, false
	}
	root, err := yamltree.Decode(tree)
	return root, err == nil
}

// The layout of builtin_rules.tree: for each file, its name's length and
// name, the SHA-256 of its text, its tree's length and tree (yamltree),
// lengths as unsigned varints (appendTree, in the test that writes it).

// findTree is name's tree and hash in trees.
func findTree(trees []byte, name string) (tree []byte, sum [sha256.Size]byte, found bool) {
	for len(trees) > 0 {
		n, w := binary.Uvarint(trees)
		if w <= 0 || n > uint64(len(trees)-w) {
			return nil, sum, false
		}
		this := trees[w : w+int(n)]
		trees = trees[w+int(n):]
		if len(trees) < sha256.Size {
			return nil, sum, false
		}
		copy(sum[:], trees)
		trees = trees[sha256.Size:]
		l, w := binary.Uvarint(trees)
		if w <= 0 || l > uint64(len(trees)-w) {
			return nil, sum, false
		}
		tree, trees = trees[w:w+int(l)], trees[w+int(l):]
		if bytes.Equal(this, []byte(name)) {
			return tree, sum, true
		}
	}
	return nil, sum, false
}
