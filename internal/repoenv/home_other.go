//go:build !unix

package repoenv

import "os/user"

// accountHome is the account's profile folder (Windows asks the system
// for it, not %USERPROFILE%); "" when there is none.
func accountHome() string {
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}
