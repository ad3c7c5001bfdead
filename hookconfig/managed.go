package hookconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The managed layer: a system config an administrator deploys
// (SystemManagedPath: /etc/hermes-hooks/config.yaml on Linux), in the
// format of the user's YAML plus keys of its own. Its hooks come first, run
// for every user and are approved by being in that file (consent.Scope's
// Managed): neither safe mode, nor an accept flag, nor any file of the
// user's or a repository's (hooks: {}, disableAllHooks, a priority, a
// duplicate) removes or outranks them. A file a user could write is
// refused, and while one is refused or does not parse, every gating event
// is (Unloaded.Managed): its guards are unknown.

const (
	keyManagedOnly = "allow_managed_hooks_only"
	keyTrustedKeys = "trusted_bundle_keys"
	// ManagedConfigEnv names one more managed config file (tests, a staged
	// roll-out). It can only add: the system's file is read whatever it
	// says, and the file it names must pass the same ownership check.
	ManagedConfigEnv = "HERMES_HOOKS_MANAGED_CONFIG"
)

// ManagedLayer is what the managed config files said (Config.Managed).
type ManagedLayer struct {
	// Files are the managed config files found (read or refused), the
	// system's first; none: no managed layer.
	Files []string
	// RuleFiles are the rule files they include (read or refused), held
	// to the same ownership rule as Files, their directories too.
	RuleFiles []string
	// Hooks counts the managed entries loaded.
	Hooks int
	// AllowManagedHooksOnly (allow_managed_hooks_only: true) runs the
	// managed hooks only: the user's config, repositories' hooks files and
	// agents' hook files are not loaded (Skipped counts their hooks).
	AllowManagedHooksOnly bool
	Skipped               int
	// TrustedBundleKeys (trusted_bundle_keys) are minisign public keys,
	// as written: only bundles signed by one of them may be installed.
	TrustedBundleKeys []string
	// Err says why a managed file was refused or could not be parsed (a
	// *ConfigError naming it); nil when every one loaded.
	Err error
}

// Active reports whether a managed config file was found.
func (m *ManagedLayer) Active() bool { return len(m.Files) > 0 }

// ManagedPaths are the managed config files Load reads when asked
// (LoadOptions.Managed): the system's, then the one ManagedConfigEnv names.
func ManagedPaths() []string {
	paths := []string{SystemManagedPath()}
	if p := os.Getenv(ManagedConfigEnv); p != "" {
		if abs, err := filepath.Abs(p); err == nil && abs != paths[0] {
			paths = append(paths, abs)
		}
	}
	return paths
}

// BundleDirs are the bundles directories Load reads (LoadOptions.BundleDirs):
// beside each managed config file (ManagedPaths: the system's always — a
// variable can add a managed layer, never take the system's away), then
// the user's in home.
func BundleDirs(home string) []string {
	var dirs []string
	for _, p := range ManagedPaths() {
		dirs = append(dirs, ManagedBundleDir(p))
	}
	return append(dirs, bundle.UserDir(home))
}

// ManagedBundleDir is the bundles directory of the managed config file
// path: beside it.
func ManagedBundleDir(path string) string { return filepath.Join(filepath.Dir(path), "bundles") }

// ManagedExtra is the managed config file ManagedConfigEnv adds ("" for
// none): what a forwarded call and the server it reaches must agree on.
func ManagedExtra() string {
	if p := ManagedPaths(); len(p) > 1 {
		return p[1]
	}
	return ""
}

// ManagedRefusedError is a managed config file that fails the ownership
// check: who owns it, who could write it.
type ManagedRefusedError struct {
	Path, Reason string
}

func (e *ManagedRefusedError) Error() string {
	return "refused as the managed config: " + e.Reason + "; it and its directories must be owned by " + managedOwner + " and writable by nobody else"
}

