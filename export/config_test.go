package export

import (
	"strings"
	"testing"
	"time"
)

func TestResolveOTLP(t *testing.T) {
	for _, c := range []struct {
		name    string
		s       OTLPSettings
		env     map[string]string
		want    OTLP
		wantErr string
	}{
		{name: "defaults", want: OTLP{URL: DefaultOTLPEndpoint, Protocol: ProtoProtobuf, Timeout: DefaultTimeout}},
		{name: "base endpoint gets the logs path", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"},
			want: OTLP{URL: "http://c:4318/v1/logs", Protocol: ProtoProtobuf, Timeout: DefaultTimeout}},
		{name: "base endpoint with a path and slash", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c/otlp/"},
			want: OTLP{URL: "https://c/otlp/v1/logs", Protocol: ProtoProtobuf, Timeout: DefaultTimeout}},
		{name: "logs endpoint as is, over the base", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:1", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://b:2/custom"},
			want: OTLP{URL: "http://b:2/custom", Protocol: ProtoProtobuf, Timeout: DefaultTimeout}},
		{name: "the config wins over the environment", s: OTLPSettings{Endpoint: "http://cfg:4318", Protocol: ProtoJSON, Timeout: 3 * time.Second, Headers: map[string]string{"b": "2", "a": "1"}},
			env:  map[string]string{"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://evil/", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_HEADERS": "x=y", "OTEL_EXPORTER_OTLP_TIMEOUT": "1"},
			want: OTLP{URL: "http://cfg:4318/v1/logs", Protocol: ProtoJSON, Timeout: 3 * time.Second, Headers: [][2]string{{"a", "1"}, {"b", "2"}}}},
		{name: "signal-specific variables over generic ones", env: map[string]string{
			"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": "http/json",
			"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_LOGS_HEADERS": "api-key=s%20e%2Ccret, b = 2 ",
			"OTEL_EXPORTER_OTLP_TIMEOUT": "x", "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT": "2500"},
			want: OTLP{URL: DefaultOTLPEndpoint, Protocol: ProtoJSON, Timeout: 2500 * time.Millisecond, Headers: [][2]string{{"api-key", "s e,cret"}, {"b", "2"}}}},
		{name: "grpc", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, wantErr: "OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported"},
		{name: "bad protocol", s: OTLPSettings{Protocol: "http"}, wantErr: `export.otlp.protocol: "http" is not an OTLP protocol`},
		{name: "not http", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "file:///etc/passwd"}, wantErr: "must be an http:// or https:// URL"},
		{name: "no host", s: OTLPSettings{LogsEndpoint: "http:///v1/logs"}, wantErr: "names no host"},
		{name: "credentials in the URL", s: OTLPSettings{Endpoint: "https://u:p@c"}, wantErr: "carries credentials"},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, wantErr: "OTEL_EXPORTER_OTLP_TIMEOUT: \"10s\" is not a timeout in milliseconds"},
		{name: "header smuggling", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1%0d%0aHost: evil"}, wantErr: "control character"},
		{name: "header that is the exporter's", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "Host=evil"}, wantErr: "set by the exporter itself"},
		{name: "not key=value", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, wantErr: `"novalue" is not key=value`},
		{name: "bad header name", s: OTLPSettings{Headers: map[string]string{"a b": "1"}}, wantErr: "export.otlp.headers: \"a b\" is not a header name"},
		// The block's headers (a token) would go wherever the variables,
		// a repository's to set for an agent's hooks, say.
		{name: "headers without the endpoint", s: OTLPSettings{Headers: map[string]string{"Authorization": "Bearer s3cr3t"}},
			env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://evil:4318"}, wantErr: "export.otlp.headers: written without endpoint"},
		{name: "headers without the endpoint, none in the environment", s: OTLPSettings{Headers: map[string]string{"Authorization": "Bearer s3cr3t"}},
			wantErr: "export.otlp.headers: written without endpoint"},
		{name: "headers with the logs endpoint", s: OTLPSettings{LogsEndpoint: "https://cfg/v1/logs", Headers: map[string]string{"a": "1"}},
			env:  map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://evil:4318"},
			want: OTLP{URL: "https://cfg/v1/logs", Protocol: ProtoProtobuf, Timeout: DefaultTimeout, Headers: [][2]string{{"a", "1"}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ResolveOTLP(c.s, func(k string) string { return c.env[k] })
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.URL != c.want.URL || got.Protocol != c.want.Protocol || got.Timeout != c.want.Timeout || len(got.Headers) != len(c.want.Headers) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got.Headers {
				if got.Headers[i] != c.want.Headers[i] {
					t.Errorf("header %d: %v, want %v", i, got.Headers[i], c.want.Headers[i])
				}
			}
		})
	}
}

