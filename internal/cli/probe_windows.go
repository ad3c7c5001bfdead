package cli

import (
	"os"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// privateToMe: the probe's folder or file is owned by this user and its
// access list, not inherited, lets nobody else in (doctor sets it:
// fsutil.RestrictToUser). A file a repository checks out has its folder's
// list, which lets SYSTEM and Administrators in too; Windows ignores Unix
// modes.
func privateToMe(path string, _ os.FileInfo) bool {
	return fsutil.OnlyUser(path) == ""
}
