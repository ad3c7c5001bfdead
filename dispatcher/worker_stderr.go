//go:build unix

package dispatcher

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
// and sync takes whatever is left. Two pipes are never ordered against each
// other otherwise; a background copier alone would attribute late bytes to
// the next request.
type stderrPump struct {
	r, wakeR, wakeW *os.File
	fd, wakeFD      int

	mu   sync.Mutex
	buf  *capBuffer
	ack  chan struct{}
	done chan struct{}
}

func newStderrPump(r *os.File, limit int) (*stderrPump, error) {
	wr, ww, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p := &stderrPump{r: r, wakeR: wr, wakeW: ww, fd: int(r.Fd()), wakeFD: int(wr.Fd()),
		buf: &capBuffer{max: limit}, ack: make(chan struct{}), done: make(chan struct{})}
	if err := unix.SetNonblock(p.fd, true); err != nil {
		return nil, err
	}
	go p.loop()
	return p, nil
}

func (p *stderrPump) loop() {
	defer close(p.done)
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}, {Fd: int32(p.wakeFD), Events: unix.POLLIN}}
	chunk := make([]byte, 32<<10)
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
		eof := false
		if fds[0].Revents != 0 {
			eof = p.drain(chunk)
		}
		if fds[1].Revents != 0 {
			var b [64]byte
			n, _ := unix.Read(p.wakeFD, b[:])
			eof = p.drain(chunk) || eof
			if n <= 0 {
				return // close: the worker is gone
			}
			for range n {
				p.ack <- struct{}{}
			}
		}
		if eof {
			return
		}
	}
}

// drain reads what the pipe holds now; true at EOF.
func (p *stderrPump) drain(chunk []byte) bool {
	for {
		n, err := unix.Read(p.fd, chunk)
		if n > 0 {
			p.mu.Lock()
			p.buf.Write(chunk[:n])
			p.mu.Unlock()
			continue
		}
		if err == unix.EAGAIN || errors.Is(err, unix.EINTR) {
			return false
		}
		return true // EOF or a broken pipe
	}
}

// take returns what the worker wrote since the last take, once whatever is
// in the pipe now has been read.
func (p *stderrPump) take() []byte {
	select {
	case <-p.done:
	default:
		if _, err := p.wakeW.Write([]byte{1}); err == nil {
			select {
			case <-p.ack:
			case <-p.done:
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := bytes.Clone(p.buf.buf.Bytes())
	p.buf.buf.Reset()
	p.buf.truncated = false
	return out
}

// close ends the pump once the worker is gone.
func (p *stderrPump) close() {
	p.wakeW.Close()
	<-p.done
	p.wakeR.Close()
	p.r.Close()
}
