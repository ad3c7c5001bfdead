// Package install edits an agent's own hook configuration file in place so
// that the agent runs `hermes-hooks hook AGENT EVENT` for every event
// hermes-hooks serves for it ([agents.HookFile]), and takes that out again.
//
// # Contract
//
//   - Nothing but our entries changes: every value the edit leaves alone
//     keeps its exact bytes (a compact "allow": [...] stays on its line),
//     and an object or array that changes keeps the text around its
//     members; only our entries are written anew, in JSON.stringify's
//     layout (how Claude Code and Cursor write their files) with the
//     file's own indentation unit (edit.go).
//   - Install is idempotent; Uninstall removes exactly what Install added:
//     the file install changed comes back as it was (its backup, byte for
//     byte), and a file that install created and that holds nothing else
//     is removed. Then the backup goes too, and so do the directories
//     between the file and Plan.Root that install created (Plan.OwnDirs,
//     as its caller recorded Plan.CreatedDirs) and that are left empty.
//   - A file that does not parse is never written: the error names the
//     file, line and column.
//   - Writes are atomic (a temporary file renamed over the old one, its
//     mode kept) and the previous content is kept as a backup, in the
//     state directory's [BackupsDir] (beside the file, [BackupSuffix],
//     only for an administrator's managed file), except when uninstall
//     restores or removes the file (nothing of the previous content is
//     lost then). A backup beside a project's file showed in git status,
//     and was committed with its folder.
//
// The package knows nothing of dispatching: what an entry runs is given.
package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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

// BackupSuffix names the copy of the previous file kept beside it: an
// administrator's managed file's, and an agent's hook file's as releases
// before BackupsDir kept it (uninstall still restores from such a copy).
const BackupSuffix = ".hermes-hooks-backup"

// BackupsDir is the folder of the state directory (HERMES_HOME) that holds
// install's backups of the agents' hook files: none lands in a
// repository's work tree.
func BackupsDir(state string) string { return filepath.Join(state, "install-backups") }

// backupPath is where the backup of path (its links followed) is kept in
// backups: one file per path, named after the file and a digest of its
// whole path, so that two projects' settings.json never share one; beside
// it (BackupSuffix) when backups is "".
func backupPath(backups, path string) string {
	if backups == "" {
		return path + BackupSuffix
	}
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(backups, filepath.Base(path)+"-"+hex.EncodeToString(sum[:8]))
}

// Plan is one computed edit of one agent's hook file.
type Plan struct {
	Agent *agents.Agent
	// Path is the file (symlinks resolved: the file that is written).
	Path string
	// Old is the file's content; Exists says whether it exists.
	Old    []byte
	Exists bool
	// New is the content to write; Remove says the file goes instead
	// (an uninstall that leaves nothing of a file install made; New is
	// then what is left, which KeepFile writes instead), Restored
	// that New is the backup install kept (an uninstall that gives the
	// file back as it was).
	New      []byte
	Remove   bool
	Restored bool
	// Changed says there is something to write.
	Changed bool
	// Root (optional) is the directory the file belongs to: the project
	// or the home directory. When uninstall removes the file, the
	// directories between it and Root that are left empty are removed.
	Root string
	// RemovedDirs are the directories Apply removed (left empty by an
	// uninstall that removed the file).
	RemovedDirs []string
	// CreatedDirs are the directories Apply created for the file (links
	// followed, outermost first), for the caller to record; OwnDirs, set
	// by the caller of an uninstall, those an install recorded creating:
	// the only ones removed when left empty (nil: none). An install that
	// found ~/.cursor there must not take it away on uninstall.
	CreatedDirs, OwnDirs []string
	// backup is where the previous content is kept (backupPath).
	backup string
	// Kept is why uninstall keeps a file it would have removed (Keep):
	// install did not create it, or git tracks it.
	Kept string
	// given is the path as asked for (Path has its symlinks resolved).
	given string
	// keep is KeepFile's reason, for the plan Apply computes again.
	keep string
	// remake computes the plan again from the file as it is now, for
	// Apply when the file changed since it was read (commit.go).
	remake func() (*Plan, error)
}

// Make reads path and computes the edit: our entries added (command gives
// each event's command line), or removed when uninstall is set. The
// previous content is kept in backups (BackupsDir; "": beside the file),
// where uninstall also looks for it.
func Make(agent *agents.Agent, path, backups string, command func(event string) string, uninstall bool) (*Plan, error) {
	return makePlan(agent, path, backups, agentEditor(agent, command), uninstall)
}

// docEditor is what a plan does to the decoded file: add our entries (add) or
// take them out (remove), each saying whether the document changed.
type docEditor struct {
	add    func(pyjson.OrderedObject) (pyjson.OrderedObject, bool, error)
	remove func(pyjson.OrderedObject) (pyjson.OrderedObject, bool)
	// anyCommand: uninstall restores the backup also when the file differs
	// from what install made of it only in our entries' command lines
	// (install --managed --binary named another program than uninstall runs).
	anyCommand bool
}

