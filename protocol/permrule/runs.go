package permrule

import (
	"strings"
	"sync/atomic"
)

// What a Bash command runs: through wrappers, runners and paths.
//
// A Bash(rm *) rule compared with the words of each simple command misses
// every command that runs rm without rm being the first word: `sudo rm x`,
// `/bin/rm x`, `sh -c 'rm x'`, `find . -exec rm {} +`. Claude Code strips a
// short list of wrappers (timeout, time, nice, nohup, stdbuf, command,
// builtin, noglob, a bare xargs) and nothing else, so its `if` skips the
// guard for all the others (issue 23, item 11). Here, each simple command is
// followed into what it runs, and every form on the way is compared with the
// pattern:
//
//   - a wrapper (sudo, env, exec, timeout, xargs, flock, …; wrappers())
//     runs the command its operands name: its options are read by the
//     wrapper's own syntax and the rest is compared again;
//   - a command string (sh -c, bash -c, eval, trap, su -c, ssh, watch,
//     alias definitions; a here-string or here-document fed to a shell) is
//     parsed as a command line of its own;
//   - a path is also compared by its base name (/bin/rm x as rm x);
//   - find -exec/-execdir/-ok/-okdir runs the words up to ; or +;
//   - a command named as an alias the line defines is followed both as
//     bash expands it, the value with the words after it (alias h=env;
//     h rm x runs env rm x), and as written (where bash does not expand
//     it); git -C DIR push is git push (builtins.go, programs.go).
//
// And where the text does not show what runs, the answer is "cannot tell",
// which runs the hook (doubt): a command word only known when it runs ($X,
// $(…); a command's output as the whole name, or run as code by eval or
// sh -c, is also a part the analysis cannot read: output_code.go), a glob the shell expands in its name (/bin/r?), a command string
// with expansions (followed as written, doubt all the same), an option a
// wrapper's syntax here does not know, inline code of another language
// (python -c, perl -e, node -e, awk with system() or a pipe), a shell or
// interpreter reading its program from a pipe (curl … | sh), a script read
// from another descriptor or a command's output, and the wrappers whose
// syntax is not modelled (strace, nsenter, parallel, …: opaque(); their
// operands are followed too), a value evaluated as arithmetic or as a
// name (its subscript can run a command), a variable a program runs
// (GIT_PAGER, LD_PRELOAD), a program's own way to run a command (tar
// --to-command, sed's e, vim -c), and xargs handing a wrapper its
// command, or words that complete a pattern (xargs git: open). Braces are
// expanded (rm -{r,f} x runs rm -r
// -f x). A part the analysis stopped reading (stopped: a command string
// that does not parse, a bound) is doubt, and Commands' error.
//
// What is NOT doubt, so that `if` still filters: a program or script file
// (make, npm test, ./x.sh, bash x.sh, python x.py, source venv/bin/activate)
// is as opaque as any binary — what it runs inside is not the command
// line's text, for Claude Code or here.

// maxRunDepth bounds how deep command strings are followed (sh -c 'sh -c
// …'); deeper is doubt.
const maxRunDepth = 8

// maxWrapperChain bounds the wrappers followed in one simple command (nohup
// nohup … rm): each level keeps its own form, so the bound keeps a 64 KiB
// command line from costing quadratic memory.
const maxWrapperChain = 32

// maxAliasExpansions bounds the alias expansions one analysis follows:
// each may expand to several more (alias a='b;b;b'), which fan out.
const maxAliasExpansions = 64

// maxFormBytes bounds the text all forms hold together. Each simple
// command is a form holding its whole text, and one inside $(…) is part of
// the text of the command around it: $(…) nested thousands deep within
// maxShellCommand made forms of hundreds of MB. Past the bound what runs is
// doubt (the hook runs); a real command line's forms hold a few KB.
const maxFormBytes = 4 << 20

