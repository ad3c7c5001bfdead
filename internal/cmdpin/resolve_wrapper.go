package cmdpin

import (
	"strings"

	"github.com/google/shlex"
)

// What runs behind a wrapper (env, nice, timeout …) or a shell builtin that
// runs its operand (exec, command).

// skipWrapper returns the command a wrapper runs and, for env, the
// variables it sets. opaque says why the command cannot be told from the
// words (an option not in the wrapper's table, env -S with escapes or
// ${VAR}, env -C).
func skipWrapper(name string, args []string, o wrapOpts) (rest, envs []string, opaque string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:], envs, ""
		case name == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			envs = append(envs, a)
			continue
		case name == "env" && a == "-":
			// A lone "-" is -i.
			continue
		case name == "env" && isSplitString(a):
			// env -S 'sh g.sh' runs the words of its string, then the
			// arguments after it.
			s, ok := splitStringValue(a)
			if !ok {
				if i+1 >= len(args) {
					return nil, envs, ""
				}
				i++
				s = args[i]
			}
			words, why := splitEnvString(s)
			if why != "" {
				return nil, envs, why
			}
			more, moreEnvs, why := skipWrapper(name, append(words, args[i+1:]...), o)
			return more, append(envs, moreEnvs...), why
		case name == "env" && (a == "-C" || a == "--chdir" || strings.HasPrefix(a, "--chdir=") || strings.HasPrefix(a, "-C")):
			return nil, envs, "env -C runs its command in another directory"
		case !strings.HasPrefix(a, "-") || a == "-":
			// The first operand: timeout's duration, chrt's priority and
			// taskset's mask come before the command.
			switch name {
			case "timeout", "chrt", "taskset":
				return args[i+1:], envs, ""
			}
			return args[i:], envs, ""
		}
		next, ok := wrapperOption(o, args, i)
		if !ok {
			return nil, envs, name + " option " + a + " is not one this analysis reads"
		}
		i = next
	}
	return nil, envs, ""
}

// wrapperOption reads the option word args[i] (a cluster of short options,
// or a long one) by o, and returns the index of its last word (the next one
// when it takes its value from there), or ok=false for an option not in o.
func wrapperOption(o wrapOpts, args []string, i int) (int, bool) {
	a := args[i]
	if long, ok := strings.CutPrefix(a, "--"); ok {
		name, _, hasVal := strings.Cut(long, "=")
		switch {
		case strings.Contains(o.longFlags, " "+name+" "):
			return i, true
		case strings.Contains(o.longArgs, " "+name+" "):
			if !hasVal {
				return i + 1, true
			}
			return i, true
		case name != "" && strings.Trim(name, "0123456789") == "" && o.flags == "0123456789":
			// nice --5: the obsolete -ADJUSTMENT form.
			return i, true
		}
		return i, false
	}
	for j := 1; j < len(a); j++ {
		switch c := a[j]; {
		case strings.IndexByte(o.args, c) >= 0:
			if j+1 == len(a) {
				return i + 1, true
			}
			return i, true
		case c == '-' && j == 1 && o.flags == "0123456789":
			// nice --N (negative adjustment), as above.
		case strings.IndexByte(o.flags, c) < 0:
			return i, false
		}
	}
	return i, true
}

// stdinOpaque is why an interpreter told to read its program from standard
// input (sh -s, python3 -) runs what cannot be known, unless the shell
// redirects a file there.
const stdinOpaque = "reads its program from standard input"

// skipBuiltin skips `exec` or `command` and their options, and reports
// when the builtin runs nothing (command -v, -V: it only looks the name
// up). An option other than -p makes the shell necessary to start it as
// written (exec -a NAME sets argv[0]; exec -c clears the environment).
func skipBuiltin(t *Target, argv []string) ([]string, bool) {
	builtin := argv[0]
	argv = argv[1:]
	for len(argv) > 0 && strings.HasPrefix(argv[0], "-") && argv[0] != "-" {
		o := argv[0]
		argv = argv[1:]
		switch {
		case o == "--":
			return argv, false
		case builtin == "command" && strings.ContainsAny(o, "vV"):
			return nil, true
		case builtin == "exec" && o == "-a" && len(argv) > 0:
			argv = argv[1:]
			t.viaShell = true
		case o != "-p":
			t.viaShell = true
		}
	}
	return argv, len(argv) == 0
}

// isSplitString reports env's -S / --split-string option, alone or with
// its value attached (-S'sh g', -vS…, --split-string=…).
func isSplitString(a string) bool {
	if a == "--split-string" || strings.HasPrefix(a, "--split-string=") {
		return true
	}
	if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
		return false
	}
	// A cluster of flags without values (-i, -0, -v) ending in S.
	flags, _, ok := strings.Cut(a[1:], "S")
	return ok && strings.Trim(flags, "i0v") == ""
}

// splitStringValue is the value attached to -S / --split-string, if any.
func splitStringValue(a string) (string, bool) {
	if v, ok := strings.CutPrefix(a, "--split-string="); ok {
		return v, true
	}
	if strings.HasPrefix(a, "--") {
		return "", false
	}
	_, v, _ := strings.Cut(a, "S")
	return v, v != ""
}

// splitEnvString splits env -S's string into words. Quotes are read as
// env reads them; a backslash escape, ${VAR} or a # comment is env's own
// language, which is not reproduced here: such a string makes the command
// opaque rather than guessed.
func splitEnvString(s string) ([]string, string) {
	if strings.ContainsAny(s, "\\$#") {
		return nil, "env -S string with escapes, ${VAR} or a comment: what it runs is decided when it runs"
	}
	words, err := shlex.Split(s)
	if err != nil {
		return nil, "env -S string cannot be split into words: " + shlexReason(err)
	}
	return words, ""
}
