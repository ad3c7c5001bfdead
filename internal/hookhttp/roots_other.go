//go:build !(aix || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package hookhttp

import "crypto/x509"

// systemRoots is nil, crypto/x509's own roots: here they are the system's
// verifier's (macOS, Windows), which no environment variable changes.
func systemRoots() *x509.CertPool { return nil }
