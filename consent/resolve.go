package consent

import (
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/shlex"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
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
	// ShellPath is the shell that runs a Shell command (/bin/sh, or the
	// bash found on PATH for Claude's shell: "bash").
	ShellPath string
	// Files are every file the command executes or hands to an
	// interpreter, absolute, in order of appearance; Files[0] is the
	// primary script. Each is pinned by its SHA-256 at approval.
	Files []string
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
	// Err is why the command cannot start at all, in Hermes' words
	// ("command not found", "empty command", …).
	Err string
}

// Primary is the primary script (Files[0]), or "".
func (t *Target) Primary() string {
	if len(t.Files) == 0 {
		return ""
	}
	return t.Files[0]
}

// Resolve works out what c runs. It touches the file system only to look
// programs up on PATH and to read home directories; it never reads or runs
// the files it names.
func Resolve(c Command) Target {
	if c.Argv != nil {
		argv := make([]string, len(c.Argv))
		for i, w := range c.Argv {
			for _, name := range []string{"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"} {
				if v, ok := getenv(c.Env, name); ok {
					w = strings.ReplaceAll(w, "${"+name+"}", v)
				}
			}
			argv[i] = w
		}
		if len(argv) == 0 || argv[0] == "" {
			return Target{Err: "empty command", Dir: c.Dir}
		}
		t := Target{Argv: argv, Dir: c.Dir}
		analyze(&t, c.Env, false, 0)
		return t
	}
	if c.Shell {
		return resolveShell(c, 0)
	}
	argv, err := SplitWords(c.Text, c.Env)
	if err != "" {
		return Target{Err: err, Dir: c.Dir}
	}
	t := Target{Argv: argv, Dir: c.Dir}
	analyze(&t, c.Env, false, 0)
	return t
}

