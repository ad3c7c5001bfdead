package cmdpin

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// The programs a command starts on its way to its script: wrappers (env,
// nice …) and interpreters (sh, python3 …). One found by bare name on the
// hook's own PATH is the system's (or the user's) and is not pinned: an
// upgrade of python3 must not need every hook approved again. One the
// command line chose itself is as much the hook's code as its script, and a
// repository can change it as easily: `.venv/bin/python3 g.py`,
// `"$CLAUDE_PROJECT_DIR"/bin/sh g.sh`, `env PATH=bin:/usr/bin sh g.sh`
// (a bin/sh planted after approval ran under the old approval).

// maxShellDepth bounds how deeply shell command strings are followed
// (sh -c "sh -c '…'"); deeper ones are approved by their text.
const maxShellDepth = 8

// shellString records what a shell's command string runs: its files, the
// candidates that need not exist, and why it cannot be known, if so.
func shellString(t *Target, code string, env []string, depth int) {
	if depth >= maxShellDepth {
		t.setOpaque("shell command strings nested too deeply")
		return
	}
	sub := resolveShell(Command{Text: code, Shell: true, Env: env, Dir: t.Dir, assigned: t.assigned}, depth+1)
	t.Files = append(t.Files, sub.Files...)
	t.Optional = append(t.Optional, sub.Optional...)
	t.programs = append(t.programs, sub.programs...) // digests cached as the outer command's
	t.setOpaque(sub.Opaque)
	t.setOpaque(sub.Err) // what cannot be resolved cannot be pinned
}

// runsOther reports a program that runs something else: a wrapper, an
// interpreter, a runner of targets or a Windows shell.
func runsOther(base string) bool {
	if _, ok := wrappers()[base]; ok {
		return true
	}
	if _, ok := opaqueRunners()[base]; ok {
		return true
	}
	if kind, _ := winShellKind(base); kind != "" {
		return true
	}
	return interpreterKind(base) != ""
}

// chosenProgram pins path, the program name was resolved to, when the
// command line chose it rather than the hook's environment (name is a path,
// the command sets PATH itself, or the PATH entry it was found through is
// relative) and a repository can write it: it lies in the hook's directory
// or is named relative to it.
func chosenProgram(t *Target, name, path string, env []string) {
	// Only where a repository can write: an absolute path outside the
	// hook's directory (/usr/bin/python3, PATH=/opt/homebrew/bin:$PATH
	// node) is the system's, which an upgrade changes and a repository
	// cannot.
	relative := viaRelativePATH(name, path, env, t.Dir) || hasPathSep(name) && !filepath.IsAbs(name)
	chosen := hasPathSep(name) || slices.Contains(t.assigned, "PATH") || relative
	if chosen && (relative || fsutil.InTree(path, t.Dir)) {
		t.addLoad(path)
		t.programs = append(t.programs, path)
	}
}

// missingProgram pins, as files that need not exist, every place a
// wrapper's program name could be found on PATH: it cannot start now, but
// one planted there later would run under the approval. On Windows, where
// the search also tries each PATHEXT extension and the current directory,
// what it will run is not known.
func missingProgram(t *Target, name string, env []string) {
	if onWindows {
		t.setOpaque("a program it runs is not found, and what will be found later cannot be known")
		return
	}
	for _, d := range pathDirs(env) {
		t.addOptionalLoad(absIn(filepath.Join(d, name), t.Dir))
	}
}

