package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// SpoolDir is the spool's directory in HERMES_HOME.
const SpoolDir = "export-spool"

// MaxSpoolBytes bounds the spool: a record that finds it full is dropped
// and counted (the journal still has it).
const MaxSpoolBytes = 64 << 20

// lineSlack is what a flush reads of the spool beyond its bound: the
// longest journal line (the last append may pass the bound by one).
const lineSlack = 64 << 20

// spoolLockWait bounds an append's wait for the spool's lock, which is
// only ever held for one write or one read-and-truncate.
const spoolLockWait = 250 * time.Millisecond

// Spool is where a one-shot process leaves its records for export: it
// appends its line to one file (spool.jsonl) under that file's lock, a
// few system calls and no new file (creating a file per record cost
// ~0.5 ms on ext4). A flush (the detached `export flush` child, or serve)
// moves the content to spool.sending under the same lock, empties the
// file, then sends spool.sending and removes it; one that fails leaves it
// for the next flush, which sends it first.
type Spool struct {
	Dir string
	// Max bounds the spool in bytes (MaxSpoolBytes when 0).
	Max int64
}

func (s Spool) live() string    { return filepath.Join(s.Dir, "spool.jsonl") }
func (s Spool) sending() string { return filepath.Join(s.Dir, "spool.sending") }

// Append leaves one journal line in the spool.
func (s Spool) Append(line []byte) error {
	line = bytes.TrimRight(line, "\r\n")
	// A regular file only, opened without blocking: a one-shot process
	// appends before it answers, and a FIFO put here held its decision
	// for ever.
	f, err := fsutil.OpenRegular(s.live(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(s.Dir, 0o700); err == nil {
			f, err = fsutil.OpenRegular(s.live(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	dropped, err := s.appendLocked(f, line)
	if dropped {
		// Counted after the spool's lock is let go: the count may wait
		// up to droppedLockWait for another process, and every other
		// one-shot process would wait that long on the spool (past its
		// spoolLockWait, so dropping its record too).
		s.addDropped(1)
	}
	return err
}

// appendLocked writes line to f, the live spool, under its lock, and
// reports whether the record was dropped (the lock not had, or the spool
// full).
func (s Spool) appendLocked(f *os.File, line []byte) (dropped bool, err error) {
	unlock, err := fsutil.FlockWithin(f, spoolLockWait)
	if err != nil {
		return true, err
	}
	defer unlock()
	if fi, err := f.Stat(); err == nil && fi.Size()+int64(len(line)) > s.max() {
		return true, fmt.Errorf("the export spool %s is full (%d bytes): the record was dropped", s.Dir, fi.Size())
	}
	// One write: a line is never split, nor interleaved with another's.
	_, err = f.Write(append(line[:len(line):len(line)], '\n'))
	return false, err
}

func (s Spool) max() int64 {
	if s.Max > 0 {
		return s.Max
	}
	return MaxSpoolBytes
}

// Busy reports whether a flush holds the spool now (one process at a
// time sends it).
func (s Spool) Busy() bool {
	f, err := fsutil.OpenLockFile(filepath.Join(s.Dir, "flush.lock"))
	if err != nil {
		return false
	}
	defer f.Close()
	return fsutil.TryLock(f) != nil
}

// Pending reports whether any record waits in the spool.
func (s Spool) Pending() bool {
	if fi, err := os.Stat(s.live()); err == nil && fi.Size() > 0 {
		return true
	}
	_, err := os.Stat(s.sending())
	return err == nil
}

// take moves the live spool's records to spool.sending (unless that is
// still there from a flush that failed) and empties the live file.
func (s Spool) take() ([]byte, error) {
	if data, err := fsutil.ReadRegular(s.sending(), "", s.max()+lineSlack); err == nil {
		return data, nil
	}
	f, err := fsutil.OpenRegular(s.live(), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	unlock, err := fsutil.FlockWithin(f, 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Bounded: Append keeps the spool within max, bar one line.
	data, err := io.ReadAll(io.LimitReader(f, s.max()+lineSlack))
	if err != nil || len(data) == 0 {
		return nil, err
	}
	if err := fsutil.WriteAtomic(s.sending(), data, 0o600, ".sending-*", nil); err != nil {
		return nil, err
	}
	return data, f.Truncate(0)
}

// FlushResult is what one Flush did.
type FlushResult struct {
	Sent, Dropped, Left int
	// Busy: another flush held the spool; this one did nothing.
	Busy bool
}

// lingerPoll is how often a lingering flush looks for new records.
const lingerPoll = 50 * time.Millisecond

// Flush sends the spooled records to cfg's sinks until none is left or
// ctx ends (a record not sent stays for the next flush), one flush at a
// time. Records are removed once every sink took them: a sink that took
// them while another failed may get them again (at least once).
//
// With opts.Linger, the flush keeps the spool (and its lock) until no new
// record came for that long: one-shot processes of a burst of tool calls
// find it busy and start no flush of their own. A record appended before
// its process saw the spool busy is never stranded: after releasing the
// lock, the flush looks once more and goes on if one is there.
func (s Spool) Flush(ctx context.Context, cfg Config, opts Options) (FlushResult, error) {
	var res FlushResult
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return res, err
	}
	opts = opts.withDefaults()
	sinks := sinksFor(cfg, opts.Version)
	defer func() {
		for _, k := range sinks {
			k.close()
		}
	}()
	for first := true; ; first = false {
		lf, err := fsutil.OpenLockFile(filepath.Join(s.Dir, "flush.lock"))
		if err != nil {
			return res, err
		}
		if err := fsutil.TryLock(lf); err != nil {
			lf.Close()
			res.Busy = first
			return res, nil // another flush has the spool, and sends it
		}
		err = s.drain(ctx, sinks, &opts, &res)
		lf.Close()
		if err != nil || ctx.Err() != nil || !s.Pending() {
			return res, err
		}
	}
}

// drain sends the spool's records, under the flush lock, until none is
// left and (with opts.Linger) none came for that long.
func (s Spool) drain(ctx context.Context, sinks []sink, opts *Options, res *FlushResult) error {
	idleSince := time.Now()
	for {
		data, err := s.take()
		if err != nil {
			return err
		}
		if len(data) == 0 {
			if opts.Linger <= 0 || time.Since(idleSince) >= opts.Linger || sleepCtx(ctx, lingerPoll) != nil {
				return nil
			}
			continue
		}
		var items []item
		for _, l := range bytes.Split(data, []byte{'\n'}) {
			if len(bytes.TrimSpace(l)) > 0 {
				items = append(items, newItem(l))
			}
		}
		for start := 0; start < len(items); start += opts.Batch {
			batch := items[start:min(len(items), start+opts.Batch)]
			for _, k := range sinks {
				if err := deliver(ctx, k, batch, opts); err != nil {
					// What was sent is cut from spool.sending; the rest
					// stays for the next flush.
					res.Left = len(items) - start
					rest := bytes.Join(linesOf(items[start:]), []byte{'\n'})
					_ = fsutil.WriteAtomic(s.sending(), append(rest, '\n'), 0o600, ".sending-*", nil)
					return fmt.Errorf("export to %s: %w (%d records left in %s for the next flush)", k.name(), err, res.Left, s.Dir)
				}
			}
			res.Sent += len(batch)
		}
		if err := os.Remove(s.sending()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		idleSince = time.Now()
	}
}

func linesOf(items []item) [][]byte {
	out := make([][]byte, len(items))
	for i := range items {
		out[i] = items[i].line
	}
	return out
}
