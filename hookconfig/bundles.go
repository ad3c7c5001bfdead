package hookconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Installed bundles (bundle.Install): each directory NAME of a layer's
// bundles directory (LoadOptions.BundleDirs) holds files/config.yaml, the
// bundle's config fragment, whose hooks run from files/ and are approved
// by the bundle's signature (consent.Scope.Bundle), not by the allowlist.

// addBundles merges the config fragment of every bundle installed under
// each of dirs, in name order. A bundle whose fragment cannot be read is
// Unloaded (Bundle): it was installed on purpose and verified, so what
// its guards would refuse is refused until it is fixed or removed.
//
// keys are the managed layer's trusted_bundle_keys: every bundle entry
// carries them (Entry.BundleKeys), so that the consent gate, and list and
// doctor, hold the bundle to them.
func (cfg *Config) addBundles(dirs []string, keys []string) {
	managed := ManagedPaths()
	for _, root := range dirs {
		if root == "" {
			continue
		}
		isManaged := inManagedBundles(root, managed)
		if isManaged {
			if err := checkManagedDirs(root); err != nil && !os.IsNotExist(err) {
				cfg.unloadedBundle(root, root, &ConfigError{Path: root, Err: err})
				continue
			}
		}
		ents, err := os.ReadDir(root)
		if err != nil {
			// Windows says "not found" of a file read as a folder: what is
			// there decides.
			if _, serr := os.Lstat(root); !os.IsNotExist(err) || serr == nil {
				// Every bundle in it is lost: refused like one
				// bundle's unreadable fragment, never a mere warning.
				cfg.unloadedBundle(root, root, &ConfigError{Path: root, Err: err})
			}
			continue
		}
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			switch {
			case strings.HasPrefix(e.Name(), "."):
			case e.Type()&fs.ModeSymlink != 0:
				// Never followed (where it leads is no install), never
				// skipped in silence (the guards meant to be there).
				p := filepath.Join(root, e.Name())
				cfg.unloadedBundle(p, p, &ConfigError{Path: p, Err: errors.New("a symbolic link, not a bundle directory: install bundles with 'hermes-hooks bundle install'")})
			case e.IsDir():
				names = append(names, e.Name())
			}
		}
		slices.Sort(names)
		for _, name := range names {
			dir := filepath.Join(root, name)
			if isManaged {
				if err := checkManagedBundle(dir); err != nil {
					cfg.unloadedBundle(dir, dir, &ConfigError{Path: dir, Err: err})
					continue
				}
			}
			cfg.addBundle(dir, keys, isManaged)
		}
	}
}

// addBundle merges one installed bundle's config fragment. Like a
// repository's hooks file it cannot approve hooks, move the journal or
// rename tools; unlike it, it may not name agent hook files either (they
// would be files the signature does not cover).
func (cfg *Config) addBundle(dir string, keys []string, managed bool) {
	files := bundle.FilesDir(dir)
	path := filepath.Join(files, bundle.ConfigFile)
	data, err := fsutil.ReadRegular(path, files, MaxProjectFileBytes)
	if err != nil {
		cfg.unloadedBundle(dir, path, &ConfigError{Path: path, Err: err})
		return
	}
	frag, err := parseConfig(data, path, MaxProjectEntries)
	if err == nil {
		frag.shared().skipBuiltinExamples = cfg.shared().skipBuiltinExamples
		// Its rules: files are read as a repository's are, confined to
		// the unpacked files: a rule file outside them is one the
		// signature does not cover.
		err = frag.loadRules(files, len(data))
		// Listed even when one fails, as a project's are.
		cfg.RuleFiles = append(cfg.RuleFiles, frag.RuleFiles...)
		cfg.unread = append(cfg.unread, frag.unread...)
	}
	if err != nil {
		cfg.unloadedBundle(dir, path, err)
		return
	}
	if frag.AutoAccept {
		frag.warn(path+": hooks_auto_accept", "is ignored in a bundle's config")
	}
	if frag.Journal != (JournalConfig{}) {
		frag.warn(path+": journal", "is ignored in a bundle's config; set it in the global config")
	}
	if frag.ToolAliases != nil {
		frag.warn(path+": tool_aliases", "is ignored in a bundle's config; set it in the global config")
	}
	for _, k := range agentFileKinds() {
		if len(frag.AgentFiles[k.agent.Name]) > 0 {
			frag.warn(path, "agent hook files named in a bundle's config are ignored (the bundle's signature would not cover them)")
			break
		}
	}
	for _, e := range frag.Entries {
		e.WorkDir = files
		// Source: the file the entry is written in (the fragment, or a
		// rule file it includes), which the gate checks against the
		// signed manifest.
		e.Scope = consent.Scope{Bundle: dir, Source: e.Source}
		e.BundleKeys = keys
		e.ManagedBundle = managed
		if e.Dialect == protocol.Claude && e.ProjectDir == "" {
			e.ProjectDir = files
		}
	}
	cfg.Entries = append(cfg.Entries, frag.Entries...)
	cfg.Warnings = append(cfg.Warnings, frag.Warnings...)
	cfg.BundleFiles = append(cfg.BundleFiles, path)
}

// unloadedBundle records a bundle (dir: the bundle's, or the bundles
// directory that could not be listed) whose config cannot be loaded.
func (cfg *Config) unloadedBundle(dir, path string, err error) {
	cfg.warn(path, "bundle config skipped: "+err.Error())
	cfg.Unloaded = append(cfg.Unloaded, Unloaded{Err: err, Bundle: true, bundleDir: dir})
}

// CheckManagedBundleDir checks root, a managed layer's bundles directory
// (or, before the first install, the nearest directory above it that
// exists) against the managed config's ownership rule: what bundle
// install and remove --managed check before root writes there, since a
// user who could write it could swap what is being unpacked or removed
// for a link.
func CheckManagedBundleDir(root string) error {
	for {
		if _, err := os.Lstat(root); !os.IsNotExist(err) || filepath.Dir(root) == root {
			break
		}
		root = filepath.Dir(root)
	}
	if err := checkManagedDirs(root); err != nil {
		return &ConfigError{Path: root, Err: err}
	}
	return nil
}

// checkManagedBundle holds an installed managed bundle's directories to the
// managed config's ownership rule (the bundles directory above was
// checked): its hooks run for every user, and a user who could rename
// into its directory could put a manifest, signature and signer.pub of
// their own there, which would verify. Its files need no such check:
// each is compared with the signed manifest before it runs.
func checkManagedBundle(dir string) error {
	n := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if n++; n > bundle.MaxFiles {
			return fmt.Errorf("%s: more directories than a bundle holds", dir)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if why := managedDirProblem(p, fi); why != "" {
			return &ManagedRefusedError{Path: p, Reason: why}
		}
		return nil
	})
}
