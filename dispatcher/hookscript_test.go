package dispatcher

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// Portable hooks. The tests write their hooks as POSIX shell bodies. On
// Linux and macOS those are #!/bin/sh scripts. Windows has no /bin/sh, so
// there script() also writes a .cmd twin that starts this test binary again
// (TestMain's -hookscript switch), which interprets the body with
// mvdan.cc/sh: the hook is still a real process tree started by the
// dispatcher (cmd.exe, then this binary), with the dispatcher's stdin,
// stdout, stderr, environment, exit code and timeout. The few programs the
// bodies call (cat, head, tr, touch, sleep, jq, grep) are played in Go;
// sleep as a real child process, so that the trees the timeout tests kill
// hold a grandchild as they do on Linux.
//
// Claude-dialect commands run through Git Bash on Windows, which Wine does
// not have: TestMain points CLAUDE_CODE_GIT_BASH_PATH at this binary, which
// then answers `bash -c TEXT` with the same interpreter (a bash dialect).

// Switches of this test binary when it is started as a hook.
const (
	hookScriptFlag = "-hookscript" // -hookscript FILE ARG...: run FILE's body
	hookSleepFlag  = "-hooksleep"  // -hooksleep SECONDS: sleep's process
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch {
		case os.Args[1] == hookScriptFlag && len(os.Args) > 2:
			os.Exit(runHookFile(os.Args[2], os.Args[3:]))
		case os.Args[1] == hookSleepFlag && len(os.Args) > 2:
			secs, _ := strconv.ParseFloat(os.Args[2], 64)
			time.Sleep(time.Duration(secs * float64(time.Second)))
			os.Exit(0)
		case runtime.GOOS == "windows" && os.Args[1] == "-c" && len(os.Args) > 2:
			// Started as Git Bash (see above).
			os.Exit(runHookText(os.Args[2], "bash", os.Args[3:]))
		}
	}
	if runtime.GOOS == "windows" {
		if os.Getenv("CLAUDE_CODE_GIT_BASH_PATH") == "" {
			if exe, err := os.Executable(); err == nil {
				os.Setenv("CLAUDE_CODE_GIT_BASH_PATH", exe)
			}
		}
		// `sh FILE` in a Hermes command: an sh.cmd on PATH that runs the
		// file as a hook body.
		if dir, err := os.MkdirTemp("", "hookscript-sh-"); err == nil {
			if _, err := writeTwin(filepath.Join(dir, "sh.cmd"), ""); err == nil {
				os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			code := m.Run()
			os.RemoveAll(dir)
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}

// skipUnderWine skips a test whose hook, started directly rather than
// through cmd.exe, reads its stdin to the end: under Wine such a process
// never sees the pipe's end (../shared/windows.md: Wine hands the child
// the pipe's write end too), so it hangs until its timeout. On Windows
// itself the child gets only the handles it is meant to.
func skipUnderWine(t *testing.T) {
	if runtime.GOOS == "windows" && os.Getenv("WINEPREFIX") != "" {
		t.Skip("Wine: a directly started hook (here the Git Bash stand-in) never sees the end of its stdin")
	}
}

// windowsPath matches an absolute Windows path written into a body.
var windowsPath = regexp.MustCompile(`[A-Za-z]:\\[^\s'";|&<>()]*`)

// portableBody rewrites the Windows paths a test wrote into a shell body
// with forward slashes: a backslash is the shell's escape character, and
// Windows takes either separator.
func portableBody(body string) string {
	return windowsPath.ReplaceAllStringFunc(body, filepath.ToSlash)
}

// scriptTwin writes, beside the body at p, the .cmd file Windows starts
// for it, and returns the .cmd's path.
func scriptTwin(t *testing.T, p string) string {
	t.Helper()
	twin, err := writeTwin(strings.TrimSuffix(p, filepath.Ext(p))+".cmd", p)
	if err != nil {
		t.Fatal(err)
	}
	// Forward slashes: the tests write the path into JSON and into
	// Claude-dialect commands, which Git Bash reads.
	return filepath.ToSlash(twin)
}

// writeTwin writes a .cmd file that runs the body at p with this test
// binary (p == "": the body its first argument names, as sh FILE).
//
// Wine 8 now and then fails a start ("Internal error.", docs/windows.md);
// when the start is cmd.exe's, cmd.exe says it cannot recognize the
// program and exits 9009, and no test can try it again from Go. So the
// twin does: up to three tries, while the test binary's start fails so.
// cmd.exe writes that complaint to the command's stderr, so each try's
// stderr goes to a file, copied to the real stderr once the hook has
// exited: what the dispatcher reads holds nothing of a failed try. The
// file lives in a directory the run claims with mkdir (atomic: runs of
// one twin at once never share it), removed afterwards. Wine's cmd.exe
// keeps the last errorlevel across builtins that succeed and its && and ||
// misread them, hence `(call )` (errorlevel 0) before each mkdir and the
// plain `if errorlevel`.
func writeTwin(twin, p string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if p != "" {
		p = "\"" + p + "\" "
	}
	run := "\"" + exe + "\" " + hookScriptFlag + " " + p + "%*"
	lines := []string{
		"@echo off",
		"setlocal",
		"set _hhn=0",
		":slot",
		"set /a _hhn+=1",
		"if %_hhn% gtr 99 goto direct",
		"(call )",
		"mkdir \"%~dpn0.run%_hhn%\" 2>nul",
		"if errorlevel 1 goto slot",
		"set _hht=0",
		":try",
		"set /a _hht+=1",
		run + " 2>\"%~dpn0.run%_hhn%\\stderr\"",
		"set _hhrc=%errorlevel%",
		"if %_hhrc% equ 9009 if %_hht% lss 3 goto try",
		"type \"%~dpn0.run%_hhn%\\stderr\" 1>&2",
		"rmdir /s /q \"%~dpn0.run%_hhn%\"",
		"exit /b %_hhrc%",
		":direct",
		run,
	}
	return twin, os.WriteFile(twin, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o755)
}

// WriteTwin is writeTwin for the package's external tests (Example).
var WriteTwin = writeTwin

// runHookFile runs a body written by script().
func runHookFile(path string, args []string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 127
	}
	return runHookText(string(data), path, args)
}

// runHookText interprets a shell text with this process's stdio,
// environment and directory, and returns its exit status.
func runHookText(text, name string, args []string) int {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	env := os.Environ()
	if name == "bash" {
		env = append(env, "BASH_VERSION=5.2-stand-in") // as Git Bash sets it
	}
	r, err := interp.New(
		interp.StdIO(os.Stdin, os.Stdout, os.Stderr),
		interp.Env(expand.ListEnviron(env...)),
		interp.Params(append([]string{"--"}, args...)...),
		interp.ExecHandlers(hookPrograms),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	err = r.Run(context.Background(), file)
	var st interp.ExitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &st):
		return int(st)
	}
	fmt.Fprintln(os.Stderr, err)
	return 2
}

