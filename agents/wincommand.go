package agents

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// WindowsShell is the shell an agent starts a hook file's Windows command
// with, where its file has a key for one (HookFile.WindowsKey).
type WindowsShell uint8

const (
	// NoWindowsKey: the agent runs the one command on every system
	// (Claude Code through Git Bash, which runs the POSIX form).
	NoWindowsKey WindowsShell = iota
	// Cmd: %COMSPEC% /C COMMAND (Codex's commandWindows).
	Cmd
	// PowerShell: powershell -Command COMMAND (Copilot's powershell key).
	PowerShell
)

// MissingReasonCmd is MissingReason as cmd.exe's echo can print it: no
// parentheses, which would end the prologue's ( … ) block early.
const MissingReasonCmd = "hermes-hooks is not on PATH, so the guards of this project cannot check this call: it is refused. " +
	"Install hermes-hooks and put it on PATH, see https://github.com/hermes-hooks/hermes-hooks#install."

// WindowsHookCommand is the command line a's hook file runs for event on
// Windows, under the key HookFile.WindowsKey ("" when a has none): for
// cmd.exe, `set NoDefaultCurrentDirectoryInExePath=1& where
// $PATH:hermes-hooks … & if errorlevel 1 (echo DENY& exit /b N) else
// (hermes-hooks hook …)` (PATH only, never the current directory); for
// PowerShell, `if (-not (Get-Command hermes-hooks …)) { …; exit N };
// & hermes-hooks hook …; exit $LASTEXITCODE` (a bare exit would
// turn every non-zero exit into 1, and a block is 2). With exe (absolute,
// forward slashes or backslashes) it runs that program, quoted as that
// shell reads it. What cannot be quoted safely is an error, never a line
// another shell parse could break out of.
func (a *Agent) WindowsHookCommand(exe, event string) (string, error) {
	if a.HookFile.WindowsShell == NoWindowsKey {
		return "", nil
	}
	if !safeEvent(event) {
		return "", fmt.Errorf("event name %q: only letters and _ can be written into a Windows command line", event)
	}
	args := " hook " + a.Name + " " + event
	if t := a.Timeout(event); t > 0 {
		args += " " + AgentTimeoutFlag + " " + FormatSeconds(t)
	}
	return a.windowsCommand(exe, event, args)
}

// HookCommandOn is the "command" a's hook file runs for event when install
// runs on the system goos (runtime.GOOS): HookCommand, except on Windows
// for an agent that runs "command" itself through a Windows shell
// (HookFile.CommandShellWindows: Gemini CLI's PowerShell, Qwen Code's
// under its CommandShellKey), which gets that shell's form of
// WindowsHookCommand. What that shell cannot be given safely is an error.
func (a *Agent) HookCommandOn(goos, exe, event string) (string, error) {
	shell := a.HookFile.CommandShellWindows
	if goos != "windows" || shell == NoWindowsKey {
		return a.HookCommand(exe, event), nil
	}
	if !safeEvent(event) {
		return "", fmt.Errorf("event name %q: only letters and _ can be written into a Windows command line", event)
	}
	args := " hook " + a.Name + " " + event
	if t := a.Timeout(event); t > 0 {
		args += " " + AgentTimeoutFlag + " " + FormatSeconds(t)
	}
	return a.windowsCommandIn(shell, exe, event, args)
}

// windowsCommand is WindowsHookCommand with the arguments after the
// program given (" hook AGENT EVENT …", from a checked command line).
func (a *Agent) windowsCommand(exe, event, args string) (string, error) {
	return a.windowsCommandIn(a.HookFile.WindowsShell, exe, event, args)
}

