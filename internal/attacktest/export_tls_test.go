//go:build linux

package attacktest

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// Attack: the user pinned export's endpoint and its secret header in the
// config (as docs/export.md advises), and a repository's settings set, for
// the hooks the agent runs, HTTPS_PROXY to a proxy of its own and
// SSL_CERT_FILE (or SSL_CERT_DIR) to a CA in the repository. The flush a
// hook starts inherits that environment; asked to tunnel to the collector,
// the proxy answers the TLS handshake itself with a certificate its CA
// signed. Trusted because the environment chose the roots, it would read
// the Authorization header and every spooled decision (and could drop
// them, so the SIEM never sees them). The roots export trusts are the
// system's, as an http hook's are (internal/hookhttp).
func TestExportTrustsNoCertificatesTheEnvironmentNames(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	// The repository's endpoint: httptest's certificate is valid for
	// example.com and is its own CA.
	evil := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization")+" "+string(body))
		mu.Unlock()
	}))
	defer evil.Close()
	proxy := proctest.TunnelTo(t, evil.Listener.Addr().String())
	for _, which := range []string{"SSL_CERT_FILE", "SSL_CERT_DIR"} {
		t.Run(which, func(t *testing.T) {
			e := newEnv(t)
			e.write("home/config.yaml", "hooks: {}\nexport:\n  otlp:\n    logs_endpoint: https://example.com/v1/logs\n    headers:\n      Authorization: Bearer s3cr3t\n", 0o644)
			e.write("home/export-spool/spool.jsonl", `{"seq":1,"event":"pre_tool_call","decision":"block","message":"no rm"}`+"\n", 0o600)
			e.write("repo/ca/ca.pem", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: evil.Certificate().Raw})), 0o644)
			ca := e.path("repo/ca/ca.pem")
			if which == "SSL_CERT_DIR" {
				ca = e.path("repo/ca")
			}
			// A bound only a hang reaches: the refusal of the certificate
			// ends the flush at once (1 s was passed beside make stress).
			c := exec.Command(binary, "export", "flush", "--within", "60s")
			c.Dir = e.path("home")
			c.Env = append(e.vars, which+"="+ca, "HTTPS_PROXY=http://"+proxy, "https_proxy=http://"+proxy, "NO_PROXY=", "no_proxy=")
			out, err := c.CombinedOutput()
			mu.Lock()
			got := append([]string(nil), seen...)
			seen = nil
			mu.Unlock()
			if len(got) != 0 {
				t.Errorf("the repository's proxy read the export: %q", got)
			}
			if err == nil || !strings.Contains(string(out), "certificate") {
				t.Errorf("export flush: %v, want the TLS refusal:\n%s", err, out)
			}
		})
	}
}