// loadManaged reads the managed config files: the managed entries (their
// warnings with them) and the layer. The system's file may be missing (no
// managed layer); a file named by ManagedConfigEnv must exist.
func loadManaged(paths []string) (*Config, ManagedLayer) {
	m := emptyConfig()
	var layer ManagedLayer
	fail := func(p string, err error) {
		var ce *ConfigError
		if !errors.As(err, &ce) {
			err = &ConfigError{Path: p, Err: err}
		}
		m.Warnings = append(m.Warnings, Warning{Path: p, File: p,
			Message: "the managed config cannot be used, so every tool call (every event a guard gates) is refused: " + err.Error()})
		if layer.Err == nil {
			layer.Err = err
		}
	}
	for i, p := range paths {
		data, err := readManaged(p)
		if errors.Is(err, fs.ErrNotExist) && i == 0 {
			continue
		}
		layer.Files = append(layer.Files, p)
		if err != nil {
			fail(p, err)
			continue
		}
		sub, err := parseConfigAs(data, p, 0, true)
		if err != nil {
			fail(p, err)
			continue
		}
		if len(sub.ruleFiles) > 0 {
			// Its rules: files are the administrator's too: read under
			// the same ownership rule, refused (and the layer with them)
			// otherwise.
			rr := &ruleReader{managed: true}
			err := rr.includeRules(sub, []string{p})
			sub.noteDroppedWarnings()
			m.RuleFiles = append(m.RuleFiles, rr.read...)
			layer.RuleFiles = append(layer.RuleFiles, rr.read...)
			if err != nil {
				fail(p, err)
				continue
			}
		}
		m.Warnings = append(m.Warnings, sub.Warnings...)
		for _, what := range sub.unmanagedKeys() {
			m.Warnings = append(m.Warnings, Warning{Key: what, File: p,
				Message: what + " is not read from the managed config " + p + " (only hooks, " + keyManagedOnly + " and " + keyTrustedKeys + " are)"})
		}
		if m.Export.IsZero() {
			// The administrator's export: (the first managed file's
			// that has one) is where decisions go, whatever the user's
			// config says.
			m.Export = sub.Export
		}
		layer.AllowManagedHooksOnly = layer.AllowManagedHooksOnly || sub.Managed.AllowManagedHooksOnly
		layer.TrustedBundleKeys = append(layer.TrustedBundleKeys, sub.Managed.TrustedBundleKeys...)
		for _, e := range sub.Entries {
			e.Scope = consent.Scope{Managed: true}
			// A relative script path is the administrator's, next to
			// the file, never one in the repository a session is in.
			e.WorkDir = filepath.Dir(p)
			m.Entries = append(m.Entries, e)
		}
	}
	layer.Hooks = len(m.Entries)
	return m, layer
}

// unmanagedKeys are the keys of a parsed managed file that the managed
// layer does not take: they would change the user's settings, not add
// hooks.
func (cfg *Config) unmanagedKeys() []string {
	var keys []string
	if cfg.AutoAccept {
		keys = append(keys, "hooks_auto_accept")
	}
	if len(cfg.ToolAliases) > 0 {
		keys = append(keys, "tool_aliases")
	}
	if cfg.Journal != (JournalConfig{}) {
		keys = append(keys, "journal")
	}
	for _, k := range agentFileKinds() {
		if len(cfg.AgentFiles[k.agent.Name]) > 0 {
			keys = append(keys, k.key)
		}
	}
	return keys
}

// mergeManaged puts the managed layer in front of the loaded config: its
// entries first (config order, so the fold and every tie prefer them),
// and, with allow_managed_hooks_only, nothing else. A managed file that
// could not be used refuses every gating event (Unloaded).
func (cfg *Config) mergeManaged(m *Config, layer ManagedLayer) {
	cfg.Managed = layer
	if m == nil {
		return
	}
	cfg.Warnings = append(m.Warnings, cfg.Warnings...)
	if !m.Export.IsZero() {
		if !cfg.Export.IsZero() {
			cfg.Warnings = append(cfg.Warnings, Warning{Path: cfg.Path, File: cfg.Path, Key: "export", Minor: true,
				Message: "export: the managed config's export is used (" + layer.Files[0] + "); this file's is ignored"})
		}
		cfg.Export = m.Export
		cfg.Export.Managed = true
	}
	others := cfg.Entries
	if layer.AllowManagedHooksOnly {
		// The bundles an administrator installed beside a managed file
		// (bundle install --managed) are the managed layer's too.
		var kept []*Entry
		others = slices.DeleteFunc(slices.Clone(others), func(e *Entry) bool {
			if managedBundle(e, layer.Files) {
				kept = append(kept, e)
				return true
			}
			return false
		})
		cfg.Managed.Skipped = len(others)
		if len(others) > 0 {
			cfg.Warnings = append(cfg.Warnings, Warning{Path: layer.Files[0], File: layer.Files[0], Minor: true,
				Message: keyManagedOnly + ": " + hooksCount(len(others)) + " of the user's config, repositories and agents' hook files not loaded (only managed hooks run)"})
		}
		others = kept
		// A repository's file that did not load held nothing that
		// could run; a managed bundle's did, and still refuses.
		cfg.Unloaded = slices.DeleteFunc(cfg.Unloaded, func(u Unloaded) bool {
			return !u.Bundle || !inManagedBundles(u.bundleDir, layer.Files)
		})
	}
	cfg.Entries = append(m.Entries, others...)
	cfg.OwnLines = append(m.OwnLines, cfg.OwnLines...)
	if len(m.Entries) > 0 {
		cfg.keepDefaultTools()
	}
	if layer.Err != nil {
		cfg.Unloaded = append(cfg.Unloaded, Unloaded{Err: layer.Err, Managed: true})
	}
}

// parseManagedKey reads a managed-only key; in any file but the managed
// config it is ignored, with a warning (a user cannot grant it).
func (cfg *Config) parseManagedKey(key string, n *yaml.Node, managed bool) {
	if !managed {
		cfg.warnKey(key, "", key+" is read only from the managed config ("+SystemManagedPath()+"); ignored here")
		return
	}
	switch key {
	case keyManagedOnly:
		v, ok := pyyaml.Bool(n)
		if !ok {
			// The administrator asked for something: the strict reading.
			cfg.warnKey(key, "", key+" must be true or false; got "+pyyaml.Repr(n)+"; taken as true")
			v = true
		}
		cfg.Managed.AllowManagedHooksOnly = v
	case keyTrustedKeys:
		cfg.Managed.TrustedBundleKeys = cfg.parseKeyList(key, n)
	}
}

