package permrule

import (
	"cmp"
	"strings"
	"sync"
)

// The wrappers a Bash command can hide its real command behind, and how to
// read their options. Each option table is the program's own (GNU
// coreutils, util-linux, sudo, OpenSSH, procps); an option not in it is
// doubt, since whether it takes a value decides which word is the command.

// optSpec describes a program's options the way getopt reads them.
type optSpec struct {
	flags    string // short options without a value
	args     string // short options with a value, attached or the next word
	optional string // short options whose value can only be attached (xargs -i[R])
	// " name name ": long options without a value (or with an optional
	// =value), and with a value (=value or the next word).
	longFlags, longArgs string
	plus                bool // +o, +O, +x are options too (shells)
}

// option is one option read from a command line: "c" or "--command".
type option struct {
	name   string
	value  string
	static bool
	script string // a value that is not static: shellWord.script
}

// word is the option's value as the word it was written as.
func (o option) word() shellWord { return shellWord{text: o.value, static: o.static, script: o.script} }

// parseOpts reads the options at the start of args, stopping at "--" and,
// unless permute (getopt's reordering, as su does), at the first operand.
// It returns the options and the operands, or ok=false when an option is
// not in spec, or a word in option position is only known when it runs
// while permuting: which word is then the command cannot be told.
func parseOpts(args []shellWord, spec optSpec, permute bool) (opts []option, rest []shellWord, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		isOpt := len(t) > 1 && (t[0] == '-' || (spec.plus && t[0] == '+'))
		switch {
		case !a.static && permute:
			return nil, nil, false
		case !a.static || !isOpt:
			if !permute {
				return opts, append(rest, args[i:]...), true
			}
			rest = append(rest, a)
		case t == "--":
			return opts, append(rest, args[i+1:]...), true
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t[2:], "=")
			o := option{name: "--" + name, value: val, static: true}
			switch {
			case strings.Contains(spec.longFlags, " "+name+" "):
			case !strings.Contains(spec.longArgs, " "+name+" "):
				return nil, nil, false
			case !hasVal && i+1 < len(args):
				i++
				o.value, o.static, o.script = args[i].text, args[i].static, args[i].script
			}
			opts = append(opts, o)
		default:
			var done bool
			for j := 1; j < len(t) && !done; j++ {
				o := option{name: t[j : j+1], static: true}
				switch l := t[j]; {
				case strings.IndexByte(spec.args, l) >= 0:
					done = true
					if o.value = t[j+1:]; o.value == "" && i+1 < len(args) {
						i++
						o.value, o.static, o.script = args[i].text, args[i].static, args[i].script
					}
				case strings.IndexByte(spec.optional, l) >= 0:
					done, o.value = true, t[j+1:]
				case strings.IndexByte(spec.flags, l) < 0:
					return nil, nil, false
				}
				opts = append(opts, o)
			}
		}
	}
	return opts, rest, true
}

// wrapSpec is a wrapper: a program that runs the command its operands
// name.
type wrapSpec struct {
	opts     optSpec
	operands int    // operands before the command: timeout's duration, chroot's root
	noRun    string // " name ": options after which the operands are not run (command -v)
	assign   bool   // NAME=value words (and env's lone -) before the command
	joined   bool   // the operands, joined by spaces, are a command string (watch)
	direct   string // " name ": options that make a joined wrapper run the words as they are (watch -x)
	// shellIfEmpty: with no command, an interactive shell reads its
	// commands from standard input (chroot DIR) — when shellWith is set,
	// only if one of those options was given (sudo -s, sudo -i).
	shellIfEmpty bool
	shellWith    string
}

