//go:build unix

package export

import "syscall"

// noFollow opens the dropped file's name itself: a link there (dangling
// too) fails the open, where following it would create the file it names,
// with the user's rights, before the after-open check refused it.
const noFollow = syscall.O_NOFOLLOW
