package pyyaml

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Merge keys and keys given twice, as PyYAML's safe_load reads them.
//
// yaml.v3 resolves a merge key (<<: *defaults) only when it decodes into
// Go values; its nodes keep the << key as written, and keep every key of a
// mapping given twice, so a reader that takes a key's first value reads
// another mapping than PyYAML (Hermes), which takes the last. Flatten
// rewrites the nodes once, after parsing, into the mappings PyYAML builds:
// every reader of the tree then sees what Hermes sees.

// DefaultMaxMergedKeys bounds the keys Flatten copies out of merged
// mappings in one document. A merged mapping is flattened once and holds
// each key once, so nesting cannot multiply it (a billion laughs of
// merges costs what its text does); only many merges of a wide mapping
// can add up, and a real config merges a few keys a few times.
const DefaultMaxMergedKeys = 250_000

// MergeBudget is what the documents Flattened within it may still copy
// out of merged mappings, together. A reader that loads several documents
// as one (a config and the files it includes) shares one: each document
// within its own bound, n of them cost n times the bound.
type MergeBudget struct {
	max, left int
}

// NewMergeBudget is a budget of max copied keys (0: DefaultMaxMergedKeys).
func NewMergeBudget(max int) *MergeBudget {
	if max <= 0 {
		max = DefaultMaxMergedKeys
	}
	return &MergeBudget{max: max, left: max}
}

// Copied is the keys the documents flattened within b have copied.
func (b *MergeBudget) Copied() int { return b.max - b.left }

// Repeated is a key given twice in one mapping, as written (keys merged
// in by << do not count: overriding them is what a merge is for).
type Repeated struct {
	First, Second *yaml.Node // the key nodes, for their lines
}

// Flattened is what Flatten found: the keys given twice, by mapping.
type Flattened struct {
	repeated map[*yaml.Node][]Repeated
}

// Repeated is every key given twice in mapping n as written, each at its
// second (nil when none is, or n is not a mapping Flatten saw).
func (f *Flattened) Repeated(n *yaml.Node) []Repeated {
	if f == nil {
		return nil
	}
	return f.repeated[n]
}

// MergeError is a merge PyYAML refuses to load (so Hermes cannot load the
// file), or one past the bound.
type MergeError struct {
	Node *yaml.Node // where: its Line and Column
	Msg  string
	// Before is, for a merge past the bound, the keys the documents
	// flattened before this one within its budget had copied.
	Before int
}

func (e *MergeError) Error() string { return e.Msg }

// Flatten rewrites every mapping under root in place as PyYAML's
// constructor reads it: each merge key (a plain <<) is replaced by the keys
// of the mapping, or of each mapping of the list, it names; a key written
// in the mapping wins over a merged one, and of a list the earlier mapping
// wins; of a key given twice the last value wins. A mapping's keys keep
// the order PyYAML's dict gives them (where each first appears) and every
// key and value node is the one written, with its line. maxMerged bounds
// the keys copied by merges (0: DefaultMaxMergedKeys). Aliased mappings
// are rewritten once, shared, as PyYAML's are.
func Flatten(root *yaml.Node, maxMerged int) (*Flattened, error) {
	return FlattenWithin(root, NewMergeBudget(maxMerged))
}

// FlattenWithin is Flatten copying at most what is left of budget, which
// it spends: the documents flattened within one budget copy at most its
// bound together. Past it, the error says so, and the budget stays spent.
func FlattenWithin(root *yaml.Node, budget *MergeBudget) (*Flattened, error) {
	f := &flattener{state: map[*yaml.Node]uint8{}, walked: map[*yaml.Node]bool{}, out: &Flattened{repeated: map[*yaml.Node][]Repeated{}}, budget: budget, before: budget.Copied()}
	if root != nil {
		f.walk(root)
	}
	if f.err == nil && f.merged {
		// Merged pairs are edges no alias marks: a mapping merged into
		// one it holds would make the tree a cycle every reader that
		// descends would follow for ever.
		f.acyclic(root, map[*yaml.Node]uint8{})
	}
	if f.err != nil {
		return f.out, f.err
	}
	return f.out, nil
}

const (
	inProgress uint8 = 1
	done       uint8 = 2
)

type flattener struct {
	state  map[*yaml.Node]uint8
	walked map[*yaml.Node]bool
	out    *Flattened
	budget *MergeBudget // merged keys still allowed
	before int          // copied by the documents flattened before this one
	merged bool         // some mapping took merged keys
	err    *MergeError
}