// windowsCommandIn is windowsCommand for the shell given.
func (a *Agent) windowsCommandIn(shell WindowsShell, exe, event, args string) (string, error) {
	if exe != "" && !driveLetter(exe) {
		return "", fmt.Errorf("%q: not an absolute Windows path (C:\\…)", exe)
	}
	exe = strings.ReplaceAll(exe, "/", `\`)
	if !utf8.ValidString(exe) {
		return "", fmt.Errorf("%q: not valid UTF-8, which a JSON file cannot hold", exe)
	}
	// The PATH forms say hermes-hooks is not on PATH; the absolute forms,
	// that the program they name is not there (MissingProgramReason,
	// which cmd.exe's echo prints as it is).
	reason := MissingProgramReason
	if exe == "" {
		reason = MissingReason
		if shell == Cmd {
			reason = MissingReasonCmd
		}
	}
	r := a.MissingReply(event, reason)
	if shell == Cmd {
		return cmdCommand(exe, args, r)
	}
	return psCommand(exe, args, r)
}

// noCwdSearch is the variable, with a value, that keeps cmd.exe from
// looking for a program in the current directory.
const noCwdSearch = "NoDefaultCurrentDirectoryInExePath=1"

// cmdCommand is the cmd.exe form: the prologue answers r when hermes-hooks
// is not on PATH; with exe, the program double-quoted.
func cmdCommand(exe, args string, r Reply) (string, error) {
	var body strings.Builder
	for _, out := range []struct {
		data     []byte
		redirect string
	}{{r.Stdout, ""}, {r.Stderr, ">&2 "}} {
		if len(out.data) == 0 {
			continue
		}
		text, err := cmdEchoText(string(out.data))
		if err != nil {
			return "", err
		}
		body.WriteString(out.redirect + "echo " + text + "& ")
	}
	body.WriteString("exit /b " + strconv.Itoa(r.Exit))
	if exe == "" {
		// cmd.exe looks for a bare name in the current directory before
		// PATH: in a repository the agent works in, a committed
		// hermes-hooks.cmd would run in place of the guard, unapproved.
		// NoDefaultCurrentDirectoryInExePath (set at all) makes it search
		// PATH only (NeedCurrentDirectoryForExePath), and where is held to
		// PATH too, so that it finds what cmd.exe will run. Wine's cmd.exe
		// ignores the variable (measured): only Windows can show it.
		// if errorlevel, not ||: Wine's cmd.exe runs what follows || even
		// after a success, and both read this the same.
		return "set " + noCwdSearch + "& where $PATH:" + ProgramName + " >nul 2>&1 & if errorlevel 1 (" + body.String() + ") else (" + ProgramName + args + ")", nil
	}
	// Inside double quotes cmd.exe reads & | < > ( ) ^ as text, but it
	// still expands %VAR% (and !VAR! where delayed expansion is on), and a
	// quote would end the quoting; cmd /C strips a leading quote pair
	// around a path with ( ) & @ ^ in it; if exist reads * and ? as
	// wildcards (no Windows file name holds them).
	if strings.ContainsAny(exe, "\"%!()&@^|<>*?") || hasControl(exe) {
		return "", fmt.Errorf("%s: cmd.exe cannot run this path safely (it holds one of \" %% ! ( ) & @ ^ | < > * ?); install without --absolute to run hermes-hooks from PATH", exe)
	}
	// The program is tested first, as the PATH form's where does: not
	// there, or a folder (P\* exists), gets the answer; cmd.exe's "is not
	// recognized" would be a hook error the agent lets through.
	q := `"` + exe + `"`
	return "if not exist " + q + " (" + body.String() + ") else if exist \"" + exe + `\*" (` + body.String() + ") else (" + q + args + ")", nil
}

// cmdEchoText is data (one line ending in a newline, as echo prints it)
// as echo's argument: refused where cmd.exe would read any of it as
// syntax (% ! ^ & | < > ( ), a quote left open, a line break), never
// escaped, so that no reading of the escapes can go wrong.
func cmdEchoText(data string) (string, error) {
	text, ok := strings.CutSuffix(data, "\n")
	if !ok || text == "" {
		return "", fmt.Errorf("%q: cmd.exe's echo prints one non-empty line ending in a newline", data)
	}
	if strings.ContainsAny(text, "%!^&|<>()") || hasControl(text) || strings.Count(text, `"`)%2 != 0 {
		return "", fmt.Errorf("%q: cmd.exe would read part of this text as a command (%% ! ^ & | < > ( ), an unclosed quote or a control character)", text)
	}
	return text, nil
}

