package consent

import (
	"bytes"
	"errors"
	"fmt"
)

// JSON keys of an allowlist entry. The first four are Hermes'; the last is
// ours and is ignored by Hermes.
const (
	keyApprovals    = "approvals"
	keyEvent        = "event"
	keyCommand      = "command"
	keyApprovedAt   = "approved_at"
	keyScriptMtime  = "script_mtime_at_approval"
	keyScriptSHA256 = "script_sha256_at_approval"
)

// File is a parsed allowlist. It is a snapshot: changing it does not change
// the file on disk; Store.Approve and Store.Revoke do that.
type File struct {
	// Approvals are the entries in file order. Elements of the JSON list
	// that are not objects are kept (so a rewrite does not drop them) but
	// never match anything.
	Approvals []Entry

	// Invalid is set when the file existed but could not be used (not
	// JSON, not an object); Approvals is then empty, as Hermes treats such
	// a file as empty.
	Invalid error

	// top holds every top-level member, so that keys other than
	// "approvals" survive a rewrite.
	top map[string]any
}

// Entry is one approval. The string fields are views of the JSON object;
// values of the wrong JSON type read as empty.
type Entry struct {
	Event   string
	Command string
	// ApprovedAt is the approval time as recorded (see FormatTimestamp).
	ApprovedAt string
	// ScriptMtimeAtApproval is the script's mtime when approved, or ""
	// when it was null or absent.
	ScriptMtimeAtApproval string
	// ScriptSHA256AtApproval is the hex SHA-256 of the script's content
	// when approved, or "" when it was null or absent (Hermes entries and
	// scripts that could not be read).
	ScriptSHA256AtApproval string

	// obj is the entry's whole JSON object as read, or as built by
	// Approve. Writing it back unchanged is what preserves unknown keys.
	obj map[string]any
	// other is a list element that is not an object (nonObject is true
	// then; other may be nil for a JSON null).
	other     any
	nonObject bool
	// valid is true when obj's event and command are both strings, the
	// minimum for an entry read from a file to match.
	valid bool
}

// Matches reports whether e approves exactly this (event, command) pair.
// Matching is byte-exact: a trailing space makes a different command.
func (e Entry) Matches(event, command string) bool {
	if e.nonObject || (e.obj != nil && !e.valid) {
		return false
	}
	return e.Event == event && e.Command == command
}

// commandIs reports whether e's command is exactly command, whatever its
// event; revocation matches this way.
func (e Entry) commandIs(command string) bool {
	switch {
	case e.nonObject:
		return false
	case e.obj != nil:
		c, ok := e.obj[keyCommand].(string)
		return ok && c == command
	default:
		return e.Command == command
	}
}

// Lookup returns the entry approving (event, command). When a hand-edited
// file holds several, the last one wins, because Approve appends and the
// newest approval is the one that describes the current script.
func (f *File) Lookup(event, command string) (Entry, bool) {
	if f == nil {
		return Entry{}, false
	}
	for i := len(f.Approvals) - 1; i >= 0; i-- {
		if f.Approvals[i].Matches(event, command) {
			return f.Approvals[i], true
		}
	}
	return Entry{}, false
}

// parseFile turns the bytes of an allowlist into a File. Content that is not
// a JSON object yields an empty File with Invalid set, never an error: a
// broken allowlist must not stop the agent, it only means nothing is
// approved.
func parseFile(data []byte) *File {
	data = bytes.TrimPrefix(data, utf8BOM)
	v, err := decodeJSON(data)
	if err != nil {
		return &File{Invalid: fmt.Errorf("not valid JSON: %w", err)}
	}
	top, ok := v.(map[string]any)
	if !ok {
		return &File{Invalid: errors.New("not a JSON object")}
	}
	f := &File{top: top}
	// A non-list "approvals" is treated as empty, like Hermes does; the
	// next rewrite replaces it with a list.
	list, _ := top[keyApprovals].([]any)
	f.Approvals = make([]Entry, 0, len(list))
	for _, item := range list {
		f.Approvals = append(f.Approvals, entryFromJSON(item))
	}
	return f
}

func entryFromJSON(item any) Entry {
	obj, ok := item.(map[string]any)
	if !ok {
		return Entry{other: item, nonObject: true}
	}
	e := Entry{obj: obj}
	var okEvent, okCommand bool
	e.Event, okEvent = obj[keyEvent].(string)
	e.Command, okCommand = obj[keyCommand].(string)
	e.valid = okEvent && okCommand
	e.ApprovedAt, _ = obj[keyApprovedAt].(string)
	e.ScriptMtimeAtApproval, _ = obj[keyScriptMtime].(string)
	e.ScriptSHA256AtApproval, _ = obj[keyScriptSHA256].(string)
	return e
}

// newEntry builds the JSON object of a fresh approval. Both script fields
// are always present (null when unknown) so that every entry we write has
// the same shape as Hermes' entries.
func newEntry(event, command, approvedAt, mtime, sha string) Entry {
	obj := map[string]any{
		keyEvent:        event,
		keyCommand:      command,
		keyApprovedAt:   approvedAt,
		keyScriptMtime:  nil,
		keyScriptSHA256: nil,
	}
	if mtime != "" {
		obj[keyScriptMtime] = mtime
	}
	if sha != "" {
		obj[keyScriptSHA256] = sha
	}
	return entryFromJSON(obj)
}

// jsonValue is the value written for e.
func (e Entry) jsonValue() any {
	switch {
	case e.obj != nil:
		return e.obj
	case e.nonObject:
		return e.other
	default:
		// An Entry built as a Go literal by a caller: write what it says.
		return newEntry(e.Event, e.Command, e.ApprovedAt, e.ScriptMtimeAtApproval, e.ScriptSHA256AtApproval).obj
	}
}

// encode renders f as the allowlist file's bytes.
func (f *File) encode() []byte {
	top := make(map[string]any, len(f.top)+1)
	for k, v := range f.top {
		top[k] = v
	}
	list := make([]any, 0, len(f.Approvals))
	for _, e := range f.Approvals {
		list = append(list, e.jsonValue())
	}
	top[keyApprovals] = list
	b := appendPyJSON(make([]byte, 0, 256+200*len(list)), top, 0)
	return append(b, '\n')
}
