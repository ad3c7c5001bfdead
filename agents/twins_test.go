package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Each argument an adapter shows under two names (its host's and Claude
// Code's) is one protocol.Fold keeps equal in a rewrite: without that, a
// rule reading one name judged a stale value while the agent was sent the
// other (a hook rewriting Factory's new_string past a rule on new_str).
func TestTwinArgumentsAreProtocolSynonyms(t *testing.T) {
	for name, pairs := range map[string][][2]string{"factory": factoryEditKeys, "kiro": kiroArgs, "cline 3 editor": clineEditorTwins, "vscode": vscodeTwins} {
		for _, p := range pairs {
			if !protocol.ArgSynonyms(p[0], p[1]) {
				t.Errorf("%s shows %s as %s too, which protocol's argSynonyms does not list", name, p[0], p[1])
			}
		}
	}
}