// wrappers are the programs whose option syntax is read here. Built at
// first use, not at every start of the one-shot binary.
var wrappers = sync.OnceValue(func() map[string]wrapSpec {
	none := wrapSpec{}
	return map[string]wrapSpec{
		"nohup":   none,
		"builtin": none,
		"noglob":  none,
		"busybox": none,
		"toybox":  none,
		"chronic": none,
		"exec":    {opts: optSpec{flags: "cl", args: "a"}},
		"command": {opts: optSpec{flags: "pvV"}, noRun: " v V "},
		"time": {opts: optSpec{flags: "pvaq", args: "fo",
			longFlags: " portability verbose append quiet ", longArgs: " format output "}},
		"timeout": {operands: 1, opts: optSpec{flags: "v", args: "sk",
			longFlags: " preserve-status foreground verbose ", longArgs: " signal kill-after "}},
		"nice":   {opts: optSpec{flags: "0123456789", args: "n", longArgs: " adjustment "}},
		"stdbuf": {opts: optSpec{args: "ioe", longArgs: " input output error "}},
		"ionice": {opts: optSpec{flags: "t", args: "cnpPu", longArgs: " class classdata pid pgid uid "},
			noRun: " p P u --pid --pgid --uid "},
		"setsid": {opts: optSpec{flags: "cfw", longFlags: " ctty fork wait "}},
		"env": {assign: true, opts: optSpec{flags: "0iv", args: "uC",
			longFlags: " ignore-environment null debug block-signal default-signal ignore-signal list-signal-handling ",
			longArgs:  " unset chdir "}},
		"sudo": {assign: true, shellIfEmpty: true, shellWith: " s i --shell --login ", noRun: " e K l V v --edit --list --version --validate --remove-timestamp ",
			opts: optSpec{flags: "AbBEeHiKklnPSsVv", args: "CDghpRrTtUu",
				longFlags: " askpass background bell preserve-env edit set-home help login remove-timestamp reset-timestamp list non-interactive preserve-groups stdin shell version validate ",
				longArgs:  " close-from chdir group host prompt chroot role type command-timeout other-user user "}},
		"doas":   {shellIfEmpty: true, shellWith: " s ", noRun: " L C ", opts: optSpec{flags: "Lns", args: "Cu"}},
		"chroot": {operands: 1, shellIfEmpty: true, opts: optSpec{longFlags: " skip-chdir ", longArgs: " userspec groups "}},
		"xargs": {opts: optSpec{flags: "0oprtx", args: "adEIJLnPRSs", optional: "eil",
			longFlags: " null no-run-if-empty verbose interactive open-tty exit show-limits replace max-lines eof version help ",
			longArgs:  " arg-file delimiter max-args max-procs max-chars process-slot-var "}},
		"watch": {joined: true, direct: " x --exec ", opts: optSpec{flags: "bcCdegprtwxhv", args: "nq",
			longFlags: " beep color no-color differences errexit chgexit precise no-rerun no-title no-wrap exec help version ",
			longArgs:  " interval equexit "}},
	}
})

// opaque are programs that run a command given in their arguments, whose
// syntax is not read here: with any argument, doubt.
var opaque = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`parallel sem strace ltrace valgrind nsenter unshare systemd-run
		firejail bwrap pkexec fakeroot eatmydata nocache catchsegv torsocks proxychains proxychains4
		xvfb-run unbuffer caffeinate arch chrt taskset prlimit cpulimit dbus-run-session numactl cgexec
		runcon setpriv chpst sandbox-exec gosu su-exec tmux screen at batch pwsh powershell deno
		bun dtach abduco daemonize start-stop-daemon systemd-inhibit sshpass setarch linux32 linux64
		i386 x86_64 uname26 choom perf ssh-agent gdb faketime proot dbus-launch xterm`) {
		m[n] = true
	}
	return m
})

// maxOperandRuns bounds the operand runs operandRuns follows in one
// analysis: each may be another such wrapper.
const maxOperandRuns = 32

// operandRuns follows, for a wrapper whose syntax is not modelled (strace,
// taskset, unshare …), each run of its operands that starts at a word
// that is no option: whichever of them is the command it runs
// (`taskset -c 0 rm -rf x` runs rm -rf x) is then followed as any
// command is.
func (s *shellRuns) operandRuns(args []shellWord, c shellCommand, depth int) {
	for i, a := range args {
		if !a.static || a.text == "" || a.text[0] == '-' || fdExe(a.text) { // at -f /dev/stdin: a file
			continue
		}
		if s.operandRunsDone++; s.operandRunsDone > maxOperandRuns {
			s.stopped("a command runs more operands as commands than this analysis follows")
			return
		}
		s.command(shellCommand{words: args[i:], stdin: c.stdin, stdinText: c.stdinText}, depth)
	}
}

