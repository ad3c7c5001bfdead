package export

import (
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"

	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	"google.golang.org/protobuf/proto"
)

// rfc5424 is the message shape: PRI, version 1, timestamp, host, app,
// procid, msgid, structured data, BOM, text.
var rfc5424 = regexp.MustCompile(`^<(\d+)>1 (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z) (\S+) hermes-hooks (\d+) decision (\[hermes_hooks@32473(?: [a-z]+="(?:[^"\\\]]|\\.)*")*\]|-) \x{FEFF}(.*)$`)

func checkSyslog(t *testing.T, msg string, wantPri int, wantLine string) {
	t.Helper()
	m := rfc5424.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("not an RFC 5424 message: %q", msg)
	}
	if pri, _ := strconv.Atoi(m[1]); pri != wantPri {
		t.Errorf("PRI %d, want %d", pri, wantPri)
	}
	if !strings.HasSuffix(m[6], wantLine) {
		t.Errorf("message %q does not end with the journal line", m[6])
	}
}

func syslogItems() []item {
	return []item{newItem([]byte(blockLine)), newItem([]byte(allowLine))}
}

func TestSyslogUDP(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no UDP on loopback:", err)
	}
	defer pc.Close()
	s := &syslogSink{target: SyslogTarget{Network: "udp", Addr: pc.LocalAddr().String()}, host: "box"}
	defer s.close()
	if err := s.send(context.Background(), syslogItems()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 65536)
	_ = pc.SetReadDeadline(time.Now().Add(hang))
	for i, want := range []struct {
		pri  int
		line string
	}{{4*8 + 4, blockLine}, {4*8 + 5, allowLine}} {
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			t.Fatal(err)
		}
		checkSyslog(t, string(buf[:n]), want.pri, want.line)
		if i == 0 && !strings.Contains(string(buf[:n]), ` event="pre_tool_call" decision="block" session="s1" tool="terminal" agent="claude" seq="7" rule="no-rm"]`) {
			t.Errorf("structured data: %q", buf[:n])
		}
	}
}

// Over TCP, messages are octet-counted (RFC 6587): a reader splits them
// exactly, whatever they hold.
func TestSyslogTCPOctetCounting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		var msgs []string
		for len(msgs) < 2 {
			n, err := r.ReadString(' ')
			if err != nil {
				break
			}
			size, _ := strconv.Atoi(strings.TrimSpace(n))
			b := make([]byte, size)
			if _, err := io.ReadFull(r, b); err != nil {
				break
			}
			msgs = append(msgs, string(b))
		}
		got <- msgs
	}()
	s := &syslogSink{target: SyslogTarget{Network: "tcp", Addr: ln.Addr().String()}, host: "box"}
	defer s.close()
	if err := s.send(context.Background(), syslogItems()); err != nil {
		t.Fatal(err)
	}
	select {
	case msgs := <-got:
		if len(msgs) != 2 {
			t.Fatalf("got %d messages", len(msgs))
		}
		checkSyslog(t, msgs[0], 36, blockLine)
		checkSyslog(t, msgs[1], 37, allowLine)
	case <-time.After(hang):
		t.Fatal("no messages")
	}
}

func TestSyslogUnixSocket(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unixgram sockets")
	}
	dir, err := os.MkdirTemp("", "sl")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "log")
	pc, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	target, err := ParseSyslog("unix://" + path)
	if err != nil {
		t.Fatal(err)
	}
	s := &syslogSink{target: target, host: "box"}
	defer s.close()
	if err := s.send(context.Background(), syslogItems()[:1]); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 65536)
	_ = pc.SetReadDeadline(time.Now().Add(hang))
	n, err := pc.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	checkSyslog(t, string(buf[:n]), 36, blockLine)
}

// A value a hook controls (the message) cannot end the structured data
// early or forge a parameter.
func TestSyslogEscapesParams(t *testing.T) {
	line := strings.Replace(blockLine, `"session":"s1"`, `"session":"x\"] [forged@1 a=\"b\\\\"`, 1)
	msg := string(formatRFC5424(&[]item{newItem([]byte(line))}[0], "h o\x00st", "1", time.Now()))
	if !strings.Contains(msg, `session="x\"\] [forged@1 a=\"b\\\\" tool=`) {
		t.Errorf("not escaped: %q", msg)
	}
	if !strings.Contains(msg, " host hermes-hooks ") {
		t.Errorf("host not cleaned: %q", msg)
	}
	checkSyslog(t, msg, 36, line)
}

