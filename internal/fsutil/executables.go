package fsutil

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Executables lists the files of dir whose name want accepts, in name
// order: the executable regular files (symbolic links followed) in files,
// the others in skipped. isDir is false when dir is not a folder (nothing
// is listed); err is the folder's listing error. want sees the name
// without its program extension (TrimProgramExt): on Windows a hook
// folder's PreToolUse.cmd is its PreToolUse. This is the rule for an
// agent's hooks folder where the agent has none of its own
// (agents.DirRule: Cline's on Windows is <Event>.ps1).
func Executables(dir string, want func(name string) bool) (files, skipped []string, isDir bool, err error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, nil, false, nil
	}
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, true, err
	}
	for _, d := range list {
		if !want(TrimProgramExt(d.Name())) {
			continue
		}
		f := filepath.Join(dir, d.Name())
		if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() || !isProgram(d.Name(), fi) {
			skipped = append(skipped, f)
			continue
		}
		files = append(files, f)
	}
	return files, skipped, true, nil
}

// isProgram reports whether the system starts the file named name as a
// program: elsewhere when an execute bit is set; on Windows, which has no
// execute bit, when its extension is one %PATHEXT% lists — the rule
// internal/cmdpin applies to hook commands (fsutil cannot import it).
func isProgram(name string, fi os.FileInfo) bool {
	if runtime.GOOS != "windows" {
		return fi.Mode().Perm()&0o111 != 0
	}
	return programExt(name) != ""
}

// TrimProgramExt is name without the extension that makes it a program on
// Windows (a %PATHEXT% one: PreToolUse.cmd → PreToolUse); elsewhere, and
// for any other name, name itself.
func TrimProgramExt(name string) string {
	if runtime.GOOS != "windows" {
		return name
	}
	return strings.TrimSuffix(name, programExt(name))
}

// programExt is name's extension when %PATHEXT% lists it (Windows'
// default list when it is unset), else "".
func programExt(name string) string {
	ext := filepath.Ext(name)
	if ext == "" || ext == name {
		return ""
	}
	list := os.Getenv("PATHEXT")
	if strings.TrimSpace(list) == "" {
		list = ".COM;.EXE;.BAT;.CMD"
	}
	for _, e := range strings.Split(list, ";") {
		e = strings.TrimSpace(e)
		if e != "" && !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		if e != "" && strings.EqualFold(e, ext) {
			return ext
		}
	}
	return ""
}
