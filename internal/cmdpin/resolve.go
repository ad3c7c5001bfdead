package cmdpin

import (
	"os"
	"os/user"
	"slices"
	"strings"

	"github.com/google/shlex"
)

// Command is a hook command as it will run: its text, how it is run (split
// into words like Hermes, or through /bin/sh -c like Claude Code), the
// environment the hook gets, and the directory it starts in.
type Command struct {
	Text string
	// Shell: the command runs as `/bin/sh -c Text` (the Claude dialect);
	// otherwise it is split into words and run without a shell (Hermes).
	Shell bool
	// Env is the hook's whole environment (KEY=VALUE). $VAR, ~ and the PATH
	// lookup use it, never the calling process's own environment, so that
	// what is checked is what that hook will run.
	Env []string
	// Dir is the absolute directory the hook starts in.
	Dir string
	// Argv, when set, is the command in exec form (Claude Code's args):
	// these words, run without a shell; Text is then only its name.
	// ${CLAUDE_PROJECT_DIR} and ${CLAUDE_PLUGIN_ROOT} in them are replaced
	// literally from Env, as Claude Code does.
	Argv []string
	// ShellPath is the shell of a Shell command ("" = /bin/sh).
	ShellPath string
	// Prefix, for a Shell command, is the program Claude Code's
	// CLAUDE_CODE_SHELL_PREFIX names ("": none): the shell runs
	// `PREFIX 'Text'`, and what the prefix starts is resolved and pinned
	// with the command's own files (resolve_prefix.go).
	Prefix string
	// Vars are the variables (NAME=value) the hook's own file sets for it
	// (Gemini CLI's per-hook "env"), already in Env. They are the hook's
	// choice, as an assignment in front of the command is: the code they
	// name is pinned (BASH_ENV=pre.sh, NODE_OPTIONS=--require …), and one
	// that points an interpreter at start-up code it finds by itself
	// (PYTHONPATH) makes the command text only.
	Vars []string
	// assigned: the variables an enclosing command line sets (a sh -c
	// string's own command), as Target.assigned.
	assigned []string
}

// Target is what a command runs, resolved once and used by both the
// consent gate (which hashes Files) and the runner (which starts Path with
// Argv in Dir), so the two can never disagree about which file runs.
type Target struct {
	// Argv is the argument vector; Argv[0] is the program as written.
	Argv []string
	// Path is the program file to start, absolute ("" when Err is set or
	// the command runs through the shell).
	Path string
	// Dir is the working directory, after a leading `cd DIR &&`.
	Dir string
	// Env holds assignments that prefix the command (`FOO=1 ./x.sh`); the
	// runner adds them to the hook's environment.
	Env []string
	// Shell: run the original text with ShellPath -c rather than Path.
	Shell bool
	// PowerShell: the shell is PowerShell (Claude's shell: "powershell"),
	// which takes the text with -Command (ShellArgv).
	PowerShell bool
	// ShellPath is the shell that runs a Shell command (/bin/sh, or the
	// bash found on PATH for Claude's shell: "bash").
	ShellPath string
	// Prefix is the program a Shell command is handed to (Command.Prefix):
	// ShellArgv runs `PREFIX 'text'`.
	Prefix string
	// Files are every file the command executes or hands to an
	// interpreter, absolute, in order of appearance; Files[0] is the
	// primary script. Each is pinned by its SHA-256 at approval.
	Files []string
	// Optional are the Files that need not exist: where a module a
	// command loads by name may be found (perl -I dir -MMod, ruby -I dir
	// -r lib). They are pinned all the same, so that one appearing later
	// counts as a change.
	Optional []string
	// Direct reports that Files[0] is Path itself, started by the kernel
	// (a binary, or a script with a #! line), not handed to an interpreter.
	Direct bool
	// ScriptArg is the index in Argv of the primary script when it is
	// handed to an interpreter (0: it is not), and Interp that
	// interpreter's family ("sh", "python", "node", …): the runner may then
	// hand the interpreter the pinned copy instead of the path.
	ScriptArg int
	Interp    string
	// Opaque says why the files a command runs cannot be determined (a
	// compound shell command, a make or npm target, python -m). Such a hook
	// is approved by its text only: what it does can change without notice.
	Opaque string
	// Spec, for a hook that starts no local file (an http endpoint), is the
	// canonical text of everything besides its command that decides what
	// it does and sends where (URL, headers, allowedEnvVars). The approval
	// pins its SHA-256, so a change to it needs a new approval.
	Spec string
	// CmdLine, on Windows, is the command line Path gets verbatim (a batch
	// file's cmd.exe line: cmd.exe does not split words as Argv implies).
	CmdLine string
	// Err is why the command cannot start at all, in Hermes' words
	// ("command not found", "empty command", …).
	Err string

	// loads are the files the command loads besides its script (see
	// resolve_loads.go), collected while it is analysed.
	loads []string
	// programs are the Files that are programs started by their path (a
	// wrapper or interpreter the command chose itself): a large binary
	// among them may use the digest cache as a directly run one does.
	programs []string
	// perlLib and rubyLib are the library directories the command's own
	// PERL5LIB and RUBYLIB assignments add.
	perlLib, rubyLib []string
	// viaShell: only the shell can start the command as written (a
	// builtin's option, such as exec -a NAME), even though its files are
	// known.
	viaShell bool
	// stdinProg: the interpreter reads its program from standard input.
	stdinProg bool
	// assigned names the variables the command sets itself (in front of
	// it, through env, or in an enclosing sh -c): the programs found on a
	// PATH it sets are its choice (resolve_programs.go), and a directory
	// an interpreter loads start-up code from may be the repository's
	// (startupVars).
	assigned []string
	// index finds entries in the lists above while they grow (listindex.go).
	index *listIndexes
}

