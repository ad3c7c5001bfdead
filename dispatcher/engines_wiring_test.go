package dispatcher

import (
	"github.com/hermes-hooks/hermes-hooks/dispatcher/backtrack"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree/yamltree"
)

// The dispatcher's tests run with the engines every real program installs
// (package dispatcher/engines, which this package's tests cannot import:
// it imports the dispatcher). Tests of running without them save and
// restore these.
func init() {
	UseEngines(Engines{YAML: yamltree.Parse, Backtrack: backtrack.Compile})
}
