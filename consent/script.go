package consent

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/google/shlex"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// scriptExtensions are the suffixes that mark a token as the script an
// interpreter runs, so that "python3 hook.py" resolves to hook.py and not to
// the interpreter.
var scriptExtensions = []string{
	".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua",
	".js", ".mjs", ".cjs", ".ts",
}

// scriptPath returns the token of command that names the hook's script, as
// Hermes resolves it: the first token ending in a script extension
// (case-insensitive), else the first token containing "/" or starting with
// "~", else the first token. A command the tokenizer cannot split (or an
// empty one) is returned unchanged. The result is not expanded; see
// scriptFile.
func scriptPath(command string) string {
	tokens, err := splitCommand(command)
	if err != nil || len(tokens) == 0 {
		return command
	}
	for _, tok := range tokens {
		lower := strings.ToLower(tok)
		for _, ext := range scriptExtensions {
			if strings.HasSuffix(lower, ext) {
				return tok
			}
		}
	}
	for _, tok := range tokens {
		if isPathToken(tok) {
			return tok
		}
	}
	return tokens[0]
}

// isPathToken: the token holds a "/" or starts with "~"; on Windows also a
// "\" or a drive letter, while a leading "/" alone is a switch there
// (cmd /c), not a path.
func isPathToken(tok string) bool {
	if strings.HasPrefix(tok, "~") {
		return true
	}
	if onWindows {
		return strings.Contains(tok, `\`) || filepath.VolumeName(tok) != "" ||
			len(tok) > 1 && strings.Contains(tok[1:], "/")
	}
	return strings.Contains(tok, "/")
}

// onWindows: commands are split by Windows' rules, where a backslash is a
// path separator, not an escape (as cmdpin splits them there).
const onWindows = runtime.GOOS == "windows"

// splitCommand splits a command into words: POSIX words (Hermes' shlex),
// or on Windows as a Windows program reads its command line.
func splitCommand(command string) ([]string, error) {
	if onWindows {
		return cmdpin.WindowsArgs(command), nil
	}
	return shlex.Split(command)
}

// scriptFile locates the hook's script on disk: scriptPath(command) with a
// leading "~" replaced by the home directory (vars["HOME"] when present,
// else $HOME), "$NAME" and "${NAME}" replaced for names present in vars
// (the dispatcher passes CLAUDE_PROJECT_DIR this way; other variables are
// left alone because the hook's environment is not known here), and a
// relative result joined to dir (the process's working directory when dir
// is empty).
func scriptFile(command string, vars map[string]string, dir string) string {
	return locate(scriptPath(command), vars, dir)
}

// locate expands and anchors a scriptPath token; see scriptFile.
func locate(token string, vars map[string]string, dir string) string {
	// Tilde first, as a shell does, so that a variable's value is never
	// tilde-expanded.
	p := expandVars(expandHome(token, vars), vars)
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return p
		}
		dir = wd
	}
	return filepath.Join(dir, p)
}

// Executable reports whether the hook's script can run, by the rule of
// Hermes' doctor: the located script must be an existing regular file; when
// it is the command's first token it must be executable, when an
// interpreter comes first it only needs to be readable. A bare command found
// through PATH (my-binary) is therefore not executable unless a file of
// that name exists in dir, as in Hermes.
func executable(command string, vars map[string]string, dir string) bool {
	path := scriptFile(command, vars, dir)
	if path == "" {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	first := true
	if tokens, err := splitCommand(command); err == nil && len(tokens) > 0 {
		first = tokens[0] == scriptPath(command)
	}
	return cmdpin.Accessible(path, first)
}

// expandHome replaces a leading "~" or "~/" with the home directory. Other
// forms ("~user") are left as written: resolving other users' homes is not
// worth a dependency on the user database for a path heuristic.
func expandHome(p string, vars map[string]string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") && !(onWindows && strings.HasPrefix(p, `~\`)) {
		return p
	}
	home, ok := vars["HOME"]
	if !ok {
		home = os.Getenv("HOME")
	}
	if home == "" && onWindows {
		home = os.Getenv("USERPROFILE") // as Python's expanduser there
	}
	if home == "" {
		return p
	}
	return home + p[1:]
}

// expandVars replaces $NAME and ${NAME} for the names in vars and leaves
// every other "$" sequence as written.
func expandVars(s string, vars map[string]string) string {
	if len(vars) == 0 {
		return s
	}
	return shquote.Expand(s, func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
}
