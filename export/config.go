package export

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/shownurl"
)

// Protocols of OTLP over HTTP.
const (
	ProtoProtobuf = "http/protobuf"
	ProtoJSON     = "http/json"
)

// DefaultOTLPEndpoint is the logs endpoint when neither the config nor the
// environment names one (the OTLP exporter specification's default).
const DefaultOTLPEndpoint = "http://localhost:4318/v1/logs"

// DefaultTimeout bounds one OTLP request (the specification's 10 s).
const DefaultTimeout = 10 * time.Second

// OTLP is where and how OTLP logs go, once resolved.
type OTLP struct {
	// URL is the full logs endpoint (…/v1/logs).
	URL      string
	Protocol string
	Headers  [][2]string
	Timeout  time.Duration
}

// OTLPSettings is what the config's export.otlp block says; "" and nil
// leave a setting to the environment, then to its default.
type OTLPSettings struct {
	Endpoint     string // a base URL: /v1/logs is appended
	LogsEndpoint string // the full URL
	Protocol     string
	Headers      map[string]string
	Timeout      time.Duration
}

// ResolveOTLP applies the OTLP exporter specification's rules: the
// config's settings first, then OTEL_EXPORTER_OTLP_LOGS_* over
// OTEL_EXPORTER_OTLP_*, then the defaults. getenv reads the environment.
// Every problem is an error naming the setting.
func ResolveOTLP(s OTLPSettings, getenv func(string) string) (OTLP, error) {
	o := OTLP{Protocol: ProtoProtobuf, Timeout: DefaultTimeout}
	env := func(name string) (string, string) {
		if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_LOGS_" + name)); v != "" {
			return v, "OTEL_EXPORTER_OTLP_LOGS_" + name
		}
		return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_" + name)), "OTEL_EXPORTER_OTLP_" + name
	}
	var err error
	switch {
	case s.LogsEndpoint != "":
		o.URL, err = checkURL(s.LogsEndpoint, "export.otlp.logs_endpoint")
	case s.Endpoint != "":
		o.URL, err = baseURL(s.Endpoint, "export.otlp.endpoint")
	default:
		if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")); v != "" {
			o.URL, err = checkURL(v, "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
		} else if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); v != "" {
			o.URL, err = baseURL(v, "OTEL_EXPORTER_OTLP_ENDPOINT")
		} else {
			o.URL = DefaultOTLPEndpoint
		}
	}
	if err != nil {
		return o, err
	}
	proto, from := s.Protocol, "export.otlp.protocol"
	if proto == "" {
		proto, from = env("PROTOCOL")
	}
	switch proto {
	case "", ProtoProtobuf:
	case ProtoJSON:
		o.Protocol = ProtoJSON
	case "grpc":
		return o, settingErr(from, "grpc is not supported; use %s or %s (port 4318)", ProtoProtobuf, ProtoJSON)
	default:
		return o, settingErr(from, "%q is not an OTLP protocol (%s, %s)", proto, ProtoProtobuf, ProtoJSON)
	}
	if s.Headers != nil {
		for k, v := range s.Headers {
			if err := checkHeader(k, v); err != nil {
				return o, &SettingError{Setting: "export.otlp.headers", Err: err}
			}
			o.Headers = append(o.Headers, [2]string{k, v})
		}
		sortHeaders(o.Headers)
		if len(o.Headers) > 0 && s.Endpoint == "" && s.LogsEndpoint == "" {
			// Headers are where a collector's token goes. Left to the
			// variables, the endpoint is a repository's to choose (an
			// agent's project settings set them for the hooks it runs,
			// and the flush a hook starts inherits them): these headers
			// would go to it.
			return o, settingErr("export.otlp.headers", "written without endpoint: or logs_endpoint:, so they would go wherever OTEL_EXPORTER_OTLP_ENDPOINT says, which a repository can set for the hooks your agent runs; write the endpoint beside them")
		}
	} else if v, from := env("HEADERS"); v != "" {
		if o.Headers, err = ParseHeaders(v); err != nil {
			return o, &SettingError{Setting: from, Err: err}
		}
	}
	if s.Timeout > 0 {
		o.Timeout = s.Timeout
	} else if v, from := env("TIMEOUT"); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 || ms > 3_600_000 {
			return o, settingErr(from, "%q is not a timeout in milliseconds (1 to 3600000)", v)
		}
		o.Timeout = time.Duration(ms) * time.Millisecond
	}
	return o, nil
}

