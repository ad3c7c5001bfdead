package server

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/bundle"
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
			if presenceOnly(f) {
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
				if _, ok := a.SourceEvent(fsutil.TrimProgramExt(e.Name())); ok {
					out = append(out, filepath.Join(f, e.Name()))
				}
			}
		}
	}
	return out
}

// A file list (configFiles, a diskView's) holds paths, and paths marked
// as counting by less than their content: presence, each .git the project
// search asks only whether os.Stat finds (what git does inside it — a lock
// file made and removed by every commit — changes nothing it reads). The
// mark is kept in the entry, as a prefix no absolute path has, so that the
// same path can also be listed whole (a config file named .git is read
// like any other) and every reader of the list knows what an entry is.
const presenceMark = "\x00present\x00"

// presenceEntry is the list entry of a path whose presence alone counts.
func presenceEntry(path string) string { return presenceMark + path }

// presenceOnly reports whether entry counts by presence alone.
func presenceOnly(entry string) bool { return strings.HasPrefix(entry, presenceMark) }

// entryPath is the path of a list entry.
func entryPath(entry string) string { return strings.TrimPrefix(entry, presenceMark) }

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
