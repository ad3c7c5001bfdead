package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// Installation is a record of the registry with what is there now.
type Installation struct {
	Record
	// Stale says why the file no longer holds what install wrote ("" when
	// it does): it is gone, or it was edited by hand and holds no entry of
	// hermes-hooks. uninstall --all drops the record and touches nothing.
	Stale string `json:"stale,omitempty"`
	// Misplaced says why the record cannot be one install made ("" when
	// it can): its path is not where install writes for its agent and
	// root (a registry edited by hand, or by someone else). uninstall
	// --all refuses it.
	Misplaced string `json:"misplaced,omitempty"`
}

// Stale reasons.
const (
	StaleGone   = "stale: edited by hand or removed (the file is gone)"
	StaleEdited = "stale: edited by hand or removed (no entry of hermes-hooks is left in it)"
)

// Installations lists every installation the registry of the state
// directory (HERMES_HOME) records, each checked against the file as it is
// now; home is the user's home directory. For doctor, which reads what
// install wrote from here rather than guessing where to look. A registry
// that cannot be read is an error (a *CorruptError when it is not one).
func Installations(stateDir, home string) ([]Installation, error) {
	rs, err := NewRegistry(stateDir).Load()
	if err != nil {
		return nil, err
	}
	out := make([]Installation, 0, len(rs))
	for _, r := range rs {
		in := Installation{Record: r}
		if err := Placement(&r, stateDir, home); err != nil {
			in.Misplaced = err.Error()
		} else {
			in.Stale = staleness(&r)
		}
		out = append(out, in)
	}
	return out, nil
}

// Placement checks that rec's path is the one install writes for its
// agent, scope and root: the agent's own file under the project, or under
// this user's home directory (HERMES_HOME for Hermes' plugin). An error
// says why not.
func Placement(rec *Record, stateDir, home string) error {
	want, err := expectedPath(rec, stateDir, home)
	if err != nil {
		return err
	}
	if filepath.Clean(rec.Path) != want && !homeDefault(rec, want) {
		return fmt.Errorf("%s: not where install writes %s's file for %s (that is %s); not touched", rec.Path, rec.Agent, rec.Root, want)
	}
	return nil
}

// homeDefault reports whether rec, not at want, is a user's file where
// install writes it while the agent's variable (HookFile.UserEnv:
// CODEX_HOME …) is unset, and want is where it writes it now that the
// variable is set: an install made before, which uninstall must still
// find (the variable moves where the agent reads, not what install wrote).
func homeDefault(rec *Record, want string) bool {
	ag, ok := agents.Lookup(rec.Agent)
	if !ok || !rec.User() || ag.HookFile.UserEnv == "" || ag.HookFile.User == "" {
		return false
	}
	def := ag.UserHookFile(filepath.Clean(rec.Root), nil)
	return def != want && filepath.Clean(rec.Path) == def
}

// expectedPath is where install writes rec's agent's file for its root.
func expectedPath(rec *Record, stateDir, home string) (string, error) {
	root := filepath.Clean(rec.Root)
	target, isPlugin := LookupPluginTarget(rec.Agent)
	mine := home
	if isPlugin && target.StateDir {
		mine = stateDir
	}
	if abs, err := filepath.Abs(mine); err == nil {
		mine = abs
	}
	if rec.User() && root != filepath.Clean(mine) {
		return "", fmt.Errorf("%s: a user's file, of %s, not of this user's %s; not touched", rec.Path, root, mine)
	}
	if isPlugin {
		return target.path(rec, root)
	}
	ag, ok := agents.Lookup(rec.Agent)
	if !ok {
		return "", fmt.Errorf("%s: unknown agent %q; not touched", rec.Path, rec.Agent)
	}
	if rec.Managed() {
		return ManagedPath(ag, root, rec.DropIn)
	}
	hf := ag.HookFile
	rel := hf.Project
	switch {
	case rec.User() && hf.User != "":
		return UserHookFile(ag, root), nil
	case rec.User():
		rel = "" // the agent has no user file
	case rec.Local:
		rel = hf.Local
	}
	if rel == "" {
		return "", fmt.Errorf("%s: %s has no such hook file; not touched", rec.Path, ag.Title)
	}
	return filepath.Join(root, rel), nil
}

// staleness says why rec's file no longer holds what install wrote, ""
// when it does: what uninstall would take out is there.
func staleness(rec *Record) string {
	if _, err := os.Lstat(rec.Path); errors.Is(err, fs.ErrNotExist) {
		return StaleGone
	}
	if holdsOwn(rec) {
		return ""
	}
	return StaleEdited
}

// holdsOwn says rec's file holds something install wrote, by the marks
// uninstall recognises.
func holdsOwn(rec *Record) bool {
	if t, ok := LookupPluginTarget(rec.Agent); ok {
		return t.holdsOwn(rec)
	}
	ag, ok := agents.Lookup(rec.Agent)
	if ok && rec.Managed() && ag.ManagedLayer() != nil && ag.ManagedLayer().TOML {
		data, err := readBounded(rec.Path)
		return err == nil && strings.Contains(string(data), tomlBegin)
	}
	return ok && HasOwn(ag, rec.Path)
}

// UserHookFile is where install writes agent's user hook file, home being
// the user's home folder: where the agent reads it, under the folder its
// variable names when that is set (agents.HookFile.UserEnv: COPILOT_HOME),
// resolved from the working folder as the agent resolves it.
func UserHookFile(agent *agents.Agent, home string) string {
	return agent.UserHookFile(home, func(k string) string {
		v := os.Getenv(k)
		if v == "" {
			return ""
		}
		if abs, err := filepath.Abs(v); err == nil {
			return abs
		}
		return v
	})
}
