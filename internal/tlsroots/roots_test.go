package tlsroots

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// With the variables set, the roots are still the system's: a store is
// found where this system keeps it (not an empty pool, which would fail
// every https post), and the file the variable names is not read.
func TestSystemIgnoresTheEnvironment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the store's place is known here for Linux")
	}
	if _, err := os.Stat("/etc/ssl/certs/ca-certificates.crt"); err != nil {
		t.Skip("no CA bundle at Debian's place")
	}
	t.Setenv("SSL_CERT_FILE", filepath.Join(t.TempDir(), "none.pem"))
	t.Setenv("SSL_CERT_DIR", t.TempDir())
	p := System()
	if p == nil || p.Equal(x509.NewCertPool()) {
		t.Errorf("SSL_CERT_FILE set: roots %v, want the system's store", p)
	}
}
