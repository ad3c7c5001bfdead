package hookconfig

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"

	"gopkg.in/yaml.v3"
)

// Keys a config does not know: reported, with the closest known key.

// nearKeys reports the keys of mapping n (at path) that are near misses of
// known ones (see nearKey): a Claude Code group or handler pasted into the
// YAML, where a key unlike any may be a newer Claude Code's.
func (cfg *Config) nearKeys(n *yaml.Node, path string, known []string) {
	for i := 0; i+1 < len(n.Content) && !cfg.manyWarnings(); i += 2 {
		k := n.Content[i].Value
		if suggest := cfg.nearKey(k, known); suggest != "" {
			cfg.warnKey(path+"."+k, path, "unknown key '"+textutil.Truncate(k, maxShown)+"' is ignored — did you mean '"+suggest+"'?")
		}
	}
}

// unknownKeys reports every key of mapping n (at path) not in known.
func (cfg *Config) unknownKeys(n *yaml.Node, path string, known []string, cutoff float64) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		cfg.unknownKey(n.Content[i], path, known, cutoff)
	}
}

// unknownKey reports key k of the mapping at path when it is not in known:
// always when cutoff is 0, else only when a known key is that close
// (suggest.ClosestCutoff).
func (cfg *Config) unknownKey(k *yaml.Node, path string, known []string, cutoff float64) {
	if slices.Contains(known, k.Value) {
		return
	}
	near := ""
	if cfg.maySearch() {
		near = suggest.ClosestCutoff(k.Value, known, max(cutoff, 0.6))
	}
	if near == "" && cutoff > 0.6 {
		return
	}
	msg := "unknown key '" + k.Value + "' is ignored"
	switch {
	case path != "" && k.Value == "rules":
		// Beside an entry's rule: the did-you-mean said rule, and
		// rule: [FILE] is no expression.
		msg += ": rules: [FILE] is a top-level key: move it out of hooks: to the left margin, beside hooks:"
	case slices.Contains(known, "mode") && (k.Value == "shadow" || k.Value == "shadow_mode"):
		// A guess at shadow mode: the did-you-mean found nothing, and
		// the entry it sits on decides real calls meanwhile.
		msg += ": shadow mode is written mode: shadow; until then the entry decides"
	case near != "":
		msg += " — did you mean '" + near + "'?"
	}
	key := k.Value
	if path != "" {
		key = path + "." + k.Value
	}
	cfg.warnKey(key, path, msg)
}