// walk flattens every mapping of the tree as written, each node once:
// aliases are not followed (their anchors are in the tree), and children
// are walked before their mapping is rewritten, so that merged-in nodes,
// which are walked where they are written, are not walked again.
func (f *flattener) walk(n *yaml.Node) {
	if f.err != nil || n.Kind == yaml.AliasNode || len(n.Content) == 0 {
		return
	}
	if f.walked[n] {
		// A tree flattened before holds merged nodes in several
		// mappings: without this its walk could take exponential time.
		return
	}
	f.walked[n] = true
	children := n.Content
	for i, c := range children {
		if c.Kind == yaml.AliasNode && c.Alias != nil && c.Alias.Kind == yaml.ScalarNode {
			// A scalar written as an alias (command: *cmd) is its
			// anchor's scalar for every reader, as for PyYAML; it
			// holds nothing, so sharing it costs nothing.
			children[i] = c.Alias
		}
		f.walk(c)
	}
	if n.Kind == yaml.MappingNode {
		f.flatten(n)
	}
}

func (f *flattener) fail(at *yaml.Node, msg string) {
	if f.err == nil {
		f.err = &MergeError{Node: at, Msg: msg}
	}
}

// flatten rewrites mapping m (once; the mappings it merges first).
func (f *flattener) flatten(m *yaml.Node) {
	switch f.state[m] {
	case done:
		return
	case inProgress:
		f.fail(m, cycle) // take names the merge key first
		return
	}
	if !hasMergeOrRepeat(m) {
		return // nothing to rewrite, nothing to remember
	}
	f.state[m] = inProgress
	defer func() { f.state[m] = done }()
	var merged []*yaml.Node
	var explicit []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !isMergeKey(k) {
			explicit = append(explicit, k, v)
			continue
		}
		merged = f.mergeValue(m, merged, k, v)
		if f.err != nil {
			return
		}
	}
	f.noteRepeated(m, explicit)
	m.Content = dedupe(append(merged, explicit...))
}

// mergeValue appends the pairs merge key k's value v brings (a mapping, or
// a list of mappings of which the earlier wins) to merged, m's.
func (f *flattener) mergeValue(m *yaml.Node, merged []*yaml.Node, k, v *yaml.Node) []*yaml.Node {
	v = deref(v)
	switch v.Kind {
	case yaml.MappingNode:
		return f.take(m, merged, k, v)
	case yaml.SequenceNode:
		for _, s := range v.Content {
			if s = deref(s); s.Kind != yaml.MappingNode {
				f.fail(s, "a merge key (<<) takes a mapping or a list of mappings; its list holds "+Type(s))
				return merged
			}
		}
		// Later mappings first, so that the earlier ones, last, win.
		for i := len(v.Content) - 1; i >= 0 && f.err == nil; i-- {
			merged = f.take(m, merged, k, deref(v.Content[i]))
		}
		return merged
	}
	f.fail(k, "a merge key (<<) takes a mapping or a list of mappings; got "+Type(v))
	return merged
}

// acyclic fails when the graph under n, aliases not followed, has a
// cycle. Each node is visited once (seen), however many mappings merged
// it: the edges are the document's and the merged keys, both bounded.
func (f *flattener) acyclic(n *yaml.Node, seen map[*yaml.Node]uint8) {
	switch seen[n] {
	case done:
		return
	case inProgress:
		f.fail(n, cycle)
		return
	}
	seen[n] = inProgress
	for _, c := range n.Content {
		if f.err != nil {
			return
		}
		if c.Kind != yaml.AliasNode && len(c.Content) > 0 {
			f.acyclic(c, seen)
		}
	}
	seen[n] = done
}

// cycle is the error of a merge of a mapping into itself or into one it
// holds: only an alias leads back to a mapping being flattened. PyYAML
// reads such a file (its result depends on the order it rewrites nodes
// in, and can be a mapping that holds itself); it is refused here, as
// nothing a hook config needs.
const cycle = "a merge key (<<) merges a mapping that holds it"

// take appends mapping s's pairs, flattened, within the bound, to merged,
// m's; at is the merge key, for an error's line. The keys s gives twice
// are m's too: the file shows the first, PyYAML takes the last, and a
// reader checks only the mappings it reads.
func (f *flattener) take(m *yaml.Node, merged []*yaml.Node, at, s *yaml.Node) []*yaml.Node {
	if f.state[s] == inProgress {
		f.fail(at, cycle)
		return merged
	}
	f.flatten(s)
	if f.err != nil {
		return merged
	}
	if f.budget.left -= len(s.Content) / 2; f.budget.left < 0 {
		f.overBudget(s)
		return merged
	}
	f.merged = true
	if r := f.out.repeated[s]; len(r) > 0 {
		f.out.repeated[m] = append(f.out.repeated[m], r...)
	}
	return append(merged, s.Content...)
}