// agentEditor is the agent's own Install and Uninstall of its hook file.
func agentEditor(agent *agents.Agent, command func(string) string) docEditor {
	return docEditor{
		add: func(doc pyjson.OrderedObject) (pyjson.OrderedObject, bool, error) {
			return agent.InstallEnv(doc, command, os.LookupEnv)
		},
		remove: agent.Uninstall,
	}
}

// makePlan is Make for a docEditor.
func makePlan(agent *agents.Agent, path, backups string, ed docEditor, uninstall bool) (*Plan, error) {
	if agent.HookFile.Layout == agents.Scripts {
		return nil, fmt.Errorf("%s: %s's hooks are a folder of scripts (MakeScripts), not a file", path, agent.Title)
	}
	given := path
	path = resolve(path)
	p := &Plan{Agent: agent, Path: path, given: given, backup: backupPath(backups, path),
		remake: func() (*Plan, error) { return makePlan(agent, given, backups, ed, uninstall) }}
	data, err := readBounded(path)
	switch {
	case err == nil:
		p.Old, p.Exists = data, true
	case errors.Is(err, fs.ErrNotExist):
	case given != path:
		return nil, fmt.Errorf("%s: %w", given, err) // the path asked for, then where it led
	default:
		return nil, err
	}
	doc, err := parse(agent, path, p.Old)
	if err != nil {
		return nil, err
	}
	if uninstall {
		doc, p.Changed = ed.remove(doc)
	} else {
		doc, p.Changed, err = ed.add(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %v; not changed", path, err)
		}
	}
	if !p.Changed {
		p.New = p.Old
		return p, nil
	}
	if uninstall {
		if prev, ok := restorable(agent, path, p.backup, p.Old, ed); ok {
			// The file is what install made of the backup: give the
			// backup back, in its own layout even where ours differs.
			// A backup with nothing in it was a file with nothing in
			// it: it goes, as a file install made does.
			p.New, p.Restored = prev, true
			p.Remove = len(bytes.TrimSpace(prev)) == 0
			return p, nil
		}
		if len(doc) == 0 {
			// New is what is left, which KeepFile writes instead of
			// removing the file.
			p.New, p.Remove = edit(doc, p.Old), true
			return p, nil
		}
	}
	p.New = edit(doc, p.Old)
	if bytes.Equal(p.New, p.Old) {
		p.Changed = false
	}
	return p, nil
}

// restorable returns the backup install kept of path (at backup, else
// beside it, where earlier releases kept it) when installing into it again
// gives exactly the current file.
func restorable(agent *agents.Agent, path, backup string, current []byte, ed docEditor) ([]byte, bool) {
	prev, err := readBounded(backup)
	if errors.Is(err, fs.ErrNotExist) && backup != path+BackupSuffix {
		prev, err = readBounded(path + BackupSuffix)
	}
	if err != nil {
		return nil, false
	}
	doc, err := parse(agent, path, prev)
	if err != nil {
		return nil, false
	}
	if _, had := ed.remove(cloneDoc(agent, path, prev)); had {
		// The backup of a second install that changed our entries (an
		// upgrade, --absolute then not): installing into it gives the
		// file, but it holds our older entries; it is no file from
		// before install.
		return nil, false
	}
	doc, changed, err := ed.add(doc)
	if err != nil || !changed {
		return nil, false
	}
	made := edit(doc, prev)
	if bytes.Equal(made, current) {
		return prev, true
	}
	if ed.anyCommand && bytes.Equal(withoutOurs(agent, path, made, ed), withoutOurs(agent, path, current, ed)) {
		return prev, true
	}
	return nil, false
}

// cloneDoc is data parsed once more, for an editor that may change the
// document it is given (nil when it does not parse).
func cloneDoc(agent *agents.Agent, path string, data []byte) pyjson.OrderedObject {
	doc, _ := parse(agent, path, data)
	return doc
}

// withoutOurs is data with our entries taken out (nil when it does not
// parse).
func withoutOurs(agent *agents.Agent, path string, data []byte, ed docEditor) []byte {
	doc, err := parse(agent, path, data)
	if err != nil {
		return nil
	}
	doc, _ = ed.remove(doc)
	return edit(doc, data)
}

// parse decodes the file as one JSON object in member order, refusing a
// key it holds twice (duplicateKey). An empty file is an empty object.
func parse(agent *agents.Agent, path string, data []byte) (pyjson.OrderedObject, error) {
	obj, err := decodeObject(agent, path, data)
	if err == nil {
		err = duplicateKey(agent, path, data)
	}
	if err != nil {
		return nil, err
	}
	return obj, nil
}

