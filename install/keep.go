package install

import (
	"github.com/hermes-hooks/hermes-hooks/internal/repoid"
)

// Uninstall deletes a file only when install created it (its record in the
// registry says so: Record.Created) and git does not track it. A hook file
// that holds nothing but our entries is otherwise kept with them taken
// out: the team's committed .claude/settings.json, whose only hooks are
// ours, is every teammate's, and one teammate's uninstall (or uninstall
// --all) deleting it from the checkout would be a change to the
// repository nobody asked for. A file install created and the user then
// committed is the team's too.

// Reasons uninstall keeps a file it would otherwise remove.
const (
	KeptNotCreated = "install did not create it"
	KeptTracked    = "git tracks it"
	KeptUnknown    = "git's index could not be read to tell whether it tracks it"
)

// MayRemove says whether uninstall may delete the file at path, which
// holds nothing of anyone else's once our entries are out: only when
// install created it and git does not track it. Otherwise it returns why
// the file stays.
//
// Git is asked first: "git tracks it" is what a teammate needs to hear.
func MayRemove(path string, created bool) (bool, string) {
	tracked, err := repoid.Tracked(path)
	switch {
	case err != nil:
		return false, KeptUnknown
	case tracked:
		return false, KeptTracked
	case !created:
		return false, KeptNotCreated
	}
	return true, ""
}

// KeepTracked takes out of an uninstall the scripts of ours that git
// tracks (committed by the team: every teammate's, even though each is
// ours outright), returning them; uninstall then leaves them in place.
func (p *ScriptsPlan) KeepTracked() (kept []string) {
	if !p.Uninstall {
		return nil
	}
	p.Changed = false
	for i := range p.Files {
		f := &p.Files[i]
		if f.Remove {
			if ok, _ := MayRemove(f.Path, true); !ok {
				f.Remove = false
				kept = append(kept, f.Path)
			}
		}
		p.Changed = p.Changed || f.changed()
	}
	return kept
}

// KeepTracked is ScriptsPlan.KeepTracked for a plugin's files (OpenCode's
// plugin, an Open Plugins folder): the ones git tracks stay.
func (p *PluginPlan) KeepTracked() (kept []string) {
	p.Changed = false
	for i := range p.Files {
		f := &p.Files[i]
		if f.New == nil && f.Changed {
			if ok, _ := MayRemove(f.Path, true); !ok {
				f.Changed, f.dropBackup = false, false
				kept = append(kept, f.Path)
			}
		}
		p.Changed = p.Changed || f.Changed
	}
	return kept
}