// parseKeyList reads a list of non-empty strings (trusted_bundle_keys).
func (cfg *Config) parseKeyList(key string, n *yaml.Node) []string {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return nil
	case n.Kind != yaml.SequenceNode:
		cfg.warnKey(key, "", key+" must be a list of minisign public keys; got "+pyyaml.Type(n)+"; ignoring")
		return nil
	}
	var keys []string
	for i, item := range n.Content {
		v := strings.TrimSpace(item.Value)
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" || v == "" {
			cfg.warn(key+"["+strconv.Itoa(i)+"]", "must be a minisign public key (a string); ignoring")
			continue
		}
		keys = append(keys, v)
	}
	return keys
}

// checkManagedDirs checks every directory from dir up to the root: each
// must be owned by the administrator and writable by nobody else (or
// sticky, as /tmp: nobody else can rename what the administrator put in
// it), so that the file cannot be replaced under its name.
func checkManagedDirs(dir string) error {
	at, why, err := dirsUp(dir, managedDirProblem)
	if err != nil {
		return err
	}
	if why != "" {
		return &ManagedRefusedError{Path: at, Reason: why}
	}
	return nil
}

// dirsUp asks problem of dir and of each directory above it, up to the
// root, and stops at the first that has one: that directory and why ("":
// none has). err: a directory on the way cannot be read.
func dirsUp(dir string, problem func(dir string, fi fs.FileInfo) string) (at, why string, err error) {
	for {
		fi, err := os.Stat(dir)
		if err != nil {
			return dir, "", err
		}
		if why := problem(dir, fi); why != "" {
			return dir, why, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", nil
		}
		dir = parent
	}
}

// readManaged reads a managed config file once it is shown to be the
// administrator's: the directories of its name and, after symbolic links,
// of the file itself are checked, then the open file is (so what is read
// is what was checked).
func readManaged(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(abs); err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve: %w", err)
	}
	for _, dir := range []string{filepath.Dir(abs), filepath.Dir(real)} {
		if err := checkManagedDirs(dir); err != nil {
			return nil, err
		}
	}
	return readManagedFile(real)
}

// readManagedFile reads the managed config at real (no symbolic link
// left) from one open descriptor, after checking that very file: regular,
// bounded, and the administrator's alone (managedFileProblem).
func readManagedFile(real string) ([]byte, error) {
	f, err := fsutil.OpenNoBlock(real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", fsutil.ErrNotRegular, fi.Mode().Type())
	}
	if why := managedFileProblem(real, f, fi); why != "" {
		return nil, &ManagedRefusedError{Path: real, Reason: why}
	}
	if fi.Size() > MaxConfigBytes {
		return nil, &fsutil.TooLargeError{Size: fi.Size(), Max: MaxConfigBytes}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > MaxConfigBytes {
		return nil, &fsutil.TooLargeError{Size: int64(len(data)), Max: MaxConfigBytes}
	}
	return data, nil
}

// keepDefaultTools drops the user's tool_aliases that change or remove a
// default pair, or give a default Claude name to another tool, with a
// warning: a managed matcher (terminal, Bash) must match the tool it names
// for every agent, and the user's table must not make it miss.
func (cfg *Config) keepDefaultTools() {
	defaultClaude := map[string]bool{}
	for _, c := range protocol.DefaultToolAliases {
		defaultClaude[c] = true
	}
	kept := map[string]string{}
	dropped := false
	for _, h := range slices.Sorted(maps.Keys(cfg.ToolAliases)) {
		c := cfg.ToolAliases[h]
		if d, isDefault := protocol.DefaultToolAliases[h]; (isDefault && c != d) || (!isDefault && defaultClaude[c]) {
			cfg.warnKey("tool_aliases."+h, "tool_aliases."+h, "changes a default tool pair while a managed config is in force, so managed matchers would miss their tool; ignored")
			dropped = true
			continue
		}
		kept[h] = c
	}
	if dropped {
		cfg.Tools = protocol.NewToolTable(kept)
	}
}

// LoadManagedLayer reads the managed config files alone (ManagedPaths,
// under the same ownership rule as Load): what a verb that only needs the
// administrator's settings (bundle install's trusted_bundle_keys) reads.
func LoadManagedLayer() ManagedLayer {
	_, layer := loadManaged(ManagedPaths())
	return layer
}

// managedBundle reports an entry of a bundle installed in the bundles
// directory beside one of the managed files.
func managedBundle(e *Entry, files []string) bool {
	return e.Scope.Bundle != "" && inManagedBundles(e.Scope.Bundle, files)
}

// inManagedBundles reports whether dir is the bundles directory beside one
// of the managed files, or in it.
func inManagedBundles(dir string, files []string) bool {
	if dir == "" {
		return false
	}
	for _, f := range files {
		root := ManagedBundleDir(f)
		if dir == root || strings.HasPrefix(dir, root+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