// shellRuns is what a command line runs, as far as its text shows.
type shellRuns struct {
	forms []string // command texts to compare with the pattern
	// formBytes is what forms hold together (maxFormBytes).
	formBytes int
	doubt     string // the first reason the text cannot tell what runs
	dynamic   bool   // some part only has a value when it runs
	// operandRunsDone counts what operandRuns followed.
	operandRunsDone int
	// lost is the first part of the text the analysis stopped reading
	// (a command string that does not parse, a bound): what the line runs
	// after it is not in forms at all (Commands).
	lost string
	// aliases are those the line defines, by name: a later command named
	// so may run the value with its own words after it (alias h=env; h rm x
	// runs env rm x).
	aliases     map[string][]string // every value each takes on the line
	aliasesDone int                 // alias expansions followed (maxAliasExpansions)
	// gitAliases are the git aliases the line defines (git config
	// alias.NAME VALUE), by name in lower case: a later git NAME runs the
	// value.
	gitAliases map[string][]string
	// gitEnvDone: the commands the line's values of git's variables give
	// it (GIT_PAGER …) are followed, once: the values are the line's, the
	// same for each git it runs (and one that runs git ends there).
	gitEnvDone bool
	// open are forms xargs adds words of its input to: `xargs git` may
	// run git push (shellPattern.match).
	open []string
	// vals are the values the line gives its variables, which a command
	// string it runs (eval, sh -c, trap, an alias) may read too: exported
	// or not, as the analysis does not follow export.
	vals *lineValues
	// zsh: whether the command strings read now run in zsh (zsh -c, and
	// what its strings eval) or may (su's or ssh's login shell):
	// scriptWith refuses the forms zsh reads otherwise than bash (zsh.go).
	zsh zshMode
}

func (s *shellRuns) unsure(why string) {
	if s.doubt == "" {
		s.doubt = why
	}
}

// stopped is unsure for a part of the line the analysis cannot read at
// all, rather than one whose value is only known when it runs.
func (s *shellRuns) stopped(why string) {
	s.unsure(why)
	if s.lost == "" {
		s.lost = why
	}
}

// analyses counts the commands analysed, for tests.
var analyses atomic.Int64

// reuseFrom is the length from which a command's analysis is kept for the
// next rule: a firing's command is matched against the `if` rule of every
// entry in turn, and a long one (up to maxShellCommand) costs up to a
// fifth of a second to parse, each time. Shorter ones cost microseconds.
const reuseFrom = 4 << 10

// Memo keeps the analysis of the last long command for the rules matched
// after it: one firing's (RuleContext.Memo), so that concurrent firings
// of a serve never evict each other's. Not safe for concurrent use; the
// zero value is empty.
type Memo struct {
	command string
	runs    shellRuns
	err     error
}

// analyzeRunsOnce is analyzeRunsUntil, reusing memo's analysis of the
// same long command (memo nil: none kept). One that stop ended is kept
// too: the rules after it share its bound.
func analyzeRunsOnce(command string, memo *Memo, stop func() bool) (shellRuns, error) {
	if len(command) < reuseFrom || memo == nil {
		return analyzeRunsUntil(command, stop)
	}
	if memo.command != command {
		memo.runs, memo.err = analyzeRunsUntil(command, stop)
		memo.command = command
	}
	return memo.runs, memo.err
}

// analyzeRuns parses command and follows everything it runs. An error is
// the top-level parse's; a command string that does not parse is doubt.
func analyzeRuns(command string) (shellRuns, error) {
	return analyzeRunsUntil(command, nil)
}

