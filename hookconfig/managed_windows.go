package hookconfig

import (
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

// managedOwner is who must own the managed config and its directories.
const managedOwner = "SYSTEM or Administrators"

// SystemManagedPath is where an administrator deploys the managed config:
// %ProgramData%\hermes-hooks\config.yaml, the folder asked of Windows, not
// read from the environment (a user sets their own ProgramData).
func SystemManagedPath() string {
	dir, err := windows.KnownFolderPath(windows.FOLDERID_ProgramData, 0)
	if err != nil || dir == "" {
		dir = `C:\ProgramData`
	}
	return filepath.Join(dir, "hermes-hooks", "config.yaml")
}

// trustedInstaller is NT SERVICE\TrustedInstaller, the owner of system
// folders.
const trustedInstaller = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"

// adminSID reports a SID that is the system's: SYSTEM, Administrators,
// TrustedInstaller (and CREATOR OWNER, which an ACE names for what its
// owner creates, never as a holder of rights on this object).
func adminSID(sid *windows.SID) bool {
	if sid == nil {
		return false
	}
	if sid.IsWellKnown(windows.WinLocalSystemSid) || sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) ||
		sid.IsWellKnown(windows.WinCreatorOwnerSid) {
		return true
	}
	ti, err := windows.StringToSid(trustedInstaller)
	return err == nil && sid.Equals(ti)
}

// fileDeleteChild is FILE_DELETE_CHILD (winnt.h), which x/sys lacks.
const fileDeleteChild = 0x40

// Rights that let their holder change a file, or replace what a folder
// holds.
const (
	fileWriteRights = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.FILE_WRITE_EA | windows.FILE_WRITE_ATTRIBUTES |
		windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_WRITE | windows.GENERIC_ALL
	dirReplaceRights = fileDeleteChild | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_ALL
)

// sdProblem says why a security descriptor lets someone other than the
// system own, or hold rights among those of, what it protects.
func sdProblem(what string, sd *windows.SECURITY_DESCRIPTOR, rights windows.ACCESS_MASK) string {
	owner, _, err := sd.Owner()
	if err != nil {
		return what + ": its owner cannot be read: " + err.Error()
	}
	if !adminSID(owner) {
		return what + " is owned by " + owner.String() + ", not " + managedOwner
	}
	dacl, _, err := sd.DACL()
	if err != nil && err != windows.ERROR_OBJECT_NOT_FOUND {
		return what + ": its access list cannot be read: " + err.Error()
	}
	// No access list (x/sys says ERROR_OBJECT_NOT_FOUND) and a null one
	// both let everyone do anything.
	if dacl == nil {
		return what + " has no access list: everyone may write it"
	}
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return what + ": its access list cannot be read: " + err.Error()
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0 {
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if ace.Mask&rights != 0 && !adminSID(sid) {
			return what + " may be changed by " + sid.String()
		}
	}
	return ""
}

const securityInfo = windows.OWNER_SECURITY_INFORMATION | windows.DACL_SECURITY_INFORMATION

// managedFileProblem says why the open managed config f (at path) is not
// the administrator's alone ("" when it is).
func managedFileProblem(path string, f *os.File, _ fs.FileInfo) string {
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_FILE_OBJECT, securityInfo)
	if err != nil {
		return path + ": its owner cannot be read: " + err.Error()
	}
	return sdProblem(path, sd, fileWriteRights)
}

// managedDirProblem says why dir, above the managed config, would let
// someone but the administrator replace it ("" when it would not).
func managedDirProblem(dir string, _ fs.FileInfo) string {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, securityInfo)
	if err != nil {
		return "directory " + dir + ": its owner cannot be read: " + err.Error()
	}
	return sdProblem("directory "+dir, sd, dirReplaceRights)
}
