package cmdpin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// What a word list runs: builtins, wrappers, interpreters, PATH.

// shellBuiltins are the utilities /bin/sh runs itself; a command made of
// one of them starts no file.
var shellBuiltins = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"alias": true, "bg": true, "cd": true, "command": true, "echo": true, "eval": true,
		"exec": true, "exit": true, "export": true, "false": true, "fc": true, "fg": true,
		"getopts": true, "hash": true, "jobs": true, "kill": true, "local": true, "printf": true,
		"pwd": true, "read": true, "readonly": true, "return": true, "set": true, "shift": true,
		"test": true, "[": true, "times": true, "trap": true, "true": true, "type": true,
		"ulimit": true, "umask": true, "unalias": true, "unset": true, "wait": true, ":": true,
		".": true, "source": true, "break": true, "continue": true,
	}
})

// wrapOpts is a wrapper's options as getopt reads them: short flags, short
// options with a value (attached or the next word), and long ones
// (" name "), with and without a value. An option not listed makes what the
// wrapper runs unknown: whether it takes a value decides which word is the
// command (env -iu FOO sh g.sh runs sh, not FOO).
type wrapOpts struct {
	flags, args         string
	longFlags, longArgs string
}

// wrappers run the command that follows their own options (GNU coreutils'
// and util-linux's option tables).
var wrappers = sync.OnceValue(func() map[string]wrapOpts {
	return map[string]wrapOpts{
		"env": {flags: "0iv", args: "uCSa",
			longFlags: " ignore-environment null debug block-signal default-signal ignore-signal list-signal-handling ",
			longArgs:  " unset chdir split-string argv0 "},
		"nice":    {flags: "0123456789", args: "n", longArgs: " adjustment "},
		"nohup":   {},
		"timeout": {flags: "v", args: "sk", longFlags: " preserve-status foreground verbose ", longArgs: " signal kill-after "},
		"stdbuf":  {args: "ioe", longArgs: " input output error "},
		"ionice":  {flags: "t", args: "cnpPu", longArgs: " class classdata pid pgid uid "},
		"setsid":  {flags: "cfw", longFlags: " ctty fork wait "},
		"time":    {flags: "pvaq", args: "fo", longFlags: " portability verbose append quiet ", longArgs: " format output "},
		"chrt":    {flags: "abdfiorRmpve", args: "TPD", longFlags: " all-tasks batch deadline fifo idle other rr reset-on-fork max pid verbose ", longArgs: " sched-runtime sched-period sched-deadline "},
		"taskset": {flags: "acp", longFlags: " all-tasks cpu-list pid "},
	}
})

// commandRunners run a command named by their operands, with options not
// read here: the files they name are pinned as arguments are, and the
// command is approved by its text, since which word starts what is not
// known (flock L bash hook ran an unpinned hook).
var commandRunners = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`flock strace ltrace valgrind nsenter unshare systemd-run firejail bwrap
		pkexec fakeroot eatmydata nocache catchsegv torsocks proxychains proxychains4 xvfb-run unbuffer
		caffeinate arch prlimit cpulimit dbus-run-session numactl cgexec runcon setpriv chpst sandbox-exec
		gosu su-exec tmux screen at batch dtach abduco daemonize start-stop-daemon systemd-inhibit sshpass
		watch parallel sem chroot su runuser sg script faketime perf gdb chronic toybox`) {
		m[n] = true
	}
	return m
})

