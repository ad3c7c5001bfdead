package main

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptAttempts bounds how often one script is run.
const scriptAttempts = 3

// scriptRetrier is the testscript.T runScriptsRetrying (Windows) gives
// RunT: each script (a Run) goes through attemptScript; the rest is t's
// own.
type scriptRetrier struct {
	t           *testing.T
	startFailed func(log string) bool
}

func (r scriptRetrier) Skip(args ...any)  { r.t.Helper(); r.t.Skip(args...) }
func (r scriptRetrier) Fatal(args ...any) { r.t.Helper(); r.t.Fatal(args...) }
func (r scriptRetrier) Parallel()         { r.t.Parallel() }
func (r scriptRetrier) Log(args ...any)   { r.t.Helper(); r.t.Log(args...) }
func (r scriptRetrier) FailNow()          { r.t.FailNow() }
func (r scriptRetrier) Verbose() bool     { return testing.Verbose() }

func (r scriptRetrier) Run(name string, f func(testscript.T)) {
	r.t.Run(name, func(t *testing.T) {
		// testscript makes every script parallel; an attempt's own
		// Parallel is then a no-op (it runs on a goroutine of its own).
		t.Parallel()
		a := attemptScript(f, r.startFailed, t.Logf)
		for _, line := range a.logs {
			t.Log(line)
		}
		if a.failed {
			t.FailNow()
		}
		if a.skipped {
			t.SkipNow()
		}
	})
}

// attemptScript runs the script f until an attempt's log shows no command
// that failed to start before it ran, or scriptAttempts have been made,
// and returns the last attempt. A passing attempt with such a command is
// run again too: a `! exec` whose start failed passes without having run.
func attemptScript(f func(testscript.T), startFailed func(string) bool, logf func(string, ...any)) *scriptAttempt {
	for i := 1; ; i++ {
		a := &scriptAttempt{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			f(a)
		}()
		<-done
		log := strings.Join(a.logs, "\n")
		if a.skipped || !startFailed(log) || i == scriptAttempts {
			return a
		}
		logf("attempt %d of the script: a command did not start (Wine's CreateProcess failing before the process ran); running the script again. That attempt's log:\n%s", i, log)
	}
}

// scriptAttempt is the testscript.T of one attempt at one script: it keeps
// what the script logs and how it ended, for attemptScript to decide on.
type scriptAttempt struct {
	mu              sync.Mutex
	logs            []string
	failed, skipped bool
}

func (a *scriptAttempt) log(args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.logs = append(a.logs, strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}

func (a *scriptAttempt) end(failed bool) {
	a.mu.Lock()
	if failed {
		a.failed = true
	} else {
		a.skipped = true
	}
	a.mu.Unlock()
	runtime.Goexit() // as testing's FailNow and SkipNow end the test
}

func (a *scriptAttempt) Skip(args ...any)  { a.log(args...); a.end(false) }
func (a *scriptAttempt) Fatal(args ...any) { a.log(args...); a.end(true) }
func (a *scriptAttempt) Parallel()         {}
func (a *scriptAttempt) Log(args ...any)   { a.log(args...) }
func (a *scriptAttempt) FailNow()          { a.end(true) }

// Verbose is true so that testscript hands back the whole log even of a
// passing attempt (attemptScript reads it); testing shows it only under
// -v or on failure, as before.
func (a *scriptAttempt) Verbose() bool { return true }

// Run is not used within one script.
func (a *scriptAttempt) Run(name string, _ func(testscript.T)) {
	a.Fatal("scriptAttempt: nested Run", name)
}
