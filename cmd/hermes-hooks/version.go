package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
)

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print the hermes-hooks version",
		Long:    "Print the hermes-hooks version and the Go it was built with.\n\n--json: {version, go, os, arch, binary} (binary: the running executable's path).",
		Example: "  hermes-hooks version\n  hermes-hooks --version\n  hermes-hooks version --json | jq -r .binary",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				// A setup script wants which binary answers, not only
				// which version: after an upgrade two may be on PATH.
				bin, _ := os.Executable()
				return writeJSON(a.Out, map[string]any{"version": cli.Version(), "go": runtime.Version(),
					"os": runtime.GOOS, "arch": runtime.GOARCH, "binary": bin})
			}
			fmt.Fprint(a.Out, versionLine())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	return cmd
}

// versionLine is what 'version' and '--version' print.
func versionLine() string {
	return fmt.Sprintf("hermes-hooks %s (%s)\n", cli.Version(), runtime.Version())
}

// setVersion makes 'hermes-hooks --version' print what 'hermes-hooks
// version' prints. The line holds no template action: a version is
// semver, a revision or "devel".
func setVersion(root *cobra.Command) {
	root.Version = cli.Version()
	root.SetVersionTemplate(versionLine())
	// Declared here for its help text; cobra answers it by this name.
	root.Flags().BoolP("version", "v", false, "print the version (as 'hermes-hooks version')")
}
