package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// feed runs lines (one event or text each) through a formatter.
func feed(lines ...string) (*formatter, *bytes.Buffer) {
	var out bytes.Buffer
	f := newFormatter(&out, t0)
	for _, l := range lines {
		f.line([]byte(l + "\n"))
	}
	return f, &out
}

func TestFormatter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    []string
		want  string
		count [3]int // passed, failed, without tests
	}{
		{
			name: "a passing package: its start, then go test's ok line; the tests' output is dropped",
			in: []string{
				`{"Time":"2026-01-02T03:04:06Z","Action":"start","Package":"ex/d"}`,
				`{"Action":"run","Package":"ex/d","Test":"TestD"}`,
				`{"Action":"output","Package":"ex/d","Test":"TestD","Output":"=== RUN   TestD\n"}`,
				`{"Action":"output","Package":"ex/d","Test":"TestD","Output":"    d_test.go:3: chatter\n"}`,
				`{"Action":"output","Package":"ex/d","Test":"TestD","Output":"--- PASS: TestD (0.00s)\n"}`,
				`{"Action":"pass","Package":"ex/d","Test":"TestD"}`,
				`{"Action":"output","Package":"ex/d","Output":"PASS\n"}`,
				`{"Action":"output","Package":"ex/d","Output":"ok  \tex/d\t0.061s\n"}`,
				`{"Action":"pass","Package":"ex/d","Elapsed":0.061}`,
			},
			want:  "start\tex/d\nok  \tex/d\t0.061s\n",
			count: [3]int{1, 0, 0},
		},
		{
			name: "a failing package: the failing tests' output in the order written, then the package's lines and FAIL",
			in: []string{
				`{"Action":"start","Package":"ex/a"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestA","Output":"=== RUN   TestA\n"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestA","Output":"    a_test.go:3: hello\n"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestA/sub","Output":"=== RUN   TestA/sub\n"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestA/sub","Output":"    a_test.go:3: bad sub\n"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestA/sub","Output":"--- FAIL: TestA/sub (0.00s)\n"}`,
				`{"Action":"fail","Package":"ex/a","Test":"TestA/sub"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}`,
				`{"Action":"fail","Package":"ex/a","Test":"TestA"}`,
				`{"Action":"output","Package":"ex/a","Test":"TestB","Output":"--- PASS: TestB (0.00s)\n"}`,
				`{"Action":"pass","Package":"ex/a","Test":"TestB"}`,
				`{"Action":"output","Package":"ex/a","Output":"FAIL\n"}`,
				`{"Action":"output","Package":"ex/a","Output":"FAIL\tex/a\t0.062s\n"}`,
				`{"Action":"fail","Package":"ex/a","Elapsed":0.076}`,
			},
			want:  "start\tex/a\n    a_test.go:3: hello\n    a_test.go:3: bad sub\n--- FAIL: TestA/sub (0.00s)\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tex/a\t0.062s\n",
			count: [3]int{0, 1, 0},
		},
		{
			name: "a timeout: the output of the test still running is shown",
			in: []string{
				`{"Action":"start","Package":"ex/h"}`,
				`{"Action":"output","Package":"ex/h","Test":"TestHang","Output":"    h_test.go:9: waiting\n"}`,
				`{"Action":"output","Package":"ex/h","Output":"panic: test timed out after 30m0s\n"}`,
				`{"Action":"output","Package":"ex/h","Output":"FAIL\tex/h\t1800.1s\n"}`,
				`{"Action":"fail","Package":"ex/h"}`,
			},
			want:  "start\tex/h\n    h_test.go:9: waiting\npanic: test timed out after 30m0s\nFAIL\tex/h\t1800.1s\n",
			count: [3]int{0, 1, 0},
		},
		{
			name: "a build failure: the compiler's lines at once, then setup failed",
			in: []string{
				`{"ImportPath":"ex/c.test","Action":"build-output","Output":"# ex/c\n"}`,
				`{"ImportPath":"ex/c.test","Action":"build-output","Output":"c/c_test.go:3:32: expected operand, found '}'\n"}`,
				`{"ImportPath":"ex/c.test","Action":"build-fail"}`,
				`{"Action":"start","Package":"ex/c"}`,
				`{"Action":"output","Package":"ex/c","Output":"FAIL\tex/c [setup failed]\n"}`,
				`{"Action":"fail","Package":"ex/c","Elapsed":0,"FailedBuild":"ex/c.test"}`,
			},
			want:  "# ex/c\nc/c_test.go:3:32: expected operand, found '}'\nstart\tex/c\nFAIL\tex/c [setup failed]\n",
			count: [3]int{0, 1, 0},
		},
		{
			name:  "no test files, and text that is not an event, printed as it is",
			in:    []string{`{"Action":"start","Package":"ex/b"}`, `{"Action":"output","Package":"ex/b","Output":"?   \tex/b\t[no test files]\n"}`, `{"Action":"skip","Package":"ex/b"}`, `go: warning: not JSON`, `{"broken`},
			want:  "start\tex/b\n?   \tex/b\t[no test files]\ngo: warning: not JSON\n{\"broken\n",
			count: [3]int{0, 0, 1},
		},
		{
			name: "what a passing package writes outside its tests (TestMain) is shown, as plain go test shows it",
			in: []string{
				`{"Action":"start","Package":"ex/e"}`,
				`{"Action":"output","Package":"ex/e","Output":"building the helper binary\n"}`,
				`{"Action":"output","Package":"ex/e","Output":"PASS\n"}`,
				`{"Action":"output","Package":"ex/e","Output":"ok  \tex/e\t1.5s\n"}`,
				`{"Action":"pass","Package":"ex/e"}`,
			},
			want:  "start\tex/e\nbuilding the helper binary\nok  \tex/e\t1.5s\n",
			count: [3]int{1, 0, 0},
		},
		{
			name:  "a package that ends without a summary line gets one",
			in:    []string{`{"Action":"fail","Package":"ex/x"}`, `{"Action":"pass","Package":"ex/y"}`},
			want:  "FAIL\tex/x\nok  \tex/y\n",
			count: [3]int{1, 1, 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, out := feed(tc.in...)
			if out.String() != tc.want {
				t.Errorf("printed:\n%s\nwant:\n%s", out, tc.want)
			}
			if got := [3]int{f.ok, f.failed, f.skipped}; got != tc.count {
				t.Errorf("counts (passed, failed, without tests) = %v, want %v", got, tc.count)
			}
			if len(f.running) != 0 || len(f.pkgs) != 0 {
				t.Errorf("packages left running: %v", f.running)
			}
		})
	}
}

