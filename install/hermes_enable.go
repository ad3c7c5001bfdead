package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// HermesPluginName is the plugin's name for Hermes: plugin.yaml's name, and
// the item of plugins.enabled that makes Hermes load it.
const HermesPluginName = "hermes-hooks"

// MakeHermesEnable plans the edit of home's config.yaml that enables the
// plugin (plugins.enabled lists HermesPluginName), as `hermes plugins
// enable hermes-hooks` would, keeping every other byte; or, uninstall,
// that takes it out again. A missing file is created holding only that;
// uninstall restores the backup install kept when the file is still what
// install made of it (byte for byte as before), and removes a file that
// held nothing else. Note says what still keeps Hermes from loading the
// plugin (it is in plugins.disabled). A file the edit cannot change safely
// is an error naming its line; nothing is written then.
func MakeHermesEnable(home string, uninstall bool) (p *Plan, note string, err error) {
	path := filepath.Join(home, "config.yaml")
	p = &Plan{Path: path, given: path, Root: home, remake: func() (*Plan, error) {
		q, _, err := MakeHermesEnable(home, uninstall)
		return q, err
	}}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		p.Path = real
	}
	data, err := readBounded(p.Path)
	switch {
	case err == nil:
		p.Old, p.Exists = data, true
	case !errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	}
	located := func(err error) error {
		var ee *EditError
		if errors.As(err, &ee) {
			return fmt.Errorf("%s:%d: %s; not changed (enable the plugin by hand: plugins.enabled, or hermes plugins enable %s)",
				p.Path, ee.Line, ee.Msg, HermesPluginName)
		}
		return err
	}
	if uninstall {
		if !p.Exists {
			return p, "", nil
		}
		p.New, p.Changed, err = DisableHermesPlugin(p.Old, HermesPluginName)
		if err != nil || !p.Changed {
			p.New = p.Old
			return p, "", located(err)
		}
		if !enableAdded(p.Path, p.Old) {
			p.New, p.Changed = p.Old, false
			return p, fmt.Sprintf("plugins.enabled lists %s, which install did not add: left there (take it out by hand, or: hermes plugins disable %s)", HermesPluginName, HermesPluginName), nil
		}
		if prev, ok := enableRestorable(p.Path, p.Old); ok {
			p.New, p.Restored = prev, true
		}
		p.Remove = len(bytes.TrimSpace(p.New)) == 0
		return p, "", nil
	}
	p.New, p.Changed, note, err = EnableHermesPlugin(p.Old, HermesPluginName)
	if err != nil {
		return nil, "", located(err)
	}
	if !p.Changed {
		p.New = p.Old
	}
	return p, note, nil
}

// enableRestorable returns the backup install kept of path when enabling
// the plugin in it gives exactly the current file.
func enableRestorable(path string, current []byte) ([]byte, bool) {
	prev, err := readBounded(path + BackupSuffix)
	if err != nil {
		return nil, false
	}
	out, changed, _, err := EnableHermesPlugin(prev, HermesPluginName)
	if err != nil || !changed || !bytes.Equal(out, current) {
		return nil, false
	}
	return prev, true
}

// enableAdded says install put the plugin's item in the config at path
// (current): the backup it kept of the file lacks the item, or the file
// is exactly the one install creates where there was none. An item the
// user wrote (before install, which then changed nothing and kept no
// backup) is theirs: uninstall leaves it.
func enableAdded(path string, current []byte) bool {
	if created, _, _, err := EnableHermesPlugin(nil, HermesPluginName); err == nil && bytes.Equal(created, current) {
		return true
	}
	prev, err := readBounded(path + BackupSuffix)
	if err != nil {
		return false
	}
	_, changed, _, err := EnableHermesPlugin(prev, HermesPluginName)
	return err == nil && changed
}
