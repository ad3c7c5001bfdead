package consent

import (
	"errors"
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// JSON keys of the allowlist. approvals and the first four entry keys are
// Hermes'; the rest are ours, and Hermes ignores (and keeps) them.
const (
	keyApprovals    = "approvals"
	keyEvent        = "event"
	keyCommand      = "command"
	keyApprovedAt   = "approved_at"
	keyScriptMtime  = "script_mtime_at_approval"
	keyScriptSHA256 = "script_sha256_at_approval"
	// keyFiles lists every file the command runs, each with its digest.
	keyFiles = "files_at_approval"
	// keyTextOnly marks an approval of a command whose files could not be
	// determined: it is approved by its text alone.
	keyTextOnly = "approved_by_text"
	// keyTextOnlyAck marks a by-text approval given knowingly (approve
	// --text-only): only then may a fail_closed guard run on it.
	keyTextOnlyAck = "text_only_acknowledged"
	// keySpecSHA256 pins the definition of a hook that starts no local
	// file (Target.Spec: an http hook's URL, headers and allowedEnvVars).
	keySpecSHA256 = "spec_sha256_at_approval"
	// keyRuleID is a repository rule's id: at approval (project approvals
	// only): a rule of that id that changed is "changed since approval"
	// (File.ruleApproval), not a new hook nobody approved.
	keyRuleID = "rule_id"
	// keyProjectApprovals is a top-level list of approvals that belong to
	// one project: a hook from a repository's own hooks or settings file.
	// They live apart from Hermes' list so that Hermes, which keys
	// approvals by (event, command) only, never reads them as approvals of
	// its own global hooks.
	keyProjectApprovals = "project_approvals"
	keyProject          = "project_root"
	keySource           = "source"
	keyPath             = "path"
	keySHA256           = "sha256"
)

// File is a parsed allowlist. It is a snapshot: changing it does not change
// the file on disk; Store.Approve and Store.Revoke do that.
type File struct {
	// Approvals are the entries in file order. Elements of the JSON list
	// that are not objects are kept (so a rewrite does not drop them) but
	// never match anything.
	Approvals []Entry
	// Projects are the project-scoped approvals (see Scope), in file order.
	Projects []Entry

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
	// ApprovedAt is the approval time as recorded (Hermes' format: UTC,
	// ISO-8601 with a "Z" suffix).
	ApprovedAt string
	// ScriptMtimeAtApproval is the script's mtime when approved, or ""
	// when it was null or absent.
	ScriptMtimeAtApproval string
	// ScriptSHA256AtApproval is the hex SHA-256 of the script's content
	// when approved, or "" when it was null or absent (Hermes entries and
	// scripts that could not be read).
	ScriptSHA256AtApproval string
	// Files are every file the command ran when approved, with digests;
	// nil for entries written by Hermes, by hand, or by versions of
	// hermes-hooks that pinned only the primary script.
	Files []FileRecord
	// TextOnly: the command's files could not be determined; the approval
	// covers its text only.
	TextOnly bool
	// TextOnlyAck: the approval by text only was given knowingly
	// (approve --text-only). A fail_closed guard approved by its text only
	// without it blocks instead of running: it could be running anything.
	TextOnlyAck bool
	// SpecSHA256 is the hex SHA-256 of the hook's Target.Spec when
	// approved, or "" when it had none.
	SpecSHA256 string
	// RuleID is the id of the repository rule approved ("" for anything
	// else; see Request.RuleID).
	RuleID string
	// Scope is where the approved hook came from (zero for global hooks).
	Scope Scope
	// Repo lets a project approval hold in other checkouts of its
	// repository (portable.go); zero when it may not.
	Repo RepoLink

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

// FileRecord is one file of an approval: its absolute path and its hex
// SHA-256 ("" when the file did not exist).
type FileRecord struct {
	Path   string
	SHA256 string
	// InRepo is the path relative to the worktree's root of a linked
	// approval (Entry.Repo), for a file inside it; "" otherwise.
	InRepo string
}

// Scope is where a hook came from. The zero Scope is the global config,
// whose approvals Hermes shares and keys by (event, command). A hook from a
// repository — its .hermes/hooks.yaml, or its Claude or agent settings — is
// approved together with that file and the project's root, so the same
// command text in another repository is a different hook that nobody
// approved.
type Scope struct {
	// Project is the project's root directory (absolute).
	Project string
	// Source is the file the hook came from (absolute).
	Source string
	// Bundle is the directory of the installed bundle the hook came from
	// (Source is then its config fragment): such a hook is approved by
	// the bundle's signature, never by the allowlist (bundle.go).
	Bundle string
	// Managed marks a hook of the managed layer (the system config an
	// administrator deploys, hookconfig's ManagedLayer): it is approved by
	// being in that root-owned file, so no allowlist entry, accept channel
	// or safe mode decides it (Policy.Decide). Never read from or written
	// to the allowlist.
	Managed bool
}

// Global reports the global scope.
func (s Scope) Global() bool { return s.Project == "" }

// matchesIn reports whether e approves (event, command) in scope.
// Matching is byte-exact: a trailing space makes a different command.
func (e Entry) matchesIn(event, command string, scope Scope) bool {
	if e.nonObject || (e.obj != nil && !e.valid) {
		return false
	}
	return e.Event == event && e.Command == command && e.Scope == scope
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

// Lookup returns the global entry approving (event, command). When a
// hand-edited file holds several, the last one wins, because Approve
// appends and the newest approval is the one that describes the current
// script.
func (f *File) Lookup(event, command string) (Entry, bool) {
	return f.LookupIn(event, command, Scope{})
}

// LookupIn returns the entry approving (event, command) in scope: a global
// hook is approved only by a global entry, a project's hook only by an
// entry of that project and source file.
func (f *File) LookupIn(event, command string, scope Scope) (Entry, bool) {
	if f == nil {
		return Entry{}, false
	}
	list := f.Approvals
	if !scope.Global() {
		list = f.Projects
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].matchesIn(event, command, scope) {
			return list[i], true
		}
	}
	return Entry{}, false
}

// list returns the list entries of scope live in.
func (f *File) list(scope Scope) *[]Entry {
	if scope.Global() {
		return &f.Approvals
	}
	return &f.Projects
}

// parseFile turns the bytes of an allowlist into a File. Content that is not
// a JSON object yields an empty File with Invalid set, never an error: a
// broken allowlist must not stop the agent, it only means nothing is
// approved.
func parseFile(data []byte) *File {
	// Some editors on Windows save JSON with a byte order mark, which
	// Go's parser (and Python's json) would otherwise reject.
	data = pyjson.SkipBOM(data)
	v, err := pyjson.Decode(data)
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
		e := entryFromJSON(item)
		// A global entry never carries a scope, whatever a hand edit put
		// in it: scoped approvals live in their own list.
		e.Scope = Scope{}
		f.Approvals = append(f.Approvals, e)
	}
	if plist, ok := top[keyProjectApprovals].([]any); ok {
		for _, item := range plist {
			e := entryFromJSON(item)
			if e.Scope.Global() {
				// A project entry without its project cannot approve
				// anything (and must not approve global hooks).
				e.valid = false
			}
			f.Projects = append(f.Projects, e)
		}
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
	e.TextOnly, _ = obj[keyTextOnly].(bool)
	e.TextOnlyAck, _ = obj[keyTextOnlyAck].(bool)
	if v, present := obj[keySpecSHA256]; present && v != nil {
		if e.SpecSHA256, _ = v.(string); e.SpecSHA256 == "" {
			// Present but not a digest: it pins something nobody can
			// match, rather than nothing.
			e.SpecSHA256 = "\x00invalid"
		}
	}
	e.Scope.Project, _ = obj[keyProject].(string)
	e.Scope.Source, _ = obj[keySource].(string)
	e.RuleID, _ = obj[keyRuleID].(string)
	if list, ok := obj[keyFiles].([]any); ok {
		e.Files = make([]FileRecord, 0, len(list))
		for _, item := range list {
			m, _ := item.(map[string]any)
			path, _ := m[keyPath].(string)
			sum, _ := m[keySHA256].(string)
			if path == "" {
				// A malformed record pins nothing: the approval no longer
				// describes what the command runs.
				e.Files = append(e.Files, FileRecord{Path: "\x00invalid"})
				continue
			}
			rec := FileRecord{Path: path, SHA256: sum}
			if v, present := m[keyInRepo]; present {
				if rec.InRepo, _ = v.(string); !localRel(rec.InRepo) {
					rec.InRepo = "\x00invalid"
				}
			}
			e.Files = append(e.Files, rec)
		}
	}
	e.Repo = repoLinkFromJSON(obj[keyRepository], e.Files)
	return e
}

// repoLinkFromJSON reads an entry's repository link. Anything malformed —
// in it or in a file's path inside the worktree — leaves the approval
// unlinked: it then holds only where it was given.
func repoLinkFromJSON(v any, files []FileRecord) RepoLink {
	m, ok := v.(map[string]any)
	if !ok {
		return RepoLink{}
	}
	var l RepoLink
	ids, _ := m[keyRepoIDs].([]any)
	for _, id := range ids {
		s, ok := id.(string)
		if !ok || s == "" {
			return RepoLink{}
		}
		l.IDs = append(l.IDs, s)
	}
	l.Source, _ = m[keyRepoSource].(string)
	l.SourceSHA256, _ = m[keyRepoSourceSH].(string)
	l.Project, _ = m[keyRepoProject].(string)
	if !localRel(l.Source) || !localRel(l.Project) || l.SourceSHA256 == "" {
		return RepoLink{}
	}
	for _, f := range files {
		if f.InRepo != "" && !localRel(f.InRepo) {
			return RepoLink{}
		}
	}
	return l
}

// newEntry builds the JSON object of an approval from e's fields: Hermes'
// fields — both script fields always present (null when unknown), so that
// every entry we write has the shape of Hermes' entries — and our
// extensions: the scope (project entries), every file the command runs
// with its digest, the text-only mark and the digest of its Spec.
func newEntry(e Entry) Entry {
	obj := map[string]any{
		keyEvent:        e.Event,
		keyCommand:      e.Command,
		keyApprovedAt:   e.ApprovedAt,
		keyScriptMtime:  nil,
		keyScriptSHA256: nil,
	}
	if e.ScriptMtimeAtApproval != "" {
		obj[keyScriptMtime] = e.ScriptMtimeAtApproval
	}
	if e.ScriptSHA256AtApproval != "" {
		obj[keyScriptSHA256] = e.ScriptSHA256AtApproval
	}
	if e.Files != nil {
		list := make([]any, 0, len(e.Files))
		for _, f := range e.Files {
			rec := map[string]any{keyPath: f.Path, keySHA256: nil}
			if f.SHA256 != "" {
				rec[keySHA256] = f.SHA256
			}
			if f.InRepo != "" && e.Repo.Linked() {
				rec[keyInRepo] = f.InRepo
			}
			list = append(list, rec)
		}
		obj[keyFiles] = list
	}
	if e.TextOnly {
		obj[keyTextOnly] = true
	}
	if e.TextOnlyAck {
		obj[keyTextOnlyAck] = true
	}
	if e.SpecSHA256 != "" {
		obj[keySpecSHA256] = e.SpecSHA256
	}
	if !e.Scope.Global() {
		obj[keyProject] = e.Scope.Project
		obj[keySource] = e.Scope.Source
		if e.RuleID != "" {
			obj[keyRuleID] = e.RuleID
		}
		if e.Repo.Linked() {
			ids := make([]any, len(e.Repo.IDs))
			for i, id := range e.Repo.IDs {
				ids[i] = id
			}
			obj[keyRepository] = map[string]any{
				keyRepoIDs: ids, keyRepoSource: e.Repo.Source, keyRepoSourceSH: e.Repo.SourceSHA256, keyRepoProject: e.Repo.Project,
			}
		}
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
		return newEntry(e).obj
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
	if len(f.Projects) > 0 {
		plist := make([]any, 0, len(f.Projects))
		for _, e := range f.Projects {
			plist = append(plist, e.jsonValue())
		}
		top[keyProjectApprovals] = plist
	} else if _, had := f.top[keyProjectApprovals]; had {
		top[keyProjectApprovals] = []any{}
	}
	b := pyjson.Append(make([]byte, 0, 256+200*len(list)), top, pyjson.PythonFile)
	return append(b, '\n')
}
