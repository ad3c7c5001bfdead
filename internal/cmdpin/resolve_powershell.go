package cmdpin

import "strings"

// PowerShellShell is Command.ShellPath's value for a Claude Code handler
// with shell: "powershell".
const PowerShellShell = "powershell"

// PowerShellSpec is the Spec of a PowerShell command: an approval pins its
// digest, so the same text approved to run through the POSIX shell or
// bash is not approved to run through PowerShell (and back).
const PowerShellSpec = "shell powershell"

// resolvePowerShell works out what a handler with shell: "powershell"
// runs: its text through PowerShell, pwsh (PowerShell 7) first, else
// Windows PowerShell (powershell.exe), found on the hook's PATH — as Claude
// Code does on every system (on Linux and macOS that is pwsh, where it is
// installed). PowerShell's syntax is not resolved here: the hook is
// approved by its text, and its Spec records that PowerShell runs it.
func resolvePowerShell(c Command) Target {
	if strings.TrimSpace(c.Text) == "" {
		return Target{Dir: c.Dir, Err: "empty command"}
	}
	ps, err := powerShell(func(name string) (string, bool) {
		p, err := lookPath(name, c.Env, c.Dir)
		return p, err == ""
	})
	if err != "" {
		if !onWindows {
			err = `PowerShell not found: shell: "powershell" runs pwsh, which is not on PATH (install PowerShell 7, or run the command with shell: "bash")`
		}
		// The Spec even so: approved now, it holds once PowerShell is
		// installed, and only for PowerShell.
		return Target{Dir: c.Dir, Err: err, Spec: PowerShellSpec}
	}
	return Target{Dir: c.Dir, Shell: true, ShellPath: ps, PowerShell: true,
		Opaque: "a PowerShell command: what it runs is PowerShell's to resolve", Spec: PowerShellSpec}
}

// ShellArgv is the argument vector that runs text through the shell of a
// Shell Target: PowerShell's -Command form (no profile, no prompt) for a
// PowerShell handler, ShellPath -c TEXT for the POSIX shell and bash (TEXT
// handed to the Target's Prefix when it has one: shellText).
func ShellArgv(t Target, text string) []string {
	if t.PowerShell {
		return powerShellCommandArgv(t.ShellPath, text)
	}
	return []string{t.ShellPath, "-c", shellText(t, text)}
}
