package cmdpin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// CacheFileName is the name, in HERMES_HOME, of the digests of large hook
// binaries that one-shot dispatches share (see Cache.File).
const CacheFileName = "hook-hashes.json"

// maxHashFileBytes bounds the shared digest file; past it, it is ignored
// (and rewritten with what this process learns).
const maxHashFileBytes = 4 << 20

// hashFileVersion is the shared cache's format. Version 1 was written
// before a digest was cached only under a read lease on a trusted
// filesystem (cachetrust.go); its entries may vouch for bytes that were
// changed through a mapping, so they are ignored.
const hashFileVersion = 2

// hashFile is the shared cache's JSON: path → the file's full stat
// identity and its digest.
type hashFile struct {
	Version int                  `json:"version"`
	Files   map[string]hashEntry `json:"files"`
}

type hashEntry struct {
	Dev     uint64 `json:"dev"`
	Ino     uint64 `json:"ino"`
	Size    int64  `json:"size"`
	MtimeNS int64  `json:"mtime_ns"`
	CtimeNS int64  `json:"ctime_ns"`
	Mode    uint32 `json:"mode"`
	SHA256  string `json:"sha256"`
}

func (h hashEntry) key() FileKey {
	return FileKey{size: h.Size, mtime: h.MtimeNS, ctime: h.CtimeNS, dev: h.Dev, ino: h.Ino, mode: os.FileMode(h.Mode)}
}

func entryOf(k FileKey, sum string) hashEntry {
	return hashEntry{Dev: k.dev, Ino: k.ino, Size: k.size, MtimeNS: k.mtime, CtimeNS: k.ctime, Mode: uint32(k.mode), SHA256: sum}
}

// readHashFile reads the shared cache; a missing, oversized or broken file
// is an empty cache, and a broken entry a missing one (the cache only ever
// saves work). It is read at every one-shot dispatch that runs a hook, so
// it goes through the generic decoder the allowlist already uses rather
// than json.Unmarshal into hashFile: the first reflective decode of a
// struct type in a process builds encoding/json's field caches, ~0.1 ms
// of a one-shot dispatch.
func readHashFile(path string) map[string]hashEntry {
	data, err := fsutil.ReadRegular(path, "", maxHashFileBytes)
	if err != nil {
		return nil
	}
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil
	}
	top, _ := v.(map[string]any)
	if n, _ := top["version"].(json.Number); n != json.Number(strconv.Itoa(hashFileVersion)) {
		return nil
	}
	files, _ := top["files"].(map[string]any)
	out := make(map[string]hashEntry, len(files))
	for p, raw := range files {
		if e, ok := decodeHashEntry(raw); ok {
			out[p] = e
		}
	}
	return out
}

// decodeHashEntry reads one hashEntry from its generic JSON form; ok is
// false when a field is missing or of the wrong kind.
func decodeHashEntry(raw any) (e hashEntry, ok bool) {
	m, _ := raw.(map[string]any)
	u := func(name string, bits int) uint64 {
		n, isNum := m[name].(json.Number)
		v, err := strconv.ParseUint(string(n), 10, bits)
		if !isNum || err != nil {
			ok = false
		}
		return v
	}
	i := func(name string) int64 {
		n, isNum := m[name].(json.Number)
		v, err := strconv.ParseInt(string(n), 10, 64)
		if !isNum || err != nil {
			ok = false
		}
		return v
	}
	ok = m != nil
	e.Dev = u("dev", 64)
	e.Ino = u("ino", 64)
	e.Size = i("size")
	e.MtimeNS = i("mtime_ns")
	e.CtimeNS = i("ctime_ns")
	e.Mode = uint32(u("mode", 32))
	e.SHA256, _ = m["sha256"].(string)
	return e, ok && e.SHA256 != ""
}

// loadShared fills the memory cache from the shared file, once.
func (c *Cache) loadShared() {
	c.loadOnce.Do(func() {
		files := readHashFile(c.File)
		c.mu.Lock()
		defer c.mu.Unlock()
		for p, e := range files {
			if c.m == nil {
				c.m = make(map[string]cachedHash, len(files))
			}
			if len(c.m) < maxCachedHashes {
				c.m[p] = cachedHash{key: e.key(), sum: e.SHA256}
			}
		}
	})
}

// hashLockWait bounds the wait for the shared file's lock. A writer holds
// it for one read-merge-replace of a small file; one that holds it longer
// is stuck or stopped, and a dispatch must not wait for it (issue 23): the
// save is skipped, which costs one more rehash later.
const hashLockWait = 20 * time.Millisecond

// saveShared records one digest in the shared file: under its lock, read,
// merge, atomic replace. A failure only costs a later rehash.
func (c *Cache) saveShared(path string, key FileKey, sum string) {
	lf, err := fsutil.OpenLockFile(c.File + ".lock")
	if err != nil {
		return
	}
	defer lf.Close()
	unlock, err := fsutil.FlockWithin(lf, hashLockWait)
	if err != nil {
		return
	}
	defer unlock()
	files := readHashFile(c.File)
	if files == nil || len(files) >= maxCachedHashes {
		files = map[string]hashEntry{}
	}
	if old, ok := files[path]; ok && old == entryOf(key, sum) {
		return
	}
	files[path] = entryOf(key, sum)
	// Forget files that are gone, so the file does not grow forever.
	for p := range files {
		if _, err := os.Lstat(p); err != nil {
			delete(files, p)
		}
	}
	data, err := json.MarshalIndent(hashFile{Version: hashFileVersion, Files: files}, "", "  ")
	if err != nil {
		return
	}
	_ = fsutil.WriteAtomic(c.File, append(data, '\n'), 0o600, "."+filepath.Base(c.File)+".*.tmp", nil)
}
