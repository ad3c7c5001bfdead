package hookhttp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

const proxyChildEnv = "HOOKHTTP_TEST_PROXY_CHILD"

// Attack: the proxy variables come from the environment, which an
// agent's project settings can set for the hooks it runs. Through a proxy
// of the repository's, an http:// hook's or an opa: entry's post would be
// read and its answer written by the repository ("no objection"). A post
// to an http:// URL goes straight to it; an https:// one may still go
// through a proxy, which then only tunnels (CONNECT): it can refuse, but
// neither read the payload nor forge the answer. A child process, because
// net/http reads the variables once per process.
func TestRunProxyOnlyTunnels(t *testing.T) {
	if url := os.Getenv(proxyChildEnv); url != "" {
		res := Run(context.Background(), Spec{URL: url, Body: []byte(`{"tool_input":"secret"}`), Timeout: 20 * time.Second})
		fmt.Printf("exited=%v stdout=%q spawn=%q\n", res.Exited, res.Stdout, res.SpawnError)
		return
	}
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.Host+" "+string(body))
		mu.Unlock()
		if r.Method == http.MethodConnect {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		io.WriteString(w, `{"decision":"approve"}`)
	}))
	defer proxy.Close()
	run := func(url string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunProxyOnlyTunnels$")
		cmd.Env = append(os.Environ(), proxyChildEnv+"="+url, "HTTP_PROXY="+proxy.URL, "HTTPS_PROXY="+proxy.URL,
			"http_proxy="+proxy.URL, "https_proxy="+proxy.URL, "NO_PROXY=", "no_proxy=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out)
	}
	out := run("http://hook.invalid/guard")
	mu.Lock()
	asked := append([]string(nil), seen...)
	seen = nil
	mu.Unlock()
	if len(asked) != 0 || strings.Contains(out, "approve") {
		t.Errorf("http:// hook through the environment's proxy: the proxy saw %q; the hook read %s", asked, out)
	}
	out = run("https://hook.invalid/guard")
	mu.Lock()
	asked = append([]string(nil), seen...)
	mu.Unlock()
	if len(asked) != 1 || !strings.HasPrefix(asked[0], "CONNECT hook.invalid:443 ") || strings.Contains(asked[0], "secret") || !strings.Contains(out, `spawn="http hook: `) {
		t.Errorf("https:// hook: the proxy saw %q (want one CONNECT, no payload); the hook read %s", asked, out)
	}
}
