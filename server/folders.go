package server

import (
	"os"
	"path/filepath"

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
