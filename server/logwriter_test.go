package server

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// stuckWriter takes nothing until released: a pipe nobody reads.
type stuckWriter struct {
	release chan struct{}
	mu      sync.Mutex
	got     bytes.Buffer
}

func (s *stuckWriter) Write(p []byte) (int, error) {
	<-s.release
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got.Write(p)
}

func (s *stuckWriter) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.got.String() }

// Write returns at once however long the destination takes; what does not
// fit in the queue is dropped and counted, and once the destination takes
// lines again the drop is reported, once.
func TestLogWriterNeverBlocks(t *testing.T) {
	dst := &stuckWriter{release: make(chan struct{})}
	w := newLogWriter(dst, nil, 8, 1<<20)
	resumed := make(chan [2]uint64, 4)
	w.OnResume(func(n, total uint64) { resumed <- [2]uint64{n, total} })

	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 1000 {
			if n, err := w.Write([]byte("line " + strconv.Itoa(i) + "\n")); n == 0 || err != nil {
				t.Errorf("Write = %d, %v", n, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second): // a hang guard: 1000 queue attempts take microseconds
		t.Fatal("Write blocked on a destination that takes nothing")
	}
	// At most the queue and the line being written got through.
	if d := w.Dropped(); d < 1000-9 || d > 1000-8 {
		t.Fatalf("Dropped = %d, want 991 or 992", d)
	}
	dropped := w.Dropped()
	close(dst.release)
	select {
	case r := <-resumed:
		if r[0] != dropped || r[1] != dropped {
			t.Errorf("OnResume(%d, %d), want %d", r[0], r[1], dropped)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no OnResume after the destination drained")
	}
	w.Close(time.Minute) // a hang guard: draining takes milliseconds
	if got := strings.Count(dst.String(), "\n"); uint64(got) != 1000-dropped {
		t.Errorf("%d lines written, want %d", got, 1000-dropped)
	}
	select {
	case r := <-resumed:
		t.Errorf("a second OnResume(%v) without new drops", r)
	default:
	}
}

// The queue is bounded in bytes too: one huge line is dropped, not kept.
func TestLogWriterByteBound(t *testing.T) {
	dst := &stuckWriter{release: make(chan struct{})}
	w := newLogWriter(dst, nil, 8, 100)
	w.Write(bytes.Repeat([]byte("x"), 101))
	if w.Dropped() != 1 {
		t.Errorf("Dropped = %d, want the oversized line dropped", w.Dropped())
	}
	close(dst.release)
	w.Close(time.Minute) // a hang guard: draining takes milliseconds
}

// Write copies the line: slog reuses its buffer.
func TestLogWriterCopiesTheLine(t *testing.T) {
	var dst lockedBuffer
	w := newLogWriter(&dst, nil, 8, 1<<20)
	b := []byte("first\n")
	w.Write(b)
	copy(b, "XXXXX\n")
	w.Close(time.Minute) // a hang guard: draining takes milliseconds
	if dst.String() != "first\n" {
		t.Errorf("wrote %q", dst.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A line the destination refuses (a closed pipe) counts as dropped.
func TestLogWriterWriteErrorCounts(t *testing.T) {
	w := newLogWriter(failingWriter{}, nil, 8, 1<<20)
	w.Write([]byte("a\n"))
	w.Write([]byte("b\n"))
	w.Close(time.Minute) // a hang guard: draining takes milliseconds
	if w.Dropped() != 2 {
		t.Errorf("Dropped = %d, want 2", w.Dropped())
	}
}

// Close gives up on a destination that takes nothing.
func TestLogWriterCloseBounded(t *testing.T) {
	dst := &stuckWriter{release: make(chan struct{})}
	defer close(dst.release)
	w := newLogWriter(dst, nil, 8, 1<<20)
	w.Write([]byte("stuck\n"))
	start := time.Now()
	w.Close(50 * time.Millisecond)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close took %s", d)
	}
}

// Reopen (SIGUSR1): lines before go to the renamed file, lines after to a
// new file under the name.
func TestLogFileReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "serve.log")
	w, err := OpenLogFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("before\n"))
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := w.Reopen(); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("after\n"))
	w.Close(time.Minute) // a hang guard: draining takes milliseconds
	old, _ := os.ReadFile(path + ".1")
	cur, _ := os.ReadFile(path)
	if string(old) != "before\n" || string(cur) != "after\n" {
		t.Errorf("old %q, new %q", old, cur)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new file: %v %v", fi.Mode(), err)
	}
	if err := NewLogWriter(io.Discard).Reopen(); !errors.Is(err, errNotReopenable) {
		t.Errorf("Reopen on a stream: %v", err)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }
