package cmdpin

import (
	"path/filepath"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// Claude Code's CLAUDE_CODE_SHELL_PREFIX: a program every shell-form hook
// command is handed to, as one argument, for logging or auditing — the
// shell runs `PREFIX 'COMMAND'` (Command.Prefix). The prefix decides how
// the command runs, so what it starts is as much the hook's code as the
// command's own files.

// resolvePrefixed works out what c's shell runs for `PREFIX 'TEXT'`: the
// command's own files, resolved as without a prefix (what the prefix is
// there to run in the end), then the prefix program as a hook's program
// is resolved (a script or binary it starts is pinned; a wrapper or
// interpreter found on PATH is the system's, one a repository could write
// is pinned: chosenProgram). An interpreter reads the text as the name of
// its script (python3 'g.py'): that file is pinned too, as one that need
// not exist. So every file that can run is pinned, and an approval given
// without the prefix, or with another, does not hold for it. It always
// runs through the shell, which finds the prefix as Claude Code's does.
func resolvePrefixed(c Command) Target {
	inner := c
	inner.Prefix = ""
	t := resolveShell(inner, 0)
	if t.ShellPath == "" {
		return t // the shell itself is missing: nothing starts
	}
	// The prefix alone: the text is its argument, not a file it names
	// (a script's arguments that look like scripts are pinned:
	// addScriptArgs).
	p := Target{Argv: []string{c.Prefix}, Dir: c.Dir}
	analyze(&p, c.Env, false, 0)
	flushLoads(&p)
	if p.Err == "" && interpreterKind(filepath.Base(p.Path)) != "" {
		p.Optional = append(p.Optional, absIn(c.Text, c.Dir))
	}
	if p.Err == "" {
		// A prefix named by a path that is not there, or not
		// executable, is found by name all the same: say why it fails.
		p.Err = p.StartProblem()
	}
	for _, f := range p.Files {
		if !slices.Contains(t.Files, f) {
			t.Files = append(t.Files, f)
		}
	}
	t.Optional = append(t.Optional, p.Optional...)
	t.programs = append(t.programs, p.programs...)
	t.setOpaque(p.Opaque)
	if p.Err != "" && t.Err == "" {
		// The shell reports it when it runs (exit 127), as in Claude
		// Code; validate and doctor say which program it is.
		t.Err = "CLAUDE_CODE_SHELL_PREFIX " + c.Prefix + ": " + p.Err
	}
	t.Shell, t.Path, t.Prefix = true, "", c.Prefix
	return t
}

// shellText is the text t's shell runs for a hook's command text: text
// itself, or `PREFIX 'TEXT'` with the prefix's value as one quoted word,
// never as shell code of its own.
func shellText(t Target, text string) string {
	if t.Prefix == "" {
		return text
	}
	return shquote.Quote(t.Prefix) + " " + shquote.Quote(text)
}
