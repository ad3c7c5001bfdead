package journal

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Follow hands emit every complete line of the journal at path (the
// rotated files first, oldest first), then polls for more until ctx ends,
// and returns nil then. The live file is opened first and read through
// that descriptor: a rotation is seen as the path naming another file, and
// the old one is read to its end before the new one is read from its
// start, so nothing appended meanwhile is missed. Polling (four times a
// second) is simpler than a watcher and plenty for a person watching
// (`hermes-hooks log -f`).
//
// emit gets every line with where it is (for FollowCheck): complete ones,
// a rotated file's last line without its newline, and a line longer than
// MaxLine as TooLong without its bytes. Lines are numbered per file; the
// live file's keep the numbers they had when it is renamed by a rotation.
//
// caughtUp (when not nil) is called once, after the lines that were there
// when Follow started were handed on, before any that came later: where
// FollowCheck.CaughtUp judges the journal's end.
func Follow(ctx context.Context, path string, emit func(Line), caughtUp func()) error {
	f := openIfThere(path)
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	var live os.FileInfo
	if f != nil {
		live, _ = f.Stat()
	}
	files, err := Files(path)
	if err != nil {
		return err
	}
	for _, file := range files {
		if file == path {
			continue
		}
		if st, err := os.Stat(file); err == nil && live != nil && os.SameFile(st, live) {
			continue // rotated since we opened it: read below, through f
		}
		if err := lines(file, func(l Line, _ bool) error { emit(l); return nil }); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	var (
		off     int64
		lineNo  int // the live file's lines emitted
		partial []byte
		skip    bool // inside a line longer than MaxLine
		buf     = make([]byte, 64<<10)
	)
	readMore := func() {
		for f != nil {
			n, err := f.ReadAt(buf, off)
			off += int64(n)
			// Only the bytes just read can hold the next newline: searching
			// the whole of a long partial line again at every read made a
			// 64 MiB line cost some 32 GiB of scanning (log -f stalled for
			// seconds, tens of them on a loaded machine).
			from := len(partial)
			partial = append(partial, buf[:n]...)
			for {
				i := bytes.IndexByte(partial[from:], '\n')
				if i < 0 {
					break
				}
				i += from
				from = 0
				lineNo++
				if !skip && i <= MaxLine {
					emit(Line{File: path, N: lineNo, Bytes: partial[:i], Complete: true})
				} else {
					emit(Line{File: path, N: lineNo, Complete: true, TooLong: true})
				}
				partial, skip = partial[i+1:], false
			}
			if len(partial) > MaxLine {
				// Longer than any record: not kept in memory, and the
				// rest of it, up to its newline, is passed over.
				partial, skip = nil, true
			}
			if n == 0 || err != nil {
				return
			}
		}
	}
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		readMore()
		if caughtUp != nil {
			caughtUp()
			caughtUp = nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		cur, err := os.Stat(path)
		if err != nil {
			continue
		}
		var st os.FileInfo
		if f != nil {
			st, _ = f.Stat()
		}
		switch {
		case f == nil || st == nil || !os.SameFile(st, cur):
			// Rotated (or created): finish the old file, go on with the new.
			readMore()
			if f != nil {
				f.Close()
			}
			f, off, lineNo, partial, skip = openIfThere(path), 0, 0, nil, false
		case st.Size() < off:
			// Truncated (a torn tail repaired): go on from the cut, and
			// number the lines on from there. A repair cuts only what
			// was not yet a line; a cut into the lines is counted again.
			if st.Size() < off-int64(len(partial)) {
				lineNo = countLines(f, st.Size())
			}
			off, partial, skip = st.Size(), nil, false
		}
	}
}

// countLines counts the newlines in f's first size bytes.
func countLines(f *os.File, size int64) int {
	buf := make([]byte, 64<<10)
	n := 0
	for off := int64(0); off < size; {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		n += bytes.Count(buf[:k], []byte{'\n'})
		off += int64(k)
		if err != nil || k == 0 {
			break
		}
	}
	return n
}

func openIfThere(path string) *os.File {
	f, err := fsutil.OpenRegular(path, os.O_RDONLY, 0)
	if err != nil {
		return nil // not there yet (or not a file): the next tick looks again
	}
	return f
}
