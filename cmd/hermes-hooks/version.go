package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
)

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the hermes-hooks version",
		Example: "  hermes-hooks version\n  hermes-hooks --version",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(a.Out, versionLine())
			return nil
		},
	}
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
