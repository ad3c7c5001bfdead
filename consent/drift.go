package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// DriftKind says how a script compares with its approval.
type DriftKind int

const (
	// DriftUnknown: nothing to compare (no hash and no usable mtime
	// recorded, the script is missing, or it is older than its approval).
	DriftUnknown DriftKind = iota
	// DriftNone: the script is unchanged since approval (same content
	// hash, or, for entries without one, the same mtime).
	DriftNone
	// DriftMtime: the entry has no content hash and the script's mtime is
	// later than recorded. Hermes' rule: warn, but run.
	DriftMtime
	// DriftHash: the recorded content hash no longer matches (or the
	// script can no longer be read). The hook must not run until it is
	// approved again.
	DriftHash
)

func (k DriftKind) String() string {
	switch k {
	case DriftNone:
		return "unchanged"
	case DriftMtime:
		return "mtime"
	case DriftHash:
		return "hash"
	default:
		return "unknown"
	}
}

// Drift is the result of comparing a script with its approval. Was and Now
// are what was compared: SHA-256 hex digests for DriftHash (Now is empty
// when the script cannot be read), timestamps in formatTimestamp form for
// the mtime rule.
type Drift struct {
	Kind     DriftKind
	Was, Now string
	// File is the file the drift is about when the command runs several
	// (or "" for the primary script).
	File string
	// Why, when set, replaces the standard wording (a file added to or
	// gone from what the command runs; an approval that predates pinning).
	Why string
}

// Message describes a drift for a person, or returns "" when there is
// nothing to say.
func (d Drift) Message() string {
	switch d.Kind {
	case DriftMtime:
		return fmt.Sprintf("script modified since approval (was %s, now %s)", d.Was, d.Now)
	case DriftHash:
		if d.Why != "" {
			return d.Why
		}
		what := "script"
		if d.File != "" {
			what = d.File
		}
		if d.Was == "" {
			return what + " appeared since approval (it did not exist then)"
		}
		now := "unreadable"
		if d.Now != "" {
			now = short(d.Now) + "…"
		}
		return fmt.Sprintf("%s changed since approval (sha256 %s… → %s)", what, short(d.Was), now)
	}
	return ""
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// checkDrift compares the script at path (see scriptFile) with entry e,
// using a process-wide hash cache.
func checkDrift(e Entry, path string) Drift { return defaultHashes.Check(e, path) }

var defaultHashes hashCache

// Check compares the script at path with entry e. When e has a content hash,
// only content counts: a touched but unchanged script is DriftNone, and a
// missing or unreadable one is DriftHash, because a hook whose approved
// content cannot be confirmed must not run. Without a hash, the mtimes are
// compared as instants, not strings (Hermes #107513), so a recorded
// "12:00:00Z" equals an actual mtime of 12:00:00.000000.
func (c *hashCache) Check(e Entry, path string) Drift {
	if was := e.ScriptSHA256AtApproval; was != "" {
		now, err := c.Sum(path)
		if err != nil {
			return Drift{Kind: DriftHash, Was: was}
		}
		if strings.EqualFold(now, was) {
			return Drift{Kind: DriftNone, Was: was, Now: now}
		}
		return Drift{Kind: DriftHash, Was: was, Now: now}
	}
	return mtimeDrift(e.ScriptMtimeAtApproval, path)
}

func mtimeDrift(recorded, path string) Drift {
	d := Drift{Kind: DriftUnknown, Was: recorded}
	if recorded == "" {
		return d
	}
	fi, err := os.Stat(path)
	if err != nil {
		return d
	}
	now := pyMtime(fi.ModTime())
	d.Now = formatTimestamp(now)
	at, err := parseTimestamp(recorded)
	if err != nil {
		return d
	}
	switch {
	case now.After(at):
		d.Kind = DriftMtime
	case now.Equal(at):
		d.Kind = DriftNone
	}
	return d
}

// fileKey identifies one version of a file well enough to trust a cached
// digest: an in-place edit changes mtime, ctime or size, and an atomic
// replacement changes the inode.
type fileKey struct {
	size, mtime, ctime int64
	dev, ino           uint64
	mode               os.FileMode
}

func keyOf(fi os.FileInfo) fileKey {
	dev, ino, ctime := sysKey(fi)
	return fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime, dev: dev, ino: ino, mode: fi.Mode()}
}

// maxCachedHashes bounds the cache of a long-running process; past it the
// cache starts over, which costs one rehash per script.
const maxCachedHashes = 4096

// hashCache remembers the SHA-256 of script files keyed by path and file
// identity, so that a long-running dispatcher checks an unchanged script
// with one stat instead of reading it on every event. The zero value is
// ready to use and safe for concurrent use.
type hashCache struct {
	// File, when set, is a digest file shared with other processes (one
	// per HERMES_HOME, hashCacheFile): a one-shot dispatch then does not
	// re-hash an unchanged large binary that an earlier process hashed.
	// Only what may use the cache at all goes there (see cacheMinSize).
	// Keyed by the file's full stat identity — device, inode, size, mode,
	// and mtime and ctime in nanoseconds — it is as safe as the in-memory
	// cache: an edit that restores the old mtime (touch -d) still moves
	// ctime, which no user can set back, and a replacement changes the
	// inode. It is a file in HERMES_HOME, as writable as the allowlist
	// beside it: whoever can forge one can forge the other.
	File     string
	loadOnce sync.Once

	mu sync.Mutex
	m  map[string]cachedHash
	// computed counts digests actually computed; tests use it to prove
	// that unchanged files are not read again.
	computed atomic.Int64
}

type cachedHash struct {
	key fileKey
	sum string
}

// Sum returns the hex SHA-256 of the regular file at path, from the cache
// when the file's identity is unchanged since it was last hashed and its
// filesystem lets that identity vouch for its content (see cachetrust.go).
// The dispatcher's gate does not use it for scripts (see cacheMinSize);
// list, doctor and approve do.
func (c *hashCache) Sum(path string) (string, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return "", fmt.Errorf("hash script: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("hash script: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("hash script %s: %w", path, errNotRegular)
	}
	key := keyOf(fi)
	// A writer that exists now is no reason to refuse here (nothing is
	// started), only to hash afresh and cache nothing.
	guard, werr := guardHash(f)
	defer guard.finish()
	if werr == nil && guard.trusted() {
		if sum, ok := c.lookup(path, key); ok {
			return sum, nil
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash script: %w", err)
	}
	lease := guard.finish()
	sum := hex.EncodeToString(h.Sum(nil))
	c.computed.Add(1)
	// Cache only when no writer existed from before the read to after it,
	// the file did not change between the stat and the read, and its
	// ctime is settled (see cachetrust.go); otherwise the next call
	// simply hashes again.
	if after, err := f.Stat(); err == nil && keyOf(after) == key && guard.storable(lease, key) {
		c.store(path, key, sum)
	}
	return sum, nil
}

func (c *hashCache) lookup(path string, key fileKey) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hit, ok := c.m[path]
	if ok && hit.key == key {
		return hit.sum, true
	}
	return "", false
}

func (c *hashCache) store(path string, key fileKey, sum string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedHashes {
		c.m = make(map[string]cachedHash)
	}
	c.m[path] = cachedHash{key: key, sum: sum}
}

var errNotRegular = errors.New("not a regular file")
