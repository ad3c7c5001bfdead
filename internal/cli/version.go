package cli

import (
	"bytes"
	"encoding/json"
	"runtime/debug"
)

// Version is the module version when installed with go install, else the
// VCS revision the binary was built from, else "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}

// IndentJSON re-indents compact JSON for people (2 spaces); key order is
// kept because json.Indent works on the bytes.
func IndentJSON(compact []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return compact
	}
	return out.Bytes()
}