// analyzeRunsUntil is analyzeRuns, stopping once stop reports true
// (CommandsUntil).
func analyzeRunsUntil(command string, stop func() bool) (shellRuns, error) {
	analyses.Add(1)
	var s shellRuns
	var root *lineValues // what the line's values share with its strings': stop (halted)
	if stop != nil {
		root = &lineValues{shared: &lineShared{stop: stop}}
	}
	cmds, line, err := parseShell(command, root)
	if err != nil {
		return s, err
	}
	s.dynamic, s.vals = line.dynamic, line.values
	s.unsure(line.doubt)
	for _, c := range cmds {
		s.command(c, 0)
	}
	if len(s.aliases)+len(s.gitAliases) > 0 && s.lost == "" {
		// bash parses a string it runs later (eval in a function or a
		// loop, a trap) when it runs it, by then knowing an alias
		// defined after it on the line: read the line again, knowing
		// every value each alias takes from the start, and keep what
		// both readings find.
		again := shellRuns{aliases: s.aliases, gitAliases: s.gitAliases, aliasesDone: s.aliasesDone, vals: s.vals}
		for _, c := range cmds {
			again.command(c, 0)
		}
		s.forms, s.open = append(s.forms, again.forms...), append(s.open, again.open...)
		s.formBytes += again.formBytes
		s.dynamic = s.dynamic || again.dynamic
		s.unsure(again.doubt)
		if again.lost != "" {
			s.stopped(again.lost)
		}
	}
	return s, nil
}

// script follows a command string that something runs (sh -c STRING).
func (s *shellRuns) script(text, via string, depth int) {
	s.scriptWith(text, via, depth, shellCommand{})
}

// scriptWith is script for a command string run with in's standard
// input (sh -c STRING < FILE, ssh HOST STRING <<EOF): a command in it that
// reads its own standard input reads that.
func (s *shellRuns) scriptWith(text, via string, depth int, in shellCommand) {
	if depth >= maxRunDepth {
		s.stopped("`" + clip(via) + "` nests command strings too deep to follow")
		return
	}
	cmds, line, err := parseShell(text, s.vals)
	if err != nil {
		s.stopped("the command string `" + via + "` runs cannot be parsed (" + err.Error() + ")")
		return
	}
	if why := s.zshOtherwise(text, line.file, cmds); why != "" {
		s.stopped("`" + clip(via) + "` runs a string in what may be zsh, and zsh reads otherwise than bash: " + why)
		return
	}
	s.dynamic = s.dynamic || line.dynamic
	s.unsure(line.doubt)
	for _, c := range cmds {
		if c.stdin == stdinInherited {
			c.stdin, c.stdinText = in.stdin, in.stdinText
		}
		s.command(c, depth+1)
	}
}

// command follows one simple command through its wrappers.
func (s *shellRuns) command(c shellCommand, depth int) {
	if s.lost != "" {
		return // the line cannot be read whole: nothing after it counts
	}
	if c.maybe {
		// What it may run is listed; what cannot be read in it is not
		// the line's (appendVanished).
		lost, doubt := s.lost, s.doubt
		defer func() {
			if !s.vals.halted() {
				s.lost, s.doubt = lost, doubt
			}
		}()
	}
	if s.vals.halted() {
		s.stopped(errPastBound.Error())
		return
	}
	w := c.words
	for _, x := range w {
		if x.odd {
			s.stopped("`" + clip(joinWords(w)) + "` has a $'…' escape bash reads otherwise than this analysis")
			return
		}
	}
	appending := false // xargs adds its input's words to what follows
	for level := 0; len(w) > 0; level++ {
		if level == maxWrapperChain {
			s.stopped("`" + clip(joinWords(c.words)) + "` chains more wrappers than this analysis follows")
			return
		}
		if s.formBytes > maxFormBytes {
			s.stopped("the command holds too many subcommands, nested too deep, to analyse")
			return
		}
		text := joinWords(w)
		formed := len(s.forms)
		s.addForm(text)
		name := w[0]
		byValue := s.byValue(w, text, c, depth)
		if s.lost != "" {
			return
		}
		if !name.static {
			w = s.unknownName(w, text, c, depth)
			continue
		}
		if name.glob {
			s.stopped("`" + clip(text) + "` runs a command whose name the shell expands (a glob)")
			return
		}
		if len(w) < len(c.words) && shellKeyword(name.text) {
			// sudo ! rm, env { rm x; }: a wrapper would look for a program
			// named after a keyword; what the line means is not clear.
			s.unsure("`" + clip(text) + "` hands a shell keyword to a wrapper")
			return
		}
		if vs, ok := s.aliases[name.text]; ok {
			// What bash runs where it expands aliases (shopt -s
			// expand_aliases, on a later line), with each value the
			// alias takes on the line; the words as written are followed
			// too, which bash runs where it does not. Not again inside
			// its own expansion (alias ls='ls -l').
			delete(s.aliases, name.text)
			for _, v := range vs {
				if s.aliasesDone++; s.aliasesDone > maxAliasExpansions {
					s.stopped("the command expands more aliases than this analysis follows")
					break
				}
				s.script(v+" "+quoteWords(w[1:]), text, depth)
			}
			s.aliases[name.text] = vs
			if s.lost != "" {
				return
			}
		}
		base := name.text
		if byValue {
			base = "sh"
		} else if i := strings.LastIndexByte(base, '/'); i >= 0 {
			base = base[i+1:]
			s.addForm(joinWords(append([]shellWord{{text: base, static: true}}, w[1:]...)))
		}
		w = s.inner(base, text, w[1:], c, depth)
		if appending {
			// Every form of it gets the input's words (git -C x, as git).
			s.open = append(s.open, s.forms[formed:]...)
		}
		if w == nil && appending && runsOperands(base) {
			s.unsure("`" + clip(joinWords(c.words)) + "` takes the command it runs from its input")
		}
		appending = appending || base == "xargs"
	}
}

