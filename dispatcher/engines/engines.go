// Package engines gives package dispatcher its YAML parser (yaml.v3, through
// package yamltree) and its backtracking regex engine (dlclark/regexp2):
// import it for its side effect in every program that loads configs.
//
//	import _ "github.com/hermes-hooks/hermes-hooks/dispatcher/engines"
//
// Contract: importing it is all it takes; see dispatcher.Engines for why
// the dispatcher does not link them itself.
package engines

import (
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/backtrack"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree/yamltree"
)

func init() {
	dispatcher.UseEngines(dispatcher.Engines{YAML: yamltree.Parse, Backtrack: backtrack.Compile})
}