// wrapped follows a wrapper from wrappers() and returns the command it runs.
func (s *shellRuns) wrapped(spec wrapSpec, base, text string, args []shellWord, c shellCommand, depth int) []shellWord {
	opts, rest, ok := parseOpts(args, spec.opts, false)
	if !ok {
		s.stopped("`" + clip(text) + "` passes " + base + " options this analysis does not read")
		return nil
	}
	joined, shell := spec.joined, spec.shellIfEmpty && spec.shellWith == ""
	viaShell := false // sudo -s, -i: a shell runs the command's words
	for _, o := range opts {
		if strings.Contains(spec.noRun, " "+o.name+" ") {
			return nil
		}
		if strings.Contains(spec.direct, " "+o.name+" ") {
			joined = false
		}
		if spec.shellIfEmpty && strings.Contains(spec.shellWith, " "+o.name+" ") {
			shell, viaShell = true, true
		}
	}
	if len(rest) >= spec.operands {
		rest = rest[spec.operands:]
	} else {
		rest = nil
	}
	if base == "xargs" {
		rest = xargsReplaced(opts, rest)
	}
	for spec.assign && len(rest) > 0 && (isAssignment(rest[0]) || (rest[0].static && rest[0].text == "-")) {
		name, value, _ := strings.Cut(rest[0].text, "=")
		if codeVar(name, value) {
			s.stopped("`" + clip(text) + "` sets " + name + ", whose value the shells it starts run as code")
			return nil
		}
		if programVar(name) {
			s.unsure("`" + clip(text) + "` sets " + name + ", a command or code the program it starts may run")
		}
		rest = rest[1:]
	}
	switch {
	case len(rest) == 0:
		if shell {
			s.stdinScript(text, c, depth)
		}
		return nil
	case joined:
		s.scriptOf(rest, text, depth, c)
		return nil
	case viaShell:
		if why := viaShellWords(rest); why != "" {
			s.stopped("`" + clip(text) + "` has the user's shell run " + why)
			return nil
		}
	}
	return rest
}

// xargsReplaced is xargs' command with every word that holds the
// replace-string of -I R (-i, --replace: {}) marked as only known when it
// runs: xargs -I% sh -c % runs its input as a command string.
func xargsReplaced(opts []option, rest []shellWord) []shellWord {
	r := ""
	for _, o := range opts {
		switch {
		case o.name == "I":
			r = o.value
		case o.name == "i" || o.name == "--replace":
			r = cmp.Or(o.value, "{}")
		}
	}
	return filledAtRun(rest, r)
}

// filledAtRun is words with each that holds r (xargs' replace-string,
// find's {}) marked as only known when it runs, its text as written.
func filledAtRun(words []shellWord, r string) []shellWord {
	if r == "" {
		return words
	}
	out := make([]shellWord, len(words))
	for i, w := range words {
		if out[i] = w; w.static && strings.Contains(w.text, r) {
			out[i] = shellWord{text: w.text, script: w.text}
		}
	}
	return out
}

// isAssignment: NAME=value, which env and sudo put in the environment.
// Any word with an = after its first character is one to them, whether
// or not the shell would take NAME for a name (env x.y=1 rm …, env
// 'BASH_FUNC_ls%%=() { …; }' bash …).
func isAssignment(w shellWord) bool {
	return w.static && strings.IndexByte(w.text, '=') > 0
}

// ssh HOST COMMAND…: the remote shell runs the operands after the host,
// joined by spaces; options may follow the host too (OpenSSH reads them
// again). No command is a login shell reading standard input. -o
// ProxyCommand= / LocalCommand= / …Command= run a local command string.
func (s *shellRuns) ssh(text string, args []shellWord, c shellCommand, depth int) {
	spec := optSpec{flags: "46AaCfGgKkMNnqsTtVvXxYy", args: "BbcDEeFIiJLlmOopQRSWw"}
	opts, rest, ok := parseOpts(args, spec, false)
	if ok && len(rest) > 0 {
		var more []option
		more, rest, ok = parseOpts(rest[1:], spec, false)
		opts = append(opts, more...)
	}
	if !ok {
		s.stopped("`" + clip(text) + "` passes ssh options this analysis does not read")
		return
	}
	for _, o := range opts {
		switch {
		case o.name == "o" && (!o.static || strings.Contains(strings.ToLower(o.value), "command")):
			s.stopped("`" + clip(text) + "` sets an ssh option that runs a local command")
		case o.name == "N" || o.name == "W" || o.name == "O":
			return
		}
	}
	// The remote login shell may be zsh (macOS').
	defer s.inZsh(mayBeZsh)()
	switch {
	case len(rest) == 0:
		s.stdinScript(text, c, depth)
	default:
		s.scriptOf(rest, text, depth, c)
	}
}