// SplitWords splits a Hermes-dialect command into words the way Hermes does
// (POSIX shell words, no shell), except that "~" and "~user" are expanded at
// the start of every word, not only of the whole string, so "bash ~/h.sh"
// works. env supplies HOME (nil: the process's). The error is worded as
// Hermes words it.
func SplitWords(text string, env []string) ([]string, string) {
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

// getenv reads key from env (the hook's environment), falling back to the
// process's own environment when env is nil.
func getenv(env []string, key string) (string, bool) {
	if env == nil {
		return os.LookupEnv(key)
	}
	prefix := key + "="
	for i := len(env) - 1; i >= 0; i-- {
		if strings.HasPrefix(env[i], prefix) {
			return env[i][len(prefix):], true
		}
	}
	return "", false
}

// expandUserTilde expands "~", "~/…" and "~user/…" at the start of a word,
// as the shell and Python's os.path.expanduser do: "~" is $HOME.
func expandUserTilde(word string, env []string) string {
	if !strings.HasPrefix(word, "~") {
		return word
	}
	name, _, _ := strings.Cut(word[1:], "/")
	var home string
	if name == "" {
		h, ok := getenv(env, "HOME")
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

// ---- the shell (Claude dialect) -------------------------------------------

var (
	shParser   = syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	bashParser = syntax.NewParser(syntax.Variant(syntax.LangBash))
)

// resolveShell works out what `/bin/sh -c text` runs. Only one shape can be
// resolved exactly: an optional `cd DIR &&`, then one simple command whose
// words use quotes, $VAR and ${VAR} and a leading ~ — which covers the way
// Claude Code hooks are written ("$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh).
// Everything else runs through the shell and is approved by its text.
func resolveShell(c Command, depth int) Target {
	t := Target{Dir: c.Dir, Shell: true, ShellPath: "/bin/sh"}
	parser := shParser
	if c.ShellPath != "" && c.ShellPath != "sh" && c.ShellPath != "/bin/sh" {
		p, err := lookPath(c.ShellPath, c.Env, c.Dir)
		if err != "" {
			return Target{Dir: c.Dir, Err: c.ShellPath + ": " + err}
		}
		t.ShellPath, parser = p, bashParser
	}
	file, err := parser.Parse(strings.NewReader(c.Text), "")
	if err != nil {
		t.Opaque = "the command cannot be parsed as a shell command"
		return t
	}
	if len(file.Stmts) != 1 {
		t.Opaque = "compound shell command"
		if len(file.Stmts) == 0 {
			t.Opaque = ""
			t.Err = "empty command"
		}
		return t
	}
	st := file.Stmts[0]
	if st.Negated || st.Background || st.Coprocess {
		t.Opaque = "compound shell command"
		return t
	}
	call := simpleCall(st)
	if bin, ok := st.Cmd.(*syntax.BinaryCmd); ok && bin.Op == syntax.AndStmt && len(st.Redirs) == 0 {
		// `cd DIR && cmd`: Claude Code hooks often start in their project.
		cd := simpleCall(bin.X)
		if cd == nil || len(cd.Assigns) != 0 || len(bin.X.Redirs) != 0 || len(cd.Args) != 2 || lit(cd.Args[0]) != "cd" ||
			bin.Y.Negated || bin.Y.Background {
			t.Opaque = "compound shell command"
			return t
		}
		dirs, ok := staticFields(cd.Args[1:], c.Env)
		if !ok || len(dirs) != 1 {
			t.Opaque = "the directory of its `cd` is not a plain word"
			return t
		}
		t.Dir = absIn(dirs[0], c.Dir)
		st = bin.Y
		call = simpleCall(st)
	}
	if call == nil {
		t.Opaque = "compound shell command"
		return t
	}
	env := c.Env
	for _, as := range call.Assigns {
		if as.Append || as.Naked || as.Index != nil || as.Array != nil || as.Name == nil {
			t.Opaque = "an assignment that is not NAME=word"
			return t
		}
		v := ""
		if as.Value != nil {
			var ok bool
			if v, ok = staticWord(as.Value, c.Env); !ok {
				t.Opaque = "an assignment whose value is not a plain word"
				return t
			}
		}
		t.Env = append(t.Env, as.Name.Value+"="+v)
	}
	if len(t.Env) > 0 {
		env = append(slices.Clip(c.Env), t.Env...)
	}
	argv, ok := staticFields(call.Args, c.Env)
	if !ok {
		t.Opaque = "its words use shell features other than quotes, $VAR and ~ (globs, $(…), arithmetic)"
		return t
	}
	if len(argv) == 0 {
		return t // only assignments: nothing runs
	}
	t.Argv = argv
	// Redirections do not change what runs, but only the shell can apply
	// them; such a command keeps running through /bin/sh.
	keepShell := len(st.Redirs) != 0
	analyze(&t, env, true, depth)
	if t.Opaque == "" && t.Err == "" && t.Path != "" && !keepShell {
		t.Shell = false
	}
	return t
}

func simpleCall(st *syntax.Stmt) *syntax.CallExpr {
	if st == nil {
		return nil
	}
	c, _ := st.Cmd.(*syntax.CallExpr)
	return c
}

// lit is the word when it is one literal part, else "".
func lit(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}

// staticParts reports whether every part of w is something the resolver
// can expand exactly as the shell would: literal text without glob
// characters, quotes, and plain $VAR / ${VAR}.
func staticParts(parts []syntax.WordPart, quoted bool) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && strings.ContainsAny(p.Value, "*?[") {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			if p.Dollar || !staticParts(p.Parts, true) {
				return false
			}
		case *syntax.ParamExp:
			if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 || p.Param == nil {
				return false
			}
			if !isVarName(p.Param.Value) {
				// $1, $@, $?, $$ …: the shell's own values.
				return false
			}
		default:
			return false
		}
	}
	return true
}

func shellConfig(env []string) *expand.Config {
	if env == nil {
		env = os.Environ()
	}
	return &expand.Config{Env: expand.ListEnviron(env...), NoUnset: false}
}

// staticWord expands an assignment's value (no field splitting).
func staticWord(w *syntax.Word, env []string) (string, bool) {
	if !staticParts(w.Parts, false) {
		return "", false
	}
	s, err := expand.Literal(shellConfig(env), w)
	return s, err == nil
}

// staticFields expands words as the shell would (field splitting of an
// unquoted $VAR included), or reports that it cannot do so exactly.
func staticFields(words []*syntax.Word, env []string) ([]string, bool) {
	for _, w := range words {
		if !staticParts(w.Parts, false) {
			return nil, false
		}
	}
	fields, err := expand.Fields(shellConfig(env), words...)
	if err != nil {
		return nil, false
	}
	return fields, true
}

// ---- what a word list runs --------------------------------------------------

// shellBuiltins are the utilities /bin/sh runs itself; a command made of
// one of them starts no file.
var shellBuiltins = map[string]bool{
	"alias": true, "bg": true, "cd": true, "command": true, "echo": true, "eval": true,
	"exec": true, "exit": true, "export": true, "false": true, "fc": true, "fg": true,
	"getopts": true, "hash": true, "jobs": true, "kill": true, "local": true, "printf": true,
	"pwd": true, "read": true, "readonly": true, "return": true, "set": true, "shift": true,
	"test": true, "[": true, "times": true, "trap": true, "true": true, "type": true,
	"ulimit": true, "umask": true, "unalias": true, "unset": true, "wait": true, ":": true,
	".": true, "source": true, "break": true, "continue": true,
}

// wrappers run the command that follows their own options; the values are
// the options that take an argument.
var wrappers = map[string][]string{
	"env":     {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"},
	"nice":    {"-n", "--adjustment"},
	"nohup":   nil,
	"timeout": {"-s", "--signal", "-k", "--kill-after"},
	"stdbuf":  {"-i", "-o", "-e", "--input", "--output", "--error"},
	"ionice":  {"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"},
	"setsid":  nil,
	"time":    {"-f", "--format", "-o", "--output"},
	"chrt":    nil,
	"taskset": nil,
}

// opaqueRunners run something named indirectly (a target, a module, a
// package): the file that runs cannot be known from the command.
var opaqueRunners = map[string]string{
	"make": "runs a make target", "gmake": "runs a make target", "just": "runs a just recipe",
	"task": "runs a task target", "npm": "runs an npm script", "npx": "runs an npm package",
	"pnpm": "runs a pnpm script", "yarn": "runs a yarn script", "bunx": "runs a package",
	"pipx": "runs a pip package", "cargo": "runs a cargo target", "go": "runs a go command",
	"gradle": "runs a gradle task", "mvn": "runs a maven goal", "rake": "runs a rake task",
	"xargs": "runs commands built from its input", "sudo": "runs a command as another user",
	"doas": "runs a command as another user", "ssh": "runs a command on another host",
	"docker": "runs a container", "podman": "runs a container", "eval": "evaluates text",
}

// analyze fills Path, Files, Direct, Opaque and Err from t.Argv: it finds
// the program on PATH, looks through wrappers (env, nice, timeout …) and
// interpreters (sh, bash, python3, node, uv run …) for the file they run,
// and adds every further argument that names a script. shell reports that
// the command came through /bin/sh (shell builtins run no file).
func analyze(t *Target, env []string, shell bool, depth int) {
	argv := t.Argv
	first := true
	for len(argv) > 0 {
		name := argv[0]
		if shell && first && shellBuiltins[name] && !strings.Contains(name, "/") {
			switch name {
			case "exec", "command":
				// `exec x` and `command x` run x; their options are rare.
				argv = argv[1:]
				for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
					argv = argv[1:]
				}
				continue
			case ".", "source":
				t.Shell = true
				if len(argv) > 1 {
					t.Files = append(t.Files, absIn(argv[1], t.Dir))
					addScriptArgs(t, argv[2:])
				}
				return
			case "eval":
				t.Shell, t.Opaque = true, opaqueRunners["eval"]
				return
			}
			// A builtin with fixed words: the text is all it does.
			t.Shell = true
			return
		}
		path, err := lookPath(name, env, t.Dir)
		if err != "" {
			if first {
				t.Err = err
				return
			}
			// A wrapper's program that cannot be found: the wrapper will
			// fail the same way at run time; nothing to pin.
			return
		}
		if first {
			t.Path = path
			first = false
		}
		base := filepath.Base(path)
		if opts, ok := wrappers[base]; ok {
			rest, envs := skipWrapper(base, argv[1:], opts)
			if base == "env" && len(envs) > 0 {
				env = append(slices.Clip(env), envs...)
			}
			if len(rest) == 0 || rest[0] == argv[0] {
				return
			}
			argv = rest
			continue
		}
		if why, ok := opaqueRunners[base]; ok {
			t.Opaque = why
			return
		}
		if kind := interpreterKind(base); kind != "" {
			script, rest, inline, opaque := interpreterScript(kind, argv[1:])
			switch {
			case opaque != "":
				t.Opaque = opaque
				return
			case inline != nil:
				if kind == "sh" && depth == 0 {
					// sh -c 'CODE': what CODE runs is what runs.
					sub := resolveShell(Command{Text: *inline, Shell: true, Env: env, Dir: t.Dir}, depth+1)
					t.Files, t.Opaque = sub.Files, sub.Opaque
				}
				// python3 -c '…', node -e '…': the code is in the text.
				return
			case script == "":
				// A bare interpreter reads its program from stdin, which
				// carries the payload: it runs nothing of its own.
				return
			case kind == "uv" && !hasScriptExt(script) && !strings.Contains(script, "/"):
				// `uv run tool args` runs a program from the project's
				// environment; `uv run x.py` runs the script.
				argv = append([]string{script}, rest...)
				continue
			}
			if len(t.Files) == 0 {
				t.ScriptArg, t.Interp = len(t.Argv)-len(rest)-1, kind
			}
			t.Files = append(t.Files, absIn(script, t.Dir))
			addScriptArgs(t, rest)
			return
		}
		// The program itself is the hook.
		t.Files = append(t.Files, path)
		t.Direct = path == t.Path
		addScriptArgs(t, argv[1:])
		return
	}
}

// skipWrapper returns the command a wrapper runs and, for env, the
// variables it sets.
func skipWrapper(name string, args []string, withArg []string) (rest, envs []string) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:], envs
		case name == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			envs = append(envs, a)
		case name == "timeout" && !strings.HasPrefix(a, "-"):
			// timeout DURATION COMMAND…
			return args[i+1:], envs
		case name == "chrt" && !strings.HasPrefix(a, "-"):
			// chrt [opts] PRIORITY COMMAND…
			return args[i+1:], envs
		case name == "taskset" && !strings.HasPrefix(a, "-"):
			return args[i+1:], envs
		case strings.HasPrefix(a, "-") && a != "-":
			if slices.Contains(withArg, a) {
				i++
			}
		default:
			return args[i:], envs
		}
		i++
	}
	return nil, envs
}