// addForm adds a text the command line runs, to compare with a pattern.
func (s *shellRuns) addForm(text string) {
	s.forms = append(s.forms, text)
	s.formBytes += len(text)
}

// runsOperands: a program that runs the command its operands name, or one
// its operands give it (an option, a script), so that xargs can hand it
// one (… | xargs env, … | xargs git rebase).
func runsOperands(base string) bool {
	if _, ok := wrappers()[base]; ok || opaque()[base] {
		return true
	}
	if _, ok := ownCommands()[base]; ok || interpreter(base) != nil || programOf(base) != "" || isShell(base) || isForeignShell(base) {
		return true // handed an option or a script that runs a command (xargs tar …)
	}
	switch base {
	case "eval", "source", ".", "ssh", "flock", "su", "runuser", "sg", "script": // inner's own
		return true
	}
	return false
}

// atScript follows the script at or batch runs: the file -f names (as a
// shell's script file: its standard input, a descriptor, a file), else
// its standard input; none where it only lists, shows or removes jobs
// (-l, -c, -r, -d) or only prints its version (-V alone).
func (s *shellRuns) atScript(text string, args []shellWord, c shellCommand, depth int) {
	for i, a := range args {
		switch {
		case !a.static:
		case a.text == "-l" || a.text == "-c" || a.text == "-r" || a.text == "-d" || a.text == "-V" && len(args) == 1:
			return
		case a.text == "-f" && i+1 < len(args):
			s.scriptFile(args[i+1], text, c, depth)
			return
		case strings.HasPrefix(a.text, "-f") && len(a.text) > 2:
			s.scriptFile(shellWord{text: a.text[2:], static: true}, text, c, depth)
			return
		}
	}
	s.stdinScript(text, c, depth)
}

// isShell: a shell of the sh language that shell() reads the options of
// (sh -c, bash -s …): the Korn shells (OpenBSD's as loksh, Solaris'
// profile shells pfksh and pfbash), restricted, static and versioned
// builds (zsh-5.9, bash5.2), OSH, BusyBox's hush, mrsh, Guile's gash and
// brush (a bash in Rust). zsh is read as sh too, but for what zsh.go
// refuses.
func isShell(base string) bool {
	switch base {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "rbash",
		"ksh93", "ksh88", "ksh2020", "lksh", "oksh", "loksh", "pdksh", "rksh", "pfksh", "rzsh",
		"bash-static", "zsh-static", "pfbash", "osh", "hush", "bosh", "mrsh", "gash", "brush":
		return true
	}
	return versioned(base, "bash") || versioned(base, "zsh")
}

