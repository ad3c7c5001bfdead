//go:build unix && !((cgo && !osusergo) || darwin)

package repoenv

// libcUsers: os/user reads /etc/passwd itself, and makes an account up
// from $USER and $HOME for a uid it lacks.
const libcUsers = false
