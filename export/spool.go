package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// SpoolDir is the spool's directory in HERMES_HOME.
const SpoolDir = "export-spool"

// MaxSpoolFiles bounds the spool: past it, a flush drops the oldest
// records and counts them (the journal still has every one).
const MaxSpoolFiles = 10000

var spoolSeq atomic.Int64

// Spool is where a one-shot process leaves its records for export: one
// file per record, written under a temporary name and renamed, so that a
// flush never reads half a record and never races an append. A flush (the
// detached `export flush` child, or serve) sends them and removes them.
type Spool struct {
	Dir string
	// Max bounds the records kept (MaxSpoolFiles when 0).
	Max int
}

// Append leaves one journal line in the spool.
func (s Spool) Append(line []byte) error {
	line = bytes.TrimRight(line, "\r\n")
	// The time orders the records; the pid and a count keep two of one
	// clock tick apart (Windows' clock is coarse).
	name := strconv.FormatInt(time.Now().UnixNano(), 10) + "-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(spoolSeq.Add(1), 10)
	tmp := filepath.Join(s.Dir, name+".tmp")
	data := append(append(make([]byte, 0, len(line)+1), line...), '\n')
	err := os.WriteFile(tmp, data, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(s.Dir, 0o700); err == nil {
			err = os.WriteFile(tmp, data, 0o600)
		}
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(s.Dir, name+".jsonl"))
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
	names, _ := s.records()
	return len(names) > 0
}

// Dropped is how many records flushes have dropped from the spool so far.
func (s Spool) Dropped() int64 {
	b, err := os.ReadFile(filepath.Join(s.Dir, "dropped"))
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

func (s Spool) addDropped(n int) {
	if n == 0 {
		return
	}
	_ = fsutil.WriteAtomic(filepath.Join(s.Dir, "dropped"), []byte(strconv.FormatInt(s.Dropped()+int64(n), 10)+"\n"), 0o600, ".dropped-*", nil)
}

func (s Spool) records() ([]string, error) {
	ents, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".jsonl") && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names) // oldest first: the names start with the time
	return names, nil
}

// FlushResult is what one Flush did.
type FlushResult struct {
	Sent, Dropped, Left int
	// Busy: another flush held the spool; this one did nothing.
	Busy bool
}

// Flush sends the spooled records to cfg's sinks until none is left or
// ctx ends (a record not sent stays for the next flush), one flush at a
// time. A record is removed once every sink took it: a sink that took it
// while another failed may get it again (at least once).
func (s Spool) Flush(ctx context.Context, cfg Config, opts Options) (FlushResult, error) {
	var res FlushResult
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return res, err
	}
	lf, err := fsutil.OpenLockFile(filepath.Join(s.Dir, "flush.lock"))
	if err != nil {
		return res, err
	}
	defer lf.Close()
	if err := fsutil.TryLock(lf); err != nil {
		res.Busy = true
		return res, nil
	}
	if opts.Batch <= 0 {
		opts.Batch = DefaultBatch
	}
	if opts.Attempts <= 0 {
		opts.Attempts = DefaultAttempts
	}
	if opts.sleep == nil {
		opts.sleep = sleepCtx
	}
	sinks := sinksFor(cfg, opts.Version)
	defer func() {
		for _, k := range sinks {
			k.close()
		}
	}()
	for {
		names, err := s.records()
		if err != nil {
			return res, err
		}
		limit := s.Max
		if limit <= 0 {
			limit = MaxSpoolFiles
		}
		if over := len(names) - limit; over > 0 {
			for _, n := range names[:over] {
				_ = os.Remove(filepath.Join(s.Dir, n))
			}
			s.addDropped(over)
			res.Dropped += over
			names = names[over:]
		}
		if len(names) == 0 {
			return res, nil
		}
		names = names[:min(len(names), opts.Batch)]
		batch := make([]item, 0, len(names))
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(s.Dir, n))
			if err == nil && len(bytes.TrimSpace(b)) > 0 {
				batch = append(batch, newItem(b))
			}
		}
		for _, k := range sinks {
			if err := deliver(ctx, k, batch, &opts); err != nil {
				left, _ := s.records()
				res.Left = len(left)
				return res, fmt.Errorf("export to %s: %w (%d records left in %s for the next flush)", k.name(), err, res.Left, s.Dir)
			}
		}
		for _, n := range names {
			_ = os.Remove(filepath.Join(s.Dir, n))
		}
		res.Sent += len(batch)
	}
}
