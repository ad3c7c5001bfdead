package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// The registry of installations: one JSON file in the state directory
// (HERMES_HOME, beside the allowlist and the journal) recording every file
// install wrote, in the user's home and in each project, so that
// `hermes-hooks installs` can list them and `uninstall --all` take them
// all out, and doctor can find them without guessing where to look.
//
// The registry only says where to look: uninstall --all takes nothing from
// a record but which agent, which root and which flags, and runs the same
// uninstall as `hermes-hooks uninstall AGENT` does, which removes only the
// entries (and files) it recognises as its own. A record whose path is not
// where install writes for that agent and root is refused (Placement), so
// a tampered registry cannot point uninstall at ~/.ssh/authorized_keys.

// RegistryFile is the registry's name in the state directory.
const RegistryFile = "hermes-hooks-installs.json"

// registryTemp names the temporary files of the registry's atomic writes.
const registryTemp = ".hermes-hooks-installs_*.tmp"

// registryLockWait bounds the wait for another install's lock: installs
// hold it for one small read and write.
const registryLockWait = 30 * time.Second

// registryVersion is the file's format; a file of a later format is left
// alone rather than rewritten in this one.
const registryVersion = 1

// Kinds of what a record's install wrote.
const (
	// KindEntries: entries in a file that holds others' too (the agent's
	// hook file, Hermes' config.yaml); Wrote lists their command lines.
	KindEntries = "entries"
	// KindOwned: files install owns outright (Cline's scripts, the
	// OpenCode plugin, the Open Plugins and Hermes plugin folders);
	// Wrote lists them.
	KindOwned = "owned files"
)

