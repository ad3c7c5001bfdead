package cli

import "golang.org/x/sys/windows"

// openToEveryone gives path an access list of its own that lets everyone
// read it.
func openToEveryone(path string) error {
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;FR;;;WD)(A;;FA;;;OW)")
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
