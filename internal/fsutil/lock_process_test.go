package fsutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// The locks exclude other processes, not only other goroutines: the test
// binary re-executes itself as a holder that takes the lock, says so on
// stdout and keeps it until its stdin closes. This is what Windows'
// LockFileEx build must do as flock does (before it, a per-process mutex
// let 62 of 64 concurrent approvals from separate processes be lost).

// holdEnv tells the re-executed test binary to hold a lock: "lock:PATH"
// (Lock), "try:PATH" (TryLock) or "flock:PATH" (FlockWithin).
const holdEnv = "HERMES_FSUTIL_TEST_HOLD"

func TestMain(m *testing.M) {
	if v := os.Getenv(holdEnv); v != "" {
		os.Exit(holdLock(v))
	}
	os.Exit(m.Run())
}

// holdLock takes the lock v names and holds it (proctest.HoldLocked).
func holdLock(v string) int {
	kind, path, _ := strings.Cut(v, ":")
	err := proctest.HoldLocked(func() (func(), error) {
		switch kind {
		case "lock":
			return Lock(path)
		case "try":
			f, err := OpenLockFile(path)
			if err != nil {
				return nil, err
			}
			if err := TryLock(f); err != nil {
				f.Close()
				return nil, err
			}
			return func() { f.Close() }, nil
		case "flock":
			f, err := OpenLockFile(path)
			if err != nil {
				return nil, err
			}
			return FlockWithin(f, time.Minute)
		}
		return nil, fmt.Errorf("no lock of kind %q", kind)
	})
	if err != nil {
		return 1
	}
	return 0
}

// holder starts a process that holds the lock (kind, path) and returns
// once it holds it; release ends it and waits for its exit.
func holder(t *testing.T, kind, path string) (release func()) {
	t.Helper()
	return proctest.StartHolder(t, path, holdEnv+"="+kind+":"+path, "-test.run=^$")
}

func TestLocksExcludeOtherProcesses(t *testing.T) {
	dir := t.TempDir()
	t.Run("LockContext waits its bound for another process's Lock", func(t *testing.T) {
		path := filepath.Join(dir, "a.lock")
		release := holder(t, "lock", path)
		// A hostile or stuck local process that keeps the lock forever
		// costs the caller its bound, not a hang.
		start := time.Now()
		if _, err := LockContext(context.Background(), path, 50*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
			t.Fatalf("LockContext while another process holds the lock: %v, want ErrLockTimeout", err)
		}
		if waited := time.Since(start); waited > time.Minute {
			t.Fatalf("LockContext waited %v with a bound of 50ms", waited)
		}
		release()
		unlock, err := LockContext(context.Background(), path, time.Minute)
		if err != nil {
			t.Fatalf("LockContext after the holder exited: %v", err)
		}
		unlock()
	})
	t.Run("FlockWithin refuses while another process holds it", func(t *testing.T) {
		path := filepath.Join(dir, "b.lock")
		release := holder(t, "flock", path)
		f, err := OpenLockFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := FlockWithin(f, 20*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
			t.Fatalf("FlockWithin: %v, want ErrLockTimeout", err)
		}
		release()
		unlock, err := FlockWithin(f, time.Minute)
		if err != nil {
			t.Fatalf("FlockWithin after the holder exited: %v", err)
		}
		unlock()
	})
	t.Run("TryLock says ErrLocked while another process holds it", func(t *testing.T) {
		path := filepath.Join(dir, "serve.sock.lock")
		release := holder(t, "try", path)
		f, err := OpenLockFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := TryLock(f); !errors.Is(err, ErrLocked) {
			t.Fatalf("TryLock: %v, want ErrLocked", err)
		}
		release() // the holder exits: its lock goes with it
		if err := TryLock(f); err != nil {
			t.Fatalf("TryLock after the holder exited: %v", err)
		}
	})
}

// A file is replaced (WriteAtomic) while a reader has it open through
// OpenNoBlock, and a lock file is removed while its lock is held: on
// Windows both need every handle opened with FILE_SHARE_DELETE.
func TestReplaceWhileOpen(t *testing.T) {
	skipWithoutPosixRename(t)
	path := filepath.Join(t.TempDir(), "allowlist.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := OpenNoBlock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteAtomic(path, []byte("new"), 0o600, ".allowlist-*", nil); err != nil {
		t.Fatalf("WriteAtomic while a reader has the file open: %v", err)
	}
	if got, _ := io.ReadAll(r); string(got) != "old" {
		t.Errorf("the open reader reads %q, want the old content", got)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "new" {
		t.Errorf("after the replace: %q %v, want new", got, err)
	}
}