// flock [opts] FILE COMMAND… | FILE -c STRING | FD.
func (s *shellRuns) flock(text string, args []shellWord, c shellCommand, depth int) []shellWord {
	spec := optSpec{flags: "sexnouFhV", args: "wE",
		longFlags: " shared exclusive nonblock nb close unlock no-fork verbose help version ",
		longArgs:  " timeout wait conflict-exit-code "}
	_, rest, ok := parseOpts(args, spec, false)
	if !ok {
		s.stopped("`" + clip(text) + "` passes flock options this analysis does not read")
		return nil
	}
	if len(rest) < 2 {
		return nil // flock FD: locks, runs nothing
	}
	if r := rest[1]; r.static && (r.text == "-c" || r.text == "--command") {
		if len(rest) > 2 {
			s.scriptOf(rest[2:3], text, depth, c)
		}
		return nil
	}
	return rest[1:]
}

// shell follows sh, bash, zsh, … : -c makes the first operand a command
// string, which is parsed; a script file is opaque; no operand (or -s, -i)
// reads the script from standard input. What a zsh runs is read as sh but
// for the forms zsh reads otherwise (zsh.go): s.zsh is set while its
// strings are read, and cleared for any other sh's (bash -c inside zsh
// -c is bash's to read).
func (s *shellRuns) shell(base, text string, args []shellWord, c shellCommand, depth int) {
	mode := notZsh
	if zshFamily(base) {
		mode = isZsh
	}
	defer s.inZsh(mode)()
	spec := optSpec{flags: "abefhiklmnprstuvxBCEHPTcs", args: "oO", plus: true,
		longFlags: " norc noprofile login posix restricted verbose version help debugger dump-strings dump-po-strings pretty-print noediting ",
		longArgs:  " rcfile init-file emulate "}
	opts, rest, ok := parseOpts(args, spec, false)
	if !ok {
		s.stopped("`" + clip(text) + "` passes " + base + " options this analysis does not read")
		return
	}
	if why := zshStartOptions(opts); mode == isZsh && why != "" {
		s.stopped("`" + clip(text) + "` starts zsh with " + why)
		return
	}
	cmdMode, stdinMode := false, false
	for _, o := range opts {
		switch {
		case o.name == "--version" || o.name == "--help":
			return // bash and zsh print and exit, before any script
		case o.name == "c":
			cmdMode = true
		case o.name == "s" || o.name == "i":
			stdinMode = true
			if o.name != "s" {
				s.unsure("`" + clip(text) + "` starts an interactive shell, which runs its start-up file and prompt commands (PROMPT_COMMAND, PS1)")
			}
		case (o.name == "--rcfile" || o.name == "--init-file") && (!o.static || readsStdin(o.value)):
			s.stopped("`" + clip(text) + "` starts a shell whose start-up file the analysis cannot read")
		}
	}
	switch {
	case cmdMode && len(rest) > 0:
		// sh -c STRING NAME ARGS…: the string's $1 … are ARGS.
		saved := s.vals
		if len(rest) > 1 {
			s.vals = s.vals.withArgs(rest[1], rest[2:])
		}
		s.scriptOf(rest[:1], text, depth, c)
		s.vals = saved
	case cmdMode:
		// bash refuses a -c without its string, unless a runner adds one
		// (… | xargs sh -c): a command string not on the line.
		s.stopped("`" + clip(text) + "` runs a command string that is not on the line")
	case stdinMode || len(rest) == 0:
		s.stdinScript(text, c, depth)
	default:
		s.scriptFile(rest[0], text, c, depth)
	}
}

