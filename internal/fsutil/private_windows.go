package fsutil

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows ignores a file's Unix mode: what only this user may read is
// said by its access list. RestrictToUser gives a folder (and what is
// later made in it) or a file an access list of its own that lets this
// process's user alone in; OnlyUser checks one was given: doctor's probe
// folder and token, which `hook` honours only when nobody else could have
// written them (a repository's checkout inherits its folder's list, which
// lets SYSTEM and Administrators in too).

// RestrictToUser replaces path's access list by one, not inherited, that
// allows this process's user everything and nobody else anything; a
// folder's is inherited by what is made in it.
func RestrictToUser(path string, folder bool) error {
	me, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("read this process's user: %w", err)
	}
	sd, err := windows.SecurityDescriptorFromString(UserOnlySDDL(me.User.Sid.String(), folder))
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
}

// OnlyUser says why path is not this user's alone ("" when it is): its
// owner is neither this process's user nor the owner its token gives what
// it makes (Administrators, for an elevated process), or its access list
// is missing or allows anyone else anything.
func OnlyUser(path string) string {
	tok := windows.GetCurrentProcessToken()
	me, err := tok.GetTokenUser()
	if err != nil {
		return "this process's user cannot be read: " + err.Error()
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return "its access list cannot be read: " + err.Error()
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return "its owner cannot be read"
	}
	if !owner.Equals(me.User.Sid) && !tokenOwner(tok, owner) {
		return "it is owned by " + owner.String()
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return "it has no access list: everyone may read it"
	}
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return "its access list cannot be read: " + err.Error()
		}
		switch {
		case ace.Header.AceType == windows.ACCESS_DENIED_ACE_TYPE, ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0:
			continue
		case ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE:
			return fmt.Sprintf("its access list holds an entry of type %d", ace.Header.AceType)
		}
		if sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)); !sid.Equals(me.User.Sid) {
			return "it may be read by " + sid.String()
		}
	}
	return ""
}

// tokenOwner reports whether sid is the owner tok gives what its process
// makes.
func tokenOwner(tok windows.Token, sid *windows.SID) bool {
	var n uint32
	_ = windows.GetTokenInformation(tok, windows.TokenOwner, nil, 0, &n)
	if n == 0 {
		return false
	}
	buf := make([]byte, n)
	if err := windows.GetTokenInformation(tok, windows.TokenOwner, &buf[0], n, &n); err != nil {
		return false
	}
	// TOKEN_OWNER (winnt.h), which x/sys lacks: one pointer to a SID.
	o := (*struct{ Owner *windows.SID })(unsafe.Pointer(&buf[0]))
	return o.Owner != nil && o.Owner.Equals(sid)
}