// psCommand is the PowerShell form: the prologue writes r when
// hermes-hooks is not on PATH; with exe, the program single-quoted and
// called with &.
func psCommand(exe, args string, r Reply) (string, error) {
	var body strings.Builder
	for _, out := range []struct {
		data   []byte
		stream string
	}{{r.Stdout, "Out"}, {r.Stderr, "Error"}} {
		if len(out.data) == 0 {
			continue
		}
		if hasControl(strings.TrimSuffix(string(out.data), "\n")) {
			return "", fmt.Errorf("%q: a line break or control character cannot be written into a PowerShell command line", out.data)
		}
		body.WriteString("[Console]::" + out.stream + ".Write(" + PSQuote(string(out.data)) + "); ")
	}
	body.WriteString("exit " + strconv.Itoa(r.Exit))
	// A program found but not started (a .ps1 the execution policy
	// refuses, no valid program, blocked, removed since the check) throws;
	// uncaught, the line went on to exit $LASTEXITCODE, which nothing had
	// set: exit 0, the agent's "allow". The catch refuses as the prologue.
	run := func(prog string) string {
		return "try { & " + prog + args + " } catch { " + body.String() + " }; exit $LASTEXITCODE"
	}
	if exe == "" {
		return "if (-not (Get-Command " + ProgramName + " -ErrorAction SilentlyContinue)) { " + body.String() + " }; " + run(ProgramName), nil
	}
	if hasControl(exe) {
		return "", fmt.Errorf("%q: a control character cannot be written into a PowerShell command line", exe)
	}
	// -LiteralPath: Get-Command (older installs) reads [ ] in a path as a
	// wildcard, which could find another file; -PathType Leaf: a folder
	// is no program.
	prog := PSQuote(exe)
	return "if (-not (Test-Path -LiteralPath " + prog + " -PathType Leaf)) { " + body.String() + " }; " + run(prog), nil
}

// PSQuote single-quotes s for PowerShell: its only escape inside single
// quotes is a doubled quote, and PowerShell takes the typographic single
// quotes (U+2018–U+201B) for ' too, so those are doubled as well. A
// newline is written as "`n" joined on with +, so that the line stays one
// line; callers refuse other control characters.
func PSQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'', '\u2018', '\u2019', '\u201A', '\u201B':
			b.WriteRune(r)
		}
		if r == '\n' {
			b.WriteString("'+\"`n\"+'")
			continue
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String()
}

// safeEvent reports whether event can go into a command line unquoted.
func safeEvent(event string) bool {
	if event == "" {
		return false
	}
	for _, r := range event {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0
}

// driveLetter reports whether p starts with a Windows drive ("C:").
func driveLetter(p string) bool {
	return len(p) >= 3 && (p[0] >= 'A' && p[0] <= 'Z' || p[0] >= 'a' && p[0] <= 'z') && p[1] == ':' && (p[2] == '/' || p[2] == '\\')
}

// windowsForPOSIX is the Windows command of the same hook as posix, a
// command line HookCommand wrote (ok false for any other line, which gets
// no Windows command: install writes only its own).
func (a *Agent) windowsForPOSIX(posix, event string) (string, bool, error) {
	l, own := parseOwn(posix)
	if a.HookFile.WindowsShell == NoWindowsKey || !own || l.agent != a.Name || !safeEvent(event) {
		return "", false, nil
	}
	exe := l.exe
	if exe != "" && !driveLetter(exe) {
		// A Unix path names nothing on Windows: a file of one user on
		// one Unix machine needs no Windows command.
		return "", false, nil
	}
	// The arguments as the POSIX line has them (checked by IsOwnCommand).
	args := posix[strings.LastIndex(posix, " hook "+a.Name):]
	c, err := a.windowsCommand(exe, event, args)
	return c, err == nil && c != "", err
}

// ownWindowsForms match the Windows command lines install writes
// (WindowsHookCommand), each form it ever wrote, whole: cmd.exe's PATH
// prologue, held to PATH (today's) or not (older installs); its absolute
// path, tested first (today's) or bare (older installs); PowerShell's PATH
// prologue; its absolute path after Test-Path or Get-Command (older
// installs); PowerShell's call inside try/catch (today's) or bare (older
// installs). As with
// ownCommand, a prologue's text is not compared with today's; every
// program a form names (groups p1, p2, p3) must be the same one, checked
// by ownWindows: a line that tests one program and runs another is not
// ours.
var ownWindowsForms = sync.OnceValue(func() []winForm {
	const (
		cmdBody = `(?:(?:>&2 )?echo [^%!^&|<>()\r\n]+& )*exit /b [0-9]+`
		cmdExe  = `[A-Za-z]:\\[^"%!()&@^|<>*?\r\n]*`
		winTail = ` hook (?P<agent>` + agentWord + `)(?: (?P<event>[A-Za-z_]+))?(?: ` + AgentTimeoutFlag + ` (?P<secs>[0-9.]+))?`
		psQ     = `'(?:[^'\x{2018}-\x{201B}\r\n]|['\x{2018}-\x{201B}]{2})*'`
		psBody  = `\{ (?:\[Console\]::(?:Out|Error)\.Write\(` + psQ + `(?:\+"` + "`n" + `"\+` + psQ + `)*\); )*exit [0-9]+ \}`
		psEnd   = `; exit \$LASTEXITCODE`
	)
	forms := []struct {
		ps bool
		re string
	}{
		{false, `set NoDefaultCurrentDirectoryInExePath=1& where \$PATH:hermes-hooks >nul 2>&1 & if errorlevel 1 \(` + cmdBody + `\) else \(hermes-hooks` + winTail + `\)`},
		{false, `where hermes-hooks >nul 2>&1 & if errorlevel 1 \(` + cmdBody + `\) else \(hermes-hooks` + winTail + `\)`},
		{false, `if not exist "(?P<p1>` + cmdExe + `)" \(` + cmdBody + `\) else if exist "(?P<p2>` + cmdExe + `)\\\*" \(` + cmdBody + `\) else \("(?P<p3>` + cmdExe + `)"` + winTail + `\)`},
		{false, `"(?P<p1>` + cmdExe + `)"` + winTail},
		{true, `if \(-not \(Get-Command (?P<p1>hermes-hooks) -ErrorAction SilentlyContinue\)\) ` + psBody + `; try \{ & (?P<p2>hermes-hooks)` + winTail + ` \} catch ` + psBody + psEnd},
		{true, `if \(-not \(Test-Path -LiteralPath (?P<p1>` + psQ + `) -PathType Leaf\)\) ` + psBody + `; try \{ & (?P<p2>` + psQ + `)` + winTail + ` \} catch ` + psBody + psEnd},
		{true, `if \(-not \(Get-Command (?P<p1>hermes-hooks|` + psQ + `) -ErrorAction SilentlyContinue\)\) ` + psBody + `; & (?P<p2>hermes-hooks|` + psQ + `)` + winTail + psEnd},
		{true, `if \(-not \(Test-Path -LiteralPath (?P<p1>` + psQ + `) -PathType Leaf\)\) ` + psBody + `; & (?P<p2>` + psQ + `)` + winTail + psEnd},
	}
	out := make([]winForm, len(forms))
	for i, f := range forms {
		out[i] = winForm{ps: f.ps, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + f.re + `$`) })}
	}
	return out
})