// interpreterKind names the interpreter family of a program file name.
func interpreterKind(base string) string {
	b := strings.TrimSuffix(base, ".exe")
	switch {
	case b == "sh" || b == "bash" || b == "dash" || b == "zsh" || b == "ksh" || b == "mksh" || b == "ash" || b == "fish" || b == "busybox":
		return "sh"
	case b == "python" || b == "pypy" || b == "pypy3" || strings.HasPrefix(b, "python2") || strings.HasPrefix(b, "python3"):
		return "python"
	case b == "node" || b == "nodejs" || b == "bun" || b == "deno" || b == "tsx" || b == "ts-node":
		return "node"
	case b == "ruby" || b == "perl" || b == "php" || b == "lua" || b == "luajit" || b == "Rscript" || b == "tclsh":
		return "other"
	case b == "uv":
		return "uv"
	}
	return ""
}

// interpreterScript finds the script operand of an interpreter's
// arguments. inline is set when the program is given in the command itself
// (-c, -e); opaque when the interpreter runs a module or reads its program
// from stdin.
func interpreterScript(kind string, args []string) (script string, rest []string, inline *string, opaque string) {
	i := 0
	if kind == "node" && len(args) > 0 && (args[0] == "run" || args[0] == "x") {
		// deno run x.ts, bun run x.ts
		i++
	}
	if kind == "uv" {
		if len(args) == 0 || args[0] != "run" {
			return "", nil, nil, "runs a uv command"
		}
		i++
	}
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], args[i+2:], nil, ""
			}
			return "", nil, nil, ""
		case a == "-" || (kind == "sh" && a == "-s"):
			return "", nil, nil, "reads its program from standard input"
		case kind == "python" && (a == "-m" || strings.HasPrefix(a, "-m") && len(a) > 2):
			return "", nil, nil, "runs a Python module (python -m)"
		case isInlineOpt(kind, a):
			code := ""
			if j := strings.IndexByte(a, '='); j > 0 && strings.HasPrefix(a, "--") {
				code = a[j+1:]
			} else if i+1 < len(args) {
				code = args[i+1]
			}
			return "", nil, &code, ""
		case kind == "uv" && (a == "--with" || a == "--python" || a == "-p" || a == "--project" || a == "--directory" || a == "--env-file" || a == "--with-requirements" || a == "--index" || a == "--extra"):
			i++
		case strings.HasPrefix(a, "-") || (kind == "sh" && strings.HasPrefix(a, "+")):
			if takesArg(kind, a) {
				i++
			}
		default:
			return a, args[i+1:], nil, ""
		}
		i++
	}
	return "", nil, nil, ""
}

