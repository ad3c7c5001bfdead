package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The real go test, on a small module of a failing, a passing and a
// test-less package: the exit code is go test's, the failing test's output
// and the result of every package are printed, stderr passes through.
func TestRunRealGoTest(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":      "module ex\n\ngo 1.21\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { t.Error(\"the failure's own words\") }\n\nfunc TestQuiet(t *testing.T) { t.Log(\"passing chatter\") }\n",
		"b/b.go":      "package b\n",
		"d/d_test.go": "package d\n\nimport \"testing\"\n\nfunc TestD(t *testing.T) {}\n",
		"e/e_test.go": "package e\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Stderr.WriteString(\"to stderr\\n\"); os.Exit(m.Run()) }\n\nfunc TestE(t *testing.T) {}\n",
	}
	for name, body := range files {
		path := filepath.Join(mod, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(mod); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	code := run(gobin, []string{"test", "-count=1", "-json", "./..."}, &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Errorf("exit code %d, want go test's 1\nstdout:\n%s\nstderr:\n%s", code, out, stderr.String())
	}
	for _, want := range []string{"start\tex/a\n", "the failure's own words", "--- FAIL: TestA", "FAIL\tex/a\t", "ok  \tex/d\t", "?   \tex/b\t[no test files]", "ok  \tex/e\t", "2 packages passed, 1 failed, 1 without tests", "FAILED: ex/a\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "passing chatter") {
		t.Errorf("a passing test's output was printed:\n%s", out)
	}
	if !strings.Contains(stdout.String()+stderr.String(), "to stderr") {
		t.Errorf("the tests' stderr was lost:\nstdout:\n%s\nstderr:\n%s", out, stderr.String())
	}
}

// A command that cannot start, or exits with its own code, is reported as
// such: testprogress never turns a failure into success.
func TestRunExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(filepath.Join(t.TempDir(), "no-such-go"), nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "testprogress:") {
		t.Errorf("missing command: exit %d, stderr %q", code, errb.String())
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for script, want := range map[string]int{
		"exit 0": 0,
		"exit 3": 3,
		// go test said nothing failed but a package failed: still a failure.
		`echo '{"Action":"fail","Package":"p"}'`: 1,
		"kill -TERM $$":                          1,
	} {
		out.Reset()
		if code := run("sh", []string{"-c", script}, &out, &errb); code != want {
			t.Errorf("%s: exit %d, want %d\n%s", script, code, want, out.String())
		}
	}
}