// winForm is one form of ownWindowsForms; ps: PowerShell's. Its pattern
// is compiled at first use: reading an agent's hook file in a one-shot
// asks only the PowerShell forms (IsOwnHookCommand), and compiling the
// cmd.exe ones too cost every such start 0.1–0.2 ms.
type winForm struct {
	ps bool
	re func() *regexp.Regexp
}

// winLine is what a Windows command line install wrote says: what a POSIX
// one says (ownLine: the agent and event it runs hook for, event "" when
// it names none; the program, exe "" for the PATH forms, else the
// absolute path as Windows reads it; the agent's deadline it passes, secs
// "" for none), whether it is PowerShell's form, and whether a prologue
// answers when the program is missing (all but an older install's bare
// path).
type winLine struct {
	ownLine
	ps, guarded bool
}

// ownWindows is the agent a Windows command line install wrote is for
// (PowerShell's forms only, with psOnly); ok false for any other line.
func ownWindows(command string, psOnly bool) (agent string, ok bool) {
	l, ok := parseOwnWindows(command, psOnly)
	return l.agent, ok
}

// parseOwnWindows reads a Windows command line install wrote (PowerShell's
// forms only, with psOnly); ok false for any other line.
func parseOwnWindows(command string, psOnly bool) (winLine, bool) {
	for _, f := range ownWindowsForms() {
		if psOnly && !f.ps {
			continue
		}
		re := f.re()
		m := re.FindStringSubmatch(command)
		if m == nil {
			continue
		}
		prog := ""
		for _, p := range []string{"p1", "p2", "p3"} {
			i := re.SubexpIndex(p)
			if i < 0 {
				continue
			}
			if prog != "" && m[i] != prog {
				return winLine{}, false
			}
			prog = m[i]
		}
		// Every form but the older bare path starts with its prologue.
		l := winLine{ownLine: ownLine{agent: m[re.SubexpIndex("agent")], event: m[re.SubexpIndex("event")], secs: m[re.SubexpIndex("secs")]}, ps: f.ps,
			guarded: !strings.HasPrefix(command, `"`)}
		if prog != ProgramName {
			l.exe = psLiteral(prog)
		}
		return l, true
	}
	return winLine{}, false
}

