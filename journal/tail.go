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
	"strings"

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

// MaxLine is the longest line a journal holds: a record that would be
// longer keeps its payload's SHA-256 only (Writer.Record), and one still
// longer is not written. It bounds what an append reads back from the
// journal's end, so that whatever sits at the journal's name — a huge file,
// a sparse one, a file that is no journal — costs a decision a bounded read
// and no allocation of its size.
const MaxLine = 64 << 20

// maxPayloadLine is the line length past which a record drops its payload
// (include_payload) and keeps only its SHA-256.
const maxPayloadLine = 16 << 20

// readTail finds the last intact line of f: the last line that ends in a
// newline and parses as a record. Bytes after it are torn: a line without
// its newline, and at most one complete line that is not a record (what a
// crash after the size but before the data reached the disk leaves: NULs).
// Anything worse is not a torn write, and is left for log verify to name:
// in particular more than MaxLine bytes after the last newline, a last
// line longer than MaxLine (no writer writes either), or a file without a
// record that does not start as one, are never truncated.
func readTail(f *os.File) (tail, error) {
	st, err := f.Stat()
	if err != nil {
		return tail{}, err
	}
	t := tail{size: st.Size(), hash: ZeroHash}
	notRecords := errors.New("its last lines are not journal records (is journal.path another file? see hermes-hooks log verify)")
	nl, err := prevNewline(f, t.size, t.size-MaxLine-1)
	if err != nil {
		return t, err
	}
	end := nl + 1 // just after the last newline; 0 when there is none
	if t.size-end > MaxLine {
		return t, notRecords
	}
	for attempt := 0; attempt < 2 && end > 0; attempt++ {
		before, err := prevNewline(f, end-1, end-1-MaxLine-1)
		if err != nil {
			return t, err
		}
		start := before + 1
		if end-1-start > MaxLine {
			return t, notRecords
		}
		if seq, prev, hash, ok := recordAt(f, start, end-1); ok {
			t.found, t.seq, t.hash, t.prev = true, seq, hash, prev
			t.torn = t.size - end
			return t, nil
		}
		end = start
	}
	// No record at all: all of it is torn only if it starts as a record
	// would (or as the NULs of a crash); else it is a file that is no
	// journal, which the old writer truncated to nothing.
	if end > 0 || (t.size > 0 && !tornShape(f, 0)) {
		return t, notRecords
	}
	t.torn = t.size
	return t, nil
}

// recordStart is how every line a writer writes begins.
const recordStart = `{"seq":`

// tornShape reports whether the bytes at off can be what a write cut
// short left: the start of a record, or NULs (a crash after the file's
// size reached the disk but before its data did). Anything else is not
// ours to truncate: a file that is no journal at the journal's name. (After
// an intact record, the file is a journal, and a line appended by hand is
// repaired as a torn one, as it always was.)
func tornShape(f *os.File, off int64) bool {
	var b [len(recordStart)]byte
	n, _ := f.ReadAt(b[:], off)
	if n == 0 {
		return false
	}
	return b[0] == 0 || strings.HasPrefix(recordStart, string(b[:n]))
}

// recordAt reads the line f holds in [start, end) as a record: its seq,
// prev and SHA-256. A line of up to smallLine bytes (every record without
// a large payload) is read whole, in one read; a longer one is hashed as
// it is read, without holding it in memory.
func recordAt(f *os.File, start, end int64) (seq int64, prev, hash string, ok bool) {
	n := end - start
	if n < 2 {
		return 0, "", "", false
	}
	if n <= smallLine {
		line := make([]byte, n)
		if _, err := f.ReadAt(line, start); err != nil {
			return 0, "", "", false
		}
		if seq, prev, ok = parseSeq(line); !ok {
			return 0, "", "", false
		}
		sum := sha256.Sum256(line)
		return seq, prev, hex.EncodeToString(sum[:]), true
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], end-1); err != nil || last[0] != '}' {
		return 0, "", "", false
	}
	head := make([]byte, 256, 257)
	if _, err := f.ReadAt(head, start); err != nil {
		return 0, "", "", false
	}
	// parseSeq checks the line's end too: that is the byte read above.
	if seq, prev, ok = parseSeq(append(head, '}')); !ok {
		return 0, "", "", false
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, start, n)); err != nil {
		return 0, "", "", false
	}
	return seq, prev, hex.EncodeToString(h.Sum(nil)), true
}

// smallLine is the longest line recordAt reads whole.
const smallLine = 64 << 10

// prevNewline is the offset of the last '\n' in f before offset before,
// or -1; it looks no further back than offset floor (-1 when it reached
// it: a caller that passes a floor within the file treats that as "no
// newline near enough").
func prevNewline(f *os.File, before, floor int64) (int64, error) {
	var buf [8 << 10]byte
	floor = max(floor, 0)
	for pos := before; pos > floor; {
		n := min(int64(len(buf)), pos-floor)
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
	f, err := fsutil.OpenRegular(rotatedName(path, 1), os.O_RDONLY, 0)
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
