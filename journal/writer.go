package journal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
)

// Defaults for Options.
const (
	// DefaultFile is the journal's name in HERMES_HOME.
	DefaultFile = "hook-journal.jsonl"
	// DefaultMaxBytes is the live file's size at which it is rotated.
	DefaultMaxBytes = 64 << 20
	// MaxRotated bounds the rotated files a rotation shifts (each is
	// renamed, under the lock, by the dispatch that rotates): past it, a
	// rotation is refused and the record lost, so that files planted by
	// the thousand cost records, never a delayed decision. At the
	// default size it is 64 GB of journal.
	MaxRotated = 1000
	// DefaultLockWait bounds how long an append waits for another
	// writer's lock. An append holds it for tens of microseconds, but on
	// a loaded machine a holder can be descheduled for hundreds of
	// milliseconds: with 250 ms, 16 one-shot dispatches at once lost a
	// record under load (journal_concurrency.txtar). Two seconds, as for
	// the session lock: only a stuck (stopped, or NFS-hung) writer makes
	// it run out; the record is then lost and counted rather than the
	// decision held up longer.
	DefaultLockWait = 2 * time.Second
)

// Options configures a Writer.
type Options struct {
	// Path is the live journal file (required).
	Path string
	// MaxBytes rotates the live file before it would grow past it
	// (DefaultMaxBytes).
	MaxBytes int64
	// IncludePayload keeps each dispatch's fields whole, not only their
	// SHA-256.
	IncludePayload bool
	// Version is the hermes-hooks version every record names; when it is
	// "", VersionOf gives it at the first record (reading a binary's
	// build information is not free, and most one-shot dispatches write
	// no record).
	Version   string
	VersionOf func() string
	// LockWait bounds the wait for the lock (DefaultLockWait).
	LockWait time.Duration
	// Warn receives the first write failure (nil: dropped); later ones
	// are only counted.
	Warn func(string)
	// Background keeps records off the decision path, for a process that
	// answers many decisions at once (serve): a record is appended at
	// once when the journal's lock is free and no record waits before it,
	// else queued (at most MaxPending) for a goroutine that appends in
	// order, so a stuck or busy journal delays no decision and decisions
	// never wait for one another's records. Close flushes the queue. A
	// one-shot process, which exits right after its decision, appends in
	// the foreground (within LockWait) instead.
	Background bool
	// OnAppend, if set, is given each line (without its newline) once it
	// is appended: the journal has the record first, so what OnAppend
	// does with it (package export's queue or spool) can never lose it
	// from the record of truth. It is called with the Writer's own mutex
	// held and must return quickly; it must not keep line.
	OnAppend func(line []byte)
}

// version is Options.Version, else VersionOf's answer, asked once.
func (w *Writer) version() string {
	w.versionOnce.Do(func() {
		if w.opts.Version == "" && w.opts.VersionOf != nil {
			w.opts.Version = w.opts.VersionOf()
		}
	})
	return w.opts.Version
}

// Writer appends records to a journal. Any number of Writers, in any
// number of processes, may append to one journal at once: every append
// happens under the lock file's lock and checks the file's end. To keep an
// append to a few system calls, a Writer keeps the lock file and the live
// journal open and remembers the end it wrote last (size, seq, hash); when
// the file under the path is still that file and still that size, nobody
// else wrote since and the end need not be read again. It is safe for
// concurrent use.
type Writer struct {
	opts     Options
	failures atomic.Int64
	warned   atomic.Bool

	mu sync.Mutex // one append at a time per Writer (one lock fd)
	// versionOnce fills opts.Version from opts.VersionOf (version).
	versionOnce sync.Once
	lockF       *os.File
	f           *os.File    // the live journal, O_APPEND
	fInfo       os.FileInfo // its identity when opened
	last        tail        // the end this Writer last wrote
	headF       *os.File    // the head record (HeadPath), kept open
	headInfo    os.FileInfo // its identity when opened
	headSize    int64       // its size
	head        *head       // the head record it last wrote
	advance     bool        // head was moved on with last
	known       bool        // last, head and advance are valid for f
	// bg is the queue of Options.Background (background.go).
	bg background
}

