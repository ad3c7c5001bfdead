package protocol

import "reflect"

// One tool argument can reach the hooks under two names: an adapter whose
// host names a file tool's arguments its own way (Factory Droid's and Kiro's
// old_str, new_str, change_all, path, file_text; cline 3's editor its
// old_text, new_text) adds Claude Code's names
// beside them (old_string, new_string, replace_all, file_path, content), so
// that a hook or rule written for either reads the call. A rewrite then
// must say one thing under both: a hook that rewrites new_string leaves a
// stale new_str beside it, and the rules that judge the rewritten call
// again would read the stale one while the agent is sent the other (the
// encoder writes Claude Code's value back under the host's name). Fold
// keeps the two names of each such argument equal in every rewrite.

// argSynonyms are the pairs of names one argument goes by: the host's,
// then Claude Code's.
var argSynonyms = [...][2]string{
	{"old_str", "old_string"}, {"new_str", "new_string"}, {"change_all", "replace_all"},
	{"path", "file_path"}, {"file_text", "content"},
	{"old_text", "old_string"}, {"new_text", "new_string"},
	{"filePath", "file_path"}, {"oldString", "old_string"}, {"newString", "new_string"},
	// apply_patch's envelope as its "input" (Copilot CLI, Factory Droid,
	// VS Code), shown as Hermes' patch mode's "patch".
	{"input", "patch"},
}

// ArgSynonyms says whether a and b, in that order, are the host's and
// Claude Code's names of one argument: what an adapter may show twice.
func ArgSynonyms(a, b string) bool {
	for _, p := range argSynonyms {
		if p == [2]string{a, b} {
			return true
		}
	}
	return false
}

// sentTwice are the pairs of argSynonyms the host's arguments hold both
// names of, with one value: an adapter's twins. A host that sent two
// different values under the two names sent two arguments, left alone;
// so did one that sent "" as both an input and a patch (an MCP tool's two
// blank parameters). A file tool's "" (Droid's new_str when it deletes
// text) is one argument shown twice like any other value: left out, a
// hook's rewrite of one name was not given to the other.
func sentTwice(sent map[string]any) [][2]string {
	var pairs [][2]string
	for _, p := range argSynonyms {
		a, okA := sent[p[0]]
		b, okB := sent[p[1]]
		if okA && okB && reflect.DeepEqual(a, b) && (a != "" || p != [2]string{"input", "patch"}) {
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// syncTwins makes next, the arguments after one hook's rewrite (written:
// what it wrote, a merge or its whole input; next a map of its own), give
// each pair one value. The name the hook wrote, or the one of the two it
// changed from what it was shown (sent: every hook is shown the call as
// sent), gives its value to the other; where it changed both apart, Claude
// Code's name wins, as the encoders send it. A pair the hook did not write
// keeps what earlier rewrites made of it.
func syncTwins(pairs [][2]string, sent, written, next map[string]any) {
	for _, p := range pairs {
		host, wroteHost := written[p[0]]
		claude, wroteClaude := written[p[1]]
		switch {
		case wroteHost && !wroteClaude:
			next[p[1]] = host
		case wroteClaude && !wroteHost:
			next[p[0]] = claude
		case !wroteHost || reflect.DeepEqual(host, claude):
		case !reflect.DeepEqual(host, sent[p[0]]) && reflect.DeepEqual(claude, sent[p[1]]):
			next[p[1]] = host
		default:
			next[p[0]] = claude
		}
	}
}
