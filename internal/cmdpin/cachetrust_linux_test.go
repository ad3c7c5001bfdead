//go:build linux && !hermes_portable

package cmdpin

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func TestClassifyFS(t *testing.T) {
	for _, tc := range []struct {
		name  string
		magic int64
		want  fsClass
	}{
		{"ext4", unix.EXT4_SUPER_MAGIC, fsDisk},
		{"xfs", unix.XFS_SUPER_MAGIC, fsDisk},
		{"btrfs", unix.BTRFS_SUPER_MAGIC, fsDisk},
		{"f2fs", unix.F2FS_SUPER_MAGIC, fsDisk},
		{"bcachefs", unix.BCACHEFS_SUPER_MAGIC, fsDisk},
		{"tmpfs", unix.TMPFS_MAGIC, fsMemory},
		{"ramfs", unix.RAMFS_MAGIC, fsMemory},
		{"fuse", unix.FUSE_SUPER_MAGIC, fsUnknown},
		{"9p", unix.V9FS_MAGIC, fsUnknown},
		{"nfs", unix.NFS_SUPER_MAGIC, fsUnknown},
		{"overlay", unix.OVERLAYFS_SUPER_MAGIC, fsUnknown},
		{"smb", unix.SMB_SUPER_MAGIC, fsUnknown},
		{"smb2", unix.SMB2_SUPER_MAGIC, fsUnknown},
		{"cifs", unix.CIFS_SUPER_MAGIC, fsUnknown},
		{"ceph", unix.CEPH_SUPER_MAGIC, fsUnknown},
		{"afs", unix.AFS_FS_MAGIC, fsUnknown},
		{"ecryptfs", unix.ECRYPTFS_SUPER_MAGIC, fsUnknown},
		{"hugetlbfs", unix.HUGETLBFS_MAGIC, fsUnknown},
		{"zfs", 0x2fc12fc1, fsUnknown},
		{"zero", 0, fsUnknown},
		// f_type is a signed word on some architectures: a magic with the
		// top bit set arrives negative.
		{"btrfs, sign-extended", int64(int32(-0x6edc97c2)), fsDisk},
	} {
		if got := classifyFS(tc.magic); got != tc.want {
			t.Errorf("%s (%#x): got %d, want %d", tc.name, tc.magic, got, tc.want)
		}
	}
}

// On tmpfs a write through a mapping need not move the file's times, so
// neither the memory cache nor the shared file is used there.
func TestHashCache_NeverTrustedOnTmpfs(t *testing.T) {
	var sfs unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &sfs); err != nil || sfs.Type != unix.TMPFS_MAGIC {
		t.Skip("no tmpfs at /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "consent-test-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := bigELF(t, dir)
	shared := filepath.Join(t.TempDir(), CacheFileName)
	c := &Cache{File: shared}
	target := &Target{Path: bin, Files: []string{bin}, Direct: true}
	for range 3 {
		p := Pin(target, c)
		if p.Sums()[0] == "" {
			t.Fatal("not pinned")
		}
		p.Close()
		if _, err := c.Sum(bin); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.computed.Load(); n != 6 {
		t.Fatalf("hashed %d times on tmpfs, want 6 (every time)", n)
	}
	if _, err := os.Stat(shared); !os.IsNotExist(err) {
		t.Fatalf("a tmpfs digest reached the shared file (%v)", err)
	}
}

// A writer that appears while the lease is held breaks it: finish then says
// so (and the kernel's SIGIO to this process is ignored, not fatal).
func TestReadLease_BrokenByANewWriter(t *testing.T) {
	path := filepath.Join(cachingDir(t), "f")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := guardHash(f)
	if err != nil || g.end == nil {
		t.Fatalf("no lease: %v", err)
	}
	// A non-blocking open for writing starts the lease break and fails
	// at once instead of waiting for it.
	if w, err := os.OpenFile(path, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
		w.Close()
		t.Fatal("opened for writing while a read lease was held")
	}
	if got := g.finish(); got != leaseBroken {
		t.Fatalf("finish = %d, want leaseBroken", got)
	}
	if g2, err := guardHash(f); err != nil || g2.finish() != leaseHeld {
		t.Fatalf("after the break: %v", err)
	}
}