// opaqueRunners run something named indirectly (a target, a module, a
// package): the file that runs cannot be known from the command.
var opaqueRunners = sync.OnceValue(func() map[string]string {
	m := map[string]string{
		"make": "runs a make target", "gmake": "runs a make target", "just": "runs a just recipe",
		"task": "runs a task target", "npm": "runs an npm script", "npx": "runs an npm package",
		"pnpm": "runs a pnpm script", "yarn": "runs a yarn script", "bunx": "runs a package",
		"pipx": "runs a pip package", "cargo": "runs a cargo target", "go": "runs a go command",
		"gradle": "runs a gradle task", "mvn": "runs a maven goal", "rake": "runs a rake task",
		"xargs": "runs commands built from its input", "sudo": "runs a command as another user",
		"doas": "runs a command as another user", "ssh": "runs a command on another host",
		"docker": "runs a container", "podman": "runs a container", "eval": "evaluates text",
	}
	// What a project's own files define: a script entry or task (pyproject,
	// Pipfile and its .env, tasks.py, noxfile.py, tox.ini, mise.toml …), a
	// Gemfile (Ruby code), an .envrc (shell code), a build (Package.swift,
	// build.zig, flake.nix, SConstruct …) or the hooks a config names.
	for _, n := range strings.Fields(`poetry pipenv pdm hatch rye pixi uvx bundle pre-commit tox nox invoke inv
		direnv mise dotnet swift zig nix composer mix lein sbt scons ant bazel bazelisk ninja devbox lefthook
		foreman honcho turbo nx`) {
		m[n] = "runs what the project's own files define (" + n + ")"
	}
	return m
})

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
		if shell && first && shellBuiltins()[name] && !strings.Contains(name, "/") {
			var done bool
			if argv, done = shellBuiltin(t, argv, env, depth); done {
				return
			}
			continue
		}
		path, err := lookPath(name, env, t.Dir)
		if err != "" {
			if first {
				t.Err = err
				return
			}
			// A wrapper's program that cannot be found fails now, but one
			// that appears later where the wrapper looks would run.
			missingProgram(t, name, env)
			return
		}
		if first {
			t.Path = path
			first = false
		}
		base := filepath.Base(path)
		if runsOther(base) {
			// A wrapper or interpreter the command chose itself (by a
			// path, or through a PATH it sets) is code of the hook.
			chosenProgram(t, name, path, env)
		}
		if opts, ok := wrappers()[base]; ok {
			rest, envs, opaque := skipWrapper(base, argv[1:], opts)
			if opaque != "" {
				t.Opaque = opaque
				return
			}
			if base == "env" && len(envs) > 0 {
				env = append(slices.Clip(env), envs...)
				envLoads(t, envs)
			}
			if len(rest) == 0 || rest[0] == argv[0] {
				return
			}
			argv = rest
			continue
		}
		if why, ok := opaqueRunners()[base]; ok && !runsFileDirectly(base, argv[1:]) {
			t.Opaque = why
			return
		}
		if kind, pwsh := winShellKind(base); kind != "" {
			// cmd /c X, powershell -File X: what X runs.
			if argv = analyzeWinShell(t, kind, pwsh, argv, env); argv != nil {
				continue
			}
			return
		}
		if kind := interpreterKind(base); kind != "" {
			interpLoads(t, kind, base, argv[1:])
			script, rest, inline, opaque := interpreterScript(kind, argv[1:])
			switch {
			case opaque == stdinOpaque:
				t.Opaque, t.stdinProg = opaque, true
				return
			case opaque != "":
				t.Opaque = opaque
				return
			case inline != nil:
				if kind == "sh" {
					// sh -c 'CODE': what CODE runs is what runs, however
					// deeply such strings nest (sh -c "bash -c 'sh g.sh'").
					shellString(t, *inline, env, depth)
				}
				// python3 -c '…', node -e '…': the code is in the text.
				return
			case script == "":
				// A bare interpreter reads its program from stdin, which
				// carries the payload: it runs nothing of its own (unless
				// the shell redirects a file there: resolveShell).
				t.stdinProg = kind != "uv"
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
		if commandRunners()[base] && !(hasPathSep(argv[0]) && fsutil.InTree(path, t.Dir)) {
			// (a hook's own ./watch, named by its path, is no runner)
			t.setOpaque(base + " runs a command with options this analysis does not read")
		}
		if why := jvmClasses(t, base, argv[1:]); why != "" {
			t.setOpaque(why)
		}
		// The program itself is the hook.
		t.Files = append(t.Files, path)
		t.Direct = path == t.Path
		addScriptArgs(t, argv[1:])
		programFileLoads(t, base, argv[1:])
		shebangLoads(t, path, argv[1:], env, depth)
		return
	}
}

