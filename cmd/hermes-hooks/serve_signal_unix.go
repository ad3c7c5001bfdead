//go:build unix

package main

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/server"
)

// catchSIGPIPE catches SIGPIPE and never acts on it. Without a handler, a
// write to a stderr whose reader went away kills a Go program; the server
// must outlive its log (the line is counted as dropped instead). A
// handler, unlike ignoring the signal, is not inherited by the hooks.
func catchSIGPIPE() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// handleLogSignals reopens --log-file by its name on SIGUSR1 (log
// rotation: rename the file, send SIGUSR1, the next line lands in a new
// file) until the returned stop.
func handleLogSignals(w *server.LogWriter, log *slog.Logger) (stop func()) {
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-usr1:
				if err := w.Reopen(); err != nil {
					log.Warn("SIGUSR1: log not reopened", "err", err)
				} else {
					log.Info("log file reopened (SIGUSR1)")
				}
			case <-done:
				return
			}
		}
	}()
	// The signal stays caught after stop: a late SIGUSR1 during the exit
	// must not kill the server with its default action.
	return func() { close(done) }
}
