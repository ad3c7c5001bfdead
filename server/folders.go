package server

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Folders the loader lists. A folder's stat identity changes when an
// entry is added, removed or renamed, not when an entry's content or mode
// changes; so each entry that matters is a file of the config too (its
// identity compared before a forwarded call is answered, its folder
// watched), and the folder's listing is part of the fingerprint
// (shapeOf).

// bundleFolders are a bundles layer root's folders the loader reads: the
// root itself, and each bundle folder in it with its files folder and the
// config fragment there (a folder copied in by hand, with or without
// files, is refused by the one-shot).
func bundleFolders(root string) []string {
	out := []string{root}
	ents, err := os.ReadDir(root)
	if err != nil {
		return out
	}
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		files := bundle.FilesDir(dir)
		out = append(out, dir, files, filepath.Join(files, bundle.ConfigFile))
	}
	return out
}

// dirEventFiles are the entries named after an event in each of files
// that is a folder of an agent whose hooks are such a folder (Cline's):
// making one executable, or not, adds or drops a hook without touching
// the folder. (One created changes the folder, which is a file of the
// config already.)
func dirEventFiles(files []string) []string {
	var out []string
	for _, a := range agents.All() {
		if !a.Source.Dir {
			continue
		}
		for _, f := range files {
			if marked(f) {
				continue
			}
			if fi, err := os.Stat(f); err != nil || !fi.IsDir() {
				continue
			}
			ents, err := os.ReadDir(f)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if dirEventName(a, e.Name()) {
					out = append(out, filepath.Join(f, e.Name()))
				}
			}
		}
	}
	return out
}

// dirEventName reports whether name, in a's hooks folder, is named after
// one of its events as the agent reads the folder on this system
// (agents.DirRule: Cline's PreToolUse.ps1 on Windows, and the PreToolUse
// or PreToolUse.cmd it skips there), else by fsutil.TrimProgramExt.
func dirEventName(a *agents.Agent, name string) bool {
	if r := a.DirRule(runtime.GOOS); r != nil {
		ev, _ := r.Classify(name, a.DirEvents())
		return ev != ""
	}
	_, ok := a.SourceEvent(fsutil.TrimProgramExt(name))
	return ok
}

// A file list (configFiles, a diskView's) holds paths, and paths marked
// as counting by less than their content:
//   - presence: each .git the project search asks only whether os.Stat
//     finds (what git does inside it — a lock file made and removed by
//     every commit — changes nothing it reads);
//   - mode: each directory the loader holds to the managed rule (the
//     managed config's, up to /, and a managed bundle's): its mode and
//     owner decide whether the managed layer is refused, its entries are
//     files of the list themselves where they count.
//   - link: each path component between a project's root and a file of
//     the config in it, and the file itself, by what os.Lstat shows (type,
//     device and inode): a folder moved out of the project and a symlink
//     left in its place keeps its files' identities, which os.Stat reads
//     through the link, yet the one-shot refuses them.
//
// The mark is kept in the entry, as a prefix no absolute path has, so that
// the same path can also be listed whole (a config file named .git is
// read like any other) and every reader of the list knows what an entry
// is. Neither kind is watched (see updateWatches): the check of each
// forwarded call compares them, and a mismatch starts a refresh.
const (
	presenceMark = "\x00present\x00"
	modeMark     = "\x00mode\x00"
	linkMark     = "\x00link\x00"
)

// presenceEntry is the list entry of a path whose presence alone counts.
func presenceEntry(path string) string { return presenceMark + path }

// presenceOnly reports whether entry counts by presence alone.
func presenceOnly(entry string) bool { return strings.HasPrefix(entry, presenceMark) }

// modeOnly reports whether entry counts by its mode and owner alone.
func modeOnly(entry string) bool { return strings.HasPrefix(entry, modeMark) }

// linkOnly reports whether entry counts by what os.Lstat shows alone.
func linkOnly(entry string) bool { return strings.HasPrefix(entry, linkMark) }

// marked reports whether entry counts by less than its content.
func marked(entry string) bool { return presenceOnly(entry) || modeOnly(entry) || linkOnly(entry) }

// entryPath is the path of a list entry.
func entryPath(entry string) string {
	for _, m := range []string{presenceMark, modeMark, linkMark} {
		if strings.HasPrefix(entry, m) {
			return entry[len(m):]
		}
	}
	return entry
}

// lstatOf is what counts of a link entry's path: its own type and
// identity (a link's: and where it leads), not following a link.
func lstatOf(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return "lstat: " + err.Error()
	}
	id := "lstat " + fi.Mode().Type().String() + " " + fileIdentity(fi)
	if fi.Mode()&os.ModeSymlink != 0 {
		// Where it leads: a link removed and made again elsewhere
		// often gets the inode it had.
		target, err := os.Readlink(path)
		if err != nil {
			return id + " readlink: " + err.Error()
		}
		id += " -> " + target
	}
	return id
}

// maxLinkEntries bounds the link entries: a repository's hooks file may
// name hundreds of agent files, each down a chain of folders it made as
// deep as a path allows, and every forwarded call stats each entry. Past
// the bound the rest go unchecked per call; a refresh still sees where
// each file resolves to (shapeOf).
const maxLinkEntries = 1024

