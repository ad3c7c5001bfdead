//go:build unix && ((cgo && !osusergo) || darwin)

package repoenv

// libcUsers: os/user asks the C library (getpwuid_r), which knows the
// accounts NSS does, and makes none up.
const libcUsers = true
