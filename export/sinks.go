package export

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/shownurl"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/internal/tlsroots"
)

// sink is one destination. send delivers a batch or fails; a failure is
// retried by the caller (so a sink that delivered part of a batch may
// deliver that part twice: export is at least once).
type sink interface {
	name() string
	send(ctx context.Context, items []item) error
	close()
}

// permanent marks a failure a retry cannot mend (the endpoint refused the
// data itself).
type permanent struct{ error }

// --- OTLP over HTTP ---

type otlpSink struct {
	cfg    OTLP
	res    resource
	client *http.Client
}

func newOTLPSink(cfg OTLP, res resource) *otlpSink {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = proxyForHTTPS
	// The system's roots, not those SSL_CERT_FILE or SSL_CERT_DIR name:
	// the flush a hook starts has the hook's environment, which a
	// repository's settings can fill, and a CA of its own there with its
	// proxy in HTTPS_PROXY would open the tunnel proxyForHTTPS allows
	// (the headers, a secret, and every record read, or dropped).
	t.TLSClientConfig = &tls.Config{RootCAs: tlsroots.System()}
	return &otlpSink{cfg: cfg, res: res, client: &http.Client{
		Transport: t,
		Timeout:   cfg.Timeout,
		// An endpoint moved elsewhere is a configuration to fix, not a
		// place to send decisions on someone else's word.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// proxyForHTTPS is net/http's proxy from the environment for an https://
// endpoint only, as for http hooks (internal/hookhttp): an agent's project
// settings can set HTTP_PROXY for the hooks it runs, and through a
// repository's proxy plain-http records would be read, or dropped unseen.
// Through a tunnel (CONNECT) to an https:// endpoint they are neither.
func proxyForHTTPS(r *http.Request) (*url.URL, error) {
	if r.URL.Scheme != "https" {
		return nil, nil
	}
	return http.ProxyFromEnvironment(r)
}

func (s *otlpSink) name() string { return "otlp" }
func (s *otlpSink) close()       { s.client.CloseIdleConnections() }

func (s *otlpSink) send(ctx context.Context, items []item) error {
	var body []byte
	ctype := "application/x-protobuf"
	if s.cfg.Protocol == ProtoJSON {
		body, ctype = encodeJSON(s.res, items, time.Now()), "application/json"
	} else {
		body = encodeProtobuf(s.res, items, time.Now())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return permanent{err}
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("User-Agent", "hermes-hooks/"+s.res.version)
	for _, h := range s.cfg.Headers {
		req.Header.Set(h[0], h[1])
	}
	resp, err := s.client.Do(req)
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		// net/http quotes the URL whole: a key in its query would
		// reach serve's log and the flush's warning.
		ue.URL = shownurl.URL(ue.URL)
	}
	if err != nil {
		// A certificate the system's roots do not trust stays so: every
		// retry would fail alike until the flush's time ran out, and the
		// warning then named the deadline, not the certificate.
		if errors.As(err, new(*tls.CertificateVerificationError)) {
			return permanent{err}
		}
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	// The specification's retryable answers.
	case resp.StatusCode == 429 || resp.StatusCode == 502 || resp.StatusCode == 503 || resp.StatusCode == 504:
		return fmt.Errorf("%s answered %s", shownurl.URL(s.cfg.URL), resp.Status)
	}
	return permanent{fmt.Errorf("%s answered %s", shownurl.URL(s.cfg.URL), resp.Status)}
}

// --- JSON lines file ---

// fileSink appends the journal's lines to a file another program tails.
// It opens the file for each batch (O_APPEND): a shipper that rotates it
// (renames it away) finds the next batch in a new file at the path, and
// no line is ever split across the two.
type fileSink struct{ path string }

func (s *fileSink) name() string { return "file" }
func (s *fileSink) close()       {}

func (s *fileSink) send(_ context.Context, items []item) error {
	var buf []byte
	for _, it := range items {
		buf = append(append(buf, it.line...), '\n')
	}
	// A regular file only: a FIFO nobody reads would hold the sink's
	// worker (and the spool's flush lock) for ever.
	f, err := fsutil.OpenRegular(s.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(s.path), 0o700); err == nil {
			f, err = fsutil.OpenRegular(s.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		}
	}
	if err != nil {
		return err
	}
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// --- syslog (RFC 5424) ---

type syslogSink struct {
	target SyslogTarget
	host   string
	conn   net.Conn
}

func (s *syslogSink) name() string { return "syslog" }

func (s *syslogSink) close() {
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

// maxUDP keeps a datagram within what every receiver takes (RFC 5426
// asks receivers for 2048 octets and recommends 8192 where the path
// allows); a longer message is cut.
const maxUDP = 8192

// maxUnixgram bounds a datagram to the local socket: one longer than the
// socket's send buffer (a payload's megabyte tool name) is refused
// (EMSGSIZE), and with it the whole batch, every retry. 64 KiB fits the
// default buffers and what syslog daemons take when set to large
// messages; a longer message is cut.
const maxUnixgram = 64 << 10

func (s *syslogSink) send(ctx context.Context, items []item) error {
	if s.conn == nil {
		d := net.Dialer{Timeout: 5 * time.Second}
		c, err := d.DialContext(ctx, s.target.Network, s.target.Addr)
		if err != nil {
			return err
		}
		s.conn = c
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = s.conn.SetWriteDeadline(dl)
	} else {
		_ = s.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	}
	pid := strconv.Itoa(os.Getpid())
	var stream []byte
	for i := range items {
		msg := formatRFC5424(&items[i], s.host, pid, time.Now())
		if s.target.Network == "tcp" {
			// Octet counting (RFC 6587 3.4.1): a message may hold newlines.
			stream = strconv.AppendInt(stream, int64(len(msg)), 10)
			stream = append(append(stream, ' '), msg...)
			continue
		}
		switch s.target.Network {
		case "udp":
			msg = cutDatagram(msg, maxUDP)
		case "unixgram":
			msg = cutDatagram(msg, maxUnixgram)
		}
		if _, err := s.conn.Write(msg); err != nil {
			s.close()
			return err
		}
	}
	if len(stream) > 0 {
		if _, err := s.conn.Write(stream); err != nil {
			s.close() // the next try dials again
			return err
		}
	}
	return nil
}

// cutDatagram is msg cut to at most max bytes, not inside a UTF-8
// character (the message is declared UTF-8 by its BOM).
func cutDatagram(msg []byte, max int) []byte {
	if len(msg) <= max {
		return msg
	}
	return msg[:len(textutil.CutBytes(string(msg), max))]
}
