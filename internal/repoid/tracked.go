package repoid

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Tracked tells whether git tracks the file at path: whether the index of
// the worktree holding it has an entry for it. Uninstall asks before it
// removes a file: a file the team committed is never deleted from one
// teammate's checkout. It reads the index itself, never starting git (git
// in a hostile checkout runs what its config names, core.fsmonitor).
//
// A path in no repository is not tracked (false, nil). An index it cannot
// read to the end, or one split across a shared index file (whose other
// half it does not read), is an error: the caller cannot tell, and keeps
// the file.
func Tracked(path string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	r, ok := Find(filepath.Dir(abs))
	if !ok {
		return false, nil
	}
	top := r.Top
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false, nil
	}
	gitDir, ok := gitDirOf(r.Top)
	if !ok {
		return false, nil
	}
	hashLen := 20
	if cfg, err := readSmall(filepath.Join(r.CommonDir, "config")); err == nil && sha256Objects(cfg) {
		hashLen = 32
	}
	found, err := indexHolds(filepath.Join(gitDir, "index"), filepath.ToSlash(rel), hashLen)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil // a repository with nothing added yet
	}
	return found, err
}

// sha256Objects says a repository's config sets extensions.objectFormat to
// sha256: its index names objects by 32 bytes, not 20.
func sha256Objects(cfg []byte) bool {
	for _, l := range bytes.Split(cfg, []byte("\n")) {
		l = bytes.ToLower(bytes.Join(bytes.Fields(l), nil))
		if bytes.Equal(l, []byte("objectformat=sha256")) {
			return true
		}
	}
	return false
}

// maxIndex bounds the index read: a repository of a million files has an
// index of about 100 MB.
const maxIndex = 1 << 30

// indexHolds reads the git index file at path (format versions 2, 3 and 4)
// looking for the entry rel (slash-separated, relative to the worktree),
// or a sparse directory entry holding it.
func indexHolds(path, rel string, hashLen int) (bool, error) {
	f, err := fsutil.OpenNoBlock(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > maxIndex {
		return false, fmt.Errorf("%s: larger than %d bytes", path, maxIndex)
	}
	ix := &indexReader{r: bufio.NewReader(io.LimitReader(f, maxIndex)), size: fi.Size(), hashLen: hashLen}
	found, err := ix.holds(rel)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return found, nil
}

// indexReader walks an index file's entries in order.
type indexReader struct {
	r       *bufio.Reader
	off     int64 // bytes read
	size    int64 // the file's size
	hashLen int
}

var errIndex = errors.New("not a git index this reader knows")

func (x *indexReader) read(n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := io.ReadFull(x.r, b)
	x.off += int64(n)
	if err != nil {
		return nil, errIndex
	}
	return b, nil
}

func (x *indexReader) byte() (byte, error) {
	c, err := x.r.ReadByte()
	x.off++
	if err != nil {
		return 0, errIndex
	}
	return c, nil
}

// holds reads the header and every entry, then the extensions: a split
// index (its "link" extension) holds entries in another file, so not
// finding rel there proves nothing.
func (x *indexReader) holds(rel string) (bool, error) {
	h, err := x.read(12)
	if err != nil || string(h[:4]) != "DIRC" {
		return false, errIndex
	}
	version := binary.BigEndian.Uint32(h[4:8])
	count := int64(binary.BigEndian.Uint32(h[8:12]))
	if version < 2 || version > 4 || count > x.size/8 {
		return false, errIndex
	}
	fold := runtime.GOOS == "windows" || runtime.GOOS == "darwin" // core.ignorecase's default there
	var name []byte
	for range count {
		if name, err = x.entry(version, name); err != nil {
			return false, err
		}
		if matches(string(name), rel, fold) {
			return true, nil
		}
	}
	for x.size-x.off > int64(x.hashLen) {
		ext, err := x.read(8)
		if err != nil {
			return false, err
		}
		if string(ext[:4]) == "link" {
			return false, errors.New("a split index: its shared part is not read")
		}
		n := int64(binary.BigEndian.Uint32(ext[4:8]))
		if n > x.size-x.off {
			return false, errIndex
		}
		if _, err := x.r.Discard(int(n)); err != nil {
			return false, errIndex
		}
		x.off += n
	}
	return false, nil
}

// entry reads one entry, returning its path (prev: the one before, which
// version 4 names relative to).
func (x *indexReader) entry(version uint32, prev []byte) ([]byte, error) {
	fixed := 40 + x.hashLen + 2
	b, err := x.read(fixed)
	if err != nil {
		return nil, err
	}
	flags := binary.BigEndian.Uint16(b[fixed-2:])
	if flags&0x4000 != 0 {
		if version < 3 {
			return nil, errIndex
		}
		if _, err := x.read(2); err != nil {
			return nil, err
		}
		fixed += 2
	}
	if version == 4 {
		strip, err := x.varint()
		if err != nil || strip > uint64(len(prev)) {
			return nil, errIndex
		}
		rest, err := x.cstring()
		if err != nil {
			return nil, err
		}
		return append(append([]byte{}, prev[:len(prev)-int(strip)]...), rest...), nil
	}
	name, err := x.cstring()
	if err != nil {
		return nil, err
	}
	// 1 to 8 NULs pad the entry to a multiple of 8 bytes; cstring read
	// the first.
	pad := 8 - (fixed+len(name))%8
	if _, err := x.read(pad - 1); err != nil {
		return nil, err
	}
	return name, nil
}

// cstring reads up to a NUL (not kept), at most 64 KiB: no path is longer.
func (x *indexReader) cstring() ([]byte, error) {
	var out []byte
	for {
		c, err := x.byte()
		if err != nil {
			return nil, err
		}
		if c == 0 {
			return out, nil
		}
		if len(out) == 1<<16 {
			return nil, errIndex
		}
		out = append(out, c)
	}
}

// varint reads version 4's offset-encoded number.
func (x *indexReader) varint() (uint64, error) {
	c, err := x.byte()
	if err != nil {
		return 0, err
	}
	v := uint64(c & 0x7f)
	for i := 0; c&0x80 != 0; i++ {
		if i == 8 {
			return 0, errIndex
		}
		if c, err = x.byte(); err != nil {
			return 0, err
		}
		v = (v+1)<<7 | uint64(c&0x7f)
	}
	return v, nil
}

// matches says the index entry name is rel, or a sparse directory entry
// ("dir/") above it.
func matches(name, rel string, fold bool) bool {
	eq := func(a, b string) bool { return a == b || (fold && strings.EqualFold(a, b)) }
	if strings.HasSuffix(name, "/") {
		return len(rel) > len(name) && eq(rel[:len(name)], name)
	}
	return eq(name, rel)
}
