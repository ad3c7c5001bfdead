package permrule

import (
	"regexp"
	"strings"
	"sync"
)

// Programs with a syntax of their own for running commands: find -exec,
// awk's system(), sed's e, make -f -, git's options and aliases,
// interpreters' inline code, and the programs of ownCommands (tar
// --to-command, vim -c '!…' …). A program file or script they run is as
// opaque as any binary.

// program follows the program named base, where it is one of these.
func (s *shellRuns) program(base, text string, args []shellWord, c shellCommand, depth int) {
	switch programOf(base) {
	case "find":
		s.find(text, args, c, depth)
	case "awk":
		s.awk(text, args)
	case "sed":
		s.sed(text, args)
	case "git":
		s.git(text, args, c, depth)
	case "make":
		if makefileFromInput(args) {
			s.unsure("`" + clip(text) + "` runs a makefile read from its input")
		}
	default:
		if lang := interpreter(base); lang != nil {
			s.interpreted(*lang, text, args, c)
		}
		if marks, ok := ownCommands()[base]; ok && ownCommand(marks, args) {
			s.unsure("`" + clip(text) + "` can run a command of its own, given in a syntax this analysis does not read")
		}
		if sub, ok := strings.CutPrefix(base, "git-"); ok && sub != "" {
			// /usr/lib/git-core/git-push is git push.
			s.addForm(joinWords(append([]shellWord{{text: "git", static: true}, {text: sub, static: true}}, args...)))
		}
	}
}

// programOf is the program of this file that base is, by the name program
// follows it under (gawk is awk), "" for none of them.
func programOf(base string) string {
	switch base {
	case "find", "git":
		return base
	case "awk", "gawk", "mawk", "nawk":
		return "awk"
	case "sed", "gsed":
		return "sed"
	case "make", "gmake":
		return "make"
	}
	return ""
}

// find runs the words after -exec, -execdir, -ok and -okdir, up to ; or +.
// {} as the command word (or a wrapper's) runs each file found: doubt.
func (s *shellRuns) find(text string, args []shellWord, c shellCommand, depth int) {
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			if !args[i].static && strings.Contains(args[i].text, "exec") {
				s.unsure("`" + clip(text) + "` has a find action only known when it runs")
			}
			continue
		}
		j := i + 1
		// ; ends the command; + only right after {} (GNU find), so
		// `-exec rm + -rf x ;` runs rm with + -rf x.
		for j < len(args) && !(args[j].static && (args[j].text == ";" || args[j].text == "+" && j > i+1 && args[j-1].static && args[j-1].text == "{}")) {
			j++
		}
		cmd := args[i+1 : j]
		if len(cmd) > 0 && strings.Contains(cmd[0].text, "{}") {
			s.unsure("`" + clip(text) + "` runs the files it finds")
		}
		// A file found is a word only known when find runs, wherever it
		// goes: env {} -rf x runs each file found.
		cmd = filledAtRun(cmd, "{}")
		s.command(shellCommand{words: cmd, stdin: c.stdin, stdinText: c.stdinText}, depth)
		i = j
	}
}

// awk's program runs commands through system(), and through pipes to and
// from strings ("cmd" | getline, print | "cmd"): a program with either, or
// one only known when it runs, is doubt; a program file is opaque.
func (s *shellRuns) awk(text string, args []shellWord) {
	spec := optSpec{flags: "bcCgMNOPrstSVyhDLo", args: "FvfEeilW",
		longFlags: " characters-as-bytes traditional copyright gen-pot help lint-old bignum use-lc-numeric non-decimal-data optimize posix re-interval no-optimize sandbox lint version pretty-print debug dump-variables profile ",
		longArgs:  " field-separator assign file exec source include load "}
	opts, rest, ok := parseOpts(args, spec, false)
	if !ok {
		s.unsure("`" + clip(text) + "` passes awk options this analysis does not read")
		return
	}
	var programs []option
	fromFile := false
	for _, o := range opts {
		switch o.name {
		case "e", "--source":
			programs = append(programs, o)
		case "f", "E", "--file", "--exec":
			fromFile = true
			if !o.static || readsStdin(o.value) {
				s.unsure("`" + clip(text) + "` runs an awk program read from standard input or a descriptor")
				return
			}
		}
	}
	if len(programs) == 0 && !fromFile && len(rest) > 0 {
		programs = append(programs, option{value: rest[0].text, static: rest[0].static})
	}
	for _, p := range programs {
		if !p.static || strings.Contains(p.value, "system") || strings.Contains(p.value, "|") {
			s.unsure("`" + clip(text) + "` runs an awk program that can start commands (system() or a pipe)")
			return
		}
	}
}

