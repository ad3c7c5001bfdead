//go:build unix

package hookproc

import (
	"os"
	"testing"
	"time"
)

// A worker's stderr pump, closed while something still held the pipe's
// write end (a killed worker's child not yet dead, an escapee not yet
// killed), had not seen EOF; the request path then took the worker's
// stderr, and take read the closed descriptor's number again — by then,
// likely, the next pipe or file this process opened (the lowest free
// number), whose bytes it stole, or on which it blocked.
func TestStderrPumpNeverReadsAfterClose(t *testing.T) {
	for attempt := 0; attempt < 20; attempt++ {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p, err := newStderrPump(r, DefaultOutputCap)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.WriteString("before\n"); err != nil {
			t.Fatal(err)
		}
		fd := p.fd
		p.close() // w still open: no EOF seen
		nr, nw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		reused := false
		if rc, err := nr.SyscallConn(); err == nil {
			_ = rc.Control(func(n uintptr) { reused = int(n) == fd })
		}
		if !reused {
			nr.Close()
			nw.Close()
			w.Close()
			continue // another goroutine took the number: try again
		}
		if _, err := nw.WriteString("someone else's\n"); err != nil {
			t.Fatal(err)
		}
		got := string(p.take())
		nw.Close()
		rest := make([]byte, 64)
		n, _ := nr.Read(rest)
		nr.Close()
		w.Close()
		if got != "before\n" || string(rest[:n]) != "someone else's\n" {
			t.Fatalf("take after close = %q, and the next pipe kept %q; want %q and %q", got, rest[:n], "before\n", "someone else's\n")
		}
		return
	}
	t.Skip("the closed descriptor's number was never reused in 20 attempts")
}

// A worker (or what it left holding its stderr) that writes faster than
// the pump reads — /dev/zero stands in for one that never falls behind —
// does not keep take or close waiting: the request path takes stderr
// after every reply and every failure.
func TestStderrPumpFloodDoesNotBlockTake(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	p, err := newStderrPump(f, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		n := len(p.take())
		p.close()
		done <- n
	}()
	select {
	case n := <-done:
		if n > 1<<10 {
			t.Fatalf("took %d bytes past a cap of 1 KiB", n)
		}
	case <-time.After(hangBound):
		t.Fatal("take or close waited for a flood to stop")
	}
}
