package server

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRefuseBrowser(t *testing.T) {
	v4 := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8765}
	v6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 8765}
	any4 := &net.TCPAddr{IP: net.IPv4zero, Port: 8765}
	port80 := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}
	cases := []struct {
		name   string
		addr   *net.TCPAddr
		method string
		host   string
		header map[string]string
		want   int
	}{
		{"post_json", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/json"}, 0},
		{"post_json_charset", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/json; charset=utf-8"}, 0},
		{"post_json_case", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "Application/JSON"}, 0},
		{"post_localhost", v4, "POST", "localhost:8765", map[string]string{"Content-Type": "application/json"}, 0},
		{"post_localhost_upper", v4, "POST", "LocalHost:8765", map[string]string{"Content-Type": "application/json"}, 0},
		{"get_no_type", v4, "GET", "127.0.0.1:8765", nil, 0},
		{"head_no_type", v4, "HEAD", "127.0.0.1:8765", nil, 0},
		{"v6", v6, "GET", "[::1]:8765", nil, 0},
		{"v6_localhost", v6, "GET", "localhost:8765", nil, 0},
		{"port80_bare", port80, "GET", "127.0.0.1", nil, 0},
		{"port80_explicit", port80, "GET", "127.0.0.1:80", nil, 0},

		{"origin", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, 403},
		{"origin_null", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/json", "Origin": "null"}, 403},
		{"origin_empty", v4, "GET", "127.0.0.1:8765", map[string]string{"Origin": ""}, 403},
		{"origin_on_get", v4, "GET", "127.0.0.1:8765", map[string]string{"Origin": "http://127.0.0.1:8765"}, 403},
		{"rebound_name", v4, "GET", "evil.example:8765", nil, 403},
		{"rebound_name_no_port", v4, "GET", "evil.example", nil, 403},
		{"other_port", v4, "GET", "127.0.0.1:9999", nil, 403},
		{"other_ip", v4, "GET", "127.0.0.2:8765", nil, 403},
		{"v4_on_v6", v6, "GET", "127.0.0.1:8765", nil, 403},
		{"empty_host", v4, "GET", "", nil, 403},
		{"bare_host_not_80", v4, "GET", "127.0.0.1", nil, 403},
		{"localhost_suffix", v4, "GET", "localhost.evil.example:8765", nil, 403},
		{"text_plain", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "text/plain"}, 415},
		{"form", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"multipart", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, 415},
		{"post_no_type", v4, "POST", "127.0.0.1:8765", nil, 415},
		{"json_lookalike", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/jsonx"}, 415},
		{"bad_media_type", v4, "POST", "127.0.0.1:8765", map[string]string{"Content-Type": "application/json; ="}, 415},
		{"get_with_text_body", v4, "GET", "127.0.0.1:8765", map[string]string{"Content-Type": "text/plain"}, 415},

		{"any_ip_literal", any4, "GET", "192.168.1.5:8765", nil, 0},
		{"any_localhost", any4, "GET", "localhost:8765", nil, 0},
		{"any_name", any4, "GET", "evil.example:8765", nil, 403},
		{"any_wrong_port", any4, "GET", "192.168.1.5:1", nil, 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "/v1/hooks", nil)
			r.Host = tc.host
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			got, e := refuseBrowser(r, tc.addr, allowedHosts(tc.addr))
			if got != tc.want {
				t.Errorf("status %d (%s), want %d", got, e.Error, tc.want)
			}
		})
	}
}

// A Unix socket is out of a browser's reach: nothing is checked there.
func TestBrowserGuardOnlyOnTCP(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	r := httptest.NewRequest("POST", "/v1/dispatch/pre_tool_call", strings.NewReader("x"))
	r.Header.Set("Origin", "https://evil.example")
	r.Header.Set("Content-Type", "text/plain")
	w := httptest.NewRecorder()
	s.browserGuard(inner, &net.UnixAddr{Name: "/s", Net: "unix"}).ServeHTTP(w, r)
	if w.Code != 204 {
		t.Errorf("unix: %d", w.Code)
	}
	w = httptest.NewRecorder()
	s.browserGuard(inner, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}).ServeHTTP(w, r)
	if w.Code != 403 || !strings.Contains(w.Body.String(), `"error":"requests with an Origin header`) {
		t.Errorf("tcp: %d %s", w.Code, w.Body.String())
	}
}

func FuzzHostAllowed(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8765", "localhost:8765", "[::1]:8765", "evil:8765", "", ":", "[", "1.2.3.4:8765"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, host string, wildcard bool) {
		a := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8765}
		if wildcard {
			a.IP = net.IPv4zero
		}
		if !hostAllowed(host, a, allowedHosts(a)) {
			return
		}
		// Whatever passes names no host but an IP literal or localhost:
		// nothing a rebound DNS name could be.
		h, p, err := net.SplitHostPort(host)
		if err != nil || p != "8765" || (net.ParseIP(h) == nil && !strings.EqualFold(h, "localhost")) {
			t.Fatalf("accepted %q", host)
		}
	})
}