// sed: GNU sed's e command and s///e flag run a command; a script read
// from the input or a descriptor is not known. Doubt when the script may
// hold either (sedRuns), or is not on the line; --sandbox refuses both.
func (s *shellRuns) sed(text string, args []shellWord) {
	opts, rest, ok := parseOpts(args, optSpec{flags: "nrEsuzi", args: "efl", optional: "i",
		longFlags: " quiet silent debug posix regexp-extended separate unbuffered null-data sandbox follow-symlinks in-place ",
		longArgs:  " expression file line-length "}, true)
	if !ok {
		s.unsure("`" + clip(text) + "` passes sed options this analysis does not read")
		return
	}
	var scripts []shellWord
	inline := false
	for _, o := range opts {
		switch o.name {
		case "--sandbox":
			return
		case "e", "--expression":
			inline = true
			scripts = append(scripts, o.word())
		case "f", "--file":
			inline = true
			if !o.static || readsStdin(o.value) {
				s.unsure("`" + clip(text) + "` runs a sed script read from its input")
				return
			}
		}
	}
	if !inline && len(rest) > 0 {
		scripts = append(scripts, rest[0])
	}
	for _, sc := range scripts {
		if !sc.static || sedRuns().MatchString(sc.text) {
			s.unsure("`" + clip(text) + "` runs a sed script that can run commands (e)")
			return
		}
	}
}

