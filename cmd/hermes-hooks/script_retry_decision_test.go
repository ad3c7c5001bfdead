package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// fakeStartFailure is the marker the tests below use for a start that
// failed before it ran (on Windows, proctest.ScriptStartFailed's line).
const fakeStartFailure = "[fork/exec C:\\x.exe: fake not run]"

func fakeStartFailed(log string) bool { return strings.Contains(log, fakeStartFailure) }

// attemptScript runs a script again only while an attempt's log shows a
// start that failed before it ran: a real failure, a skip or a pass is
// final at once; the last attempt's outcome and log are what the test
// reports; every retry is told.
func TestAttemptScriptDecision(t *testing.T) {
	type step struct {
		log string
		end string // "pass", "fail", "skip"
	}
	notRun := step{fakeStartFailure, "fail"}
	cases := []struct {
		name       string
		steps      []step
		calls      int
		failed     bool
		skipped    bool
		lastLogHas string
	}{
		{"passes", []step{{"ok", "pass"}}, 1, false, false, "ok"},
		{"real failure", []step{{"[exit status 1]", "fail"}, {"ok", "pass"}}, 1, true, false, "exit status 1"},
		{"skipped", []step{{"skip: no python", "skip"}}, 1, false, true, "no python"},
		{"not run, then passes", []step{notRun, {"ok", "pass"}}, 2, false, false, "ok"},
		{"not run, then a real failure", []step{notRun, {"[exit status 2]", "fail"}}, 2, true, false, "exit status 2"},
		{"not run every time", []step{notRun, notRun, notRun, {"ok", "pass"}}, scriptAttempts, true, false, "fake not run"},
		// A command's own output can show the line (testscript logs it
		// raw): that costs attempts, but a real failure still fails.
		{"output forging the line, failing for real", []step{
			{"[stdout]\n" + fakeStartFailure + "\n[exit status 1]", "fail"},
			{"[stdout]\n" + fakeStartFailure + "\n[exit status 1]", "fail"},
			{"[stdout]\n" + fakeStartFailure + "\n[exit status 1]", "fail"},
		}, scriptAttempts, true, false, "exit status 1"},
		// `! exec` of a command that never started passes without having
		// run it: run again all the same.
		{"passed without running", []step{{fakeStartFailure, "pass"}, {"ok", "pass"}}, 2, false, false, "ok"},
	}
	for _, c := range cases {
		calls, told := 0, 0
		a := attemptScript(func(st testscript.T) {
			s := c.steps[calls]
			calls++
			st.Log(s.log)
			switch s.end {
			case "fail":
				st.FailNow()
			case "skip":
				st.Skip("skipped")
			}
		}, fakeStartFailed, func(string, ...any) { told++ })
		if calls != c.calls || a.failed != c.failed || a.skipped != c.skipped || told != calls-1 ||
			!strings.Contains(strings.Join(a.logs, "\n"), c.lastLogHas) {
			t.Errorf("%s: %d calls, failed %v, skipped %v, told %d, log %q; want %d calls, failed %v, skipped %v, log with %q",
				c.name, calls, a.failed, a.skipped, told, a.logs, c.calls, c.failed, c.skipped, c.lastLogHas)
		}
	}
}

// Through testscript itself: a script whose command fails once with the
// start-failure line is run again from a fresh $WORK and passes; the
// retry is in the test's log.
func TestScriptRetrierRunsAScriptAgain(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "attempts")
	script := filepath.Join(dir, "flaky.txtar")
	body := "! exists leftover\ncp in leftover\nexec-once-fails\n-- in --\nx\n"
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("scripts", func(t *testing.T) {
		r := scriptRetrier{t: t, startFailed: fakeStartFailed}
		testscript.RunT(r, testscript.Params{
			Files: []string{script},
			Cmds: map[string]func(*testscript.TestScript, bool, []string){
				"exec-once-fails": func(ts *testscript.TestScript, neg bool, args []string) {
					data, _ := os.ReadFile(count)
					n, _ := strconv.Atoi(string(data))
					if err := os.WriteFile(count, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
						ts.Fatalf("%v", err)
					}
					if n == 0 {
						ts.Logf("%s", fakeStartFailure)
						ts.Fatalf("unexpected command failure")
					}
				},
			},
		})
	})
	data, _ := os.ReadFile(count)
	if string(data) != "2" {
		t.Fatalf("the script's command ran %q times, want 2 (once failing to start, once after the retry)", data)
	}
}
