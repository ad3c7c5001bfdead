//go:build windows

package server

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// restrictToUser gives the file at path an access list of its own (not
// inherited from its directory) that lets this process's user alone
// read or change it: Windows ignores a file's Unix mode.
func restrictToUser(path string) error {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("read this process's user: %w", err)
	}
	sd, err := windows.SecurityDescriptorFromString(userOnlySDDL(u.User.Sid.String()))
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
