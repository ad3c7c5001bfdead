//go:build hermes_portable

package testbin

// Portable is true in a test binary built with -tags hermes_portable: the
// binary under test is then built with the same tag, so the portable path
// (what macOS and the BSDs run: no subreaper, no descriptor pinning, no read
// leases, the os/exec runner) is what the test exercises. Tests that need a
// Linux-only feature skip on it (see SkipUnlessLinuxFeatures), not on GOOS.
const Portable = true

const buildTags = "hermes_portable"