// psLiteral is a program as PSQuote (or a cmd.exe form, unquoted) wrote
// it: the text inside single quotes, each doubled quote one again.
func psLiteral(s string) string {
	if len(s) < 2 || s[0] != '\'' {
		return s
	}
	var b strings.Builder
	rs := []rune(s[1 : len(s)-1])
	for i := 0; i < len(rs); i++ {
		b.WriteRune(rs[i])
		switch rs[i] {
		case '\'', '\u2018', '\u2019', '\u201A', '\u201B':
			i++ // its double
		}
	}
	return b.String()
}

// OwnWindowsProgram is the program a Windows command line install wrote
// runs: its absolute path, "" for the PATH forms; guarded says a prologue
// answers when that program is missing. ok false for any other line.
func OwnWindowsProgram(command string) (exe string, guarded, ok bool) {
	l, ok := parseOwnWindows(command, false)
	return l.exe, l.guarded, ok
}

// isOwn reports whether command, a's hook file's "command", is one install
// writes for a: the POSIX form, or, for an agent that runs "command"
// through PowerShell on Windows, the PowerShell form install writes there.
// Either is ours wherever it is read, so that install on another system
// replaces it and uninstall removes it.
func (a *Agent) isOwn(command string) bool {
	if IsOwnCommand(command, a.Name) {
		return true
	}
	if a.HookFile.CommandShellWindows != PowerShell {
		return false
	}
	name, ok := ownWindows(command, true)
	return ok && name == a.Name
}

// IsOwnHookCommand reports whether command, found under an agent's
// "command" key, is one install wrote for agent (for any agent when agent
// is ""): IsOwnCommand, or the PowerShell form where that agent's
// "command" runs through PowerShell on Windows (HookFile.CommandShellWindows).
func IsOwnHookCommand(command, agent string) bool {
	if IsOwnCommand(command, agent) {
		return true
	}
	name, ok := ownWindows(command, true)
	if !ok || agent != "" && name != agent {
		return false
	}
	a, ok := Lookup(name)
	return ok && a.isOwn(command)
}

// IsOwnLine reports whether command, a handler's command line of a's hook
// file as a runs it on this system (after Source.Handler, which on
// Windows puts Codex's commandWindows or Copilot's powershell line in
// its place), is one install wrote, for any agent: IsOwnHookCommand, or
// on Windows the form of a's Windows shell. Such a line is hermes-hooks
// answering the agent, not a hook of the user's: a hook source skips it
// (running it from there would run every hook a second time).
func (a *Agent) IsOwnLine(command string) bool {
	if IsOwnHookCommand(command, "") {
		return true
	}
	if hostOS != "windows" || a.HookFile.WindowsShell == NoWindowsKey {
		return false
	}
	ps := a.HookFile.WindowsShell == PowerShell
	l, ok := parseOwnWindows(command, ps)
	return ok && l.ps == ps
}

// IsOwnWindowsCommand reports whether command is a Windows command line
// install wrote for agent (for any agent when agent is "").
func IsOwnWindowsCommand(command, agent string) bool {
	name, ok := ownWindows(command, false)
	return ok && (agent == "" || name == agent)
}

// windowsOf is handler h's Windows command (a.HookFile.WindowsKey, else
// an alias of it; "" when none).
func (a *Agent) windowsOf(h pyjson.OrderedObject) string {
	if a.HookFile.WindowsKey == "" {
		return ""
	}
	for _, k := range append([]string{a.HookFile.WindowsKey}, a.HookFile.WindowsAliases...) {
		if c, ok := get(h, k).(string); ok {
			return c
		}
	}
	return ""
}

// codexHandlerOn is a Codex handler as it runs on the system goos: on
// Windows Codex runs commandWindows (alias command_windows) in place of
// command where the handler has one; elsewhere command. Either way the
// keys leave the handler, which is Claude Code's from then on.
func codexHandlerOn(goos string, h map[string]any) map[string]any {
	win, hasWin := h["commandWindows"]
	if !hasWin {
		win, hasWin = h["command_windows"]
	}
	if !hasWin {
		return h
	}
	out := make(map[string]any, len(h))
	for k, v := range h {
		if k != "commandWindows" && k != "command_windows" {
			out[k] = v
		}
	}
	if goos == "windows" {
		out["command"] = win
	}
	return out
}