// Primary is the primary script (Files[0]), or "".
func (t *Target) Primary() string {
	if len(t.Files) == 0 {
		return ""
	}
	return t.Files[0]
}

// Resolve works out what c runs. It touches the file system only to look
// programs up on PATH, to read home directories and to read the #! line of
// a script the kernel starts (shebangLoads); it never runs the files it
// names.
func Resolve(c Command) Target {
	t := resolve(c)
	t.index = nil
	return t
}

func resolve(c Command) Target {
	if len(c.Vars) == 0 {
		return resolveCommand(c)
	}
	for _, v := range c.Vars {
		name, _, _ := strings.Cut(v, "=")
		c.assigned = append(slices.Clip(c.assigned), name)
	}
	t := resolveCommand(c)
	if t.Err == "" {
		envLoads(&t, c.Vars)
		flushLoads(&t)
	}
	return t
}

// resolveCommand is resolve for c, its own variables (Vars) counted as
// assigned by the command.
func resolveCommand(c Command) Target {
	if c.Argv != nil {
		argv := make([]string, len(c.Argv))
		for i, w := range c.Argv {
			for _, name := range []string{"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"} {
				if v, ok := Getenv(c.Env, name); ok {
					w = strings.ReplaceAll(w, "${"+name+"}", v)
				}
			}
			argv[i] = w
		}
		if len(argv) == 0 || argv[0] == "" {
			return Target{Err: "empty command", Dir: c.Dir}
		}
		t := Target{Argv: argv, Dir: c.Dir, assigned: slices.Clone(c.assigned)}
		analyze(&t, c.Env, false, 0)
		flushLoads(&t)
		if onWindows {
			startScript(&t, c.Env)
		}
		return t
	}
	if c.Shell && c.Prefix != "" && c.ShellPath != PowerShellShell {
		return resolvePrefixed(c)
	}
	if c.Shell {
		return resolveShell(c, 0)
	}
	argv, err := splitWords(c.Text, c.Env)
	if err != "" {
		return Target{Err: err, Dir: c.Dir}
	}
	t := Target{Argv: argv, Dir: c.Dir, assigned: slices.Clone(c.assigned)}
	analyze(&t, c.Env, false, 0)
	flushLoads(&t)
	if onWindows {
		startScript(&t, c.Env)
	}
	return t
}

// splitWords splits a Hermes-dialect command into words the way Hermes does
// (POSIX shell words, no shell), except that "~" and "~user" are expanded at
// the start of every word, not only of the whole string, so "bash ~/h.sh"
// works. env supplies HOME (nil: the process's). The error is worded as
// Hermes words it.
func splitWords(text string, env []string) ([]string, string) {
	if onWindows {
		// Windows programs split their own command line, by
		// CommandLineToArgvW's rules: backslashes are path separators.
		argv := splitWindowsArgs(text)
		if len(argv) == 0 {
			return nil, "empty command"
		}
		for i, a := range argv {
			argv[i] = expandUserTilde(a, env)
		}
		return argv, ""
	}
	argv, err := shlex.Split(text)
	if err != nil {
		return nil, "command '" + text + "' cannot be parsed: " + shlexReason(err)
	}
	if len(argv) == 0 {
		return nil, "empty command"
	}
	for i, a := range argv {
		argv[i] = expandUserTilde(a, env)
	}
	return argv, ""
}

// shlexReason words a split error as Python's shlex does.
func shlexReason(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "closing quote"):
		return "No closing quotation"
	case strings.Contains(msg, "escape"):
		return "No escaped character"
	}
	return msg
}

// homeVar names the home directory's variable, seps the separators a
// ~user prefix ends at.
var homeVar, seps = func() (string, string) {
	if onWindows {
		return "USERPROFILE", `/\`
	}
	return "HOME", "/"
}()

// Getenv reads key from env (the hook's environment), falling back to the
// process's own environment when env is nil.
func Getenv(env []string, key string) (string, bool) {
	if env == nil {
		return os.LookupEnv(key)
	}
	prefix := key + "="
	for i := len(env) - 1; i >= 0; i-- {
		if strings.HasPrefix(env[i], prefix) ||
			// Windows' environment is case-insensitive (Path, PATH).
			onWindows && len(env[i]) > len(prefix) && strings.EqualFold(env[i][:len(prefix)], prefix) {
			return env[i][len(prefix):], true
		}
	}
	return "", false
}

// expandUserTilde expands "~", "~/…" and "~user/…" at the start of a word,
// as the shell and Python's os.path.expanduser do: "~" is $HOME. On
// Windows, as in Python there, "~" is %USERPROFILE% and "\" ends the name
// too.
func expandUserTilde(word string, env []string) string {
	if !strings.HasPrefix(word, "~") {
		return word
	}
	name := word[1:]
	if i := strings.IndexAny(name, seps); i >= 0 {
		name = name[:i]
	}
	var home string
	if name == "" {
		h, ok := Getenv(env, homeVar)
		if !ok || h == "" {
			var err error
			if h, err = os.UserHomeDir(); err != nil {
				return word
			}
		}
		home = h
	} else {
		u, err := user.Lookup(name)
		if err != nil {
			return word
		}
		home = u.HomeDir
	}
	return home + word[1+len(name):]
}