// SettingError is a setting (a key of the config's export: block, or an
// OTEL_EXPORTER_OTLP_* variable) that cannot be used, and why: the config
// reader warns at the key, the exporter names the variable.
type SettingError struct {
	Setting string
	Err     error
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

func settingErr(setting, format string, args ...any) error {
	return &SettingError{Setting: setting, Err: fmt.Errorf(format, args...)}
}

func checkURL(raw, from string) (string, error) {
	// What the errors quote (shownurl.URL): a refused URL may still hold
	// a password or a key, and they reach stderr and serve's log.
	u, err := url.Parse(raw)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // without the URL, which it quotes whole
		}
		return "", settingErr(from, "%q is not a URL: %v", shownurl.URL(raw), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", settingErr(from, "%q must be an http:// or https:// URL", shownurl.URL(raw))
	}
	if u.Host == "" {
		return "", settingErr(from, "%q names no host", shownurl.URL(raw))
	}
	if u.User != nil {
		return "", settingErr(from, "%q carries credentials in the URL; put them in the headers", shownurl.URL(raw))
	}
	return u.String(), nil
}

// baseURL is a base endpoint with the logs path appended, as the
// specification says for OTEL_EXPORTER_OTLP_ENDPOINT.
func baseURL(raw, from string) (string, error) {
	s, err := checkURL(raw, from)
	if err != nil {
		return "", err
	}
	u, _ := url.Parse(s)
	u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/logs"
	u.RawPath = ""
	return u.String(), nil
}

// ParseHeaders reads OTEL_EXPORTER_OTLP_HEADERS: comma-separated
// key=value pairs, values percent-decoded (the W3C baggage form the
// specification names). A key must be an HTTP token and a value hold no
// control character, so no header can be smuggled into the request.
func ParseHeaders(s string) ([][2]string, error) {
	var out [][2]string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not key=value", part)
		}
		k = strings.TrimSpace(k)
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("header %q: the value is not percent-encoded: %v", k, err)
		}
		if err := checkHeader(k, dv); err != nil {
			return nil, err
		}
		out = append(out, [2]string{k, dv})
	}
	return out, nil
}

var errHeaderName = errors.New("is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)")

func checkHeader(k, v string) error {
	if k == "" {
		return fmt.Errorf("an empty header name")
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return fmt.Errorf("%q %w", k, errHeaderName)
		}
	}
	switch strings.ToLower(k) {
	case "host", "content-length", "content-type", "transfer-encoding", "connection":
		return fmt.Errorf("header %q is set by the exporter itself", k)
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return fmt.Errorf("header %q: the value holds a control character", k)
		}
	}
	return nil
}

func sortHeaders(h [][2]string) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && h[j][0] < h[j-1][0]; j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// SyslogTarget is where syslog messages go: Network "unixgram" (the local
// socket), "udp" or "tcp", and Addr.
type SyslogTarget struct {
	Network, Addr string
}

// ParseSyslog reads export.syslog: "local" (/dev/log), unix:///path,
// udp://host:port or tcp://host:port.
func ParseSyslog(s string) (SyslogTarget, error) {
	if s == "local" {
		return SyslogTarget{Network: "unixgram", Addr: "/dev/log"}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return SyslogTarget{}, fmt.Errorf("%q is not local, unix:///path, udp://host:port or tcp://host:port", s)
	}
	switch u.Scheme {
	case "unix", "unixgram":
		if u.Host != "" || u.Path == "" {
			return SyslogTarget{}, fmt.Errorf("%q: a local socket is unix:///absolute/path", s)
		}
		return SyslogTarget{Network: "unixgram", Addr: u.Path}, nil
	case "udp", "tcp":
		if u.Port() == "" || u.Hostname() == "" || u.Path != "" && u.Path != "/" {
			return SyslogTarget{}, fmt.Errorf("%q: a network target is %s://host:port", s, u.Scheme)
		}
		return SyslogTarget{Network: u.Scheme, Addr: u.Host}, nil
	}
	return SyslogTarget{}, fmt.Errorf("%q is not local, unix:///path, udp://host:port or tcp://host:port", s)
}