// isInlineOpt reports the option that gives an interpreter its program as
// text: sh -c (also clustered: -ec), python -c, node -e/--eval/-p, ruby and
// perl -e.
func isInlineOpt(kind, a string) bool {
	switch kind {
	case "sh":
		return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c")
	case "python":
		return a == "-c"
	case "node":
		return a == "-e" || a == "--eval" || a == "-p" || a == "--print" || strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print=")
	case "other":
		return a == "-e" || a == "-E"
	}
	return false
}

// takesArg reports options of an interpreter that consume the next word.
func takesArg(kind, opt string) bool {
	switch kind {
	case "sh":
		return opt == "-o" || opt == "+o" || opt == "-O" || opt == "+O" || opt == "--rcfile" || opt == "--init-file"
	case "python":
		return opt == "-W" || opt == "-X" || opt == "--check-hash-based-pycs"
	case "node":
		return opt == "-r" || opt == "--require" || opt == "--import" || opt == "--loader" || opt == "--experimental-loader" || opt == "--input-type" || opt == "--env-file" || opt == "-C" || opt == "--conditions" || opt == "--config"
	case "other":
		return opt == "-I" || opt == "-r"
	}
	return false
}

var scriptExts = []string{
	".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua",
	".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".php", ".tcl", ".r", ".awk", ".ps1",
}

