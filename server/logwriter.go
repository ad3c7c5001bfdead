package server

import (
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
)

// LogWriter is where serve's log lines go: an io.Writer whose Write never
// blocks. A host that starts serve with its stderr on a pipe it never reads
// (subprocess.Popen(..., stderr=PIPE) and nothing more) fills the pipe
// after a few hundred lines; a log write that waited for room there would
// hang every dispatch behind it. Write only queues the line (bounded, in
// lines and bytes); one goroutine writes the queue to the destination. A
// line the queue has no room for is dropped and counted, and once the
// destination takes lines again and the queue is empty, OnResume hears how
// many were lost, so the log itself can say so.
//
// Each Write is one log line (slog's handlers write one record per call).
type LogWriter struct {
	queue    chan []byte
	queued   atomic.Int64 // bytes in queue
	maxBytes int64
	dropped  atomic.Uint64 // since start
	unsaid   atomic.Uint64 // dropped since OnResume last heard
	onResume atomic.Pointer[func(dropped, total uint64)]

	// dst is the destination, written by the drain goroutine only; open
	// (nil: not a file) reopens it (Reopen).
	dst    io.Writer
	open   func() (io.WriteCloser, error)
	reopen chan chan error
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// Queue bounds of a LogWriter: a burst this large is absorbed while the
// destination is slow; beyond it, lines are dropped.
const (
	logQueueLines = 4096
	logQueueBytes = 4 << 20
)

// NewLogWriter returns a LogWriter draining to dst (stderr, say).
func NewLogWriter(dst io.Writer) *LogWriter {
	return newLogWriter(dst, nil, logQueueLines, logQueueBytes)
}

// OpenLogFile returns a LogWriter appending to the regular file at path
// (created mode 0600, an existing one's mode tightened to the owner's;
// never through a symbolic link, never a FIFO: logfile.go), which Reopen
// opens again by its name: log rotation renames the file, then asks the
// server to reopen (SIGUSR1).
func OpenLogFile(path string) (*LogWriter, error) {
	open := func() (io.WriteCloser, error) { return openLogFile(path) }
	f, err := open()
	if err != nil {
		return nil, err
	}
	return newLogWriter(f, open, logQueueLines, logQueueBytes), nil
}

func newLogWriter(dst io.Writer, open func() (io.WriteCloser, error), lines int, bytes int64) *LogWriter {
	w := &LogWriter{
		queue: make(chan []byte, lines), maxBytes: bytes,
		dst: dst, open: open,
		reopen: make(chan chan error), quit: make(chan struct{}), done: make(chan struct{}),
	}
	go w.drain()
	return w
}

// Write queues one line and returns at once; a line that does not fit is
// dropped (and counted), never waited for. It never fails.
func (w *LogWriter) Write(p []byte) (int, error) {
	n := int64(len(p))
	if w.queued.Add(n) > w.maxBytes {
		w.queued.Add(-n)
		w.drop()
		return len(p), nil
	}
	select {
	case w.queue <- append([]byte(nil), p...): // the caller reuses p
	default:
		w.queued.Add(-n)
		w.drop()
	}
	return len(p), nil
}

func (w *LogWriter) drop() {
	w.dropped.Add(1)
	w.unsaid.Add(1)
}

// Dropped is the number of lines lost since the start: not queued for want
// of room, or refused by the destination.
func (w *LogWriter) Dropped() uint64 { return w.dropped.Load() }

// OnResume sets what hears, once the destination takes lines again after
// some were dropped, how many were (since the last call, and in all).
// serve logs a warning there.
func (w *LogWriter) OnResume(f func(dropped, total uint64)) { w.onResume.Store(&f) }

// errNotReopenable answers Reopen on a destination that is not a file.
var errNotReopenable = errors.New("the log goes to a stream, not a file (--log-file): nothing to reopen")

// Reopen opens the log file again by its name, for log rotation; lines
// queued before are written to the old file. It waits for the drain
// goroutine, which may be stuck writing to a stream: call it off the
// request path (serve's signal loop does).
func (w *LogWriter) Reopen() error {
	if w.open == nil {
		return errNotReopenable
	}
	reply := make(chan error)
	select {
	case w.reopen <- reply:
		return <-reply
	case <-w.done:
		return errors.New("the log writer is closed")
	}
}

// Close writes what is queued, waiting at most timeout (a destination
// that takes nothing must not hold the exit), and stops the writer. Lines
// written after Close are lost.
func (w *LogWriter) Close(timeout time.Duration) {
	w.once.Do(func() { close(w.quit) })
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-w.done:
	case <-t.C:
	}
}

// drain is the one goroutine that writes to the destination.
func (w *LogWriter) drain() {
	defer close(w.done)
	defer func() {
		if c, ok := w.dst.(io.Closer); ok && w.open != nil {
			c.Close()
		}
	}()
	for {
		select {
		case line := <-w.queue:
			w.write(line)
		case reply := <-w.reopen:
			// Lines queued before the request belong to the old file
			// (select picks among ready cases at random).
			w.flush()
			reply <- w.swap()
		case <-w.quit:
			w.flush()
			return
		}
	}
}

// flush writes what is queued now.
func (w *LogWriter) flush() {
	for {
		select {
		case line := <-w.queue:
			w.write(line)
		default:
			return
		}
	}
}

// write writes one queued line; then, when the queue is empty and lines
// were dropped since OnResume last heard, tells it.
func (w *LogWriter) write(line []byte) {
	w.queued.Add(-int64(len(line)))
	if _, err := w.dst.Write(line); err != nil {
		// A closed pipe, a full disk: the line is as lost as a dropped one.
		w.drop()
		return
	}
	if len(w.queue) > 0 || w.unsaid.Load() == 0 {
		return
	}
	if f := w.onResume.Load(); f != nil {
		if n := w.unsaid.Swap(0); n > 0 {
			(*f)(n, w.dropped.Load())
		}
	}
}

// swap opens the file again and makes it the destination; on failure the
// old one stays.
func (w *LogWriter) swap() error {
	f, err := w.open()
	if err != nil {
		return err
	}
	if c, ok := w.dst.(io.Closer); ok {
		c.Close()
	}
	w.dst = f
	return nil
}

// NewLogger is serve's logger on w: format "text" or "json", level
// "debug", "info", "warn" or "error". Logs quote commands, paths and hook
// output, so what a terminal would act on is escaped (package termsafe).
// The error is ErrLogLevel or ErrLogFormat.
func NewLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, ErrLogLevel
	}
	opts := &slog.HandlerOptions{Level: lv, ReplaceAttr: termsafe.SlogReplaceAttr}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, ErrLogFormat
}

// The errors of NewLogger.
var (
	ErrLogLevel  = errors.New("unknown log level")
	ErrLogFormat = errors.New("unknown log format")
)
