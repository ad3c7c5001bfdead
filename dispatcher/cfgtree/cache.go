package cfgtree

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Cache is a directory of parsed documents, each filed under the SHA-256 of
// the exact text it was parsed from. An entry can only ever be the parse of
// that text, so no stat identity, clock or invalidation is involved: an
// edited file has another digest and misses. The directory belongs to the
// user (it lives in HERMES_HOME, as the allowlist does); whoever can write
// it can edit the config itself.
type Cache struct{ Dir string }

// Parser names the YAML parser whose trees the cache holds: a tree is the
// parse of a text by one parser, so another version of it starts afresh.
// yamltree's test checks it against go.mod.
const Parser = "yaml.v3@v3.0.1"

const (
	// cacheVersion names the encoding and the parser; a change of either
	// starts afresh. Change the "treeN" part whenever Node, the encoding,
	// or what yamltree copies from yaml.v3 changes.
	cacheVersion = "tree3-" + Parser + "-"
	// maxCacheEntries bounds the directory: each config edit adds one.
	maxCacheEntries = 64
	// maxTreeBytes bounds one entry read back.
	maxTreeBytes = 8 << 20
)

func (c Cache) file(text []byte) string {
	sum := sha256.Sum256(text)
	return filepath.Join(c.Dir, cacheVersion+hex.EncodeToString(sum[:])+".tree")
}

// Get returns the tree parsed from text, if it is cached (root is nil for
// an empty document).
func (c Cache) Get(text []byte) (root *Node, ok bool) {
	if c.Dir == "" {
		return nil, false
	}
	data, err := fsutil.ReadRegular(c.file(text), "", maxTreeBytes)
	if err != nil {
		return nil, false
	}
	root, err = Decode(data)
	return root, err == nil
}

// Put files root as the parse of text. It files nothing when the encoding
// would not give root back exactly (deeper than maxDepth), so a
// cached tree is always the tree. Errors only cost a later parse.
func (c Cache) Put(text []byte, root *Node) error {
	if c.Dir == "" {
		return nil
	}
	data := Encode(root)
	back, err := Decode(data)
	if err != nil || !reflect.DeepEqual(back, root) {
		return errBroken
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	path := c.file(text)
	if err := fsutil.WriteAtomic(path, data, 0o600, "."+cacheVersion+"*.tmp", nil); err != nil {
		return err
	}
	c.prune(filepath.Base(path))
	return nil
}

// prune keeps the newest maxCacheEntries entries (keep among them), and
// removes the entries of other encodings or parsers ("tree…" files that
// are not this version's), which nothing reads any more.
func (c Cache) prune(keep string) {
	des, err := os.ReadDir(c.Dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		mod  int64
	}
	var list []entry
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, "tree") && !strings.HasPrefix(name, cacheVersion) && de.Type().IsRegular() {
			_ = os.Remove(filepath.Join(c.Dir, name))
			continue
		}
		if !strings.HasPrefix(name, cacheVersion) || name == keep {
			continue
		}
		if fi, err := de.Info(); err == nil {
			list = append(list, entry{de.Name(), fi.ModTime().UnixNano()})
		}
	}
	if len(list) < maxCacheEntries {
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].mod > list[j].mod })
	for _, e := range list[maxCacheEntries-1:] {
		_ = os.Remove(filepath.Join(c.Dir, e.name))
	}
}
