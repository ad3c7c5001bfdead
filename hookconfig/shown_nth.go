package hookconfig

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// numberShown tells apart the entries of one scope whose URLs differ only
// in what ShownURL redacts (?policy=a and ?policy=b both show as
// ?policy=xxxxx): the second URL that shows so is listed, approved,
// revoked and journaled as TEXT [2], the third as TEXT [3]. Without it they
// share the allowlist's key (event, text, scope), so approving one wrote
// over the other's approval and both could never be approved, and
// `approve TEXT` picked one the person could not tell from the other. The
// first keeps its text, so a hook added later never renames one already
// approved; numbering is per scope (the key's), so a repository's hooks
// never renumber the user's. The number is no digest of the URL: a short
// one would let a low-entropy secret be guessed from what is shown.
func numberShown(entries []*Entry) {
	type shownIn struct {
		text  string
		scope consent.Scope
	}
	var urls map[shownIn][]string
	for _, e := range entries {
		switch e.Spec.(type) {
		case *HTTPSpec, *OPASpec:
		default:
			continue
		}
		if urls == nil {
			urls = map[shownIn][]string{}
		}
		shown := shownIn{e.Text(), e.Scope}
		key := e.SameKey()
		i := slices.Index(urls[shown], key)
		if i < 0 {
			i = len(urls[shown])
			urls[shown] = append(urls[shown], key)
		}
		e.shownNth = i + 1
	}
}