// overBudget fails at s, the mapping whose keys would pass the budget.
// The budget stays spent (below 0): a later document within it fails at
// its first merge rather than copy keys of its own.
func (f *flattener) overBudget(s *yaml.Node) {
	msg := "merge keys (<<) copy more than " + strconv.Itoa(f.budget.max) + " keys in this file; merge fewer or smaller mappings"
	if f.before > 0 {
		msg = "merge keys (<<) copy more than " + strconv.Itoa(f.budget.max) + " keys in this file and the files read with it (" +
			strconv.Itoa(f.before) + " in those read before it); merge fewer or smaller mappings"
	}
	f.fail(s, msg)
	if f.err != nil {
		f.err.Before = f.before
	}
}

// noteRepeated records each key of the pairs written in m that is written
// again, at its first repetition.
func (f *flattener) noteRepeated(m *yaml.Node, pairs []*yaml.Node) {
	seen := make(map[string]*yaml.Node, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		id, ok := keyID(pairs[i])
		if !ok {
			continue
		}
		first, dup := seen[id]
		switch {
		case first == nil && dup:
			// Reported already.
		case dup:
			f.out.repeated[m] = append(f.out.repeated[m], Repeated{First: first, Second: pairs[i]})
			seen[id] = nil
		default:
			seen[id] = pairs[i]
		}
	}
}

// hasMergeOrRepeat reports whether mapping m needs rewriting: it has a
// merge key or a key given twice. Small mappings are compared pairwise,
// without allocating; large ones through a set.
func hasMergeOrRepeat(m *yaml.Node) bool {
	c := m.Content
	for i := 0; i+1 < len(c); i += 2 {
		if isMergeKey(c[i]) || c[i].Kind == yaml.AliasNode {
			return true
		}
	}
	if len(c) <= 32 {
		for i := 0; i+1 < len(c); i += 2 {
			a, ok := keyID(c[i])
			for j := i + 2; ok && j+1 < len(c); j += 2 {
				if b, ok := keyID(c[j]); ok && a == b {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, len(c)/2)
	for i := 0; i+1 < len(c); i += 2 {
		if id, ok := keyID(c[i]); ok {
			if seen[id] {
				return true
			}
			seen[id] = true
		}
	}
	return false
}

// dedupe keeps one pair per key as a Python dict built from pairs does:
// at the place the key first appears, with the value it last has. A key
// written as an alias (*k : v) is its anchor's scalar, which readers
// compare by its text.
func dedupe(pairs []*yaml.Node) []*yaml.Node {
	at := make(map[string]int, len(pairs)/2)
	out := make([]*yaml.Node, 0, len(pairs))
	for i := 0; i+1 < len(pairs); i += 2 {
		if k := deref(pairs[i]); k.Kind == yaml.ScalarNode {
			pairs[i] = k
		}
		id, ok := keyID(pairs[i])
		if !ok {
			out = append(out, pairs[i], pairs[i+1])
			continue
		}
		if j, seen := at[id]; seen {
			out[j+1] = pairs[i+1]
			continue
		}
		at[id] = len(out)
		out = append(out, pairs[i], pairs[i+1])
	}
	return out
}

// keyID is what makes two scalar keys one key: their tag and text, so
// that command and "command" are one key and 1 and "1" are two, as for
// PyYAML. Collection keys (which safe_load refuses) are never equal.
func keyID(k *yaml.Node) (string, bool) {
	k = deref(k)
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	return k.Tag + "\x00" + k.Value, true
}

// isMergeKey reports a plain << key (a quoted one is a string).
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Tag == "!!merge"
}

// Deref is the node an alias stands for (n itself when it is none), as
// PyYAML reads an alias: its anchor's value. One step only: a value that
// holds itself stays a value, not a loop.
func Deref(n *yaml.Node) *yaml.Node { return deref(n) }

func deref(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// String is the repeated key as an error names it.
func (r Repeated) String() string {
	return fmt.Sprintf("key '%s' is given twice (lines %d and %d)", r.Second.Value, r.First.Line, r.Second.Line)
}
