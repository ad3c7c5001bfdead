//go:build !(aix || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package tlsroots

import "crypto/x509"

// System is nil, crypto/x509's own roots: here they are the system's
// verifier's (macOS, Windows), which no environment variable changes.
func System() *x509.CertPool { return nil }
