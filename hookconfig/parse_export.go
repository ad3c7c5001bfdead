package hookconfig

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/export"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"
)

// ExportConfig is the config's export: block: where every journal record
// also goes (package export). Only the user's (or the managed) config sets
// it: a repository's hooks file cannot send the user's decisions anywhere
// (its block is ignored, with a warning). The zero value exports nothing.
type ExportConfig struct {
	// OTLP turns OpenTelemetry logs on (nil: off); its unset settings
	// come from the OTEL_EXPORTER_OTLP_* variables.
	OTLP *export.OTLPSettings
	// Syslog is the syslog target (nil: off).
	Syslog *export.SyslogTarget
	// File is a JSON-lines file ("": off), ~ expanded and made absolute
	// against the config's directory.
	File string
	// Managed: the block is the managed config's, the organisation's audit
	// trail. None of its settings come from the OTEL_EXPORTER_OTLP_*
	// variables: an agent's project settings can set them for the hooks it
	// runs (and the flush a hook starts inherits them), and a repository
	// would otherwise choose where the organisation's records go.
	Managed bool
}

// IsZero reports whether the block exports nothing.
func (c ExportConfig) IsZero() bool { return c.OTLP == nil && c.Syslog == nil && c.File == "" }

// Resolve is the block with the environment applied (getenv reads it):
// what package export needs. An error names the setting or variable; the
// other sinks are still returned.
func (c ExportConfig) Resolve(getenv func(string) string) (export.Config, error) {
	out := export.Config{Syslog: c.Syslog, File: c.File}
	if c.OTLP == nil {
		return out, nil
	}
	if c.Managed {
		getenv = func(string) string { return "" }
	}
	o, err := export.ResolveOTLP(*c.OTLP, getenv)
	if err != nil {
		return out, fmt.Errorf("OpenTelemetry export off: %w", err)
	}
	out.OTLP = &o
	return out, nil
}

const exportKeys = "otlp, syslog, file"

// parseExport reads export: {otlp, syslog, file}. A bad value is a
// warning and that sink stays off: export is a copy of the journal, never
// a reason to refuse a config.
func (cfg *Config) parseExport(n *yaml.Node, path string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		cfg.warn("export", "must be a mapping ("+exportKeys+"); got "+pyyaml.Type(n)+"; nothing is exported")
		return
	}
	cfg.keysOnce(n, "export", nil)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i].Value, n.Content[i+1]
		switch key {
		case "otlp":
			cfg.parseOTLP(v)
		case "syslog":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
				cfg.warn("export.syslog", "must be local, unix:///path, udp://host:port or tcp://host:port; got "+pyyaml.Repr(v)+"; syslog export off")
				continue
			}
			t, err := export.ParseSyslog(v.Value)
			if err != nil {
				cfg.warn("export.syslog", err.Error()+"; syslog export off")
				continue
			}
			cfg.Export.Syslog = &t
		case "file":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
				cfg.warn("export.file", "must be a file path; got "+pyyaml.Repr(v)+"; file export off")
				continue
			}
			cfg.Export.File = resolvePath(v.Value, filepath.Dir(path))
		default:
			cfg.warn("export."+key, "is not an export key ("+exportKeys+"); ignored")
		}
	}
}

// parseOTLP reads export.otlp: true (everything from the OTEL_EXPORTER_OTLP_*
// variables) or {endpoint, logs_endpoint, protocol, headers, timeout}.
func (cfg *Config) parseOTLP(v *yaml.Node) {
	v = pyyaml.Deref(v) // otlp: *o is its anchor's mapping, as for PyYAML
	if b, ok := pyyaml.Bool(v); ok {
		if b {
			cfg.Export.OTLP = &export.OTLPSettings{}
		}
		return
	}
	if v.Kind != yaml.MappingNode {
		cfg.warn("export.otlp", "must be true or a mapping (endpoint, logs_endpoint, protocol, headers, timeout); got "+pyyaml.Type(v)+"; OpenTelemetry export off")
		return
	}
	var s export.OTLPSettings
	cfg.keysOnce(v, "export.otlp", nil)
	for i := 0; i+1 < len(v.Content); i += 2 {
		key, val := v.Content[i].Value, v.Content[i+1]
		str := func() (string, bool) {
			if val.Kind != yaml.ScalarNode || val.Tag != "!!str" || val.Value == "" {
				cfg.warn("export.otlp."+key, "must be a string; got "+pyyaml.Repr(val)+"; OpenTelemetry export off")
				return "", false
			}
			return val.Value, true
		}
		var ok bool
		switch key {
		case "endpoint":
			s.Endpoint, ok = str()
		case "logs_endpoint":
			s.LogsEndpoint, ok = str()
		case "protocol":
			s.Protocol, ok = str()
		case "headers":
			s.Headers, ok = cfg.parseHeaders(val)
		case "timeout":
			secs, isNum := pyyaml.Int(val)
			ok = isNum && val.Tag != "!!bool" && secs > 0 && secs <= 3600
			if !ok {
				cfg.warn("export.otlp.timeout", "must be a whole number of seconds (1 to 3600); got "+pyyaml.Repr(val)+"; OpenTelemetry export off")
			}
			s.Timeout = time.Duration(secs) * time.Second
		default:
			cfg.warn("export.otlp."+key, "is not an OTLP key (endpoint, logs_endpoint, protocol, headers, timeout); OpenTelemetry export off")
		}
		if !ok {
			return
		}
	}
	// The config's own values are checked now (the environment's when
	// export starts: they may change).
	if _, err := export.ResolveOTLP(s, func(string) string { return "" }); err != nil {
		// Warned at the key it is about (export.otlp.endpoint), which the
		// message then does not say again.
		path, msg := "export.otlp", err.Error()
		if se := (*export.SettingError)(nil); errors.As(err, &se) && strings.HasPrefix(se.Setting, path+".") {
			path, msg = se.Setting, se.Err.Error()
		}
		cfg.warn(path, msg+"; OpenTelemetry export off")
		return
	}
	cfg.Export.OTLP = &s
}

func (cfg *Config) parseHeaders(v *yaml.Node) (map[string]string, bool) {
	v = pyyaml.Deref(v) // headers: *h, likewise
	if v.Kind != yaml.MappingNode {
		cfg.warn("export.otlp.headers", "must be a mapping of header names to values; got "+pyyaml.Type(v)+"; OpenTelemetry export off")
		return nil, false
	}
	h := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i].Value, v.Content[i+1]
		if val.Kind != yaml.ScalarNode {
			cfg.warn("export.otlp.headers."+k, fmt.Sprintf("must be a string; got %s; OpenTelemetry export off", pyyaml.Type(val)))
			return nil, false
		}
		h[k] = val.Value
	}
	return h, true
}
