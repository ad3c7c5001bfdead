package bundle

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Pack reads dir into an unsigned archive named name at serial (0:
// unversioned): every regular file under it, with its digest, size and
// mode (executable or not). A symbolic
// link, device, FIFO or socket anywhere under dir is refused, not skipped
// or followed: what is signed must be what the directory shows.
func Pack(dir, name string, serial Serial) (*Archive, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if serial > MaxSerial {
		return nil, fmt.Errorf("serial %d: at most %d", uint64(serial), uint64(MaxSerial))
	}
	a := &Archive{Manifest: &Manifest{Format: Format, Name: name, Serial: serial}, Files: map[string][]byte{}}
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			return nil
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s: %s, not a regular file: a bundle holds regular files only", path, fi.Mode().Type())
		}
		if err := CheckPath(rel); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(a.Files) >= MaxFiles {
			return fmt.Errorf("%s: more than %d files", dir, MaxFiles)
		}
		data, err := fsutil.ReadRegular(path, "", MaxFileBytes)
		if err != nil {
			return err
		}
		if total += int64(len(data)); total > MaxTotalBytes {
			return fmt.Errorf("%s: the files total more than %d bytes", dir, MaxTotalBytes)
		}
		mode := "0644"
		if fi.Mode().Perm()&0o111 != 0 {
			mode = "0755"
		}
		a.Files[rel] = data
		a.Manifest.Files = append(a.Manifest.Files, File{Path: rel, SHA256: Digest(data), Size: int64(len(data)), Mode: mode})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(a.Manifest.Files, func(x, y File) int { return strings.Compare(x.Path, y.Path) })
	a.ManifestBytes = a.Manifest.Encode()
	// The packed manifest is held to the rules every reader applies.
	m, err := ParseManifest(a.ManifestBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	a.Manifest = m
	return a, nil
}