// foreignShell reads a shell of another language (csh, fish, nu, rc …):
// a script file it runs (its first word, no option before it) is as
// opaque as any program, and so is asking its version; anything else — a
// command string (-c, nu's -e), commands read from standard input (a
// pipe, or a "script" that is the standard input or another descriptor:
// tcsh /dev/stdin <<< …, nu /dev/fd/3), or options, which are not read
// here (nu --config FILE -c …: FILE is no script) — is refused, not read
// as Bash: their words are not sh's (nu's ^rm is rm, fish's `and rm`
// runs rm), so a Bash reading would list what does not run and miss what
// does.
func (s *shellRuns) foreignShell(base, text string, args []shellWord, c shellCommand) {
	switch {
	case len(args) == 1 && args[0].static && (args[0].text == "--version" || args[0].text == "--help"):
		return
	case len(args) > 0 && args[0].static && args[0].text != "" && args[0].text[0] != '-' && !readsStdin(args[0].text):
		return // SHELL SCRIPT ARGS…
	case len(args) == 0 && c.stdin == stdinFile:
		return // SHELL < SCRIPT
	}
	s.stopped("`" + clip(text) + "` runs " + base + " with commands or options in its own language, which this analysis does not read")
}

// su, runuser, sg and script run a command string given with -c (su also
// takes options after the user name); without one, a shell reading
// standard input. su USER ARGS… passes ARGS to that shell: doubt. The
// shell is the one -s names (su, runuser), else the user's login shell
// or $SHELL (script), which may be zsh (macOS'), or /bin/sh (sg).
func (s *shellRuns) userShell(base, text string, args []shellWord, c shellCommand, depth int) []shellWord {
	mode := mayBeZsh
	if base == "sg" {
		mode = notZsh // sg runs /bin/sh
	}
	defer s.inZsh(mode)()
	var spec optSpec
	switch base {
	case "script":
		spec = optSpec{flags: "aeEfFqh", args: "cIOBTm", optional: "t",
			longFlags: " append return flush force quiet help timing ", longArgs: " command echo log-in log-out log-io log-timing logging-format "}
	case "sg":
		if len(args) < 2 {
			s.stdinScript(text, c, depth)
			return nil
		}
		rest := args[1:]
		if rest[0].static && rest[0].text == "-c" {
			rest = rest[1:]
		}
		s.scriptOf(rest, text, depth, c)
		return nil
	default: // su, runuser
		spec = optSpec{flags: "flmpPhV", args: "cgGswuC", longFlags: " login preserve-environment pty help version fast ",
			longArgs: " command session-command group supp-group shell whitelist-environment user "}
	}
	opts, rest, ok := parseOpts(args, spec, base != "runuser")
	if !ok {
		s.stopped("`" + clip(text) + "` passes " + base + " options this analysis does not read")
		return nil
	}
	if !s.loginShell(text, opts) {
		return nil
	}
	ran := false
	for _, o := range opts {
		switch o.name {
		case "c", "--command", "--session-command":
			s.scriptOption(o, text, depth, c)
			ran = true
		case "u", "--user":
			if base == "runuser" {
				return rest // runuser -u USER COMMAND…
			}
		}
	}
	switch {
	case ran:
	case base != "script" && len(rest) > 1:
		s.unsure("`" + clip(text) + "` passes arguments to " + base + "'s shell")
	default:
		s.stdinScript(text, c, depth)
	}
	return nil
}

// loginShell reads the shell su or runuser -s (--shell) names to run
// their command string or standard input: one of the sh language is read
// as sh (s.zsh for a zsh); any other, or one only known when it runs, is
// refused (false), as foreignShell refuses it: su -s /usr/bin/nu -c
// '^rm -rf /' runs rm.
func (s *shellRuns) loginShell(text string, opts []option) bool {
	for _, o := range opts {
		if o.name != "s" && o.name != "--shell" {
			continue
		}
		base := o.value[strings.LastIndexByte(o.value, '/')+1:]
		if !o.static || !isShell(base) {
			s.stopped("`" + clip(text) + "` runs its command with a shell not of the sh language, or not known before it runs, which this analysis does not read")
			return false
		}
		if s.zsh = notZsh; zshFamily(base) {
			s.zsh = isZsh // named: no longer only a login shell that may be
		}
	}
	return true
}
