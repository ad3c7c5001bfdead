//go:build !hermes_portable

package testbin

// Portable is false in the default build (see portable.go).
const Portable = false

const buildTags = ""
