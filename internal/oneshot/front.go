package oneshot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// FullName is the complete program's file name: every command, its help
// and its flag errors. The front hands it every command line it does not
// answer itself.
const FullName = "hermes-hooks-full"

// Front is the main of cmd/hermes-hooks, the binary agents start once per
// event. It answers `dispatch`, `hook` and `version` itself when the
// command line is one the complete program would run without complaint,
// and otherwise (any other command, --help, a flag error, a usage error)
// replaces itself with hermes-hooks-full, which says exactly what it
// always says. The decision is taken on the arguments alone, before stdin
// is read, so the complete program gets stdin untouched.
//
// argv is os.Args.
func Front(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &App{In: stdin, Out: stdout, Err: stderr}
	run, ok := a.parseFront(argv[1:])
	if !ok {
		code, _ := execFull(argv, nil, stderr)
		return code
	}
	err := run()
	if nf := (*NeedsFull)(nil); errors.As(err, &nf) {
		code, handed := execFull(argv, nf, stderr)
		if handed {
			return code
		}
		// The complete program cannot be started: dispatch here rather
		// than not at all. What needed it fails loudly here: an http
		// hook, or a matcher, as a hook that cannot start (a fail_closed
		// one blocks); a config with no cached parse, as a config error.
		a.Warn(nf.Why + " needs " + FullName + ", which cannot be started; answering without it")
		a.In, a.noHandOver = bytes.NewReader(nf.Stdin), true
		err = run()
	}
	return Report(err, stderr)
}

// Flags each command the front answers takes besides the global ones, as
// the complete program declares them (its test checks they agree).
var (
	globalFlags   = []string{"config", "claude-settings", "codex-hooks", "copilot-hooks", "cursor-hooks", "accept-hooks"}
	dispatchFlags = []string{"format", "pretty", "async-only", "called-by"}
	hookFlags     = []string{"server", "no-server"}
)

// valueFlags are the flags above that take a value.
var valueFlags = map[string]bool{"config": true, "claude-settings": true, "codex-hooks": true, "copilot-hooks": true,
	"cursor-hooks": true, "format": true, "called-by": true, "server": true}

// localFlagFirst reports whether one of dispatch's or hook's own flags
// comes before the command name.
func localFlagFirst(args []string) bool {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if len(arg) < 2 || arg[0] != '-' {
			return false // the command name
		}
		name, _, inline := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if slices.Contains(dispatchFlags, name) || slices.Contains(hookFlags, name) {
			return true
		}
		if valueFlags[name] && !inline {
			i++ // its value
		}
	}
	return false
}

// FrontFlags lists the flags the front reads for command (dispatch, hook
// or version), global ones included.
func FrontFlags(command string) []string {
	own := map[string][]string{"dispatch": dispatchFlags, "hook": hookFlags}[command]
	return append(append([]string(nil), globalFlags...), own...)
}

