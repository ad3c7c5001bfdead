package cmdpin

import (
	"errors"
	"os"
)

// When a file's stat identity may vouch for its content.
//
// The digest cache (Cache) and the pinned start of a binary rest on one
// assumption: content does not change while the file's identity — device,
// inode, size, mode, mtime, ctime — stays the same. write(2), truncate and
// a rename all move it. A write through a shared writable mapping moves it
// only when the kernel notices the first write to a clean page, which it
// does only where pages are written back to a disk:
//
//   - On tmpfs, ramfs and the like nothing is ever written back, so a page
//     mapped for reading is mapped writable at once and no write through it
//     moves a time. A cached digest is never trusted there.
//   - On a disk filesystem a page dirtied before the digest was computed
//     takes further writes silently until it is written back. So a digest
//     is cached only when the file was open for writing nowhere while it
//     was hashed — the kernel says so by granting a read lease (F_SETLEASE),
//     which it refuses while any writer (or writable mapping) exists and
//     breaks as soon as one appears. Any later change then needs a new
//     writer, whose first write moves the times.
//   - A file's times come from the kernel's coarse clock, which moves once
//     per tick: before Linux 6.13 a write in the same tick as the change
//     before it leaves mtime and ctime as they were. So a digest is cached
//     only once the coarse clock has moved past the file's ctime (as git
//     treats an index entry as "racy"); any later write then moves it.
//   - On network, FUSE, overlay and unknown filesystems the times are
//     whatever the server or the upper layer says: never trusted.
//
// Trust only ever saves a rehash: an untrusted file is hashed every time.

// fsClass says what a file's stat identity can vouch for on its filesystem.
type fsClass uint8

const (
	// fsUnknown: no trust, and no read lease is tried (a network
	// filesystem's lease answers mean something else).
	fsUnknown fsClass = iota
	// fsMemory: a local memory filesystem (tmpfs, ramfs): read leases
	// work, but mapped writes move no time, so no digest is cached.
	fsMemory
	// fsDisk: a local disk filesystem whose writeback catches the first
	// write to a clean mapped page: a digest computed under a read lease
	// may be cached.
	fsDisk
)

// errOpenForWriting: some process has the file open for writing (or mapped
// writable) while it is checked, so the bytes checked need not be the bytes
// that run. The kernel refuses to start a binary in that state anyway.
var errOpenForWriting = errors.New("another process has it open for writing")

// hashGuard watches one open file while it is hashed.
type hashGuard struct {
	class fsClass
	// end ends the read lease and reports whether it was held throughout;
	// nil when no lease was taken.
	end func() bool
}

// guardHash classifies f's filesystem and, where read leases work, takes
// one; errOpenForWriting when the kernel refuses it because a writer exists.
func guardHash(f *os.File) (hashGuard, error) {
	g := hashGuard{class: fsClassOf(f)}
	if g.class == fsUnknown {
		return g, nil
	}
	end, writer := readLease(f)
	if writer {
		return g, errOpenForWriting
	}
	g.end = end
	return g, nil
}

// trusted reports whether a cached digest keyed by the file's identity may
// stand for its content.
func (g *hashGuard) trusted() bool { return g.class == fsDisk }

// storable reports whether a digest of the file whose identity key was
// taken before the hash, and again after it, may be cached: its filesystem
// is trusted, no writer existed throughout, and its ctime is settled.
func (g *hashGuard) storable(lease leaseEnd, key FileKey) bool {
	return g.trusted() && lease == leaseHeld && ctimeSettled(key.ctime)
}

// Vouches reports whether a later rewrite of the file k was taken of —
// written, truncated, or renamed over — must change its key, so that an
// unchanged key may stand for content read after k was taken (repoid's
// Cache; the digest cache asks more of a file, storable). That needs a
// change time, which no user sets back, that the coarse clock has moved
// past: Linux only. Elsewhere no key vouches: Windows' has no inode or
// change time (a same-size edit with its mtime set back keeps it), and
// other systems' clocks are not known to tick past a change.
func (k FileKey) Vouches() bool { return ctimeSettled(k.ctime) }

// leaseEnd is how a hash's read lease ended.
type leaseEnd uint8

const (
	// noLease: none was taken, so nothing is known about writers.
	noLease leaseEnd = iota
	// leaseHeld: no process opened the file for writing during the hash.
	leaseHeld
	// leaseBroken: a process opened the file for writing during the hash.
	leaseBroken
)

// finish ends the lease and says how. Calling it again returns noLease.
func (g *hashGuard) finish() leaseEnd {
	if g.end == nil {
		return noLease
	}
	held := g.end()
	g.end = nil
	if held {
		return leaseHeld
	}
	return leaseBroken
}
