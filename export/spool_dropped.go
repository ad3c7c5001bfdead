package export

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// The spool's dropped file holds how many records were dropped: the count
// as 20 decimal digits and a newline, rewritten in place under the file's
// lock by whoever drops one. A byte appended per record (what it was) needed
// no lock but grew without bound under a long outage, when every record of
// every hook call is dropped; a rewrite in place keeps it at
// maxDroppedFile bytes, and the lock makes the read-add-write of concurrent
// one-shot processes lose no count.
const (
	droppedName = "dropped"
	// maxDroppedFile is the file's size once written.
	maxDroppedFile = 21
	// droppedLockWait bounds a drop's wait for the counter, held by each
	// writer for one small read and write: longer than the spool's own
	// wait, since a count given up is lost, and only a drop (the spool
	// full or locked) waits here.
	droppedLockWait = 2 * time.Second
	// droppedReadWait bounds Dropped's wait: a reader that does not get the
	// lock reads anyway (a count is one write of 21 bytes).
	droppedReadWait = 50 * time.Millisecond
)

func (s Spool) droppedPath() string { return filepath.Join(s.Dir, droppedName) }

// openDropped opens the dropped file: a regular file only, opened without
// blocking (a FIFO put there would hold the one-shot process that drops a
// record), and the file at that name itself, not one a link there leads
// to: a drop rewrites the file's start, which through a link to another
// of the user's files would destroy it. A link is not followed (fsutil.NoFollow,
// where the system has it: a dangling one would have its target created),
// and the file is compared after the open, so a name swapped meanwhile is
// refused as well.
func (s Spool) openDropped(flag int) (*os.File, error) {
	f, err := fsutil.OpenRegular(s.droppedPath(), flag|fsutil.NoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	at, lerr := os.Lstat(s.droppedPath())
	fi, ferr := f.Stat()
	if lerr != nil || ferr != nil || !os.SameFile(at, fi) {
		f.Close()
		return nil, fmt.Errorf("%s: not a file of its own (a link, or replaced while opened)", s.droppedPath())
	}
	return f, nil
}

// Dropped is how many records were dropped from the spool so far (0 when
// the file is missing or unreadable).
func (s Spool) Dropped() int64 {
	f, err := s.openDropped(os.O_RDONLY)
	if err != nil {
		return 0
	}
	defer f.Close()
	if unlock, err := fsutil.FlockWithin(f, droppedReadWait); err == nil {
		defer unlock()
	}
	return readDropped(f)
}

// addDropped counts n more dropped records. It never fails its caller (a
// hook's process that just dropped a record): a counter it cannot open or
// lock stays as it was.
func (s Spool) addDropped(n int) {
	if n <= 0 {
		return
	}
	f, err := s.openDropped(os.O_RDWR | os.O_CREATE)
	if err != nil {
		return
	}
	defer f.Close()
	unlock, err := fsutil.FlockWithin(f, droppedLockWait)
	if err != nil {
		return
	}
	defer unlock()
	count := readDropped(f)
	if count > math.MaxInt64-int64(n) {
		count = math.MaxInt64
	} else {
		count += int64(n)
	}
	line := []byte(strconv.FormatInt(count, 10))
	line = append(bytes.Repeat([]byte{'0'}, maxDroppedFile-1-len(line)), line...)
	if _, err := f.WriteAt(append(line, '\n'), 0); err != nil {
		return
	}
	// Cut what an older version's dots (or anything else) left past the
	// count. A crash before the cut leaves the count first, and the first
	// line is all readDropped reads.
	if fi, err := f.Stat(); err == nil && fi.Size() > maxDroppedFile {
		_ = f.Truncate(maxDroppedFile)
	}
}

// readDropped reads the count from the start of f: digits and a newline
// (at most 20 digits, within int64), or an older version's file of dots,
// one per record, whose size is the count. Anything else (torn by a crash
// on the first write, or written by someone else) counts as 0, and the next
// drop writes over it. It reads at most maxDroppedFile bytes, whatever the
// file's size.
func readDropped(f *os.File) int64 {
	buf := make([]byte, maxDroppedFile)
	n, _ := f.ReadAt(buf, 0)
	buf = buf[:n]
	if len(buf) > 0 && buf[0] == '.' {
		if bytes.Count(buf, []byte{'.'}) != len(buf) {
			return 0
		}
		if fi, err := f.Stat(); err == nil {
			return fi.Size()
		}
		return 0
	}
	i := bytes.IndexByte(buf, '\n')
	if i < 1 {
		return 0
	}
	for _, c := range buf[:i] {
		if c < '0' || c > '9' {
			return 0
		}
	}
	count, err := strconv.ParseInt(string(buf[:i]), 10, 64)
	if err != nil {
		return 0
	}
	return count
}