// versioned: name with a version after it, as packages install a second
// build beside the first (zsh-5.9, zsh5, bash5.2, bash-5.2.21).
func versioned(base, name string) bool {
	v, ok := strings.CutPrefix(base, name)
	v = strings.TrimPrefix(v, "-")
	if !ok || v == "" || v[0] < '0' || v[0] > '9' {
		return false
	}
	return strings.Trim(v, "0123456789.") == ""
}

// isForeignShell: a shell of another language than sh, whose command
// strings foreignShell refuses rather than reads as Bash. fish is one:
// its simple commands look like sh's, but `true; and rm -rf /` runs rm,
// and \' ends no single-quoted string there.
func isForeignShell(base string) bool {
	switch base {
	case "csh", "tcsh", "bsd-csh", "fish", "nu", "elvish", "xonsh", "rc", "es", "ysh", "ion", "murex":
		return true
	}
	return false
}

// inner returns the words of the command that the command named base (with
// arguments args) runs in its place, after following any command string it
// runs itself; nil when it runs nothing more that the text shows.
func (s *shellRuns) inner(base, text string, args []shellWord, c shellCommand, depth int) []shellWord {
	if spec, ok := wrappers()[base]; ok {
		return s.wrapped(spec, base, text, args, c, depth)
	}
	if opaque()[base] {
		if len(args) > 0 {
			s.unsure("`" + clip(text) + "` runs a command given in its arguments, whose syntax this analysis does not read")
			s.operandRuns(args, c, depth)
		}
		if base == "at" || base == "batch" {
			s.atScript(text, args, c, depth) // at now <<< 'rm -rf /': a script for later
		}
		return nil
	}
	switch {
	case isShell(base):
		s.shell(base, text, args, c, depth)
	case isForeignShell(base):
		s.foreignShell(base, text, args, c)
	case base == "ssh":
		s.ssh(text, args, c, depth)
	case base == "flock":
		return s.flock(text, args, c, depth)
	case base == "su" || base == "runuser" || base == "sg" || base == "script":
		return s.userShell(base, text, args, c, depth)
	case !s.builtin(base, text, args, c, depth):
		s.program(base, text, args, c, depth)
	}
	return nil
}

func shellKeyword(s string) bool {
	switch s {
	case "!", "{", "}", "[[", "]]", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac",
		"while", "until", "for", "in", "select", "function", "coproc":
		return true
	}
	return false
}

// scriptOption follows the command string an option's value is (sh -c
// STRING, su -c STRING), run with in's standard input.
func (s *shellRuns) scriptOption(o option, text string, depth int, in shellCommand) {
	s.scriptOf([]shellWord{o.word()}, text, depth, in)
}

// scriptOf follows the command string words make, joined by spaces (sh -c
// STRING, eval ARGS…, ssh HOST ARGS…). A word with expansions in it
// (bash -c "cd $D && make", eval "…"$X) is followed as the shell that runs
// it will parse it, its expansions as written — and is doubt all the
// same: a $X whose value holds ; or a newline is a command built at run
// time, which no reading of the text sees.
func (s *shellRuns) scriptOf(words []shellWord, text string, depth int, in shellCommand) {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = w.text
		if w.static {
			continue
		}
		if w.script == "" {
			s.stopped("`" + clip(text) + "` runs a command string this analysis cannot read")
			return
		}
		if why := outputCode(w, text); why != "" {
			s.stopped(why)
			return
		}
		// Followed for what its text runs; still doubt, as the values
		// of its expansions are parsed as commands too.
		parts[i] = w.script
		s.dynamic = true
		s.unsure("`" + clip(text) + "` runs a command string with expansions, whose values run as commands too")
	}
	s.scriptWith(strings.Join(parts, " "), text, depth, in)
}