// Record is one installation: the file (or folder) one `install` wrote.
type Record struct {
	// Agent is the agent's name, or hermes, opencode, open-plugin.
	Agent string `json:"agent"`
	// Scope is "user" (the home directory's file), "project", or
	// "managed" (the agent's admin settings: install --managed).
	Scope string `json:"scope"`
	// Root is the project, or the home directory (HERMES_HOME for hermes);
	// for a managed file the system's root, "/" (or --managed-root).
	Root string `json:"root"`
	// Local: the agent's file of one checkout (install --local).
	Local bool `json:"local,omitempty"`
	// DropIn: a managed file in the agent's drop-in folder (--drop-in).
	DropIn bool `json:"drop_in,omitempty"`
	// Path is the file as install names it (its links not followed): the
	// hook file, Cline's scripts folder, a plugin's folder or file.
	Path string `json:"path"`
	// PluginAgent is open-plugin's --agent.
	PluginAgent string `json:"plugin_agent,omitempty"`
	// Kind and Wrote: what install wrote there (KindEntries: the command
	// lines; KindOwned: the files).
	Kind  string   `json:"kind"`
	Wrote []string `json:"wrote"`
	// InstalledAt is the first install, UpdatedAt the latest (a second
	// install, or --refresh).
	InstalledAt time.Time `json:"installed_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	// Created: install created the file (it did not exist before): the
	// one case in which uninstall may delete it (MayRemove). It stays set
	// across later installs into the file.
	Created bool `json:"created,omitempty"`
	// CreatedDirs are the folders install created for the file (links
	// followed, outermost first; Plan.CreatedDirs), kept across later
	// installs into it: the only ones uninstall removes when it leaves
	// them empty. Lost (a registry rewritten by an older release), none
	// is removed.
	CreatedDirs []string `json:"created_dirs,omitempty"`
	// Version and Binary: the hermes-hooks that wrote it.
	Version string `json:"version"`
	Binary  string `json:"binary"`
}

// User says the record is of a file in the home directory.
func (r *Record) User() bool { return r.Scope == ScopeUser }

// Managed says the record is of an agent's admin settings.
func (r *Record) Managed() bool { return r.Scope == ScopeManaged }

// Scopes of a record.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
	ScopeManaged = "managed"
)

// same says r and o are records of the same installation.
func (r *Record) same(o *Record) bool { return r.Agent == o.Agent && r.Path == o.Path }

type registryDoc struct {
	Version  int      `json:"version"`
	Installs []Record `json:"installs"`
}

// Registry is the registry file in a state directory.
type Registry struct {
	// Path is the file; its lock is Path+".lock".
	Path string
	// Now is the clock (nil: time.Now); tests set it.
	Now func() time.Time
}

// NewRegistry is the registry in the state directory dir (HERMES_HOME).
func NewRegistry(dir string) *Registry {
	return &Registry{Path: filepath.Join(dir, RegistryFile)}
}

// CorruptError is a registry file that is not one: Load reports it,
// and the next change keeps it as a copy (Backup) and starts afresh.
type CorruptError struct {
	Path   string
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s: not a registry of installations (%s); the next install keeps it as a copy beside it and starts a new one", e.Path, e.Reason)
}

// Load reads the records, oldest first. A missing file is no record; a
// file that is not a registry is a *CorruptError (and no record).
func (g *Registry) Load() ([]Record, error) {
	data, err := fsutil.ReadRegular(g.Path, "", maxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the registry of installations: %w", err)
	}
	return parseRegistry(g.Path, data)
}

// parseRegistry decodes a registry file's content.
func parseRegistry(path string, data []byte) ([]Record, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	// Keys this release does not know are read past: a later release
	// adds fields to a record (Created did) without a new format, and an
	// older hermes-hooks on the same machine (a teammate's pinned one, a
	// downgrade) must keep the records, not call the file corrupt and move
	// them all aside. What it rewrites loses those fields, so a field may
	// only ever widen what a later release does with a record it wrote
	// (Created lost: uninstall leaves the file in place). A change that
	// older releases must not misread is a new registryVersion.
	var doc registryDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, &CorruptError{Path: path, Reason: err.Error()}
	}
	if doc.Version != registryVersion {
		return nil, &CorruptError{Path: path, Reason: fmt.Sprintf("format version %d, this hermes-hooks reads %d", doc.Version, registryVersion)}
	}
	for i, r := range doc.Installs {
		if r.Agent == "" || r.Path == "" || !filepath.IsAbs(r.Path) || !filepath.IsAbs(r.Root) || (r.Scope != ScopeUser && r.Scope != ScopeProject && r.Scope != ScopeManaged) {
			return nil, &CorruptError{Path: path, Reason: fmt.Sprintf("record %d lacks an agent, a scope (user, project or managed) or an absolute path and root", i+1)}
		}
	}
	return doc.Installs, nil
}

// Remember records rec (an install that wrote its file), replacing the
// record of the same installation but keeping when it was first made, and
// when it was last changed if nothing of it changes now (a refresh that
// found nothing to do is no rewrite). It returns the copy a corrupt
// registry was kept as ("" when none).
func (g *Registry) Remember(rec Record) (backup string, err error) {
	return g.mutate(func(rs []Record) []Record {
		rec.UpdatedAt = g.now().UTC().Truncate(time.Second)
		rec.InstalledAt = rec.UpdatedAt
		if rec.Wrote == nil {
			rec.Wrote = []string{}
		}
		for i := range rs {
			if rs[i].same(&rec) {
				rec.InstalledAt = rs[i].InstalledAt
				rec.Created = rec.Created || rs[i].Created
				rec.CreatedDirs = unionDirs(rs[i].CreatedDirs, rec.CreatedDirs)
				prev := rs[i]
				prev.UpdatedAt = rec.UpdatedAt
				if reflect.DeepEqual(prev, rec) {
					return rs // nothing changed: its time stays
				}
				rs[i] = rec
				return rs
			}
		}
		return append(rs, rec)
	})
}

// unionDirs is a's folders, then those of b it lacks.
func unionDirs(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, d := range b {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// Lookup returns the record of the installation of agent at path, if the
// registry holds one (a registry that cannot be read holds none).
func (g *Registry) Lookup(agent, path string) (Record, bool) {
	rs, err := g.Load()
	if err != nil {
		return Record{}, false
	}
	key := Record{Agent: agent, Path: path}
	for _, r := range rs {
		if r.same(&key) {
			return r, true
		}
	}
	return Record{}, false
}

// Forget removes the record of the installation of agent at path (an
// uninstall took it out). No record is no error.
func (g *Registry) Forget(agent, path string) (backup string, err error) {
	if _, err := os.Lstat(g.Path); errors.Is(err, fs.ErrNotExist) {
		return "", nil // an uninstall makes no state where there was none
	}
	key := Record{Agent: agent, Path: path}
	return g.mutate(func(rs []Record) []Record {
		out := rs[:0]
		for _, r := range rs {
			if !r.same(&key) {
				out = append(out, r)
			}
		}
		return out
	})
}

// mutate changes the registry under its lock: read, change, write
// atomically (mode 0600: it names every project of the user). A file that
// is not a registry is kept as a copy first (backup), as the allowlist's
// is, never lost to the rewrite.
func (g *Registry) mutate(change func([]Record) []Record) (backup string, err error) {
	if err := os.MkdirAll(filepath.Dir(g.Path), 0o700); err != nil {
		return "", fmt.Errorf("registry of installations: %w", err)
	}
	unlock, err := fsutil.LockContext(context.Background(), g.Path+".lock", registryLockWait)
	if err != nil {
		return "", fmt.Errorf("lock the registry of installations %s: %w", g.Path+".lock", err)
	}
	defer unlock()
	rs, err := g.Load()
	var ce *CorruptError
	if errors.As(err, &ce) {
		if backup, err = g.backupCorrupt(); err != nil {
			return "", err
		}
		rs = nil
	} else if err != nil {
		return "", err
	}
	rs = change(rs)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].InstalledAt.Before(rs[j].InstalledAt) })
	data, err := json.MarshalIndent(registryDoc{Version: registryVersion, Installs: append([]Record{}, rs...)}, "", "  ")
	if err != nil {
		return backup, err
	}
	if err := fsutil.WriteAtomic(g.Path, append(data, '\n'), 0o600, registryTemp, nil); err != nil {
		return backup, fmt.Errorf("write the registry of installations: %w", err)
	}
	return backup, nil
}

// backupCorrupt renames the registry to a free ".corrupt-<UTC time>" name
// (under the lock: no writer of ours races for the name).
func (g *Registry) backupCorrupt() (string, error) {
	stamp := g.now().UTC().Format("20060102T150405.000000000Z")
	for i := 0; ; i++ {
		name := g.Path + ".corrupt-" + stamp
		if i > 0 {
			name += fmt.Sprintf("-%d", i)
		}
		if _, err := os.Lstat(name); err == nil {
			continue
		}
		if err := os.Rename(g.Path, name); err != nil {
			return "", fmt.Errorf("keep the invalid registry of installations as a copy: %w", err)
		}
		return name, nil
	}
}

func (g *Registry) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}
