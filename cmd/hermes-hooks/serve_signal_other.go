//go:build !unix

package main

import (
	"log/slog"

	"github.com/hermes-hooks/hermes-hooks/server"
)

// catchSIGPIPE: no SIGPIPE here.
func catchSIGPIPE() {}

// handleLogSignals: no SIGUSR1 here; --log-file is not reopened.
func handleLogSignals(*server.LogWriter, *slog.Logger) (stop func()) { return func() {} }
