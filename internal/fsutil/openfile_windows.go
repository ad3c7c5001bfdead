//go:build windows

package fsutil

import (
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// OpenFile is os.OpenFile for a file other processes rename or remove
// while it is open (the journal, its head record, rotated files): the
// handle also grants FILE_SHARE_DELETE, which os.OpenFile leaves out, so
// that a rotation, an atomic replacement or a test's cleanup is not refused
// with a sharing violation for as long as a writer or a reader keeps it
// open. The access rights are os.OpenFile's for the same flags (O_APPEND
// writes only at the end).
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	var access uint32
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_RDONLY:
		access = windows.GENERIC_READ
	case os.O_WRONLY:
		access = windows.GENERIC_WRITE
	case os.O_RDWR:
		access = windows.GENERIC_READ | windows.GENERIC_WRITE
	}
	if flag&os.O_CREATE != 0 {
		access |= windows.GENERIC_WRITE
	}
	if flag&os.O_APPEND != 0 {
		// As os.OpenFile: FILE_APPEND_DATA without FILE_WRITE_DATA, so
		// every write lands at the end, whoever else appended.
		if flag&os.O_TRUNC == 0 {
			access &^= windows.GENERIC_WRITE
		}
		access |= windows.FILE_APPEND_DATA | windows.FILE_WRITE_ATTRIBUTES | windows.FILE_WRITE_EA | windows.STANDARD_RIGHTS_WRITE | windows.SYNCHRONIZE
	}
	disposition := uint32(windows.OPEN_EXISTING)
	switch {
	case flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL:
		disposition = windows.CREATE_NEW
	case flag&os.O_CREATE != 0:
		disposition = windows.OPEN_ALWAYS
	}
	attrs := uint32(0)
	if perm&0o200 == 0 {
		attrs = windows.FILE_ATTRIBUTE_READONLY
	}
	f, err := openShared(path, access, disposition, attrs)
	if err != nil {
		return nil, err
	}
	if flag&os.O_TRUNC != 0 {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
	}
	return f, nil
}

// ReadFile is os.ReadFile through OpenFile: reading a file never stops its
// writer from replacing it (the allowlist, a session file).
func ReadFile(path string) ([]byte, error) {
	f, err := OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
