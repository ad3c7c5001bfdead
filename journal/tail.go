package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// tail is what an append needs of the journal's end.
type tail struct {
	size  int64
	torn  int64  // bytes after the last intact line
	found bool   // an intact last line exists in this file
	seq   int64  // its seq
	hash  string // its SHA-256, hex (ZeroHash when there is none)
	prev  string // its prev
}

// readTail finds the last intact line of f: the last line that ends in a
// newline and parses as a record. Bytes after it are torn: a line without
// its newline, and at most one complete line that is not a record (what a
// crash after the size but before the data reached the disk leaves: NULs).
// Anything worse is not a torn write, and is left for log verify to name.
func readTail(f *os.File) (tail, error) {
	st, err := f.Stat()
	if err != nil {
		return tail{}, err
	}
	t := tail{size: st.Size(), hash: ZeroHash}
	nl, err := prevNewline(f, t.size)
	if err != nil {
		return t, err
	}
	end := nl + 1 // just after the last newline; 0 when there is none
	for attempt := 0; attempt < 2 && end > 0; attempt++ {
		before, err := prevNewline(f, end-1)
		if err != nil {
			return t, err
		}
		start := before + 1
		line := make([]byte, end-1-start)
		if _, err := f.ReadAt(line, start); err != nil {
			return t, err
		}
		if seq, prev, ok := parseSeq(line); ok {
			sum := sha256.Sum256(line)
			t.found, t.seq, t.hash, t.prev = true, seq, hex.EncodeToString(sum[:]), prev
			t.torn = t.size - end
			return t, nil
		}
		end = start
	}
	if end > 0 {
		return t, errors.New("its last lines are not journal records (is journal.path another file? see hermes-hooks log verify)")
	}
	t.torn = t.size
	return t, nil
}

// prevNewline is the offset of the last '\n' in f before offset before,
// or -1.
func prevNewline(f *os.File, before int64) (int64, error) {
	var buf [8 << 10]byte
	for pos := before; pos > 0; {
		n := min(int64(len(buf)), pos)
		pos -= n
		if _, err := f.ReadAt(buf[:n], pos); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i), nil
		}
	}
	return -1, nil
}

// parseSeq reads a line's seq, and so whether it is a record at all. It
// checks the shape the writer gives every line — {"seq":N,"prev":"…", …} —
// without decoding the whole line: it runs under the lock on every append,
// and judging the rest is Verify's job.
func parseSeq(line []byte) (seq int64, prev string, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"seq":`))
	if !ok || len(line) < 2 || line[len(line)-1] != '}' {
		return 0, "", false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	seq, err := strconv.ParseInt(string(rest[:i]), 10, 64)
	if err != nil {
		return 0, "", false
	}
	rest, ok = bytes.CutPrefix(rest[i:], []byte(`,"prev":"`))
	if !ok {
		return 0, "", false
	}
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		prev = string(rest[:j])
	}
	return seq, prev, true
}

// chainFromRotated sets t's seq and hash from the newest rotated file's
// last line, when there is one.
func chainFromRotated(path string, t *tail) error {
	f, err := fsutil.OpenFile(rotatedName(path, 1), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	rt, err := readTail(f)
	if err != nil {
		return err
	}
	if rt.found {
		t.seq, t.hash, t.prev = rt.seq, rt.hash, rt.prev
	}
	return nil
}
