package hookconfig

import (
	"errors"
	"fmt"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"
)

// Merge keys and keys given twice in a Hermes YAML config.
//
// The document is flattened once after parsing (pyyaml.Flatten): merge
// keys are resolved and of a key given twice the last value is kept, as
// PyYAML (Hermes) reads them, so every reader below sees Hermes' mapping.
// A key given twice in a mapping hermes-hooks reads is still an error: a
// reviewer of the file sees two values, and which one decides is a
// reader's choice (yaml.v3's first-match readers and many tools take the
// first); a guard must mean what the file plainly says.

// flattenYAML resolves root's merge keys within the load's budget
// (its share); a merge PyYAML refuses (so Hermes cannot load the file
// either), or one past the budget, is the file's error, at its line.
func (cfg *Config) flattenYAML(root *yaml.Node, path string) error {
	flat, err := pyyaml.FlattenWithin(root, cfg.shared().merges)
	cfg.flat = flat
	var me *pyyaml.MergeError
	if errors.As(err, &me) {
		msg := me.Msg
		if me.Before > 0 {
			msg = fmt.Sprintf("merge keys (<<) copy more than %d keys in this file together with the files loaded before it (%d in those): "+
				"a config and the rule files it includes share one budget; merge fewer or smaller mappings", pyyaml.DefaultMaxMergedKeys, me.Before)
		}
		return &ConfigError{Path: path, Line: me.Node.Line, Column: me.Node.Column, Err: errors.New(msg)}
	}
	return err
}

// keysOnce reports whether mapping n (at path: "" for the top level) has
// no key given twice; one given twice is the file's load error, naming
// both lines. only, when not nil, limits the check to those keys (the top
// level, whose other keys are the agent's).
func (cfg *Config) keysOnce(n *yaml.Node, path string, only []string) bool {
	for _, r := range cfg.flat.Repeated(n) {
		if only != nil && !slices.Contains(only, r.Second.Value) {
			continue
		}
		at := ""
		if path != "" {
			at = path + ": "
		}
		cfg.loadFail(&ConfigError{Path: cfg.Path, Line: r.Second.Line, Column: r.Second.Column,
			Err: errors.New(at + r.String() + "; keep one (Hermes reads the last, other readers the first)")})
		return false
	}
	return true
}

// aliasedList counts the entries list val brings when it is written as an
// alias (written), and reports whether the file is still within
// maxAliasedEntries; past it, that is the file's load error.
func (cfg *Config) aliasedList(written, val *yaml.Node, path string) bool {
	if written.Kind != yaml.AliasNode || val.Kind != yaml.SequenceNode {
		return true
	}
	if cfg.aliased += len(val.Content); cfg.aliased <= maxAliasedEntries {
		return true
	}
	if cfg.loadErr == nil {
		cfg.loadErr = &ConfigError{Path: cfg.Path, Line: written.Line, Column: written.Column,
			Err: fmt.Errorf("%s: lists written as aliases bring more than %d entries in this file; write the entries out", path, maxAliasedEntries)}
	}
	return false
}
