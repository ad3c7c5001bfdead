package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// probeToken is the token of the doctor probe this process was started
// with (agents.ProbeEnv), "" when there is none it can verify. The
// variable names a file; it is a probe only when that file is doctor's
// (agents.ProbeFile in a folder named agents.ProbeDirPrefix…, the folder
// and the file this user's and nobody else's, not links) holding a short
// hex token: a variable set by a repository (an agent's settings "env", a
// committed .envrc) cannot make one, since git checks files out readable
// by everyone, and cannot name another file of the user's. Without the
// file a marker is ignored. The answer carries the token's hash, never
// the token, and a probe honoured by mistake only refuses (probeReply).
func probeToken() string {
	p := os.Getenv(agents.ProbeEnv)
	if p == "" || !filepath.IsAbs(p) || filepath.Base(p) != agents.ProbeFile ||
		!strings.HasPrefix(filepath.Base(filepath.Dir(p)), agents.ProbeDirPrefix) {
		return ""
	}
	if di, err := os.Lstat(filepath.Dir(p)); err != nil || !di.IsDir() || !privateToMe(filepath.Dir(p), di) {
		return ""
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 64 || !privateToMe(p, fi) {
		return ""
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	tok := string(bytes.TrimSpace(data))
	if len(tok) < 32 {
		return ""
	}
	for _, c := range tok {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return ""
		}
	}
	return tok
}

// probeReply is the answer to doctor's probe with tok: what proves the
// command line reached this binary, dispatching nothing and writing no
// journal record. For a gating event it is the agent's own refusal (so a
// probe can only ever block a call, never let one through); for the
// others, a line on stderr and exit 0, as a quiet hook.
func probeReply(agent *agents.Agent, call *agents.Call, tok string) agents.Reply {
	reason := agents.ProbePrefix + agents.ProbeAnswer(tok) + ": this is a test call from `hermes-hooks doctor`, refused"
	if call.Event != nil && call.Event.Gating() {
		return agent.DenyAnyCaller(call, reason)
	}
	return agents.Reply{Stderr: []byte(reason + "\n")}
}