// decodeObject is parse without the check of duplicate keys: for HasOwn,
// so that doctor and uninstall --all still find such a file and say why
// they cannot read it.
func decodeObject(agent *agents.Agent, path string, data []byte) (pyjson.OrderedObject, error) {
	// Past a byte order mark when the agent reads the file so (and so a
	// file that is only one is an empty file), errors placed after it; a
	// mark the agent refuses is refused (agents.Agent.ReadPastBOM).
	data, err := agent.ReadPastBOM(data)
	if err != nil {
		return nil, fmt.Errorf("%s:1:1: not valid JSON (%v); save it as UTF-8 without the mark; not changed", path, err)
	}
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

// duplicateKey refuses an object that holds a key twice, at any depth.
// The agents read their files with JSON.parse (or Python's json, or
// serde, which refuses them), where the last one wins; install, uninstall
// and doctor read the first. A file with "hooks" twice would get our
// entries where the agent never looks, and doctor would prove they fire.
func duplicateKey(agent *agents.Agent, path string, data []byte) error {
	data = agent.SkipBOM(data) // as decodeObject reads it
	root, err := scan(data)
	if err != nil {
		return nil // not strict JSON to the scanner: edit writes it whole
	}
	var walk func(n *node) *member
	walk = func(n *node) *member {
		seen := make(map[string]bool, len(n.members))
		for i := range n.members {
			m := &n.members[i]
			if seen[m.key] {
				return m
			}
			seen[m.key] = true
		}
		for _, m := range n.members {
			if d := walk(m.val); d != nil {
				return d
			}
		}
		for _, el := range n.elems {
			if d := walk(el); d != nil {
				return d
			}
		}
		return nil
	}
	d := walk(root)
	if d == nil {
		return nil
	}
	before := data[:d.keyStart]
	line := bytes.Count(before, []byte("\n")) + 1
	col := d.keyStart - bytes.LastIndexByte(before, '\n')
	return fmt.Errorf("%s:%d:%d: duplicate key %q (the agent reads only the last one); not changed", path, line, col, d.key)
}

// parseError places a JSON error at its line and column.
func parseError(path string, data []byte, err error) error {
	off := int64(len(data))
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var tr *pyjson.TrailingError
	var de *pyjson.DepthError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &tr):
		off = tr.Offset
	case errors.As(err, &de):
		off = de.Offset
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

// apply writes the plan: the previous file is copied to its backup
// (backupPath) first, then the new content replaces it atomically, unless
// the file is no longer what the plan read (errChanged: Apply computes it
// again). It returns the backup's path ("" when none is kept). An
// uninstall that restores the file as it was before install, or removes
// it, keeps no backup and removes the one install kept, then the
// directories of OwnDirs it leaves empty up to Root (see
// Plan.RemovedDirs).
func (p *Plan) apply() (backup string, err error) {
	if err := p.unchanged(); err != nil {
		return "", err
	}
	mode := fs.FileMode(0o644)
	if p.Exists {
		if fi, err := os.Stat(p.Path); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	if p.Remove || p.Restored {
		return "", p.undo(mode)
	}
	if p.Exists {
		backup = p.backupFile()
		bmode := mode
		if backup != p.Path+BackupSuffix {
			// The state directory's: private, as the settings it copies
			// may hold a token.
			if err := os.MkdirAll(filepath.Dir(backup), 0o700); err != nil {
				return "", fmt.Errorf("keep a backup: %w", err)
			}
			bmode = 0o600
		}
		if err := writeAtomic(backup, p.Old, bmode); err != nil {
			return "", fmt.Errorf("keep a backup: %w", err)
		}
	}
	return backup, p.replace(p.New, mode)
}

// undo is Apply for an uninstall that leaves the file as it was before
// install, or no file.
func (p *Plan) undo(mode fs.FileMode) error {
	if p.Remove {
		if err := p.unchanged(); err != nil {
			return err
		}
		if err := os.Remove(p.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	} else if err := p.replace(p.New, mode); err != nil {
		return err
	}
	// The backup kept, and one an earlier release kept beside the file.
	for _, b := range []string{p.backupFile(), p.Path + BackupSuffix} {
		if err := os.Remove(b); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the backup: %w", err)
		}
	}
	if p.Remove {
		p.RemovedDirs = removeEmptyDirs(filepath.Dir(p.given), p.Root, p.OwnDirs)
	}
	return nil
}

// backupFile is where the plan keeps the previous content: backupPath's,
// or beside the file for a plan made without one (Hermes' config.yaml, a
// managed TOML file).
func (p *Plan) backupFile() string {
	if p.backup == "" {
		return p.Path + BackupSuffix
	}
	return p.backup
}

// writeAtomic is fsutil's atomic replace (temporary file, fsync, rename,
// directory fsync), with a temporary name beside the file it replaces.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return fsutil.WriteAtomic(path, data, mode, "."+filepath.Base(path)+".*.tmp", nil)
}

// KeepFile says the file must stay (why: MayRemove's reason): a plan that
// would remove it keeps it instead, holding what is left without our
// entries, and says why (Kept). Apply keeps to it when it computes the
// plan again.
func (p *Plan) KeepFile(why string) {
	p.keep = why
	if !p.Remove {
		return
	}
	p.Remove, p.Kept = false, why
	p.Changed = !bytes.Equal(p.New, p.Old)
	if p.Restored && !p.Changed {
		p.Restored = false
	}
}