// parseFront parses the command line as the complete program's flag
// parser would, for the commands the front answers. ok is false whenever
// that parser might answer differently: then the complete program runs.
func (a *App) parseFront(args []string) (run func() error, ok bool) {
	fs := pflag.NewFlagSet("hermes-hooks", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	// The global (persistent) flags, as root.go declares them.
	fs.StringVar(&a.ConfigPath, "config", "", "")
	fs.Var((*stringList)(&a.ClaudeSettings), "claude-settings", "")
	fs.Var((*stringList)(&a.CodexHooks), "codex-hooks", "")
	fs.Var((*stringList)(&a.CopilotHooks), "copilot-hooks", "")
	fs.Var((*stringList)(&a.CursorHooks), "cursor-hooks", "")
	fs.BoolVar(&a.AcceptHooks, "accept-hooks", false, "")
	// dispatch's and hook's own flags, as their commands declare them.
	var d DispatchOptions
	var h HookOptions
	fs.StringVar(&d.Format, "format", "json", "")
	fs.BoolVar(&d.Pretty, "pretty", false, "")
	fs.BoolVar(&d.AsyncOnly, "async-only", false, "")
	fs.StringVar(&d.CalledBy, "called-by", "", "")
	fs.StringVar(&h.Server, "server", "", "")
	fs.BoolVar(&h.NoServer, "no-server", false, "")
	if slices.Contains(args, "--") || localFlagFirst(args) {
		// cobra reads these differently from a plain flag parser: "--"
		// before the command name ends everything, and a command's own
		// flag before its name is not known yet (a bool one takes the
		// command name as its value). Rare enough to leave to it.
		return nil, false
	}
	if err := fs.Parse(args); err != nil {
		return nil, false // --help, an unknown flag, a missing value
	}
	pos := fs.Args()
	if len(pos) == 0 {
		return nil, false
	}
	changed := func(names ...string) bool {
		for _, n := range names {
			if fs.Changed(n) {
				return true
			}
		}
		return false
	}
	switch pos[0] {
	case "dispatch":
		if len(pos) != 2 || changed(hookFlags...) {
			return nil, false
		}
		return func() error { return a.Dispatch(pos[1], d) }, true
	case "hook":
		if len(pos) < 2 || len(pos) > 3 || changed(dispatchFlags...) {
			return nil, false
		}
		event := ""
		if len(pos) == 3 {
			event = pos[2]
		}
		return func() error { return a.Hook(pos[1], event, h) }, true
	case "version":
		if len(pos) != 1 || changed(dispatchFlags...) || changed(hookFlags...) {
			return nil, false
		}
		return func() error {
			_, err := fmt.Fprintf(a.Out, "hermes-hooks %s (%s)\n", Version(), runtime.Version())
			return err
		}, true
	}
	return nil, false
}

// installBoth is the hint when the complete program is missing.
// From a clone until the module is published; go install once it is.
const installBoth = "install both binaries side by side: make install in a clone of hermes-hooks (or, for a published release, CGO_ENABLED=0 go install github.com/hermes-hooks/hermes-hooks/cmd/...@latest)"

// FrontEnv names the variable through which the front tells the complete
// program its own path; the complete program reads it once and removes it
// from its environment, so no hook inherits it.
const FrontEnv = "HERMES_HOOKS_FRONT"

// FrontVersionEnv carries the front's version the same way, so that the
// complete program can tell when the two binaries come from different
// builds (one upgraded, not the other).
const FrontVersionEnv = "HERMES_HOOKS_FRONT_VERSION"

// StartedAs is the absolute path a program was started by: argv0 looked
// up on PATH, so that a link a package manager keeps stable across upgrades
// stays the path written; the running executable when argv0 cannot be
// found.
func StartedAs(argv0 string) (string, error) {
	if p, err := exec.LookPath(argv0); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
	}
	return os.Executable()
}

// FullPath finds the complete program: beside this executable (where
// make build and go install put both), else on PATH.
func FullPath() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), FullName+exeSuffix)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(FullName); err == nil {
		return p, nil
	}
	return "", errors.New(FullName + " is neither beside this program nor on PATH")
}

// execFull runs the complete program with this command line; on Unix it
// returns only when that fails (the process is replaced), elsewhere with
// the program's exit code. With nf, the front has read stdin already, and
// the complete program reads nf.Stdin. handed is false when the program
// could not be started: then, without nf, the error has been reported
// (code 1); with nf, nothing is printed and the caller decides.
func execFull(argv []string, nf *NeedsFull, stderr io.Writer) (code int, handed bool) {
	fail := func(e *ExitError) (int, bool) {
		if nf != nil {
			return 1, false
		}
		return Report(e, stderr), false
	}
	if os.Getenv(FrontEnv) != "" {
		// A front started us with this variable set: hermes-hooks-full
		// is a copy of (or link to) the front, and would start us again.
		return fail(&ExitError{Code: 1, Msg: "this command needs the complete program, but " + FullName + " is this front again (a link or a copy)",
			Hint: installBoth})
	}
	path, err := FullPath()
	if err != nil {
		return fail(&ExitError{Code: 1,
			Msg:  "this command needs the complete program: " + err.Error(),
			Hint: installBoth})
	}
	var stdin []byte
	args := argv[1:]
	if nf != nil {
		stdin = nf.Stdin
		if stdin == nil {
			stdin = []byte{}
		}
		if nf.TriedServer {
			// The server was tried (and a warning printed) once already.
			args = append(append([]string(nil), args...), "--no-server")
		}
	}
	// The complete program is started by its own name (a program's
	// argv[0] is its name: testscript, busybox-style tools and ps read
	// it), and told the path agents must run, this front's, by the
	// environment: install writes that path into agents' hook files.
	if self, err := StartedAs(argv[0]); err == nil {
		_ = os.Setenv(FrontEnv, self)
	}
	_ = os.Setenv(FrontVersionEnv, Version())
	code, err = replaceWith(path, append([]string{path}, args...), stdin)
	if err != nil {
		_ = os.Unsetenv(FrontEnv)
		_ = os.Unsetenv(FrontVersionEnv)
		return fail(&ExitError{Code: 1, Msg: "start " + path + ": " + err.Error()})
	}
	return code, true
}

// stringList is pflag's StringArray as the complete program's flags read
// it (each occurrence appended verbatim, no splitting on commas), without
// the CSV encoding of its default value that pflag does for every flag it
// declares: a measurable part of a no-match dispatch.
type stringList []string

func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
func (l *stringList) String() string     { return "[]" }
func (l *stringList) Type() string       { return "stringArray" }
