package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the hermes-hooks version",
		Example: "  hermes-hooks version",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(a.out, "hermes-hooks %s (%s)\n", version(), runtime.Version())
			return nil
		},
	}
}

// version is the module version when installed with go install, else the
// VCS revision the binary was built from, else "devel".
func version() string {
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

// indentJSON re-indents compact JSON for people (2 spaces); key order is
// kept because json.Indent works on the bytes.
func indentJSON(compact []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return compact
	}
	return out.Bytes()
}