var _ dispatcher.Recorder = (*Writer)(nil)

// New returns a Writer for opts.
func New(opts Options) *Writer {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.LockWait <= 0 {
		opts.LockWait = DefaultLockWait
	}
	return &Writer{opts: opts}
}

// Path is the live journal file.
func (w *Writer) Path() string { return w.opts.Path }

// Failures counts the records that could not be written.
func (w *Writer) Failures() int64 { return w.failures.Load() }

// Record appends the dispatch (dispatcher.Recorder). A failure is counted
// and reported once; it never reaches the dispatch.
func (w *Writer) Record(ctx context.Context, r *dispatcher.Record) {
	route := RouteOf(ctx)
	body := pyjson.Append(nil, w.body(r, route, true), pyjson.Compact)
	if len(body) > maxPayloadLine && w.opts.IncludePayload {
		// Its SHA-256 stands for a payload this large: a line an
		// append must read back stays bounded (MaxLine).
		body = pyjson.Append(body[:0], w.body(r, route, false), pyjson.Compact)
	}
	// Text a payload or a hook chose is kept, but no character of it that
	// a terminal acts on (a C1 CSI, a right-to-left override) is written
	// raw: the line is printed whole by log --json, syslog and a tail of
	// the file, and JSON's own escape keeps the value.
	body = termsafe.EscapeJSON(body)
	if len(body) > MaxLine-200 { // seq, prev and repaired come on top
		w.fail(fmt.Errorf("a record of %d bytes is longer than a journal line may be (%d)", len(body), MaxLine))
		return
	}
	if w.opts.Background {
		w.recordBackground(body)
		return
	}
	if err := w.appendWithin(body, w.waitFor(ctx)); err != nil {
		w.fail(err)
	}
}

// waitFor is how long a foreground append may wait for the journal's lock:
// LockWait, but never past ctx's deadline (a hook call's: the agent's own
// timeout, less a margin). An agent that stops waiting reads no answer,
// which most take as no objection, so the record gives up first: at the
// deadline, one attempt and no wait.
func (w *Writer) waitFor(ctx context.Context) time.Duration {
	wait := w.opts.LockWait
	if dl, ok := ctx.Deadline(); ok {
		wait = max(min(wait, time.Until(dl)), 0)
	}
	return wait
}

func (w *Writer) fail(err error) {
	w.failures.Add(1)
	if w.warned.CompareAndSwap(false, true) && w.opts.Warn != nil {
		w.opts.Warn("decision journal: cannot record to " + w.opts.Path + ": " + err.Error() +
			" (decisions are unaffected; further failures are counted, not repeated)")
	}
}

// append writes one record whose JSON object, without seq and prev, is
// body, waiting at most LockWait for the lock.
func (w *Writer) append(body []byte) error { return w.appendWithin(body, w.opts.LockWait) }

