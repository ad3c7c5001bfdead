package install

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// MakeManaged is Make for agent's admin layer (agents.Managed): path is
// its managed file, which holds the administrator's other settings too.
// With only, the agent's managed-only key (OnlyKey) is set to true by
// install and, by uninstall, taken out when it is true; an agent without
// one is an error. A TOML file (Codex's requirements.toml) gets our hooks
// as one marked block of inline tables.
func MakeManaged(agent *agents.Agent, path string, command func(event string) string, uninstall, only bool) (*Plan, error) {
	m := agent.ManagedLayer()
	if m == nil {
		return nil, fmt.Errorf("%s has no managed settings that install knows", agent.Title)
	}
	if only && m.OnlyKey == "" {
		return nil, fmt.Errorf("%s has no setting that runs managed hooks only", agent.Title)
	}
	if m.TOML {
		return makeTOML(agent, path, command, uninstall, only)
	}
	ed := agentEditor(agent, command)
	if only {
		ed = onlyEditor(ed, m.OnlyKey)
	}
	ed.anyCommand = true
	// The backup stays beside the file: a system folder, no work tree,
	// and an administrator looks for it there.
	return makePlan(agent, path, "", ed, uninstall)
}

// onlyEditor is ed that also sets key to true (install) or takes it out
// where it is true (uninstall). A key set to anything else is the
// administrator's: install refuses to change it.
func onlyEditor(ed docEditor, key string) docEditor {
	return docEditor{
		add: func(doc pyjson.OrderedObject) (pyjson.OrderedObject, bool, error) {
			doc, changed, err := ed.add(doc)
			if err != nil {
				return doc, false, err
			}
			switch v, ok := doc.Get(key); {
			case !ok:
				return doc.Set(key, true), true, nil
			case v != true:
				return doc, false, fmt.Errorf("%q is %v (--managed-only sets it to true: change it by hand)", key, v)
			}
			return doc, changed, nil
		},
		remove: func(doc pyjson.OrderedObject) (pyjson.OrderedObject, bool) {
			doc, changed := ed.remove(doc)
			if v, ok := doc.Get(key); ok && v == true {
				return doc.Delete(key), true
			}
			return doc, changed
		},
	}
}

// ManagedPath is agent's managed file on this system (its drop-in file
// with dropIn) under root, the system's root ("" or "/") or a stand-in
// for it (--managed-root).
func ManagedPath(agent *agents.Agent, root string, dropIn bool) (string, error) {
	m := agent.ManagedLayer()
	if m == nil {
		return "", fmt.Errorf("%s has no managed settings that install knows", agent.Title)
	}
	if c := filepath.Clean(root); filepath.Dir(c) == c {
		root = "" // the system's own root: /, C:\
	}
	file := m.File(runtime.GOOS, dropIn)
	if file == "" {
		return "", fmt.Errorf("%s has no managed settings on %s that install knows", agent.Title, runtime.GOOS)
	}
	return filepath.Clean(filepath.FromSlash(agents.Rooted(filepath.ToSlash(root), runtime.GOOS, file))), nil
}
