package install

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// Executable is the absolute path an agent's hook file must run: this
// program, by the name it was started with (argv[0], looked up on PATH, so
// that a link a package manager keeps stable across upgrades stays the
// path written), else the running executable.
func Executable() (string, error) {
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, programPath(abs)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this program's path: %v", err)
	}
	return exe, programPath(exe)
}

// programPath refuses a program path no hook file can hold: JSON (and a
// JavaScript plugin) hold UTF-8 only, and a path that is not would be
// written with U+FFFD in its place, naming nothing: every tool call
// refused as "missing" after an install that said it worked.
func programPath(exe string) error {
	if !utf8.ValidString(exe) {
		return fmt.Errorf("%q: the path of hermes-hooks is not valid UTF-8, which a hook file cannot hold; move it to a folder whose name is, or install without --user and --absolute (hermes-hooks from PATH)", exe)
	}
	return nil
}

// HookCommand is the command an agent's hook file runs for event
// (agents.Agent.HookCommand): with exe, `exec 'EXE' hook AGENT EVENT`, the
// path single-quoted and tested first (the agent's refusal where it is no
// executable file), for a file of one user or the managed layer; with exe
// "", hermes-hooks by name from PATH, for a project's files, which every
// teammate shares.
// On Windows the path is written with forward slashes: Git Bash (Claude
// Code's shell there) reads C:/… as written, and drops the backslashes
// of C:\… outside quotes; the agents' Windows forms turn them back.
func HookCommand(agent *agents.Agent, exe string) func(event string) string {
	exe = filepath.ToSlash(exe)
	return func(event string) string { return agent.HookCommand(exe, event) }
}

// HookCommandOn is HookCommand for install running on the system goos
// (runtime.GOOS): on Windows an agent that runs "command" through
// PowerShell itself (Gemini CLI; Qwen Code under "shell": "powershell",
// which agents.Agent.Install writes beside it) gets that shell's form
// (agents.Agent.HookCommandOn). A path or event the shell cannot be given
// safely is an error here, before any file is touched.
func HookCommandOn(goos string, agent *agents.Agent, exe string) (func(event string) string, error) {
	exe = filepath.ToSlash(exe)
	if err := programPath(exe); err != nil {
		return nil, err
	}
	lines := make(map[string]string, len(agent.HookFile.Events))
	for _, ev := range agent.HookFile.Events {
		c, err := agent.HookCommandOn(goos, exe, ev)
		if err != nil {
			return nil, fmt.Errorf("%s on %s: %v", agent.Title, goos, err)
		}
		lines[ev] = c
	}
	return func(event string) string {
		if c, ok := lines[event]; ok {
			return c
		}
		// Only the hook file's events are ever asked for; any other gets
		// the POSIX form, which is what the agent reads on other systems.
		return agent.HookCommand(exe, event)
	}, nil
}