// hookPrograms plays the programs the test bodies call.
func hookPrograms(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		abs := func(p string) string {
			if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
				return p
			}
			return filepath.Join(hc.Dir, p)
		}
		switch args[0] {
		case "cat":
			if len(args) == 1 {
				_, err := io.Copy(hc.Stdout, hc.Stdin)
				return err
			}
			for _, f := range args[1:] {
				data, err := os.ReadFile(abs(f))
				if err != nil {
					return failed(hc.Stderr, err)
				}
				hc.Stdout.Write(data)
			}
			return nil
		case "head": // head -c N [/dev/zero]
			if len(args) < 3 || args[1] != "-c" {
				return failed(hc.Stderr, errors.New("head: only -c N"))
			}
			n, _ := strconv.ParseInt(args[2], 10, 64)
			var in io.Reader = hc.Stdin
			if len(args) > 3 {
				in = zeros{}
			}
			_, err := io.Copy(hc.Stdout, io.LimitReader(in, n))
			return err
		case "tr": // tr CHAR CHAR
			from, to := trChar(args[1]), trChar(args[2])
			in, out := bufio.NewReader(hc.Stdin), bufio.NewWriter(hc.Stdout)
			defer out.Flush()
			for {
				c, err := in.ReadByte()
				if err != nil {
					return nil
				}
				if c == from {
					c = to
				}
				if err := out.WriteByte(c); err != nil {
					return err
				}
			}
		case "touch":
			for _, f := range args[1:] {
				fh, err := os.OpenFile(abs(f), os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					return failed(hc.Stderr, err)
				}
				fh.Close()
			}
			return nil
		case "sleep":
			if secs, _ := strconv.ParseFloat(args[1], 64); secs < 1 {
				// A poll loop's pause: a process per look would cost a
				// Wine process start each.
				time.Sleep(time.Duration(secs * float64(time.Second)))
				return nil
			}
			exe, err := os.Executable()
			if err != nil {
				return failed(hc.Stderr, err)
			}
			// A process of its own, for the tests of a hook's
			// descendants; Wine may fail its start before it ran, which
			// is tried again and told on the hook's stderr (no T here).
			return proctest.RunRetrying(proctest.WriterLogger{W: hc.Stderr}, func() *exec.Cmd {
				cmd := exec.CommandContext(ctx, exe, hookSleepFlag, args[1])
				cmd.Stdout, cmd.Stderr = hc.Stdout, hc.Stderr
				return cmd
			})
		case "sh": // sh FILE ARG...
			if len(args) > 1 {
				if code := runHookFile(abs(args[1]), args[2:]); code != 0 {
					return interp.ExitStatus(code)
				}
				return nil
			}
		case "jsonstr": // jsonstr TEXT: TEXT as a JSON string
			out, _ := json.Marshal(strings.Join(args[1:], " "))
			_, err := hc.Stdout.Write(out)
			return err
		case "jq":
			return runJQ(hc, args[1:])
		case "grep": // grep -q|-c TEXT: a fixed string
			in, _ := io.ReadAll(hc.Stdin)
			if len(args) == 3 && args[1] == "-c" {
				n := 0
				for _, l := range strings.Split(string(in), "\n") {
					if strings.Contains(l, args[2]) {
						n++
					}
				}
				fmt.Fprintln(hc.Stdout, n)
				return nil
			}
			if len(args) == 3 && args[1] == "-q" && bytes.Contains(in, []byte(args[2])) {
				return nil
			}
			return interp.ExitStatus(1)
		case "ls": // ls DIR
			names, err := os.ReadDir(abs(args[1]))
			if err != nil {
				return failed(hc.Stderr, err)
			}
			for _, n := range names {
				fmt.Fprintln(hc.Stdout, n.Name())
			}
			return nil
		}
		if strings.HasSuffix(args[0], ".cmd") {
			// One of script()'s twins, run by the Git Bash stand-in: its
			// body, here.
			body := strings.TrimSuffix(args[0], ".cmd") + ".sh"
			if _, err := os.Stat(body); err == nil {
				if code := runHookFile(body, args[1:]); code != 0 {
					return interp.ExitStatus(code)
				}
				return nil
			}
		}
		return next(ctx, args)
	}
}