// The heartbeat names every package still running and for how long, in
// the order they started; a finished package leaves the list.
func TestHeartbeat(t *testing.T) {
	f, out := feed(
		`{"Time":"2026-01-02T03:05:05Z","Action":"start","Package":"ex/slow"}`,
		`{"Time":"2026-01-02T03:06:05Z","Action":"start","Package":"ex/fast"}`,
	)
	f.heartbeat(t0.Add(4 * time.Minute))
	f.line([]byte(`{"Action":"pass","Package":"ex/fast"}` + "\n"))
	f.heartbeat(t0.Add(5 * time.Minute))
	f.line([]byte(`{"Action":"pass","Package":"ex/slow"}` + "\n"))
	f.heartbeat(t0.Add(6 * time.Minute))
	f.summary(t0.Add(7 * time.Minute))
	want := "start\tex/slow\nstart\tex/fast\n" +
		"… 4m0s: still running ex/slow (3m0s), ex/fast (2m0s)\n" +
		"ok  \tex/fast\n" +
		"… 5m0s: still running ex/slow (4m0s)\n" +
		"ok  \tex/slow\n" +
		"… 6m0s: building, or between packages\n" +
		"2 packages passed, 0 failed, 0 without tests, in 7m0s\n"
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out, want)
	}
}

func TestSummaryNamesTheFailures(t *testing.T) {
	f, out := feed(`{"Action":"fail","Package":"ex/a"}`, `{"Action":"pass","Package":"ex/b"}`, `{"Action":"fail","Package":"ex/c"}`)
	out.Reset()
	f.summary(t0.Add(90 * time.Second))
	if want := "1 packages passed, 2 failed, 0 without tests, in 1m30s\nFAILED: ex/a ex/c\n"; out.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", out, want)
	}
}

// FuzzLine: any line, event or not, is handled without a panic, and a
// package's end always prints its result line.
func FuzzLine(f *testing.F) {
	f.Add([]byte(`{"Action":"output","Package":"p","Test":"T","Output":"x\n"}`))
	f.Add([]byte(`{"Action":"fail","Package":"p","Test":"T"}`))
	f.Add([]byte(`{"ImportPath":"p.test","Action":"build-output","Output":"# p"}`))
	f.Add([]byte(`{"Action":"start"}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, line []byte) {
		var out bytes.Buffer
		fm := newFormatter(&out, t0)
		fm.line(line)
		fm.heartbeat(t0)
		fm.line([]byte(`{"Action":"fail","Package":"p"}`))
		if !strings.HasSuffix(out.String(), "FAIL\tp\n") && !strings.Contains(out.String(), "FAIL\tp") {
			t.Fatalf("the package's end printed no result:\n%s", out.String())
		}
	})
}
