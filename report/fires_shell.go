package report

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
)

// How doctor starts an entry's line as its agent starts it, per system.
// On Linux and macOS every agent hands "command" to sh or bash -c
// (agents.Shell). On Windows an agent with a Windows key runs that key's
// line instead (Codex: %COMSPEC% /C LINE, the line passed verbatim;
// Copilot CLI: powershell -Command LINE), and its "command" where the
// entry has none; Gemini CLI runs "command" itself through PowerShell
// (-NoProfile -NonInteractive -Command), and Qwen Code where the entry
// says "shell": "powershell" (powershell -Command, on every system:
// FileEntry.Shell). The others keep the POSIX form,
// run through Git Bash found as Claude Code finds it, else the shell on
// PATH (Claude Code uses PowerShell there, and Qwen Code %ComSpec%
// unless started from Git Bash, where the line fails: no answer,
// HookFile.POSIXOnWindows). Proving the POSIX line on
// Windows would prove a line the agent never runs, and report a missing
// sh as a problem of a file that works.

// shellRun is how one entry's line is started.
type shellRun struct {
	path    string
	argv    []string
	cmdLine string // Windows: the command line given verbatim (cmd.exe)
	line    string // the line run: the entry's Windows line, or its command
	// psCheck: the shell is PowerShell, to be seen running a command
	// before its silence is read (Wine's powershell.exe runs nothing).
	psCheck bool
}

// runFor is how agent a runs entry e on the system goos, with getenv and
// lookPath this process's; a status ("" when it can run) when it cannot:
// FireNoAnswer when the POSIX shell is missing (as before), FireNotRun
// when the agent's Windows shell is (nothing proved either way).
func runFor(a *agents.Agent, goos string, e agents.FileEntry, getenv func(string) string, lookPath func(string) (string, error), isFile func(string) bool) (run shellRun, status, detail string) {
	hf := a.HookFile
	line := e.Command
	if goos == "windows" && hf.WindowsShell != agents.NoWindowsKey && e.Windows != "" {
		line = e.Windows
	}
	run.line = line
	switch {
	case goos == "windows" && hf.WindowsShell == agents.Cmd:
		// Codex: %COMSPEC% /C LINE, the line as it is (cmd.exe reads its
		// command line by its own rules: no argv quoting may touch it).
		comspec := getenv("COMSPEC")
		if comspec == "" {
			p, err := lookPath("cmd.exe")
			if err != nil {
				return run, FireNotRun, a.Title + " runs it with %COMSPEC%, which is not set, and cmd.exe is not on PATH: not run"
			}
			comspec = p
		}
		run.path, run.argv = comspec, []string{comspec, "/C", line}
		run.cmdLine = `"` + comspec + `" /C ` + line
		return run, "", ""
	case goos == "windows" && hf.WindowsShell == agents.PowerShell, e.Shell == "powershell":
		// powershell -Command LINE: Copilot CLI's powershell key on
		// Windows; Qwen Code under "shell": "powershell" (its entry
		// install writes on Windows) on every system.
		p, err := lookPath("powershell")
		if err == nil {
			run.path, run.argv, run.psCheck = p, []string{"powershell", "-Command", line}, true
			return run, "", ""
		}
		if goos == "windows" {
			return run, FireNotRun, a.Title + " runs it with powershell, which is not on PATH: not run"
		}
		// Not Windows: the form install writes there, read here (a
		// committed project file). Qwen cannot start it, and lets the
		// call through.
		return run, FireNoAnswer, a.Title + ` runs it with powershell ("shell": "powershell", the form install writes on Windows), which is not on PATH here: the hook fails and the call goes through unguarded`
	case goos == "windows" && hf.CommandShellWindows == agents.PowerShell && hf.CommandShellKey == "":
		// Gemini CLI: ComSpec when it names PowerShell, else pwsh, else
		// powershell.
		p := getenv("ComSpec")
		if base := strings.ToLower(winBase(p)); base != "pwsh.exe" && base != "powershell.exe" && base != "pwsh" && base != "powershell" {
			p = ""
			for _, name := range []string{"pwsh", "powershell"} {
				if found, err := lookPath(name); err == nil {
					p = found
					break
				}
			}
			if p == "" {
				return run, FireNotRun, a.Title + " runs it with PowerShell (pwsh or powershell), which is not on PATH: not run"
			}
		}
		run.path, run.argv, run.psCheck = p, []string{p, "-NoProfile", "-NonInteractive", "-Command", line}, true
		return run, "", ""
	}
	if goos == "windows" {
		// The POSIX line on Windows: through Git Bash, found as Claude
		// Code finds it; else the shell on PATH.
		if hf.POSIXOnWindows == agents.ComSpecOutsideGitBash && !fromGitBash(getenv) {
			return run, FireNoAnswer, a.Title + " runs it with %ComSpec% (cmd.exe, or the PowerShell it names) unless started from Git Bash (MSYSTEM, TERM), and this POSIX line fails there: the call goes through unguarded. Run hermes-hooks install " + a.Name + " here, which writes the PowerShell form, run under \"shell\": \"powershell\" (or start it from Git Bash)"
		}
		bash, why := cmdpin.GitBashPath(func(k string) (string, bool) { v := getenv(k); return v, v != "" }, isFile,
			func(name string) (string, bool) { p, err := lookPath(name); return p, err == nil })
		if bash != "" {
			run.path, run.argv = bash, []string{bash, "-c", line}
			return run, "", ""
		}
		if hf.POSIXOnWindows == agents.GitBashElsePowerShell {
			return run, FireNoAnswer, a.Title + " runs it with PowerShell when it finds no Git Bash, where this POSIX line does not parse and the call goes through unguarded: " + why
		}
		if _, err := lookPath(a.Shell()); err != nil {
			return run, FireNoAnswer, a.Title + " runs it with Git Bash or " + a.Shell() + ": " + why + ", and " + a.Shell() + " is not on PATH"
		}
	}
	sh, err := lookPath(a.Shell())
	if err != nil {
		return run, FireNoAnswer, a.Title + " runs it with " + a.Shell() + ", which is not on PATH"
	}
	run.path, run.argv = sh, []string{a.Shell(), "-c", line}
	return run, "", ""
}

