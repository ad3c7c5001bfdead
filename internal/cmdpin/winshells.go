package cmdpin

import "strings"

// The shells Windows hooks run through besides cmd.exe: Git Bash for
// Claude-dialect shell commands (as Claude Code runs them on Windows) and
// PowerShell for .ps1 files. Pure: the file system is asked through the
// functions passed in, so that the command lines are unit-tested on every
// system (Wine's PowerShell is a stub and it has no Git Bash).

// gitBashVar names the variable Claude Code reads for Git Bash's path.
const gitBashVar = "CLAUDE_CODE_GIT_BASH_PATH"

// GitBashPath finds Git Bash as Claude Code does on Windows: the file
// CLAUDE_CODE_GIT_BASH_PATH names (which must exist: a wrong value is an
// error, not a reason to look elsewhere); else bin\bash.exe of the Git for
// Windows whose git.exe is on PATH (…\Git\cmd\git.exe); else Git for
// Windows' usual install directories. getenv reads the hook's
// environment; isFile reports an existing file; lookPath finds a program
// on the hook's PATH. The second result says why none was found.
func GitBashPath(getenv func(string) (string, bool), isFile func(string) bool, lookPath func(string) (string, bool)) (string, string) {
	if p, ok := getenv(gitBashVar); ok && p != "" {
		if !isFile(p) {
			return "", gitBashVar + " names " + p + ", which is not a file"
		}
		return p, ""
	}
	if git, ok := lookPath("git"); ok {
		// git.exe is in Git\cmd (or Git\bin, Git\mingw64\bin): bash.exe
		// is in Git\bin.
		for dir := winDir(git); dir != "" && winDir(dir) != dir; dir = winDir(dir) {
			if p := dir + `\bin\bash.exe`; isFile(p) {
				return p, ""
			}
		}
	}
	var roots []string
	for _, v := range []string{"ProgramFiles", "ProgramW6432", "ProgramFiles(x86)", "LOCALAPPDATA"} {
		if r, ok := getenv(v); ok && r != "" {
			if v == "LOCALAPPDATA" {
				r += `\Programs`
			}
			roots = append(roots, r)
		}
	}
	roots = append(roots, `C:\Program Files`, `C:\Program Files (x86)`)
	for _, r := range roots {
		if p := strings.TrimRight(r, `\/`) + `\Git\bin\bash.exe`; isFile(p) {
			return p, ""
		}
	}
	return "", "Git Bash not found (Claude-dialect shell commands run through it on Windows): install Git for Windows or set " + gitBashVar
}

// winDir is a Windows path's directory ("" when it has none).
func winDir(p string) string {
	i := strings.LastIndexAny(p, `\/`)
	if i < 0 {
		return ""
	}
	if i == 2 && p[1] == ':' {
		return p[:3] // C:\ is its own directory
	}
	return p[:i]
}

// powerShell finds PowerShell: pwsh (PowerShell 7) first, else Windows
// PowerShell (powershell.exe), as Claude Code and Gemini CLI prefer them.
func powerShell(lookPath func(string) (string, bool)) (string, string) {
	for _, name := range []string{"pwsh", "powershell"} {
		if p, ok := lookPath(name); ok {
			return p, ""
		}
	}
	return "", "PowerShell not found (neither pwsh nor powershell.exe is on PATH)"
}

// powerShellFileArgv runs a .ps1 file with its arguments: no profile, no
// prompt, and the execution policy bypassed for this process only (the
// file was checked and pinned by consent, which is what an execution
// policy would have stood for).
func powerShellFileArgv(ps, script string, args []string) []string {
	return append([]string{ps, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", script}, args...)
}

// powerShellCommandArgv runs a command text through PowerShell, as Claude
// Code runs a handler with shell: "powershell".
func powerShellCommandArgv(ps, text string) []string {
	return []string{ps, "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", text}
}

// isPowerShellScript: PowerShell runs it, not the kernel.
func isPowerShellScript(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), ".ps1")
}
