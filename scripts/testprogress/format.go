package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// event is one line of `go test -json` (cmd/test2json), with the build
// events of go 1.24 and later (ImportPath, build-output).
type event struct {
	Time       time.Time
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// seqLine is one output line of a test, numbered so that the lines of
// several failing tests print in the order they were written.
type seqLine struct {
	seq  int
	text string
}

// pkgState is what is kept of a package whose tests are running: the
// output of each test until it passes (then dropped) or fails (then kept
// for the end of the package), and the package's own lines.
type pkgState struct {
	started time.Time
	tests   map[string][]seqLine
	failed  []seqLine
	out     []string
	summary string // go test's "ok", "FAIL" or "?" line
}

// formatter turns go test's events into progress lines. It is safe for
// the reader and the heartbeat to call at once.
type formatter struct {
	mu      sync.Mutex
	w       io.Writer
	start   time.Time
	seq     int
	pkgs    map[string]*pkgState
	running []string // packages started and not finished, in start order
	ok      int
	skipped int
	failed  int
	failing []string
}

func newFormatter(w io.Writer, start time.Time) *formatter {
	return &formatter{w: w, start: start, pkgs: map[string]*pkgState{}}
}

func (f *formatter) printf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(f.w, format, args...)
}

// line handles one line of go test's standard output: an event, or any
// other text, which is printed as it is.
func (f *formatter) line(raw []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var e event
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &e) != nil || e.Action == "" {
		f.write(string(raw))
		return
	}
	switch e.Action {
	case "build-output":
		f.write(e.Output) // a compile error, at once
	case "start":
		f.begin(e)
	case "output":
		f.output(e)
	case "pass", "skip", "fail":
		if e.Test == "" {
			f.finish(e)
			return
		}
		p := f.pkg(e)
		if e.Action == "fail" {
			p.failed = append(p.failed, p.tests[e.Test]...)
		}
		delete(p.tests, e.Test)
	}
}

// write prints s, ending it with a newline if it has none.
func (f *formatter) write(s string) {
	if s == "" {
		return
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	io.WriteString(f.w, s)
}

// pkg returns the state of e's package, creating it for a package whose
// start event did not come.
func (f *formatter) pkg(e event) *pkgState {
	p := f.pkgs[e.Package]
	if p == nil {
		if e.Time.IsZero() {
			e.Time = time.Now()
		}
		p = &pkgState{started: e.Time, tests: map[string][]seqLine{}}
		f.pkgs[e.Package] = p
		f.running = append(f.running, e.Package)
	}
	return p
}

func (f *formatter) begin(e event) {
	if _, ok := f.pkgs[e.Package]; !ok {
		f.pkg(e)
		f.write("start\t" + e.Package)
	}
}

func (f *formatter) output(e event) {
	p := f.pkg(e)
	if e.Test == "" {
		if isSummary(e.Output, e.Package) {
			p.summary = e.Output
		} else {
			p.out = append(p.out, e.Output)
		}
		return
	}
	// The -v markers go test's plain output does not show.
	for _, m := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME"} {
		if strings.HasPrefix(e.Output, m) {
			return
		}
	}
	f.seq++
	p.tests[e.Test] = append(p.tests[e.Test], seqLine{f.seq, e.Output})
}

// isSummary reports whether s is go test's one result line for pkg.
func isSummary(s, pkg string) bool {
	for _, p := range []string{"ok  \t", "FAIL\t", "?   \t"} {
		if strings.HasPrefix(s, p+pkg) {
			return true
		}
	}
	return false
}

// finish prints a package's result: the summary line, after what the
// package wrote outside its tests, and for a failure also everything that
// failing tests and tests still running (a panic, a timeout) wrote.
func (f *formatter) finish(e event) {
	p := f.pkg(e)
	delete(f.pkgs, e.Package)
	for i, name := range f.running {
		if name == e.Package {
			f.running = append(f.running[:i], f.running[i+1:]...)
			break
		}
	}
	switch e.Action {
	case "pass":
		f.ok++
		// What the package wrote outside its tests (TestMain, init), as
		// plain go test shows it.
		for _, l := range p.out {
			if l != "PASS\n" {
				f.write(l)
			}
		}
		f.write(or(p.summary, "ok  \t"+e.Package))
	case "skip":
		f.skipped++
		f.write(or(p.summary, "?   \t"+e.Package))
	default:
		f.failed++
		f.failing = append(f.failing, e.Package)
		lines := p.failed
		for _, l := range p.tests {
			lines = append(lines, l...)
		}
		sort.Slice(lines, func(i, j int) bool { return lines[i].seq < lines[j].seq })
		for _, l := range lines {
			f.write(l.text)
		}
		for _, l := range p.out {
			f.write(l)
		}
		f.write(or(p.summary, "FAIL\t"+e.Package))
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// heartbeat lists what is still running, so that a long package shows as
// running rather than as nothing.
func (f *formatter) heartbeat(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	total := now.Sub(f.start).Round(time.Second)
	if len(f.running) == 0 {
		fmt.Fprintf(f.w, "… %s: building, or between packages\n", total)
		return
	}
	parts := make([]string, len(f.running))
	for i, name := range f.running {
		parts[i] = fmt.Sprintf("%s (%s)", name, now.Sub(f.pkgs[name].started).Round(time.Second))
	}
	fmt.Fprintf(f.w, "… %s: still running %s\n", total, strings.Join(parts, ", "))
}

// summary is the last line: counts, time, and the packages that failed.
func (f *formatter) summary(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(f.w, "%d packages passed, %d failed, %d without tests, in %s\n", f.ok, f.failed, f.skipped, now.Sub(f.start).Round(time.Second))
	if len(f.failing) > 0 {
		fmt.Fprintf(f.w, "FAILED: %s\n", strings.Join(f.failing, " "))
	}
}