// pathDirs are the directories of the command's PATH in search order; an
// empty entry is the current directory on POSIX, and none on Windows.
func pathDirs(env []string) []string {
	pathVar, _ := Getenv(env, "PATH")
	var dirs []string
	for _, d := range filepath.SplitList(pathVar) {
		if d == "" {
			if onWindows {
				continue
			}
			d = "."
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// viaRelativePATH reports that lookPath found name at path through a
// relative (or, on POSIX, empty) PATH entry, which names a place in the
// hook's directory. The entry is told by the directory the program was
// found in: on Windows the name found has a PATHEXT extension added.
func viaRelativePATH(name, path string, env []string, dir string) bool {
	if hasPathSep(name) {
		return false
	}
	found := filepath.Dir(path)
	for _, d := range pathDirs(env) {
		if absIn(d, dir) == found {
			return !filepath.IsAbs(d)
		}
	}
	return false
}

// testOperands is the first test file and the arguments after it, for
// node --test's arguments after the flag, when every operand names a script
// file (which the caller pins): with none, node finds the test files itself,
// and since node 21 an operand is a glob pattern.
func testOperands(args []string) (string, []string) {
	at := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a != "--" && strings.HasPrefix(a, "-") {
			if takesArg("node", a) {
				i++
			}
			continue
		}
		if a == "--" {
			continue
		}
		if strings.ContainsAny(a, "*?[{") || !hasScriptExt(a) {
			return "", nil
		}
		if at < 0 {
			at = i
		}
	}
	if at < 0 {
		return "", nil
	}
	return args[at], args[at+1:]
}

// shebangHead is how much of a script the kernel reads for its #! line
// (Linux's BINPRM_BUF_SIZE; macOS reads 512, which holds no shorter line).
const shebangHead = 256

// shebangLoads records what a script's #! line loads besides the script:
// the kernel runs `INTERP [ARG] SCRIPT ARGS…`, and that ARG can load code as
// a command line's options do (#!/usr/bin/node --require=./pre.js,
// #!/usr/bin/env -S PYTHONPATH=lib python3). The line itself is part of the
// pinned script; the files it names are pinned here, and what makes a
// command text-only makes the script text-only. The interpreter is pinned
// when it lies in the hook's directory or is named relative to it (the
// kernel takes #!venv/bin/python3 against the working directory), not when
// it is the system's (#!/usr/bin/env is in every script).
func shebangLoads(t *Target, path string, args, env []string, depth int) {
	if onWindows || depth >= maxShellDepth {
		return
	}
	// Not os.Open: a FIFO planted at the program's path would hold up
	// every dispatch (Resolve runs on each); anything but a regular file
	// has no #! line to read.
	f, err := fsutil.OpenRegular(path, os.O_RDONLY, 0)
	if err != nil {
		return
	}
	head := make([]byte, shebangHead)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if n < 2 || string(head[:2]) != "#!" {
		return
	}
	interp, arg, ok := shebangLine(head[:n])
	if !ok {
		if !bytes.ContainsRune(head[:n], '\n') {
			t.setOpaque("its #! line is longer than the kernel reads")
		}
		return
	}
	if !strings.Contains(interp, "/") {
		interp = "./" + interp
	}
	sub := Target{Argv: []string{interp}, Dir: t.Dir, assigned: t.assigned}
	if arg != "" {
		sub.Argv = append(sub.Argv, arg)
	}
	sub.Argv = append(append(sub.Argv, path), args...)
	analyze(&sub, env, false, depth+1)
	flushLoads(&sub)
	system := filepath.IsAbs(interp) && !fsutil.InTree(sub.Path, t.Dir)
	for _, p := range sub.Files {
		if p != path && !(system && p == sub.Path) {
			t.addLoad(p)
			if slices.Contains(sub.programs, p) {
				t.programs = append(t.programs, p)
			}
		}
	}
	t.Optional = append(t.Optional, sub.Optional...)
	if sub.Opaque != "" {
		t.setOpaque("its #! line: " + sub.Opaque)
	}
}

// jvmClasses says why what java runs cannot be pinned: it loads classes by
// name from a class path (java -cp lib Main, a jar's manifest Class-Path),
// agents, or options from the environment. Only a single source file
// (java Hook.java, which addScriptArgs pins) is what it runs.
func jvmClasses(t *Target, base string, args []string) string {
	b := strings.TrimSuffix(strings.ToLower(base), ".exe")
	if b != "java" && b != "javaw" {
		return ""
	}
	for _, n := range []string{"CLASSPATH", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"} {
		if slices.Contains(t.assigned, n) {
			return "it sets " + n + ", from which java loads code"
		}
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			if strings.HasSuffix(a, ".java") {
				return ""
			}
			break
		}
		if a == "--source" || strings.HasPrefix(a, "--source=") || strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-X") || a == "-ea" || a == "-da" || a == "-server" {
			continue
		}
		break
	}
	return "java loads classes by name from its class path, a jar's manifest or an agent"
}
