package repoid

import (
	"os"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// Cache remembers Find's answers for a process that dispatches many events
// (serve, a Go host). An answer is reused while every file it was read
// from — each .git entry looked for, the .git file, commondir and the
// config — stats as it did before it was read (device, inode, size, mode,
// mtime and ctime, or still absent: cmdpin.KeyOf, so that an edit to the
// same size with its mtime set back, or a file renamed over it, is seen).
// An answer is kept only when each stamp vouches for what was read
// (cmdpin.FileKey.Vouches: Linux only): elsewhere, and for a file changed
// within the clock's last tick, Find reads git's files each time, as a
// one-shot process does. A local remote's files are watched as far as its
// ID reads them (its .git entry, commondir, or a bare repository's marks).
// The zero Cache is ready to use.
type Cache struct {
	mu sync.Mutex
	m  map[string]cached
}

type cached struct {
	repo   Repo
	ok     bool
	stamps []stamp
}

type stamp struct {
	path   string
	exists bool
	key    cmdpin.FileKey
}

// vouches reports whether s may stand for the file's content: absent, or
// with a key that any later rewrite changes (cmdpin.FileKey.Vouches).
func (s stamp) vouches() bool { return !s.exists || s.key.Vouches() }

func stampOf(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{path: path}
	}
	return stamp{path: path, exists: true, key: cmdpin.KeyOf(fi)}
}

// Find is the package's Find, from the cache when nothing it read changed.
func (c *Cache) Find(dir string) (Repo, bool) {
	c.mu.Lock()
	hit, found := c.m[dir]
	c.mu.Unlock()
	if found && fresh(hit.stamps) {
		return hit.repo, hit.ok
	}
	// Each file is stamped as find names it, before it reads it: a
	// change made while it is read (or after) then differs from its
	// stamp, where a stamp taken after the read would vouch for content
	// the answer was not read from.
	var stamps []stamp
	r, ok := find(dir, func(p string) { stamps = append(stamps, stampOf(p)) })
	if testAfterRead != nil {
		testAfterRead()
	}
	for _, s := range stamps {
		if !s.vouches() {
			// Changed within the clock's tick, or a key with no
			// change time (Windows): an edit could leave it as it is,
			// so the next Find reads the files again.
			return r, ok
		}
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[string]cached)
	}
	if len(c.m) >= maxCached {
		clear(c.m) // a bound, not an eviction policy: projects are few
	}
	c.m[dir] = cached{repo: r, ok: ok, stamps: stamps}
	c.mu.Unlock()
	return r, ok
}

// testAfterRead, when a test sets it, is called once Find has read the
// repository's files, before the answer is cached.
var testAfterRead func()

// maxCached bounds the cache of a long-lived process.
const maxCached = 1024

func fresh(stamps []stamp) bool {
	for _, s := range stamps {
		if stampOf(s.path) != s {
			return false
		}
	}
	return true
}