// fromGitBash reports whether the environment is a Git Bash's, as Qwen
// Code tells (MSYSTEM MINGW*/MSYS*, or TERM naming msys or cygwin).
func fromGitBash(getenv func(string) string) bool {
	m, term := getenv("MSYSTEM"), getenv("TERM")
	return strings.HasPrefix(m, "MINGW") || strings.HasPrefix(m, "MSYS") || strings.Contains(term, "msys") || strings.Contains(term, "cygwin")
}

// isFile reports whether p is a regular file (Git Bash's bash.exe).
func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// winBase is the last element of a Windows or POSIX path.
func winBase(p string) string {
	return p[strings.LastIndexAny(p, `\/`)+1:]
}

// shellChecks remembers, per PowerShell, why it cannot prove anything (""
// when it ran the check): one run per program and doctor.
type shellChecks struct {
	mu   sync.Mutex
	seen map[string]string
}

// check runs path -Command "exit 3" once: a PowerShell that does not
// exit 3 (Wine's powershell.exe exits 0 having run nothing) would read as
// an entry's silence, which the prologue's own silence cannot be told
// from.
func (s *shellChecks) check(ctx context.Context, path string, env []string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if why, ok := s.seen[path]; ok {
		return why
	}
	const want = 3
	r := hookproc.Run(ctx, hookproc.Spec{Path: path, Argv: []string{path, "-NoProfile", "-NonInteractive", "-Command", "exit " + strconv.Itoa(want)},
		Env: env, Timeout: probeTimeout, Cap: 1 << 12})
	why := ""
	if !r.Exited || r.ExitCode != want {
		why = "did not run a test command (exit " + strconv.Itoa(r.ExitCode) + ", not " + strconv.Itoa(want) + spawn(r.SpawnError) +
			"): what it runs cannot be proved; not run"
	}
	if s.seen == nil {
		s.seen = map[string]string{}
	}
	s.seen[path] = why
	return why
}

func spawn(err string) string {
	if err == "" {
		return ""
	}
	return "; " + err
}
