package consent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// The allowlist as a Policy reads it: once per version of the file.

// current returns the parsed allowlist, re-reading it only when the file's
// identity (size, mtime, ctime, inode) differs from the version last read.
// Writers replace the file by rename, so any change by any process shows as
// a new identity on the next call. (The one blind spot: two rewrites between
// two calls, within one tick of the file system's timestamp clock, that
// leave the same size and happen to reuse the first file's inode number.)
func (p *Policy) current() *snapshot {
	path := p.Store.Path()
	key, exists := statKey(path)
	if s := p.snap.Load(); s != nil && s.key == key && s.exists == exists {
		return s
	}
	p.reloadMu.Lock()
	defer p.reloadMu.Unlock()
	if s := p.snap.Load(); s != nil && s.key == key && s.exists == exists {
		return s
	}
	// A changed allowlist may change what is worth warning about (a
	// revoked hook is unapproved again), so warnings may repeat.
	p.mu.Lock()
	p.warned = nil
	p.mu.Unlock()
	s := p.read(path)
	p.snap.Store(s)
	return s
}

func statKey(path string) (cmdpin.FileKey, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return cmdpin.FileKey{}, false
	}
	return cmdpin.KeyOf(fi), true
}

// read parses the allowlist and records the identity of the very file it
// read (from the open descriptor), so a replacement racing with the read is
// noticed on the next call.
func (p *Policy) read(path string) *snapshot {
	f, err := fsutil.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			p.warn(fmt.Sprintf("read allowlist %s: %v", path, err))
		}
		key, exists := statKey(path)
		if exists {
			// Keep the identity of what could not be read, so the
			// failure is not retried (and warned about) on every call.
			return &snapshot{key: key, exists: true, file: &File{}, broken: true}
		}
		return &snapshot{file: &File{}}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return &snapshot{file: &File{}, broken: true}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		p.warn(fmt.Sprintf("read allowlist %s: %v", path, err))
		return &snapshot{key: cmdpin.KeyOf(fi), exists: true, file: &File{}, broken: true}
	}
	file := parseFile(data)
	broken := false
	if file.Invalid != nil {
		p.warn(fmt.Sprintf("allowlist %s is treated as empty: %v", path, file.Invalid))
		// An empty file is a fresh allowlist, not a broken one.
		broken = len(bytes.TrimSpace(pyjson.SkipBOM(data))) > 0
	}
	return &snapshot{key: cmdpin.KeyOf(fi), exists: true, file: file, broken: broken}
}