// sedRuns matches an e where a sed script can hold its e command (after
// an address or a separator: 1e cmd, $e, ;e) or the s command's e flag
// (s/x/y/e, /ge, /pe): an e after no letter, or after a / and s flags.
// Loose on purpose (/^error/ matches): a false doubt only runs the hook.
var sedRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^A-Za-z]|/[gpIiMmw0-9]*)e`) })

// makefileFromInput: make -f - (or -f /dev/stdin, --file=…) reads its
// makefile, whose recipes run, from its input; a name only known when it
// runs may be that too. The words are scanned, not parsed: make's other
// options (-j$(nproc), --jobs=4) do not hide it.
func makefileFromInput(args []shellWord) bool {
	for i, a := range args {
		v, ok := "", false
		switch t := a.text; {
		case !a.static:
			continue
		case t == "-f" || t == "--file" || t == "--makefile":
			if ok = i+1 < len(args); ok {
				v, ok = args[i+1].text, args[i+1].static
				if !ok {
					return true
				}
			}
		case strings.HasPrefix(t, "--file=") || strings.HasPrefix(t, "--makefile="):
			_, v, ok = strings.Cut(t, "=")
		case strings.HasPrefix(t, "-f"):
			v, ok = t[2:], true
		}
		if ok && readsStdin(v) {
			return true
		}
	}
	return false
}

// ownCommands are programs that run a command of their own given in an
// argument, in a syntax not read here (tar --to-command=CMD, sqlite3
// '.shell CMD', vim -c '!CMD', npx -c CMD): an argument that holds one of
// these marks, or is only known when it runs, is doubt. ed reads its
// commands (! runs one) from its input: always doubt.
var ownCommands = sync.OnceValue(func() map[string][]string {
	vim := []string{"-c", "+", "--cmd", "-S"}
	return map[string][]string{
		"tar":   {"--to-command", "--checkpoint-action", "--use-compress-program", "-I", "--info-script", "--new-volume-script", "-F", "--rsh-command"},
		"split": {"--filter"}, "zip": {"-TT", "--unzip-command"},
		"npx": {"-c", "--call"}, "npm": {"-c", "--call"}, "pnpm": {"-c", "--call"},
		"sqlite3": {".shell", ".system"},
		"vim":     vim, "vi": vim, "nvim": vim, "ex": vim, "view": vim, "vimdiff": vim,
		"rsync": {"-e", "--rsh", "--rsync-path"},
		"sort":  {"--compress-program"}, "rg": {"--pre"},
		"sdiff": {"--diff-program"}, "diff3": {"--diff-program"},
		"scp": {"-S"}, "wget": {"--use-askpass"},
		"ed": {""}, "red": {""},
	}
})

// ownCommand: args hold one of marks, or a word only known when it runs.
// A mark -x is that option, its value attached or not (-xVALUE, not
// --xyz); --x is that option, or --x=VALUE; + starts a word; any other
// mark is looked for anywhere in a word (sqlite3 'select 1; .shell …').
func ownCommand(marks []string, args []shellWord) bool {
	for _, a := range args {
		if !a.static {
			return true
		}
		for _, m := range marks {
			t := a.text
			switch {
			case strings.HasPrefix(m, "--"):
				// getopt_long takes any unambiguous start of a long
				// option (git rebase --exe=CMD, tar --to-com=CMD).
				if name, _, _ := strings.Cut(t, "="); len(name) > 3 && strings.HasPrefix(m, name) {
					return true
				}
			case len(m) == 2 && m[0] == '-':
				// A short option, alone or in a group (rsync -avze CMD).
				if len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t, m[1]) > 0 {
					return true
				}
			case strings.HasPrefix(m, "-"):
				if strings.HasPrefix(t, m) && !strings.HasPrefix(t, "--") {
					return true
				}
			case m == "+":
				if strings.HasPrefix(t, "+") {
					return true
				}
			case strings.Contains(t, m):
				return true
			}
		}
	}
	return len(args) == 0 && len(marks) == 1 && marks[0] == ""
}

// programVar: a variable naming a command or code a program started
// after it runs (git's diff, pager and ssh commands, an editor, a pager,
// LD_PRELOAD, NODE_OPTIONS=--require …).
func programVar(name string) bool {
	switch name {
	case "GIT_EXTERNAL_DIFF", "GIT_ALLOW_PROTOCOL", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
		"GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "SSH_ASKPASS",
		"EDITOR", "VISUAL", "PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "BROWSER", "LD_PRELOAD", "LD_LIBRARY_PATH",
		"LD_AUDIT", "NODE_OPTIONS", "PERL5OPT", "PERL5LIB", "RUBYOPT", "PYTHONSTARTUP", "PYTHONPATH", "JAVA_TOOL_OPTIONS":
		return true
	}
	return strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// language is an interpreter of another language: code given inline, or
// read from standard input, cannot be analysed here, and is doubt; a
// program file is as opaque as any binary.
type language struct {
	inline     string // short options whose value is code (python -c)
	inlineLong string // " name ": long options whose value is code
	args       string // short options with a value (python -m, -W)
	longArgs   string
	// code reports an option's value that is code after all (python -m
	// code reads it from the input, perl -M'x;system(…)', node --import
	// data:…); nil: none is.
	code func(opt, value string) bool
}

// interpreter returns the language of a program name, versions stripped
// (python3.12, perl5.36, luajit).
func interpreter(base string) *language {
	var l language
	switch strings.TrimRight(base, "0123456789.") {
	case "python", "pypy":
		l = language{inline: "c", args: "WXm", code: func(opt, v string) bool {
			return opt == "m" && (v == "code" || v == "asyncio" || v == "timeit")
		}}
	case "perl":
		l = language{inline: "eE", args: "IMmx", code: func(opt, v string) bool {
			return (opt == "M" || opt == "m") && strings.ContainsAny(v, ";(){}'\" \t\n")
		}}
	case "ruby", "jruby":
		l = language{inline: "e", args: "ICErFx"}
	case "node", "nodejs":
		l = language{inline: "ep", inlineLong: " eval print ", args: "r", longArgs: " require import loader experimental-loader input-type conditions title env-file ",
			code: func(opt, v string) bool { return opt != "--title" && strings.HasPrefix(v, "data:") }}
	case "php":
		l = language{inline: "rBRE", args: "cdfzt"}
	case "lua", "luajit", "Rscript", "R", "osascript":
		l = language{inline: "e", args: "l"}
	case "expect":
		l = language{inline: "c", args: "Df"}
	case "tclsh", "wish", "irb", "jshell", "ghci", "julia", "guile", "racket", "sbcl", "clisp", "ocaml", "swipl", "erl", "elixir", "iex", "scala", "kotlin", "groovy":
		l = language{}
	default:
		return nil
	}
	return &l
}

// interpreted reads an interpreter's options: inline code is doubt, so is
// no program file at all (it reads stdin), unless only asking its version.
func (s *shellRuns) interpreted(l language, text string, args []shellWord, c shellCommand) {
	inline := func() {
		s.unsure("`" + clip(text) + "` runs inline code of another language, which this analysis cannot read")
	}
	informational := false
	// code: opt's value (attached, else the word after i) is code.
	code := func(opt, attached string, i int) bool {
		if attached == "" && i+1 < len(args) {
			attached = args[i+1].text
		}
		return l.code != nil && l.code(opt, attached)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case !a.static:
			s.unsure("`" + clip(text) + "` passes an interpreter arguments only known when they run")
			return
		case t == "--":
			if i+1 < len(args) {
				return
			}
		case t == "--version" || t == "--help" || t == "-V" || t == "-v" || t == "-h":
			informational = true
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t[2:], "=")
			if strings.Contains(l.inlineLong, " "+name+" ") || strings.Contains(l.longArgs, " "+name+" ") && code("--"+name, val, i) {
				inline()
				return
			}
			if !hasVal && strings.Contains(l.longArgs, " "+name+" ") {
				i++
			}
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(l.inline, t[j]) >= 0 {
					inline()
					return
				}
				if strings.IndexByte(l.args, t[j]) >= 0 {
					if code(t[j:j+1], t[j+1:], i) {
						inline()
						return
					}
					if j == len(t)-1 {
						i++
					}
					if t[j] == 'm' && l.inline == "c" {
						return // python -m MODULE: a program, by name
					}
					break
				}
			}
		case readsStdin(t) && c.stdin != stdinFile:
			s.unsure("`" + clip(text) + "` runs an interpreter that reads its program from standard input")
			return
		default:
			return // the program file
		}
	}
	if !informational && c.stdin != stdinFile {
		s.unsure("`" + clip(text) + "` runs an interpreter that reads its program from standard input")
	}
}