// Nothing a hook or a payload controls can end the message early or start
// another line in a log file: control characters in the summary and the
// structured data are written escaped (the journal line at the end is
// JSON, which escapes them itself). Before, a hook's message
// "ok\n<34>1 … forged" reached a syslog file as a line of its own.
func TestSyslogEscapesControlCharacters(t *testing.T) {
	line := strings.Replace(blockLine, `"session":"s1"`, `"session":"s\r\n1"`, 1)
	line = strings.Replace(line, `"message":"no rm -rf"`, `"message":"ok\n<34>1 2026-01-01T00:00:00Z host forged - - - all clear\u001b[2J"`, 1)
	msg := string(formatRFC5424(&[]item{newItem([]byte(line))}[0], "host", "1", time.Now()))
	if strings.ContainsAny(msg, "\r\n\x1b") {
		t.Fatalf("a control character written raw: %q", msg)
	}
	if !strings.Contains(msg, `session="s\r\n1"`) || !strings.Contains(msg, `ok\n<34>1`) {
		t.Errorf("not escaped visibly: %q", msg)
	}
}

// The JSON-lines file is opened for each batch: a shipper that renames it
// away finds the next lines in a new file, none split.
func TestFileSinkRotationSafe(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "decisions.jsonl")
	s := &fileSink{path: path}
	if err := s.send(context.Background(), syslogItems()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := s.send(context.Background(), syslogItems()[:1]); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path + ".1")
	cur, _ := os.ReadFile(path)
	if string(old) != blockLine+"\n"+allowLine+"\n" || string(cur) != blockLine+"\n" {
		t.Errorf("rotated %q\ncurrent %q", old, cur)
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 (decisions name commands and directories)", fi.Mode())
	}
}

// The OTLP sink posts the batch with its headers and content type, reads
// 5xx/429 as retryable and other refusals as final, and follows no
// redirect.
func TestOTLPSinkHTTP(t *testing.T) {
	var status atomic.Int64
	status.Store(200)
	var got atomic.Pointer[http.Request]
	var body atomic.Pointer[[]byte]
	redirected := atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/elsewhere" {
			redirected.Store(true)
		}
		b, _ := io.ReadAll(r.Body)
		got.Store(r)
		body.Store(&b)
		if s := int(status.Load()); s == http.StatusTemporaryRedirect {
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		} else {
			w.WriteHeader(s)
		}
	}))
	defer srv.Close()
	s := newOTLPSink(OTLP{URL: srv.URL + "/v1/logs", Protocol: ProtoProtobuf, Timeout: hang, Headers: [][2]string{{"Authorization", "Bearer t"}}}, testRes)
	if err := s.send(context.Background(), syslogItems()); err != nil {
		t.Fatal(err)
	}
	r := got.Load()
	if r.Header.Get("Content-Type") != "application/x-protobuf" || r.Header.Get("Authorization") != "Bearer t" || r.URL.Path != "/v1/logs" {
		t.Errorf("request %v %v", r.URL, r.Header)
	}
	var ld logspb.LogsData
	if err := proto.Unmarshal(*body.Load(), &ld); err != nil || len(ld.ResourceLogs[0].ScopeLogs[0].LogRecords) != 2 {
		t.Errorf("body: %v", err)
	}
	for code, perm := range map[int64]bool{503: false, 429: false, 400: true, 307: true} {
		status.Store(code)
		err := s.send(context.Background(), syslogItems())
		var p permanent
		if err == nil || errorAs(err, &p) != perm {
			t.Errorf("status %d: %v (permanent %v)", code, err, perm)
		}
	}
	if redirected.Load() {
		t.Error("a redirect was followed")
	}
	status.Store(200)
	s.cfg.Protocol = ProtoJSON
	if err := s.send(context.Background(), syslogItems()); err != nil || got.Load().Header.Get("Content-Type") != "application/json" {
		t.Errorf("json: %v %v", err, got.Load().Header)
	}
}

