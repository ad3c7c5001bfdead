package agents

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// SkipBOM is data, one of a's own files (its hook file, settings, trust
// file), as a reads it: past one leading UTF-8 byte order mark when a
// skips one (Claude Code, Codex, Qwen Code: pyjson.SkipBOM), data whole
// when a does not (NoBOM). Every reader of an agent's file asks here, so
// that doctor, install and the hook sources see the file as the agent
// does: skipping a mark the agent does not would prove hooks fire that
// the agent never runs. A nil a (a file no agent reads) skips one.
func (a *Agent) SkipBOM(data []byte) []byte {
	if a != nil && a.NoBOM {
		return data
	}
	return pyjson.SkipBOM(data)
}

// BOMError says why a refuses data, one of its files, for the byte order
// mark first in it (nil when there is none, or a reads past it): what
// install and doctor report in place of Go's "invalid character 'ï'".
func (a *Agent) BOMError(data []byte) error {
	if len(a.SkipBOM(data)) < len(data) || len(pyjson.SkipBOM(data)) == len(data) {
		return nil
	}
	return fmt.Errorf("starts with a byte order mark (U+FEFF), which %s does not read past: it reads none of the file", a.Title)
}

// ReadPastBOM is data as a reads it, or why a reads none of it: the bytes
// past a byte order mark a skips (SkipBOM), or BOMError's refusal for a
// mark a does not read past. The readers of a's JSON files (install,
// doctor, the hook sources) ask here, so that the check and the skip
// cannot drift apart.
func (a *Agent) ReadPastBOM(data []byte) ([]byte, error) {
	if err := a.BOMError(data); err != nil {
		return nil, err
	}
	return a.SkipBOM(data), nil
}
