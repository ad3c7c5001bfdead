//go:build unix

package dispatcher

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// StopChangedWorkers stops, at once, the workers whose files (those the
// consent gate pinned when they started) no longer hold what they held
// then: a worker keeps running the code it loaded, so an edited script
// must not leave its old version serving until the next request notices.
// serve calls it whenever it sees a watched file change. A request in
// flight finishes first, on its own worker; the next one starts from the
// files as they are now (and is gated as usual). It returns the entries
// whose workers it stopped.
func (d *Dispatcher) StopChangedWorkers() []WorkerStatus {
	d.workers.mu.Lock()
	var stale []*workerPool
	var out []WorkerStatus
	for e, p := range d.workers.pools {
		if p.changed() {
			delete(d.workers.pools, e)
			stale = append(stale, p)
			out = append(out, WorkerStatus{Event: e.DeclaredAs, Command: e.Command})
		}
	}
	d.workers.mu.Unlock()
	for _, p := range stale {
		go p.Close()
	}
	return out
}

// changed reports whether any of the pool's files differs from the digest
// it was started with (a file that could not be read counts as changed).
func (p *workerPool) changed() bool {
	for i, f := range p.files {
		if sum, err := fileSum(f); err != nil || sum != p.sums[i] {
			return true
		}
	}
	return false
}

// fileSum is the hex SHA-256 of a regular file's content, "" for a
// missing one (as consent pins it). It never blocks on a FIFO.
func fileSum(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
