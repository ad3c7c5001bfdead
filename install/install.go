// Package install edits an agent's own hook configuration file in place so
// that the agent runs `hermes-hooks hook AGENT EVENT` for every event
// hermes-hooks serves for it ([agents.HookFile]), and takes that out again.
//
// # Contract
//
//   - Nothing but our entries changes: the file is decoded keeping its
//     objects' member order and re-encoded in its own indentation, so a
//     file in JSON.stringify's layout (how Claude Code and Cursor write
//     theirs) differs only where our entries are.
//   - Install is idempotent; Uninstall removes exactly what Install added
//     (a file that Install created and that holds nothing else is removed).
//   - A file that does not parse is never written: the error names the
//     file, line and column.
//   - Writes are atomic (a temporary file renamed over the old one, its
//     mode kept) and the previous content is kept beside it as a backup
//     ([BackupSuffix]).
//
// The package knows nothing of dispatching: what an entry runs is given.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// BackupSuffix names the copy of the previous file kept on every write.
const BackupSuffix = ".hermes-hooks-backup"

// Plan is one computed edit of one agent's hook file.
type Plan struct {
	Agent *agents.Agent
	// Path is the file (symlinks resolved: the file that is written).
	Path string
	// Old is the file's content; Exists says whether it exists.
	Old    []byte
	Exists bool
	// New is the content to write; Remove says the file goes instead
	// (an uninstall that leaves nothing of a file install made).
	New    []byte
	Remove bool
	// Changed says there is something to write.
	Changed bool
}

// Make reads path and computes the edit: our entries added (command gives
// each event's command line), or removed when uninstall is set.
func Make(agent *agents.Agent, path string, command func(event string) string, uninstall bool) (*Plan, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	p := &Plan{Agent: agent, Path: path}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		p.Old, p.Exists = data, true
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, err
	}
	doc, err := parse(path, p.Old)
	if err != nil {
		return nil, err
	}
	if uninstall {
		doc, p.Changed = agent.Uninstall(doc)
	} else {
		doc, p.Changed, err = agent.Install(doc, command)
		if err != nil {
			return nil, fmt.Errorf("%s: %v; not changed", path, err)
		}
	}
	if !p.Changed {
		p.New = p.Old
		return p, nil
	}
	if uninstall && len(doc) == 0 {
		p.Remove = true
		return p, nil
	}
	if uninstall {
		if prev, ok := restorable(agent, path, p.Old, command); ok {
			// The file is what install made of the backup: give the
			// backup back, in its own layout even where ours differs.
			p.New = prev
			return p, nil
		}
	}
	p.New = encode(doc, p.Old)
	if bytes.Equal(p.New, p.Old) {
		p.Changed = false
	}
	return p, nil
}

// restorable returns the backup install kept of path when installing into
// it again gives exactly the current file.
func restorable(agent *agents.Agent, path string, current []byte, command func(string) string) ([]byte, bool) {
	prev, err := os.ReadFile(path + BackupSuffix)
	if err != nil {
		return nil, false
	}
	doc, err := parse(path, prev)
	if err != nil {
		return nil, false
	}
	doc, changed, err := agent.Install(doc, command)
	if err != nil || !changed || !bytes.Equal(encode(doc, prev), current) {
		return nil, false
	}
	return prev, true
}

// parse decodes the file as one JSON object in member order. An empty
// file is an empty object.
func parse(path string, data []byte) (pyjson.OrderedObject, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return pyjson.OrderedObject{}, nil
	}
	v, err := pyjson.DecodeOrdered(data)
	if err != nil {
		return nil, parseError(path, data, err)
	}
	obj, ok := v.(pyjson.OrderedObject)
	if !ok {
		return nil, fmt.Errorf("%s:1:1: the file is not a JSON object; not changed", path)
	}
	return obj, nil
}

// parseError places a JSON error at its line and column.
func parseError(path string, data []byte, err error) error {
	off := int64(len(data))
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var tr *pyjson.TrailingError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &tr):
		off = tr.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	msg := err.Error()
	if errors.Is(err, errors.ErrUnsupported) || strings.Contains(msg, "EOF") {
		msg = "unexpected end of the file"
	}
	return fmt.Errorf("%s:%d:%d: not valid JSON (%s); not changed", path, line, col, msg)
}

// encode writes doc in JSON.stringify's layout, re-indented with the
// unit the old file used, ending with a newline when the old one did (or
// when there was none).
func encode(doc pyjson.OrderedObject, old []byte) []byte {
	out := pyjson.Encode(doc, pyjson.JSIndent)
	if unit := indentUnit(old); unit != "" && unit != "  " {
		lines := bytes.Split(out, []byte("\n"))
		for i, l := range lines {
			n := len(l) - len(bytes.TrimLeft(l, " "))
			lines[i] = append([]byte(strings.Repeat(unit, n/2)), l[n:]...)
		}
		out = bytes.Join(lines, []byte("\n"))
	}
	if len(old) == 0 || bytes.HasSuffix(old, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

// indentUnit is the whitespace that indents the first nested line.
func indentUnit(data []byte) string {
	for _, l := range bytes.Split(data, []byte("\n"))[1:] {
		t := bytes.TrimLeft(l, " \t")
		if len(t) == len(l) || len(t) == 0 {
			continue
		}
		return string(l[:len(l)-len(t)])
	}
	return ""
}

// Apply writes the plan: the previous file is copied to path+BackupSuffix
// first, then the new content replaces it atomically (or the file is
// removed). It returns the backup's path ("" when there was no file).
func (p *Plan) Apply() (backup string, err error) {
	if !p.Changed {
		return "", nil
	}
	mode := fs.FileMode(0o644)
	if p.Exists {
		if fi, err := os.Stat(p.Path); err == nil {
			mode = fi.Mode().Perm()
		}
		backup = p.Path + BackupSuffix
		if err := writeAtomic(backup, p.Old, mode); err != nil {
			return "", fmt.Errorf("keep a backup: %w", err)
		}
	}
	if p.Remove {
		return backup, os.Remove(p.Path)
	}
	if err := os.MkdirAll(filepath.Dir(p.Path), 0o755); err != nil {
		return backup, err
	}
	return backup, writeAtomic(p.Path, p.New, mode)
}

// writeAtomic is fsutil's atomic replace (temporary file, fsync, rename,
// directory fsync), with a temporary name beside the file it replaces.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return fsutil.WriteAtomic(path, data, mode, "."+filepath.Base(path)+".*.tmp", nil)
}