func errorAs(err error, p *permanent) bool {
	x, ok := err.(permanent)
	if ok {
		*p = x
	}
	return ok
}

// Records to an http:// endpoint go straight to it, whatever proxy the
// environment (which a repository's agent settings can set) names; to an
// https:// one, through the environment's proxy as a tunnel (the rule is
// internal/hookhttp's, tested there through a real proxy and process).
func TestOTLPSinkProxiesHTTPSOnly(t *testing.T) {
	s := newOTLPSink(OTLP{URL: "http://collector.invalid/v1/logs", Timeout: hang}, testRes)
	tr, ok := s.client.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("the OTLP client's transport is %T, want its own *http.Transport", s.client.Transport)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://collector.invalid/v1/logs", nil)
	if u, err := tr.Proxy(req); u != nil || err != nil {
		t.Errorf("an http:// endpoint goes through %v (%v), want straight", u, err)
	}
}

// Nor can a character a terminal acts on that JSON carries raw (a C1 CSI,
// a right-to-left override) reach a log file from the structured data or
// the journal line: a line of an older journal, or a spooled one a local
// process wrote, holds them raw.
func TestSyslogEscapesTerminalCharacters(t *testing.T) {
	line := strings.Replace(blockLine, `"session":"s1"`, "\"session\":\"s\u009b31m\u202e\"", 1)
	line = strings.Replace(line, `"message":"no rm -rf"`, "\"message\":\"ok\u200b\u2028\"", 1)
	msg := string(formatRFC5424(&[]item{newItem([]byte(line))}[0], "host", "1", time.Now()))
	// The BOM RFC 5424 puts before a UTF-8 message is the one kept.
	body := strings.Replace(msg, "\xef\xbb\xbf", "", 1)
	if termsafe.Escape(body) != body {
		t.Fatalf("a terminal character written raw: %s", termsafe.Escape(body))
	}
	if !strings.Contains(msg, `session="s\u009b31m\u202e"`) || !strings.Contains(msg, `"session":"s\u009b31m\u202e"`) {
		t.Errorf("not escaped visibly: %q", msg)
	}
}

// A collector's key passed in the endpoint's query (some vendors take it
// so) stays out of the errors a send returns: they reach serve's log and
// the one-shot flush's warning on stderr, where net/http quoted the URL
// whole (a refusal said "URL answered 401", a dead collector `Post "URL":
// dial tcp …`).
func TestOTLPSinkErrorsHideTheURLsSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	refusing := srv.URL
	down := httptest.NewServer(http.NotFoundHandler())
	deadURL := down.URL
	down.Close()
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	defer srv2.Close()
	for _, base := range []string{refusing, deadURL, srv2.URL} {
		s := newOTLPSink(OTLP{URL: base + "/v1/logs?api_key=SECRETKEY1", Protocol: ProtoProtobuf, Timeout: hang}, testRes)
		err := s.send(context.Background(), syslogItems())
		if err == nil {
			t.Fatalf("%s: no error", base)
		}
		if strings.Contains(err.Error(), "SECRETKEY1") {
			t.Errorf("the error shows the URL's secret: %v", err)
		}
		if !strings.Contains(err.Error(), "api_key=xxxxx") {
			t.Errorf("the error does not name the endpoint, redacted: %v", err)
		}
	}
}

// TestOTLPUntrustedCertificateIsPermanent: an endpoint whose certificate
// the system's roots do not trust fails every retry the same way; the
// flush says so at once rather than retrying until --within runs out
// (and then reporting only its deadline).
func TestOTLPUntrustedCertificateIsPermanent(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	s := newOTLPSink(OTLP{URL: srv.URL + "/v1/logs", Protocol: ProtoProtobuf, Timeout: hang}, testRes)
	err := s.send(context.Background(), syslogItems())
	var p permanent
	if err == nil || !errorAs(err, &p) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("send to an untrusted certificate: %v (permanent %v)", err, errorAs(err, &p))
	}
}
