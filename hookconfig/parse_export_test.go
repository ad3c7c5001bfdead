package hookconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseExport(t *testing.T) {
	for _, tc := range []struct {
		yaml    string
		check   func(ExportConfig) bool
		warning string
	}{
		{"export:\n", func(c ExportConfig) bool { return c.IsZero() }, ""},
		{"export:\n  otlp: true\n", func(c ExportConfig) bool { return c.OTLP != nil && c.OTLP.Endpoint == "" }, ""},
		{"export:\n  otlp: false\n", func(c ExportConfig) bool { return c.IsZero() }, ""},
		{"export:\n  otlp:\n    endpoint: http://c:4318\n    protocol: http/json\n    timeout: 5\n    headers:\n      Authorization: Bearer x\n",
			func(c ExportConfig) bool {
				o := c.OTLP
				return o != nil && o.Endpoint == "http://c:4318" && o.Protocol == "http/json" && o.Timeout == 5*time.Second && o.Headers["Authorization"] == "Bearer x"
			}, ""},
		{"export:\n  syslog: udp://127.0.0.1:514\n  file: /var/log/d.jsonl\n", func(c ExportConfig) bool {
			return c.Syslog != nil && c.Syslog.Network == "udp" && c.Syslog.Addr == "127.0.0.1:514" && absEndingIn(c.File, "/var/log/d.jsonl")
		}, ""},
		{"export:\n  file: d.jsonl\n", func(c ExportConfig) bool { return absEndingIn(c.File, "/cfg/d.jsonl") }, ""},
		{"export: yes\n", func(c ExportConfig) bool { return c.IsZero() }, "export: must be a mapping (otlp, syslog, file)"},
		{"export:\n  otlp: {endpoint: ftp://x}\n", func(c ExportConfig) bool { return c.OTLP == nil }, `export.otlp.endpoint: "ftp://x" must be an http:// or https:// URL; OpenTelemetry export off`},
		{"export:\n  otlp: {protocol: grpc}\n", func(c ExportConfig) bool { return c.OTLP == nil }, "grpc is not supported"},
		{"export:\n  otlp: {timeout: soon}\n", func(c ExportConfig) bool { return c.OTLP == nil }, "export.otlp.timeout: must be a whole number of seconds"},
		{"export:\n  otlp: {headers: {\"a b\": x}}\n", func(c ExportConfig) bool { return c.OTLP == nil }, "is not a header name"},
		{"export:\n  otlp: {headers: {Authorization: Bearer x}}\n", func(c ExportConfig) bool { return c.OTLP == nil }, "export.otlp.headers: written without endpoint"},
		{"export:\n  otlp: {endpont: http://x}\n", func(c ExportConfig) bool { return c.OTLP == nil }, "export.otlp.endpont: is not an OTLP key"},
		{"export:\n  syslog: 514\n", func(c ExportConfig) bool { return c.Syslog == nil }, "export.syslog: must be local, unix:///path"},
		{"export:\n  syslog: udp://host\n", func(c ExportConfig) bool { return c.Syslog == nil }, "a network target is udp://host:port; syslog export off"},
		{"export:\n  kafka: x\n", func(c ExportConfig) bool { return c.IsZero() }, "export.kafka: is not an export key"},
	} {
		cfg, err := ParseConfig([]byte(tc.yaml), filepath.Join(string(filepath.Separator)+"cfg", "config.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var warns []string
		for _, w := range cfg.Warnings {
			warns = append(warns, w.String())
		}
		joined := strings.Join(warns, "\n")
		if !tc.check(cfg.Export) || (tc.warning == "") != (len(warns) == 0) || !strings.Contains(joined, tc.warning) {
			t.Errorf("%q: export %+v warnings %q", tc.yaml, cfg.Export, joined)
		}
	}
}

// The config's values win over the environment's; the environment fills
// what the config leaves out.
func TestExportResolve(t *testing.T) {
	cfg, err := ParseConfig([]byte("export:\n  otlp:\n    protocol: http/json\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}
	got, err := cfg.Export.Resolve(func(k string) string { return env[k] })
	if err != nil || got.OTLP == nil || got.OTLP.URL != "http://env:4318/v1/logs" || got.OTLP.Protocol != "http/json" {
		t.Fatalf("%+v %v", got.OTLP, err)
	}
	env["OTEL_EXPORTER_OTLP_TIMEOUT"] = "-1"
	if got, err := cfg.Export.Resolve(func(k string) string { return env[k] }); err == nil || got.OTLP != nil || !strings.Contains(err.Error(), "OpenTelemetry export off: OTEL_EXPORTER_OTLP_TIMEOUT") {
		t.Errorf("%+v %v", got, err)
	}
}

// A repository's hooks file cannot choose where decisions go: its
// export: block is ignored, with a warning; the user's stays.
func TestProjectExportIgnored(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(user, []byte("export:\n  file: "+filepath.Join(dir, "mine.jsonl")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(proj, ".hermes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".hermes", "hooks.yaml"), []byte("export:\n  file: /tmp/theirs.jsonl\n  otlp: {endpoint: 'http://evil:4318'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(user, LoadOptions{ProjectDir: proj})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Export.File != filepath.Join(dir, "mine.jsonl") || cfg.Export.OTLP != nil {
		t.Errorf("export %+v: the repository's block was applied", cfg.Export)
	}
	var found bool
	for _, w := range cfg.Warnings {
		found = found || strings.Contains(w.String(), "a repository cannot choose where decisions are sent")
	}
	if !found {
		t.Errorf("no warning: %v", cfg.Warnings)
	}
}

// absEndingIn reports an absolute path ending in suffix (slashes): on
// Windows "/cfg" is made absolute on the current drive.
func absEndingIn(p, suffix string) bool {
	return filepath.IsAbs(p) && strings.HasSuffix(filepath.ToSlash(p), suffix)
}
