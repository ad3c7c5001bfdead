//go:build unix

package hookproc

import (
	"bytes"
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// stderrPump drains a worker's stderr all the time (a worker blocked on a
// full stderr pipe would never reply) and can say exactly what the worker
// wrote before its reply: the worker writes stderr before the reply line,
// so once the reply is read those bytes are in the pipe or already taken,
// and take reads whatever is left itself, under the same lock the pump
// reads under. Two pipes are never ordered against each other otherwise; a
// background copier alone would attribute late bytes to the next request.
type stderrPump struct {
	r, wakeR, wakeW *os.File
	fd, wakeFD      int

	mu    sync.Mutex
	buf   *capBuffer
	chunk []byte
	eof   bool
	done  chan struct{}
}

func newStderrPump(r *os.File, limit int) (*stderrPump, error) {
	wr, ww, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p := &stderrPump{r: r, wakeR: wr, wakeW: ww, fd: int(r.Fd()), wakeFD: int(wr.Fd()),
		buf: &capBuffer{max: limit}, chunk: make([]byte, 32<<10), done: make(chan struct{})}
	if err := unix.SetNonblock(p.fd, true); err != nil {
		return nil, err
	}
	go p.loop()
	return p, nil
}

func (p *stderrPump) loop() {
	defer close(p.done)
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}, {Fd: int32(p.wakeFD), Events: unix.POLLIN}}
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
		if fds[0].Revents != 0 {
			p.mu.Lock()
			p.drain()
			eof := p.eof
			p.mu.Unlock()
			if eof {
				return
			}
		}
		if fds[1].Revents != 0 {
			return // close: the worker is gone
		}
	}
}

// drain reads what the pipe holds now (p.mu held), drainReads chunks at
// most: a worker flooding stderr faster than it is read would otherwise
// keep p.mu, and the request waiting in take, for as long as it wrote.
func (p *stderrPump) drain() {
	for i := 0; !p.eof && i < drainReads; i++ {
		n, err := unix.Read(p.fd, p.chunk)
		if n > 0 {
			p.buf.Write(p.chunk[:n])
			continue
		}
		if err == unix.EAGAIN || errors.Is(err, unix.EINTR) {
			return
		}
		p.eof = true // EOF or a broken pipe
	}
}

// take returns what the worker wrote since the last take, including what
// the pipe holds right now.
func (p *stderrPump) take() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drain()
	out := bytes.Clone(p.buf.buf.Bytes())
	p.buf.buf.Reset()
	p.buf.truncated = false
	return out
}

// close ends the pump once the worker is gone. What the pipe holds is
// kept for take, and the pump is marked at its end: take must never read
// the descriptor again once it is closed. Something may still have held
// the write end (a killed worker's child not dead yet, an escapee not yet
// killed), so EOF was not necessarily seen; and the descriptor's number,
// once free, is the next one this process opens — a read there would take
// another pipe's bytes, or block on it.
func (p *stderrPump) close() {
	p.wakeW.Close()
	<-p.done
	p.mu.Lock()
	p.drain()
	p.eof = true
	p.mu.Unlock()
	p.wakeR.Close()
	p.r.Close()
}
