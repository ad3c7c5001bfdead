package agents

import (
	"bytes"
	"fmt"

	"github.com/pelletier/go-toml/v2"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// ParsedFile is one of a's own settings files decoded once, as a reads it
// (past a byte order mark it skips: SkipBOM). Codex's config.toml is at
// once its trust file, the user's switch layer, and where
// project_root_markers and [hooks.state] are kept: doctor asks all of
// those of one install, and parsed the file for each (up to four times;
// go-toml takes seconds over a 4 MiB file of many tables). Parse it once
// and hand the ParsedFile to each. The zero ParsedFile is an absent file,
// or one that sets nothing the agent reads (not a document of its kind).
type ParsedFile struct {
	doc map[string]any
	// refused: the file is there but not a document of its kind (Codex
	// refuses to start on a config.toml that is no TOML).
	refused bool
}

// Parse decodes data, one of a's switch files (for Codex also its trust
// file), for SwitchesIn, RootMarkersIn and EntriesOffIn. nil data: the
// file is absent. An agent without switch files reads nothing here.
//
// Gemini CLI's and Qwen Code's strings are expanded as in an environment
// that sets nothing (${NAME:-DEFAULT} is DEFAULT): ParseLayerEnv reads
// with the agent's.
func (a *Agent) Parse(data []byte) ParsedFile {
	p, _ := a.parse(data, nil) // nothing set: no text grows
	return p
}

// ParseLayerEnv is Parse for f, one of a's switch files, with lookup the
// agent's environment, for an agent that expands variables in its
// settings' strings (Gemini CLI, Qwen Code; nil lookup: none is set). A
// project's layer is a repository's to write, and refused (with why) when
// it is larger than a's reader takes in bounded time (maxLayerMarks for
// TOML).
func (a *Agent) ParseLayerEnv(f SwitchFile, data []byte, lookup func(string) (string, bool)) (ParsedFile, error) {
	r, ok := switchRules[a.Name]
	if ok && !f.User && r.bound != nil && data != nil {
		if err := r.bound(a.SkipBOM(data)); err != nil {
			return ParsedFile{}, err
		}
	}
	return a.parse(data, lookup)
}

// parse is Parse with lookup the agent's environment; its error: the
// file expands past maxExpanded.
func (a *Agent) parse(data []byte, lookup func(string) (string, bool)) (ParsedFile, error) {
	r, ok := switchRules[a.Name]
	if !ok || data == nil {
		return ParsedFile{}, nil
	}
	decoded := r.decode(a.SkipBOM(data))
	doc, err := r.expanded(decoded, lookup)
	if err != nil {
		return ParsedFile{}, err
	}
	return ParsedFile{doc: doc, refused: decoded == nil}, nil
}

// expanded is doc, a decoded switch file, with its strings expanded as
// the agent expands them (r.expand; lookup its environment), doc itself
// for an agent that expands nothing; the error: doc would expand past
// maxExpanded. parse reads the switch files so, and ownOff a hook file
// that is also one of them.
func (r switchRule) expanded(doc map[string]any, lookup func(string) (string, bool)) (map[string]any, error) {
	if r.expand == nil || doc == nil {
		return doc, nil
	}
	budget := maxExpanded
	v, err := r.expand().expandEnv(doc, lookup, &budget)
	if err != nil {
		return nil, err
	}
	out, _ := v.(map[string]any)
	return out, nil
}

// decodeJSON is a JSON settings file's object as Node's JSON.parse reads
// it (pyjson.ParseNode: numbers of any size, any depth, a key given twice
// its last value); nil when it is not one: Claude Code skips such a file.
// encoding/json refused 1e400, and nesting past 10,000, under a key Claude
// Code ignores, and doctor read no switch in a file that turned every hook
// off.
func decodeJSON(data []byte) map[string]any {
	doc, _ := pyjson.ParseNode(data)
	obj, _ := doc.(map[string]any)
	return obj
}

// decodeJSONC is decodeJSON after the comments are blanked as Gemini CLI
// and Qwen Code blank them (strip-json-comments, pyjson.StripComments).
func decodeJSONC(data []byte) map[string]any {
	return decodeJSON(pyjson.StripComments(data))
}

// decodeTOML is a TOML file's tables and keys (nil when it is not TOML:
// Codex refuses to start on it; an empty file is an empty table).
func decodeTOML(data []byte) map[string]any {
	doc := map[string]any{}
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	return doc
}

// maxLayerMarks bounds the keys and tables of a repository's TOML layer.
// go-toml tracks every table, key and inline element it has seen in one
// list and searches it whole for each new one, so its parse grows with
// the square of their number: a 4 MiB layer of small tables ([t1] a=1
// [t2] …) held doctor for minutes. Each of those needs one of '[', '{',
// '=' or '.' of its own, so counting the bytes bounds them in one pass; a
// project's config.toml holds tens. Measured: BENCHMARKS.md, hostile input.
const maxLayerMarks = 10000

// boundTOML refuses data with more than maxLayerMarks of the bytes that
// open a key or table (quoted text counted too: an over-count only).
func boundTOML(data []byte) error {
	n := 0
	for _, c := range []byte("[{=.") {
		n += bytes.Count(data, []byte{c})
	}
	if n > maxLayerMarks {
		return fmt.Errorf("more keys and tables than doctor reads in a repository's file: %d of '[', '{', '=' and '.', at most %d", n, maxLayerMarks)
	}
	return nil
}