// projectRoots are the project hooks files listed in files (not marked
// entries) and their projects' roots, the folders holding them.
func projectRoots(files []string) (roots, hooks []string) {
	suffix := string(filepath.Separator) + filepath.FromSlash(hookconfig.ProjectHooksFile)
	for _, f := range files {
		if !marked(f) && strings.HasSuffix(f, suffix) {
			roots = append(roots, strings.TrimSuffix(f, suffix))
			hooks = append(hooks, f)
		}
	}
	return roots, hooks
}

// projectLinkEntries are the link entries of files: for each project
// root (the folder of a project hooks file listed, found or not), every
// path component from below the root down to each file of the list
// inside it, each once, at most maxLinkEntries.
func projectLinkEntries(files []string) []string {
	roots, hooks := projectRoots(files)
	// The hooks files' own components first: never the ones cut.
	files = append(hooks, files...)
	var out []string
	seen := map[string]bool{}
	for _, root := range roots {
		for _, f := range files {
			if marked(f) || !strings.HasPrefix(f, root+string(filepath.Separator)) {
				continue
			}
			for p := f; len(p) > len(root); p = filepath.Dir(p) {
				if seen[p] {
					break // its parents are in already
				}
				if len(seen) == maxLinkEntries {
					return out
				}
				seen[p] = true
				out = append(out, linkMark+p)
			}
		}
	}
	return out
}

// confineProjectFiles is files with each one inside a project's root (the
// folder of a project hooks file listed) whose links lead out of it
// turned into its link entry: the loader refused it without a look
// outside (an automounted or network path acts when looked at), and it
// stays listed only so that pointing it back inside reloads, which the
// link's own identity shows; a stat, a watch or a read of it would follow
// the link out at every reload and forwarded call.
func confineProjectFiles(files []string) []string {
	roots, _ := projectRoots(files)
	out := make([]string, 0, len(files))
	for _, f := range files {
		if !marked(f) {
			for _, r := range roots {
				if fsutil.InTree(f, r) && fsutil.Within(f, r) != nil {
					f = linkMark + f
					break
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// modeOf is what counts of a mode-only entry's path: its type, mode and
// owner (after links, as the loader's os.Stat sees it), or why there is
// none.
func modeOf(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "stat: " + err.Error()
	}
	return "mode " + fi.Mode().String() + " " + strconv.Itoa(owner(fi))
}

// managedDirEntries are the mode entries of every directory the loader
// holds to the managed rule: from each managed config file's directory
// (and its target's, through links) up to /, and each subdirectory of the
// bundles installed beside it (bounded as the loader bounds its walk).
func managedDirEntries() []string {
	var out []string
	for _, p := range hookconfig.ManagedPaths() {
		out = append(out, managedFileDirEntries(p)...)
		root := hookconfig.ManagedBundleDir(p)
		ents, err := os.ReadDir(root)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := 0
			_ = filepath.WalkDir(filepath.Join(root, e.Name()), func(q string, d fs.DirEntry, err error) error {
				if err != nil || !d.IsDir() {
					return nil
				}
				if n++; n > bundle.MaxFiles {
					return fs.SkipAll
				}
				out = append(out, modeMark+q)
				return nil
			})
		}
	}
	return out
}

// managedFileDirEntries are the mode entries of the directories the
// loader holds to the managed rule for the managed file p (a managed
// config, or a rule file one includes): from p's directory, and its
// target's through links, up to /.
func managedFileDirEntries(p string) []string {
	var out []string
	up := func(dir string) {
		for {
			out = append(out, modeMark+dir)
			parent := filepath.Dir(dir)
			if parent == dir {
				return
			}
			dir = parent
		}
	}
	up(filepath.Dir(p))
	if real, err := filepath.EvalSymlinks(p); err == nil {
		up(filepath.Dir(real))
	}
	return out
}

// shapeOf writes to w what the loader sees of f beside its bytes: its own
// type (a symlink is not a file), the path it resolves to (a link anywhere
// on its path), the mode and owner of what it leads to (who may write it;
// a managed config made writable by a user is refused from then on), and
// for a folder each entry's name and type (an executable added, a bundle
// folder copied in).
func shapeOf(w io.Writer, f string) {
	if fi, err := os.Lstat(f); err == nil {
		io.WriteString(w, "\x00type "+fi.Mode().Type().String())
	}
	if real, err := filepath.EvalSymlinks(f); err == nil {
		io.WriteString(w, "\x00real "+real)
	}
	fi, err := os.Stat(f)
	if err != nil {
		return
	}
	io.WriteString(w, "\x00mode "+fi.Mode().String()+" "+strconv.Itoa(owner(fi)))
	if !fi.IsDir() {
		return
	}
	// Sorted by name; listed whole, as the loader lists it.
	ents, err := os.ReadDir(f)
	if err != nil {
		io.WriteString(w, "\x00unlistable "+err.Error())
		return
	}
	// Names and types only, no stat per entry (a folder a repository
	// fills costs one listing): the entries whose mode matters (an event
	// file of a Cline folder) are files of the config themselves
	// (dirEventFiles), each with its own mode.
	for _, e := range ents {
		io.WriteString(w, "\x00entry "+e.Name()+" "+e.Type().String())
	}
}
