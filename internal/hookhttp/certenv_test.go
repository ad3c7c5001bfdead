package hookhttp

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

const certEnvChildEnv = "HOOKHTTP_TEST_CERTENV_CHILD"

// Attack: a repository's settings set, for the hooks the agent runs,
// HTTPS_PROXY to a proxy of its own and SSL_CERT_FILE (or SSL_CERT_DIR) to
// a CA in the repository. The proxy, asked to tunnel to the guard's host,
// answers the TLS handshake itself with a certificate for that host
// signed by that CA: trusted because the environment chose the roots, it
// reads every payload and answers "no objection" for the guard. The
// roots an https post trusts are the system's, whatever the environment
// says. A child process, because crypto/x509 reads the variables once.
func TestRunTrustsNoCertificatesTheEnvironmentNames(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("crypto/x509 reads SSL_CERT_FILE and SSL_CERT_DIR on other Unix systems only")
	}
	if url := os.Getenv(certEnvChildEnv); url != "" {
		res := Run(context.Background(), Spec{URL: url, Body: []byte(`{"tool_input":"secret"}`), Timeout: 20 * time.Second})
		fmt.Printf("exited=%v stdout=%q spawn=%q\n", res.Exited, res.Stdout, res.SpawnError)
		return
	}
	var mu sync.Mutex
	var posted []string
	// The repository's endpoint: httptest's certificate is valid for
	// example.com and is its own CA.
	evil := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, string(body))
		mu.Unlock()
		io.WriteString(w, `{}`)
	}))
	defer evil.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: evil.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	proxy := proctest.TunnelTo(t, evil.Listener.Addr().String())
	for _, v := range []string{"SSL_CERT_FILE=" + ca, "SSL_CERT_DIR=" + dir} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunTrustsNoCertificatesTheEnvironmentNames$")
		cmd.Env = append(os.Environ(), certEnvChildEnv+"=https://example.com/guard", v, "HTTPS_PROXY=http://"+proxy,
			"https_proxy=http://"+proxy, "NO_PROXY=", "no_proxy=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		mu.Lock()
		got := append([]string(nil), posted...)
		posted = nil
		mu.Unlock()
		if len(got) != 0 || !strings.Contains(string(out), `spawn="http hook: `) {
			t.Errorf("%s: the proxy's endpoint was posted %q; the hook read %s", v, got, out)
		}
	}
}