// appendWithin is append, waiting at most wait for the lock.
func (w *Writer) appendWithin(body []byte, wait time.Duration) error {
	if len(body) < 2 || body[0] != '{' {
		return errors.New("journal: record is not a JSON object")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.appendLocked(body, wait)
}

// appendLocked is append with w.mu held: under the journal's lock
// (waiting at most wait) it finds the last intact line (repairing a torn
// tail) and the head record, rotates if the line would overflow the file,
// appends {"seq":…,"prev":…, body…}\n in one write, and moves the head
// record on.
func (w *Writer) appendLocked(body []byte, wait time.Duration) error {
	unlock, err := w.lock(wait)
	if err != nil {
		return err
	}
	defer func() { unlock() }()
	f, err := w.live()
	if err != nil {
		return err
	}
	// A head record that cannot be opened (a FIFO put at its name, say)
	// stops no record: the head is evidence of the journal's end, the
	// records are the journal. The append goes on without it, and says so.
	headErr := w.openHead()
	t, h, advance, err := w.end(f)
	if err != nil {
		return err
	}
	if w.headF == nil {
		h, advance = nil, false // not from end's memory of an earlier append either
	}
	w.known = false // until this append is known to have succeeded
	line := make([]byte, 0, len(body)+120)
	line = append(line, `{"seq":`...)
	line = strconv.AppendInt(line, t.seq+1, 10)
	line = append(line, `,"prev":"`...)
	line = append(line, t.hash...)
	line = append(line, '"', ',')
	line = append(line, body[1:len(body)-1]...)
	if t.torn > 0 {
		line = append(line, `,"repaired":`...)
		line = strconv.AppendInt(line, t.torn, 10)
	}
	line = append(line, '}', '\n')
	if t.size > 0 && t.size+int64(len(line)) > w.opts.MaxBytes {
		// Counted before the head records the rotation: a refused one
		// must not grow it at each attempt.
		n, err := countRotated(w.opts.Path)
		if err != nil {
			return err
		}
		if h != nil {
			// Recorded before the files move: a start listed for a
			// rotation that a crash then cut short explains nothing
			// that is not there.
			h.Starts = append(h.Starts, chainStart{Seq: t.seq + 1, Prev: t.hash})
			if w.headSize, err = writeHead(w.headF, w.headSize, h); err != nil {
				return fmt.Errorf("update the head record: %w", err)
			}
		}
		if err := rotate(w.opts.Path, n); err != nil {
			return fmt.Errorf("rotate: %w", err)
		}
		t.size = 0
		if f, err = w.live(); err != nil {
			return err
		}
	}
	n, err := f.Write(line)
	if err != nil {
		if n > 0 {
			// A short write (disk full) left a torn line: take it back
			// now rather than leave it for the next append.
			_ = f.Truncate(t.size)
		}
		return err
	}
	sum := sha256.Sum256(line[:len(line)-1])
	hash := hex.EncodeToString(sum[:])
	w.last = tail{size: t.size + int64(n), found: true, seq: t.seq + 1, hash: hash, prev: t.hash}
	if advance {
		h.Seq, h.Hash = t.seq+1, hash
		if w.headSize, err = writeHead(w.headF, w.headSize, h); err != nil {
			// The record is written; the head lags it by one, which the
			// next append and Verify accept.
			return fmt.Errorf("the record was written, but not the head record: %w", err)
		}
	}
	w.head, w.advance, w.known = h, advance, true
	if w.opts.OnAppend != nil {
		unlock() // the journal's lock: the callback needs only w.mu
		unlock = func() {}
		w.opts.OnAppend(line[:len(line)-1])
	}
	if headErr != nil {
		return fmt.Errorf("the record was written, but not the head record: %w", headErr)
	}
	return nil
}

// end is where the journal ends (its last intact record, after repairing
// a torn tail) and its head record; advance says whether this append may
// move the head on (see head.go). A Writer that wrote the file's end
// itself knows both without reading.
func (w *Writer) end(f *os.File) (t tail, h *head, advance bool, err error) {
	if fi, err := f.Stat(); err == nil && w.known && fi.Size() == w.last.size {
		return w.last, w.head, w.advance, nil // nobody wrote since our last append
	}
	if t, err = readTail(f); err != nil {
		return t, nil, false, fmt.Errorf("read the journal's last line: %w", err)
	}
	if t.torn > 0 {
		if err := f.Truncate(t.size - t.torn); err != nil {
			return t, nil, false, fmt.Errorf("truncate a torn last line: %w", err)
		}
		t.size -= t.torn
	}
	if !t.found {
		// An empty live file (fresh, or just rotated): the chain goes
		// on from the newest rotated file.
		if err := chainFromRotated(w.opts.Path, &t); err != nil {
			return t, nil, false, err
		}
	}
	if w.headF == nil {
		return t, nil, false, nil // it could not be opened (appendLocked)
	}
	h, w.headSize, err = readHeadFile(w.headF)
	switch {
	case err != nil:
		// Unreadable, or not a head record: left as it is, for Verify
		// to name; the records still go on.
		return t, nil, false, nil
	case h == nil && t.seq == 0:
		return t, &head{Hash: ZeroHash}, true, nil
	case h == nil:
		return t, adoptHead(w.opts.Path, t), true, nil
	case t.seq == h.Seq && t.hash == h.Hash:
		return t, h, true, nil
	case t.seq > h.Seq && follows(w.opts.Path, t, h):
		return t, h, true, nil
	}
	// The journal no longer ends with the head's record: records were
	// removed (or replaced). The head stays as the evidence.
	return t, h, false, nil
}

// lock takes the journal's lock, within the bound, through the lock file
// this Writer keeps open.
func (w *Writer) lock(wait time.Duration) (func(), error) {
	if w.lockF == nil {
		f, err := fsutil.OpenLockFile(w.opts.Path + ".lock")
		if errors.Is(err, fs.ErrNotExist) {
			// A fresh home: create the journal's directory, privately
			// (the journal names every command and working directory).
			if mkErr := os.MkdirAll(filepath.Dir(w.opts.Path), 0o700); mkErr != nil {
				return nil, mkErr
			}
			f, err = fsutil.OpenLockFile(w.opts.Path + ".lock")
		}
		if err != nil {
			return nil, err
		}
		w.lockF = f
	}
	return fsutil.FlockWithin(w.lockF, wait)
}

// openHead opens the head record (HeadPath), again when the path no
// longer names the file this Writer has open: a head record removed or
// replaced behind its back is written afresh from what it knows.
func (w *Writer) openHead() error {
	p := HeadPath(w.opts.Path)
	if w.headF != nil {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, w.headInfo) {
			return nil
		}
		w.headF.Close()
		w.headF = nil
	}
	// Shared for deletion (on Windows): a Writer keeps it open.
	f, err := fsutil.OpenRegular(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open the head record: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	w.headF, w.headInfo, w.headSize = f, fi, fi.Size()
	return nil
}

// live returns the open live journal, reopened when the path no longer
// names the file this Writer has open (another process rotated it).
func (w *Writer) live() (*os.File, error) {
	if w.f != nil {
		if fi, err := os.Stat(w.opts.Path); err == nil && os.SameFile(fi, w.fInfo) {
			return w.f, nil
		}
		w.f.Close()
		w.f, w.known = nil, false
	}
	// Shared for deletion (on Windows): a Writer keeps it open, and
	// another process must still be able to rotate it. A regular file
	// only: a FIFO put at its name took a record larger than its buffer
	// for ever, and the decision with it.
	f, err := fsutil.OpenRegular(w.opts.Path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	w.f, w.fInfo = f, fi
	return f, nil
}

// closeFlush bounds how long Close waits for queued records.
const closeFlush = 2 * time.Second

// Close appends the records a Background writer still has queued (within
// a bound: the rest are counted lost) and releases the files a Writer
// keeps open.
func (w *Writer) Close() error {
	if !w.Flush(closeFlush) {
		w.bg.closing.Store(true)
		w.drop()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
	if w.lockF != nil {
		w.lockF.Close()
		w.lockF = nil
	}
	if w.headF != nil {
		w.headF.Close()
		w.headF = nil
	}
	w.known = false
	return nil
}

// ForConfig is the Writer a config's journal: block asks for, writing to
// home's DefaultFile unless it names a path; nil when the journal is off.
// opts supplies Version, Warn and LockWait.
func ForConfig(c hookconfig.JournalConfig, home string, opts Options) *Writer {
	if c.Off {
		return nil
	}
	opts.Path = PathFor(c, home)
	opts.MaxBytes = c.MaxBytes
	opts.IncludePayload = c.IncludePayload
	return New(opts)
}

// PathFor is the live journal file of a config's journal: block.
func PathFor(c hookconfig.JournalConfig, home string) string {
	if c.Path != "" {
		return c.Path
	}
	return filepath.Join(home, DefaultFile)
}