// shellBuiltin handles a command of the shell's own (analyze, through
// /bin/sh): `exec x` and `command x` go on with x (next), `. f` and
// `source f` run f in the shell, eval is opaque, and any other builtin's
// words are all it does (done).
func shellBuiltin(t *Target, argv, env []string, depth int) (next []string, done bool) {
	switch argv[0] {
	case "trap":
		// trap ACTION SIGNAL…: the shell runs ACTION, a command string, at
		// exit or on the signal (trap './g.sh' EXIT).
		t.Shell = true
		if action, ok := trapAction(argv[1:]); ok {
			shellString(t, action, env, depth)
		}
		return nil, true
	case "exec", "command":
		// `exec x` and `command x` run x, with x as its argv[0]:
		// the builtin's own word is not part of what starts.
		var builtinOnly bool
		if argv, builtinOnly = skipBuiltin(t, argv); builtinOnly {
			t.Shell = true
			return nil, true
		}
		t.Argv = argv
		return argv, false
	case ".", "source":
		t.Shell = true
		if len(argv) > 1 {
			t.Files = append(t.Files, absIn(argv[1], t.Dir))
			addScriptArgs(t, argv[2:])
		}
		return nil, true
	case "eval":
		t.Shell, t.Opaque = true, opaqueRunners()["eval"]
		return nil, true
	}
	// A builtin with fixed words: the text is all it does.
	t.Shell = true
	return nil, true
}

// trapAction is the command string a trap sets, if it sets one: not for
// trap -p / -l (they list), trap - SIG and trap ” SIG (reset, ignore), or
// a first operand that is a number (POSIX: all operands are then signals to
// reset).
func trapAction(args []string) (string, bool) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		return "", false
	}
	if len(args) < 2 || args[0] == "-" || strings.TrimSpace(args[0]) == "" || strings.Trim(args[0], "0123456789") == "" {
		return "", false
	}
	return args[0], true
}

// interpreterKind names the interpreter family of a program file name.
// On Windows, names are case-insensitive, and py (the Python launcher:
// py x.py, py -3 x.py) and pythonw are Python.
func interpreterKind(base string) string {
	if onWindows {
		base = strings.ToLower(base)
		switch strings.TrimSuffix(base, ".exe") {
		case "py", "pyw", "pythonw":
			return "python"
		case "rscript":
			return "other"
		}
	}
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
			return "", nil, nil, stdinOpaque
		case kind == "python" && (a == "-m" || strings.HasPrefix(a, "-m") && len(a) > 2):
			return "", nil, nil, "runs a Python module (python -m)"
		case kind == "node" && (a == "--run" || strings.HasPrefix(a, "--run=")):
			return "", nil, nil, "runs a package.json script (node --run)"
		case kind == "node" && a == "--test":
			// node --test runs the files it finds (or whose glob pattern
			// it is given), not one script.
			if script, rest := testOperands(args[i+1:]); script != "" {
				return script, rest, nil, ""
			}
			return "", nil, nil, "runs the test files it finds (node --test)"
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
		return opt == "-r" || opt == "--require" || opt == "--import" || opt == "--loader" || opt == "--experimental-loader" || opt == "--input-type" || opt == "--env-file" || opt == "-C" || opt == "--conditions" || opt == "--config" ||
			opt == "--preload" || opt == "--test-reporter" || opt == "--test-reporter-destination" || opt == "--snapshot-blob" || opt == "--openssl-config"
	case "other":
		return opt == "-I" || opt == "-r"
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
		case hasPathSep(a) && isExecutableFile(p):
		default:
			continue
		}
		if !t.idx().files.contains(t.Files, p) {
			t.Files = append(t.Files, p)
		}
	}
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	if onWindows {
		return err == nil && fi.Mode().IsRegular() && hasExecExt(p, pathExts(nil))
	}
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
	if onWindows {
		return lookPathWindows(name, env, dir)
	}
	if strings.Contains(name, "/") {
		return absIn(name, dir), ""
	}
	for _, d := range pathDirs(env) {
		p := absIn(filepath.Join(d, name), dir)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && Accessible(p, true) {
			return p, ""
		}
	}
	return "", "command not found"
}

// SameCommand reports whether two command strings run the same thing: equal,
// or equal once split into words with "~" expanded. It lets people type a
// command as their shell expands it (hermes-hooks approve ~/h.sh arrives as
// /home/me/h.sh) and still name the config's "~/h.sh".
func SameCommand(a, b string) bool {
	if a == b {
		return true
	}
	wa, errA := splitWords(a, nil)
	wb, errB := splitWords(b, nil)
	if errA != "" || errB != "" || len(wa) != len(wb) {
		return false
	}
	for i := range wa {
		if wa[i] != wb[i] {
			return false
		}
	}
	return true
}
