// Command testprogress runs `go test -json …` and prints its progress as it
// happens: a line when each package's tests start and when they end (go
// test's own "ok" / "FAIL" / "?" line), every minute the packages still
// running, and the whole output of every failing test. Its exit code is go
// test's.
//
// Plain `go test ./...` holds each package's result until every package
// listed before it has finished, and prints nothing while it builds, so a
// slow package early in the list (agent-hooks) makes make test silent for
// minutes although most packages are done. With -json, go test streams
// each package's events as they come.
//
//	testprogress go test -race -count=1 -json ./...
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// every is how often the packages still running are listed.
const every = time.Minute

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testprogress GO test -json [flags] [packages]\n  e.g. testprogress go test -race -count=1 -json ./...")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[2:], os.Stdout, os.Stderr))
}

// run runs the command, printing its progress on stdout and passing its
// standard error through; it returns the command's exit code.
func run(name string, args []string, stdout, stderr io.Writer) int {
	cmd := exec.Command(name, args...)
	cmd.Stderr = stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "testprogress:", err)
		return 2
	}
	// Ctrl-C reaches go test from the terminal; this process stays to
	// print what it reports until it exits. SIGTERM is passed on.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "testprogress:", err)
		return 2
	}
	f := newFormatter(stdout, time.Now())
	f.printf("go test: building the test binaries, then a line as each package starts and ends\n")
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case s := <-sigs:
				if s == syscall.SIGTERM {
					_ = cmd.Process.Signal(s)
				}
			case now := <-tick.C:
				f.heartbeat(now)
			}
		}
	}()
	readErr := f.read(pipe)
	waitErr := cmd.Wait()
	close(done)
	f.summary(time.Now())
	if readErr != nil {
		fmt.Fprintln(stderr, "testprogress: reading go test's output:", readErr)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit):
		if code := exit.ExitCode(); code > 0 {
			return code
		}
		return 1 // killed by a signal
	case waitErr != nil:
		fmt.Fprintln(stderr, "testprogress:", waitErr)
		return 1
	case f.failed > 0 || readErr != nil:
		return 1
	}
	return 0
}

// read feeds every line of r to the formatter.
func (f *formatter) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			f.line(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
