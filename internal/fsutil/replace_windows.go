//go:build windows

package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// replaceWait bounds how long replace retries a rename that another
// process's handle blocks.
const replaceWait = 2 * time.Second

// replace renames old over path while others may have path open. A
// POSIX-semantics rename (Windows 10 1607+, NTFS) replaces a file that is
// open with FILE_SHARE_DELETE, as every open of ours is (see
// open_windows.go): the readers keep the old content, as on Unix. Where it
// is not available (FAT, older systems, Wine), or a handle without
// FILE_SHARE_DELETE (a reader through os.Open, an editor, a virus scanner)
// blocks it, the classic rename is retried with a growing pause up to
// replaceWait: such handles are short-lived. Then the sharing violation is
// the error.
func replace(old, path string) error {
	deadline := time.Now().Add(replaceWait)
	pause := time.Millisecond
	for {
		err := posixRename(old, path)
		if err != nil {
			err = os.Rename(old, path)
		}
		if err == nil || !sharingViolation(err) || !time.Now().Before(deadline) {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// sharingViolation: an open handle (not permissions) refused the rename.
// MoveFileEx reports a target held open as ERROR_ACCESS_DENIED.
func sharingViolation(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// fileRenameInfo is FILE_RENAME_INFO with its Flags member (the
// FileRenameInfoEx class).
type fileRenameInfo struct {
	Flags          uint32
	RootDirectory  windows.Handle
	FileNameLength uint32
	FileName       [1]uint16
}

// posixRename renames old over path with FILE_RENAME_POSIX_SEMANTICS: the
// name is released at once, even while readers keep the replaced file open.
func posixRename(old, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	// An NT path: NtSetInformationFile takes no DOS names.
	name, err := windows.UTF16FromString(`\??\` + abs)
	if err != nil {
		return err
	}
	src, err := windows.UTF16PtrFromString(old)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(src, windows.DELETE|windows.SYNCHRONIZE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	size := int(unsafe.Offsetof(fileRenameInfo{}.FileName)) + len(name)*2
	buf := make([]byte, size+int(unsafe.Sizeof(fileRenameInfo{}))) // room for the alignment of the struct
	info := (*fileRenameInfo)(unsafe.Pointer(&buf[0]))
	info.Flags = windows.FILE_RENAME_REPLACE_IF_EXISTS | windows.FILE_RENAME_POSIX_SEMANTICS
	info.FileNameLength = uint32((len(name) - 1) * 2) // bytes, without the NUL
	copy(unsafe.Slice(&info.FileName[0], len(name)), name)
	// FileRenameInformationEx (65) through ntdll: kernel32's
	// SetFileInformationByHandle(FileRenameInfoEx) is Windows 10 1709+.
	const fileRenameInformationEx = 65
	var iosb windows.IO_STATUS_BLOCK
	return windows.NtSetInformationFile(h, &iosb, &buf[0], uint32(size), fileRenameInformationEx)
}