func failed(stderr io.Writer, err error) error {
	fmt.Fprintln(stderr, err)
	return interp.ExitStatus(1)
}

func trChar(s string) byte {
	if s == `\0` {
		return 0
	}
	return s[0]
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// jqFilters are the jq programs the tests' bodies run, played in Go for
// Windows, where jq is not at hand. in is the payload; the result is
// printed as jq -c prints it. A filter not listed fails the hook loudly.
var jqFilters = func() map[string]func(in jqValue) any {
	f := map[string]func(in jqValue) any{
		`{action:"rewrite", value:(.extra.user_message + " world")}`: func(in jqValue) any {
			return map[string]any{"action": "rewrite", "value": in.str("extra", "user_message") + " world"}
		},
		`{result:(.extra.user_message + "!")}`: func(in jqValue) any {
			return map[string]any{"result": in.str("extra", "user_message") + "!"}
		},
		`{result:("risk=" + (.extra.metadata.risk|tostring) + " by " + .extra.metadata.scanned_by)}`: func(in jqValue) any {
			return map[string]any{"result": "risk=" + string(in.raw("extra", "metadata", "risk")) + " by " + in.str("extra", "metadata", "scanned_by")}
		},
		`if .extra.metadata.risk == 2 then {action:"block",message:"risky"} else {} end`: func(in jqValue) any {
			if string(in.raw("extra", "metadata", "risk")) == "2" {
				return map[string]any{"action": "block", "message": "risky"}
			}
			return map[string]any{}
		},
		`{context:(.extra.state|tojson), state:.extra.patch}`: func(in jqValue) any {
			return map[string]any{"context": string(in.raw("extra", "state")), "state": json.RawMessage(in.raw("extra", "patch"))}
		},
		`{context:(.extra.state|tojson), state:{count:((.extra.state.count // 0) + 1)}}`: func(in jqValue) any {
			n, _ := strconv.Atoi(string(in.raw("extra", "state", "count")))
			return map[string]any{"context": string(in.raw("extra", "state")), "state": map[string]any{"count": n + 1}}
		},
		`.stop_hook_active`: func(in jqValue) any { return json.RawMessage(in.raw("stop_hook_active")) },
		`[(.extra|keys), keys]`: func(in jqValue) any {
			return []any{in.keys("extra"), in.keys()}
		},
	}
	for _, field := range []string{"result", "output", "response_text"} {
		f[`{result:(.extra.`+field+` | ascii_upcase)}`] = func(in jqValue) any {
			return map[string]any{"result": strings.ToUpper(in.str("extra", field))}
		}
		f[`{action:"rewrite", value:(.extra.`+field+` + " [checked]")}`] = func(in jqValue) any {
			return map[string]any{"action": "rewrite", "value": in.str("extra", field) + " [checked]"}
		}
	}
	return f
}()

// runJQ plays `jq [-c|-r] FILTER` on the payload in stdin.
func runJQ(hc interp.HandlerContext, args []string) error {
	if len(args) != 2 {
		return failed(hc.Stderr, fmt.Errorf("jq stand-in: want -c|-r FILTER, got %q", args))
	}
	filter, ok := jqFilters[args[1]]
	if !ok {
		return failed(hc.Stderr, fmt.Errorf("jq stand-in: no Go twin for the filter %q (add one to jqFilters)", args[1]))
	}
	in, err := io.ReadAll(hc.Stdin)
	if err != nil {
		return failed(hc.Stderr, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(filter(jqValue(in))); err != nil {
		return failed(hc.Stderr, err)
	}
	_, err = hc.Stdout.Write(buf.Bytes())
	return err
}

// jqValue is a JSON document, read by path with its members' own bytes
// (jq's tojson keeps the order a document's keys came in).
type jqValue []byte

// raw is the compact JSON at path ("null" when absent).
func (v jqValue) raw(path ...string) []byte {
	cur := json.RawMessage(v)
	for _, k := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil || obj[k] == nil {
			return []byte("null")
		}
		cur = obj[k]
	}
	var out bytes.Buffer
	if json.Compact(&out, cur) != nil {
		return []byte("null")
	}
	return out.Bytes()
}

func (v jqValue) str(path ...string) string {
	var s string
	_ = json.Unmarshal(v.raw(path...), &s)
	return s
}

func (v jqValue) keys(path ...string) []string {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(v.raw(path...), &obj)
	return slices.Sorted(maps.Keys(obj))
}

// waitForFile waits until path exists: polling an observable condition
// under a hang bound, where there are no named pipes to wait on.
func waitForFile(path string, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not appear within %v", path, bound)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
