package server

// When a changed config's files have settled: a reload reads them only
// once none has changed for Settle and none is open for writing, and
// applies what it read only when nothing changed while it read. A file
// rewritten in place (truncated, then written) is never applied half-way;
// the last good config stays in service for as long as that takes.

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// errUnsettled: the config files are changing; the reload waits.
var errUnsettled = errors.New("the config files are still changing")

// settleWait is the pending reload's wait for its files to settle.
type settleWait struct {
	since  time.Time // when it first had to wait (zero: no reload waits)
	warned bool      // past SettleLimit: said so in the log
}

// unsettled notes when the pending reload first had to wait and, once it
// has waited SettleLimit, says in the log (once per wait) that the last
// good config stays in service and why; it returns errUnsettled. Called
// with s.mu held.
func (s *Server) unsettled() error {
	switch {
	case s.wait.since.IsZero():
		s.wait.since = time.Now()
	case !s.wait.warned && time.Since(s.wait.since) >= s.opts.SettleLimit:
		s.wait.warned = true
		s.log.Warn("the config files keep changing or stay open for writing: serve keeps the last good config until they settle; forwarded calls dispatch by themselves meanwhile",
			"generation", s.cur.Load().n, "waited", time.Since(s.wait.since).Round(time.Millisecond).String())
	}
	return errUnsettled
}

// observation is what the settle check last saw of one config file.
type observation struct {
	id    string    // its stat identity (statIdentity)
	since time.Time // when that identity was first seen
}

// statIdentity is a file's size, mode, modification and change times
// (ns), device and inode — any write, truncation, replacement or chmod
// changes it, on every Unix (the mode is there too so that a chmod counts
// where the change time is coarse: a second on HFS+) — and the latest of
// its times that is not in the future. A time in
// the future cannot be that of a write that already happened (it was set
// by hand, `touch -d`, or by a clock that disagrees with ours); counting it
// would postpone every reload until that time, so only the other checks
// apply to it. The change time cannot be set by hand.
func statIdentity(entry string, now time.Time) (id string, changed time.Time) {
	if modeOnly(entry) {
		return modeOf(entryPath(entry)), time.Time{}
	}
	if linkOnly(entry) {
		return lstatOf(entryPath(entry)), time.Time{}
	}
	fi, err := os.Stat(entryPath(entry))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "missing", time.Time{}
		}
		return "unreadable: " + err.Error(), time.Time{}
	}
	if presenceOnly(entry) {
		return "present", time.Time{}
	}
	mt, ct := fsutil.FileTimes(fi)
	changed = fsutil.LastWrite(fi, now)
	id = strconv.FormatInt(fi.Size(), 10) + " " + fi.Mode().String() + " " + strconv.FormatInt(mt.UnixNano(), 10) + " " +
		strconv.FormatInt(ct.UnixNano(), 10) + " " + fileIdentity(fi)
	return id, changed
}

// settled reports whether files have settled: each shows the stat identity
// it showed at least Settle ago (observed by an earlier refresh), and none
// was modified or changed in the last Settle. It returns the identities,
// which the read that follows must leave unchanged. Until the files
// settle it schedules another look (a timer: nothing waits) and the config
// in service stays. Called with s.mu held.
//
// Why both rules: the times alone cannot always be trusted — a time in the
// future is ignored, and where there is no ctime (Windows) the mtime is
// all there is, which `touch -d` sets and a rename keeps; the identity
// alone misses a write that landed just before the first look.
func (s *Server) settled(files []string) ([]string, bool) {
	now := time.Now()
	ids := make([]string, len(files))
	var wait time.Duration
	for i, f := range files {
		id, changed := statIdentity(f, now)
		ids[i] = id
		o, ok := s.seen[f]
		if !ok || o.id != id {
			s.seen[f] = observation{id: id, since: now}
			wait = max(wait, s.opts.Settle)
			continue
		}
		quiet := now.Sub(o.since)
		if !changed.IsZero() {
			quiet = min(quiet, now.Sub(changed))
		}
		if quiet < s.opts.Settle {
			wait = max(wait, s.opts.Settle-quiet)
		}
	}
	if wait > 0 {
		s.retryAfter(wait)
		return nil, false
	}
	for _, f := range files {
		if fsutil.BeingWritten(entryPath(f)) {
			// Quiet, but still open for writing: a writer paused half-way.
			s.retryAfter(s.opts.Settle)
			return nil, false
		}
	}
	return ids, true
}

// touchedDuringRead reports whether files changed while the config was
// read from them: their stat identities differ from ids (what settled
// saw just before the read) or their content from fp. Then the quiet
// period starts again and another look is scheduled. Called with s.mu
// held.
func (s *Server) touchedDuringRead(files, ids []string, fp [32]byte) bool {
	if _, changed := changedFile(files, ids); !changed && fingerprint(files) == fp {
		return false
	}
	for _, f := range files {
		delete(s.seen, f)
	}
	s.retryAfter(s.opts.Settle)
	return true
}

// retryAfter schedules a look (a refresh that stops at the reload while
// the files have not settled) after d (one at a time; none once the
// server has stopped). Called with s.mu held.
func (s *Server) retryAfter(d time.Duration) {
	if s.stopped.Load() {
		return
	}
	if s.retry != nil {
		s.retry.Stop()
	}
	s.retry = time.AfterFunc(d, func() {
		if !s.stopped.Load() {
			s.look()
		}
	})
}
