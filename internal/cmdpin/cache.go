package cmdpin

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// FileKey identifies one version of a file well enough to trust a cached
// digest: an in-place edit changes mtime, ctime or size, and an atomic
// replacement changes the inode.
type FileKey struct {
	size, mtime, ctime int64
	dev, ino           uint64
	mode               os.FileMode
}

// KeyOf is fi's identity. consent keys its parsed allowlist by it too, to
// reread the file only when it changed.
func KeyOf(fi os.FileInfo) FileKey {
	dev, ino, ctime := sysKey(fi)
	return FileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime, dev: dev, ino: ino, mode: fi.Mode()}
}

// maxCachedHashes bounds the cache of a long-running process; past it the
// cache starts over, which costs one rehash per script.
const maxCachedHashes = 4096

// Cache remembers the SHA-256 of script files keyed by path and file
// identity, so that a long-running dispatcher checks an unchanged script
// with one stat instead of reading it on every event. The zero value is
// ready to use and safe for concurrent use.
type Cache struct {
	// File, when set, is a digest file shared with other processes (one
	// per HERMES_HOME, CacheFileName): a one-shot dispatch then does not
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
	key FileKey
	sum string
}

// Sum returns the hex SHA-256 of the regular file at path, from the cache
// when the file's identity is unchanged since it was last hashed and its
// filesystem lets that identity vouch for its content (see cachetrust.go).
// The dispatcher's gate does not use it for scripts (see cacheMinSize);
// list, doctor and approve do.
func (c *Cache) Sum(path string) (string, error) {
	f, err := fsutil.OpenNoBlock(path)
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
	key := KeyOf(fi)
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
	if after, err := f.Stat(); err == nil && KeyOf(after) == key && guard.storable(lease, key) {
		c.store(path, key, sum)
	}
	return sum, nil
}

func (c *Cache) lookup(path string, key FileKey) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hit, ok := c.m[path]
	if ok && hit.key == key {
		return hit.sum, true
	}
	return "", false
}

func (c *Cache) store(path string, key FileKey, sum string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedHashes {
		c.m = make(map[string]cachedHash)
	}
	c.m[path] = cachedHash{key: key, sum: sum}
}

var errNotRegular = errors.New("not a regular file")