func TestParseSyslog(t *testing.T) {
	for _, c := range []struct{ in, network, addr, err string }{
		{in: "local", network: "unixgram", addr: "/dev/log"},
		{in: "unix:///run/systemd/journal/syslog", network: "unixgram", addr: "/run/systemd/journal/syslog"},
		{in: "udp://127.0.0.1:514", network: "udp", addr: "127.0.0.1:514"},
		{in: "tcp://[::1]:601", network: "tcp", addr: "[::1]:601"},
		{in: "udp://host", err: "a network target is udp://host:port"},
		{in: "tcp://:601", err: "a network target is tcp://host:port"},
		{in: "unix://relative/path", err: "unix:///absolute/path"},
		{in: "http://x:1", err: "is not local"},
		{in: "/dev/log", err: "is not local"},
	} {
		got, err := ParseSyslog(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got.Network != c.network || got.Addr != c.addr {
			t.Errorf("%q: %+v %v", c.in, got, err)
		}
	}
}

// Whatever OTEL_EXPORTER_OTLP_HEADERS holds, an accepted header is one
// net/http sends as a single header line: no control character, a token
// name, none of the headers the exporter sets itself.
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"a=b", "api-key=s%20e%2Ccret, b = 2", "a=1%0d%0aHost: evil", "=", ",,", "k=%zz", "Host=x", "a=\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		hs, err := ParseHeaders(s)
		if err != nil {
			return
		}
		for _, h := range hs {
			if checkHeader(h[0], h[1]) != nil {
				t.Fatalf("accepted %q", h)
			}
			if strings.ContainsAny(h[1], "\r\n\x00") || strings.ContainsAny(h[0], " :\r\n") {
				t.Fatalf("accepted %q", h)
			}
		}
	})
}

// Whatever an endpoint variable holds, an accepted one is an http(s) URL
// with a host and no credentials.
func FuzzResolveEndpoint(f *testing.F) {
	for _, s := range []string{"http://c:4318", "https://u:p@c", "file:///x", "http://[::1]:1/a%20b", "javascript:alert(1)", "http://c/\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"} {
			o, err := ResolveOTLP(OTLPSettings{}, func(k string) string {
				if k == name {
					return s
				}
				return ""
			})
			if err != nil {
				continue
			}
			if _, err := checkURL(o.URL, "again"); err != nil {
				t.Fatalf("%s=%q resolved to %q, which is refused: %v", name, s, o.URL, err)
			}
		}
	})
}

// A refused endpoint is named with its secrets hidden: the error reaches
// stderr and serve's log, and the password or key in it is the one the
// person meant to keep out of files.
func TestResolveOTLPErrorsHideTheURLsSecrets(t *testing.T) {
	for _, raw := range []string{"https://u:SECRETPW1@c/v1/logs", "ftp://c/v1/logs?key=SECRETPW1", "http:///v1/logs?key=SECRETPW1"} {
		_, err := ResolveOTLP(OTLPSettings{LogsEndpoint: raw}, func(string) string { return "" })
		if err == nil {
			t.Fatalf("%s: accepted", raw)
		}
		if strings.Contains(err.Error(), "SECRETPW1") {
			t.Errorf("the error shows the URL's secret: %v", err)
		}
	}
}
