package main

import (
	"fmt"
	"runtime"

	"github.com/hermes-hooks/hermes-hooks/internal/oneshot"
	"github.com/spf13/cobra"
)

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the hermes-hooks version",
		Example: "  hermes-hooks version",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(a.Out, "hermes-hooks %s (%s)\n", oneshot.Version(), runtime.Version())
			return nil
		},
	}
}
