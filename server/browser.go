package server

import (
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// A TCP port on loopback is reachable by every web page the user's browser
// opens: a cross-origin "simple" POST (text/plain, no preflight) would run
// the user's hooks with the page's payload, and a page whose name the
// attacker re-points at 127.0.0.1 (DNS rebinding) would read the answers
// as same-origin. No client of ours is a browser, so on TCP the server
// refuses whatever a browser sends and our clients never do:
//
//   - an Origin header (browsers send it on every POST and on every
//     cross-origin request);
//   - a Host other than the address the server listens on (a rebound name
//     arrives under the attacker's name; an IP literal or "localhost"
//     cannot be rebound);
//   - a body that is not declared JSON (a POST without Content-Type
//     application/json): the only bodies a page can send cross-origin
//     without a preflight are text/plain, form data and multipart.
//
// A Unix socket is out of a browser's reach and its requests pass
// unchecked (its mode, 0600, is the access control).

// browserGuard wraps h with the checks above for a listener at addr.
func (s *Server) browserGuard(h http.Handler, addr net.Addr) http.Handler {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return h
	}
	allowed := allowedHosts(tcp)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status, e := refuseBrowser(r, tcp, allowed); status != 0 {
			s.log.Warn("refused a request a browser could have sent", "method", echo(r.Method), "path", echo(r.URL.Path),
				"status", status, "reason", e.Error)
			writeError(w, status, e)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// allowedHosts are the Host values that name the listener itself: its
// address as bound (127.0.0.1:PORT, [::1]:PORT) and, on loopback,
// localhost:PORT (what a client told "tcp://localhost:PORT" sends; a
// browser resolves localhost to loopback itself, so it cannot be rebound).
func allowedHosts(a *net.TCPAddr) map[string]bool {
	port := strconv.Itoa(a.Port)
	m := map[string]bool{strings.ToLower(net.JoinHostPort(a.IP.String(), port)): true}
	if a.IP.IsLoopback() {
		m["localhost:"+port] = true
	}
	if a.Port == 80 {
		// A Host without a port means port 80.
		for h := range m {
			m[strings.TrimSuffix(h, ":80")] = true
		}
	}
	return m
}

// refuseBrowser returns the status and error of a refused request, or 0.
func refuseBrowser(r *http.Request, a *net.TCPAddr, allowed map[string]bool) (int, apiError) {
	const hint = "this API answers programs, not web pages; see `hermes-hooks serve --help`"
	if _, ok := r.Header["Origin"]; ok {
		return http.StatusForbidden, apiError{Error: "requests with an Origin header are refused (a web page sent this)", Hint: hint}
	}
	if !hostAllowed(r.Host, a, allowed) {
		return http.StatusForbidden, apiError{
			Error: "Host " + strconv.Quote(textutil.CutBytesSaying(r.Host, maxEcho)) + " is not this server's address " + net.JoinHostPort(a.IP.String(), strconv.Itoa(a.Port)),
			Hint:  "connect to the address serve listens on (or localhost:PORT when it is loopback)",
		}
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		return 0, apiError{}
	}
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return http.StatusUnsupportedMediaType, apiError{
			Error: "Content-Type " + strconv.Quote(textutil.CutBytesSaying(ct, maxEcho)) + " refused: send the body as application/json",
			Hint:  hint,
		}
	}
	return 0, apiError{}
}

// hostAllowed reports whether host names the listener. Listening on every
// interface (--allow-remote with 0.0.0.0 or [::]), any IP literal with the
// port does: the address is then whatever the client dialled, and an IP
// literal cannot be rebound; a name still must be localhost.
func hostAllowed(host string, a *net.TCPAddr, allowed map[string]bool) bool {
	host = strings.ToLower(host)
	if allowed[host] {
		return true
	}
	if !a.IP.IsUnspecified() {
		return false
	}
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != strconv.Itoa(a.Port) {
		return false
	}
	return net.ParseIP(h) != nil || h == "localhost"
}
