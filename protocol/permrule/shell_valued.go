package permrule

import (
	"path"
	"strings"
)

// Names whose value is the shell's own program, whatever the line says:
// `$BASH -c 'rm -rf ~'`, `curl … | "$0"` and `/proc/self/exe -c …` run
// bash (or the user's shell) as surely as `bash` does, but a name only
// known when it runs was followed as an unknown program's, and a path to
// the shell's executable through /proc as the program "exe": neither
// read the command string or the pipe the shell runs.

// shellVars hold the path or name of a shell where an agent runs a
// command line: SHELL the user's login shell, BASH bash's own path, 0
// the shell's name under sh -c (what agents run).
var shellVars = []string{"SHELL", "BASH", "0"}

// byValue follows a command named, w[0], by a shell's value as sh's
// command line (sh -c reads what bash -c does). A variable above is
// followed here, with an operator too (${BASH:-}, ${SHELL%/}), and even
// where the line gives it a value, which the caller lists as well
// (values.go): bash expands $BASH in `BASH=x $BASH -c …` before the
// assignment holds, and one in ( … ) or a branch not taken holds
// nowhere. It stays doubt: the caller then follows the words after it
// too, as for any name known only when it runs, since $BASH is unset in
// zsh, where `$BASH rm -rf ~` runs rm. The executable of
// the shell's own process (/proc/self/exe, /proc/$$/exe) is the shell:
// true, for the caller to follow as sh. A /proc/N/exe of a process named
// by number is some other process's program, and a descriptor's file
// (/dev/fd/3) whatever was opened on it: both stop the analysis.
func (s *shellRuns) byValue(w []shellWord, text string, c shellCommand, depth int) bool {
	name := w[0]
	t := name.text
	if !name.static {
		t = name.script
	}
	switch {
	case !name.static && (shellVar(t) || ownExe(t)):
		s.shell("sh", text, w[1:], c, depth)
	case ownExe(t):
		return true
	case procExe(t):
		s.stopped("`" + clip(text) + "` runs another process's program through /proc, which the analysis cannot name")
	case fdExe(t):
		s.stopped("`" + clip(text) + "` runs a program opened on a file descriptor (exec 3</bin/bash; /dev/fd/3 -c …), which the analysis cannot name")
	}
	return false
}

// shellVar: t is $NAME, ${NAME} or ${NAME…} with an operator (${NAME:-},
// ${NAME%/}) of a shellVars name, nothing else.
func shellVar(t string) bool {
	for _, v := range shellVars {
		if t == "$"+v {
			return true
		}
		rest, ok := strings.CutPrefix(t, "${"+v)
		if ok && strings.HasSuffix(rest, "}") && !strings.Contains(rest[:len(rest)-1], "}") &&
			(rest == "}" || strings.IndexByte(":-=+?%#/^,@", rest[0]) >= 0) {
			return true
		}
	}
	return false
}

// ownExe: t is the executable of the process that opens it, which for a
// command the shell starts is the shell (the kernel resolves the path in
// the shell's child before the exec), or of the shell's own process.
func ownExe(t string) bool {
	p, ok := procPath(t)
	if !ok {
		return false
	}
	switch p {
	case "self", "thread-self", "$$", "${$}", "$BASHPID", "${BASHPID}":
		return true
	}
	return false
}

// procExe: t is /proc/SOMETHING/exe.
func procExe(t string) bool {
	_, ok := procPath(t)
	return ok
}

// procPath is the process part of t when t is /proc/PROCESS/exe, spelled
// as the kernel resolves it (//proc/./self/exe).
func procPath(t string) (string, bool) {
	p, rest, ok := underProc(t)
	return p, ok && rest == "exe"
}

// underProc splits t, a path under /proc spelled as the kernel resolves
// it, into the process it names and what follows that.
func underProc(t string) (proc, rest string, ok bool) {
	if !strings.HasPrefix(t, "/") {
		return "", "", false
	}
	r, ok := strings.CutPrefix(path.Clean(t), "/proc/")
	if !ok {
		return "", "", false
	}
	proc, rest, ok = strings.Cut(r, "/")
	return proc, rest, ok && proc != ""
}

// fdExe: t names a file descriptor's file, /dev/fd/N, /dev/stdin (and
// stdout, stderr) or /proc/PROCESS/fd/N: a command named so runs what
// was opened on it, a shell as easily as anything.
func fdExe(t string) bool {
	if _, rest, ok := underProc(t); ok {
		n, isFd := strings.CutPrefix(rest, "fd/")
		return isFd && n != "" && !strings.Contains(n, "/")
	}
	if !strings.HasPrefix(t, "/") {
		return false
	}
	switch c := path.Clean(t); c {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	default:
		n, ok := strings.CutPrefix(c, "/dev/fd/")
		return ok && n != "" && !strings.Contains(n, "/")
	}
}

// unknownName follows a command whose name, w[0], is only known when it
// runs (c's, at depth): it returns the words to follow next (none:
// nothing more to).
func (s *shellRuns) unknownName(w []shellWord, text string, c shellCommand, depth int) []shellWord {
	s.unsure("`" + clip(text) + "` runs a command whose name is only known when it runs")
	if prog, ok := outputName(w[0]); ok {
		if prog == "" {
			s.stopped("`" + clip(text) + "` runs a command named by a command's output, which the analysis cannot read")
			return nil
		}
		// $(which rm) -rf / runs rm -rf /: followed as that name.
		named := append([]shellWord{{text: prog, static: true}}, w[1:]...)
		if !w[0].split {
			return named
		}
		// Unquoted, a lookup that finds nothing vanishes: $(which zzz)
		// rm -rf / runs rm. Both are followed.
		s.command(shellCommand{words: named, stdin: c.stdin, stdinText: c.stdinText}, depth)
		return w[1:]
	}
	if w[0].given {
		return nil // listed with each value the line gives it (values.go)
	}
	prog, unreadable := tailProgram(w[0])
	if unreadable {
		s.stopped("`" + clip(text) + "` runs a program under a directory a command's output names, split into words, which the analysis cannot read")
		return nil
	}
	if prog != "" {
		// $(npm bin)/eslint, "$D"/rm: the program the line names.
		return append([]shellWord{{text: prog, static: true}}, w[1:]...)
	}
	// The name may expand to nothing (an unset $X, $@, a $(…) that
	// prints nothing vanish unquoted) or to a wrapper (X=sudo): bash then
	// runs the words after it, so they are followed as an unknown
	// wrapper's operands are. Not followed, `$NOPE rm -rf /` listed no rm.
	return w[1:]
}