func hasScriptExt(s string) bool {
	lower := strings.ToLower(s)
	for _, ext := range scriptExts {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// addScriptArgs pins every further argument that names a script: a word
// (or the value of --opt=word) with a script extension, or a path to an
// executable file. Data arguments (a log file, a rules.yaml) are not
// pinned: they are not code, and a hook may well change them.
func addScriptArgs(t *Target, args []string) {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			_, v, ok := strings.Cut(a, "=")
			if !ok {
				continue
			}
			a = v
		}
		if a == "" {
			continue
		}
		p := absIn(a, t.Dir)
		switch {
		case hasScriptExt(a):
		case strings.Contains(a, "/") && isExecutableFile(p):
		default:
			continue
		}
		if !slices.Contains(t.Files, p) {
			t.Files = append(t.Files, p)
		}
	}
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// absIn makes p absolute against dir.
func absIn(p, dir string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	return filepath.Join(dir, p)
}

// lookPath finds a program the way execvp does with the hook's PATH: a
// name with a slash is taken as is (relative to dir); otherwise every PATH
// entry is tried in order, an empty or relative entry against dir. The
// error is worded as Hermes words it.
func lookPath(name string, env []string, dir string) (string, string) {
	if name == "" {
		return "", "empty command"
	}
	if strings.Contains(name, "/") {
		return absIn(name, dir), ""
	}
	pathVar, _ := getenv(env, "PATH")
	for _, d := range filepath.SplitList(pathVar) {
		if d == "" {
			d = "."
		}
		p := absIn(filepath.Join(d, name), dir)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && accessible(p, true) {
			return p, ""
		}
	}
	return "", "command not found"
}
