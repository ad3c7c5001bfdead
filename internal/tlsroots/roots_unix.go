//go:build aix || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package tlsroots

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"runtime"
)

// System is the CA pool an https post trusts: nil (crypto/x509's own
// roots) unless SSL_CERT_FILE or SSL_CERT_DIR is set, which crypto/x509
// reads on these systems. The environment is an agent's project settings'
// to set for the hooks it runs (docs/security.md): a repository that names
// a CA of its own there, and a proxy of its own in HTTPS_PROXY, answers the
// tunnel to a guard's host (or the export collector's) itself, reads every
// payload or record with its headers, and forges the guard's answer. So the
// roots are then read from the system's own places, the variables ignored
// (a CA one of them named is trusted once it is in the system's store);
// none found there is an empty pool, so every https post fails (closed,
// for a guard) rather than trust the environment.
func System() *x509.CertPool {
	_, file := os.LookupEnv("SSL_CERT_FILE")
	_, dir := os.LookupEnv("SSL_CERT_DIR")
	if !file && !dir {
		return nil
	}
	files, dirs := rootPlaces(runtime.GOOS)
	pool := x509.NewCertPool()
	for _, f := range files {
		// The first bundle there is the system's whole store.
		if b, err := os.ReadFile(f); err == nil && pool.AppendCertsFromPEM(b) {
			break
		}
	}
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(d, e.Name())); err == nil {
				pool.AppendCertsFromPEM(b)
			}
		}
	}
	return pool
}

// rootPlaces is where goos keeps its CA bundle (files, the first found is
// read) and its CA certificates one per file (dirs, all read).
func rootPlaces(goos string) (files, dirs []string) {
	switch goos {
	case "linux", "android":
		return []string{
				"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Arch, Gentoo, NixOS
				"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL
				"/etc/ssl/ca-bundle.pem",                            // openSUSE
				"/etc/pki/tls/cacert.pem",                           // OpenELEC
				"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
				"/etc/ssl/cert.pem",                                 // Alpine
			}, []string{"/etc/ssl/certs", "/etc/pki/tls/certs",
				"/system/etc/security/cacerts"} // Android
	case "solaris", "illumos":
		return []string{"/etc/certs/ca-certificates.crt", "/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/cacert.pem"},
			[]string{"/etc/certs/CA"}
	case "aix":
		return []string{"/var/ssl/certs/ca-bundle.crt"}, []string{"/var/ssl/certs"}
	}
	// The BSDs.
	return []string{"/usr/local/etc/ssl/cert.pem", "/etc/ssl/cert.pem", "/usr/local/share/certs/ca-root-nss.crt",
			"/etc/openssl/certs/ca-certificates.crt"},
		[]string{"/etc/ssl/certs", "/usr/local/share/certs", "/etc/openssl/certs"}
}
