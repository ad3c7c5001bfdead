package cmdpin

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// What a command runs on Windows, where the rules differ from POSIX: no
// execute bit (a file is a program when its extension is in PATHEXT), `\`
// and drive letters in paths, a case-insensitive environment, ~ from
// %USERPROFILE%, command lines split by CommandLineToArgvW's rules, and
// batch files started through cmd.exe. The code is built everywhere (it is
// plain Go over path/filepath) and taken only when onWindows; its tests run
// under Wine (make test-windows).

// onWindows selects the Windows rules.
const onWindows = runtime.GOOS == "windows"

// defaultPathExt is what Windows uses when PATHEXT is unset.
const defaultPathExt = ".COM;.EXE;.BAT;.CMD"

// defaultComSpec is cmd.exe where COMSPEC does not say.
const defaultComSpec = `C:\Windows\System32\cmd.exe`

// pathExts lists PATHEXT's extensions, lower case, with their dots, from
// env (nil: the process's own environment).
func pathExts(env []string) []string {
	v, ok := Getenv(env, "PATHEXT")
	if !ok || strings.TrimSpace(v) == "" {
		v = defaultPathExt
	}
	var exts []string
	for _, e := range strings.Split(v, ";") {
		if e = strings.ToLower(strings.TrimSpace(e)); e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}

// hasExecExt reports whether name's extension is one of exts.
func hasExecExt(name string, exts []string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext != "" && slices.Contains(exts, ext)
}

// isBatchFile: cmd.exe runs it, not the kernel.
func isBatchFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".cmd" || ext == ".bat"
}

// hasPathSep reports whether a program name is a path rather than a name
// to look up on PATH: it holds a separator or starts with a drive letter.
func hasPathSep(name string) bool {
	if onWindows {
		return strings.ContainsAny(name, `/\`) || filepath.VolumeName(name) != ""
	}
	return strings.Contains(name, "/")
}

func isRegularFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// lookPathWindows finds a program as CreateProcess and cmd.exe do, with the
// hook's environment: a name with an extension in PATHEXT is tried as
// written, any other with each PATHEXT extension appended in turn; a path
// is taken as is (relative to dir), otherwise every non-empty PATH entry
// is tried in order. Unlike cmd.exe, the current directory is not searched
// first: a hook's program comes from PATH or a path, never from whatever
// directory the agent was in (Go's os/exec refuses that too).
func lookPathWindows(name string, env []string, dir string) (string, string) {
	exts := pathExts(env)
	find := func(p string) string {
		if hasExecExt(p, exts) {
			if isRegularFile(p) {
				return p
			}
			return ""
		}
		for _, e := range exts {
			if isRegularFile(p + e) {
				return p + e
			}
		}
		return ""
	}
	if hasPathSep(name) {
		p := absIn(name, dir)
		if f := find(p); f != "" {
			return f, ""
		}
		// Not found: StartProblem names the missing file.
		return p, ""
	}
	pathVar, _ := Getenv(env, "PATH")
	for _, d := range filepath.SplitList(pathVar) {
		if d == "" {
			continue
		}
		if f := find(absIn(filepath.Join(d, name), dir)); f != "" {
			return f, ""
		}
	}
	return "", "command not found"
}

// startScript makes the Target of a script Windows does not start itself
// start its interpreter: a batch file (.cmd, .bat) cmd.exe, the way Windows
// itself runs one, with a command line built by batchCmdLine (an argument
// cmd.exe would read as syntax makes the command refuse to start); a .ps1
// file PowerShell. The script stays Files[0], pinned and checked as a
// script its interpreter reads.
func startScript(t *Target, env []string) {
	if t.Err != "" || t.Path == "" || t.Primary() != t.Path {
		return
	}
	if isPowerShellScript(t.Path) {
		ps, err := powerShell(func(name string) (string, bool) {
			p, err := lookPathWindows(name, env, t.Dir)
			return p, err == ""
		})
		if err != "" {
			t.Err = err
			return
		}
		t.Argv = powerShellFileArgv(ps, t.Path, t.Argv[1:])
		t.Path, t.Direct = ps, false
		return
	}
	if !isBatchFile(t.Path) {
		return
	}
	comspec, ok := Getenv(env, "COMSPEC")
	if !ok || comspec == "" {
		comspec = defaultComSpec
	}
	line, err := batchCmdLine(comspec, t.Path, t.Argv[1:])
	if err != nil {
		t.Err = err.Error()
		return
	}
	t.Argv = append([]string{comspec, "/d", "/s", "/c", t.Path}, t.Argv[1:]...)
	t.Path, t.CmdLine, t.Direct = comspec, line, false
}

// notExecutableProblem words StartProblem's verdict on a file the system
// would not start as a program.
func notExecutableProblem(p string) string {
	if onWindows {
		return p + ": not a program Windows starts (its extension is not in PATHEXT: " +
			strings.ToUpper(strings.Join(pathExts(nil), ";")) + ")"
	}
	return p + ": permission denied: not executable (chmod +x " + p + ")"
}
