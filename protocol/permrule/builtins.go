package permrule

import (
	"slices"
	"strings"
)

// The bash builtins the analysis reads: those that run a command string
// (eval, trap, source, alias, mapfile -C, compgen -C, fc), that rename a
// program (hash -p), and that take a variable's name, whose subscript
// bash evaluates (unset, read, printf -v, test -v).

// builtin follows the builtin named base, if it is one the analysis reads;
// false when base is none of them.
func (s *shellRuns) builtin(base, text string, args []shellWord, c shellCommand, depth int) bool {
	switch base {
	case "eval":
		s.scriptOf(endOfOptions(args), text, depth, c)
	case "trap":
		s.trap(text, args, depth)
	case "hash":
		for _, a := range args {
			if !a.static || strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "p") {
				s.stopped("`" + clip(text) + "` names a program by another name (hash -p), or names one only known when it runs")
				break
			}
		}
	case "source", ".":
		if args = endOfOptions(args); len(args) > 0 {
			s.scriptFile(args[0], text, c, depth)
		}
	case "alias":
		s.alias(text, args, depth)
	case "mapfile", "readarray":
		spec := optSpec{flags: "t", args: "dnOsuCc"}
		s.withCommandOption(text, args, spec, "C", depth)
		s.namesAtRun(text, args, spec, "", true)
	case "compgen", "complete":
		s.withCommandOption(text, args, optSpec{flags: "abcdefgjksuvprDEI", args: "oAGWFCXPS"}, "C", depth)
	case "fc":
		if !historyListed(args) {
			s.stopped("`" + clip(text) + "` runs commands from the shell's history")
		}
	case "unset":
		s.namesAtRun(text, args, optSpec{flags: "fvn"}, "", true)
	case "read":
		s.namesAtRun(text, args, optSpec{flags: "ers", args: "adinNptu"}, "a", true)
	case "wait":
		s.namesAtRun(text, args, optSpec{flags: "fn", args: "p"}, "p", false)
	case "printf":
		s.namesAtRun(text, args, optSpec{args: "v"}, "v", false)
		if len(args) > 0 && !args[0].static {
			// printf -v"$x" …, or "$opt": an option only known when it runs.
			s.unsure("`" + clip(text) + "` may take a value only known when it runs for a variable's name, whose subscript can run a command")
		}
	case "test", "[":
		lits := make([]string, len(args))
		for i, a := range args {
			switch {
			case !a.static:
			case a.text == "-v":
				// Its operand, written, names a variable the text shows
				// (test -v HOME); read as any unary test's.
				lits[i] = "-n"
				if i+1 < len(args) && !args[i+1].static {
					s.unsure("`" + clip(text) + "` names a variable by a value only known when it runs, whose subscript can run a command")
				}
			default:
				lits[i] = a.text
			}
		}
		if namesVariable(base, lits) {
			s.unsure("`" + clip(text) + "` may take a value only known when it runs for a variable's name, whose subscript can run a command")
		}
	default:
		return false
	}
	return true
}

// alias NAME=VALUE…: each value is a command string, followed now, and
// kept: a later command named NAME runs VALUE with its own words after it
// (command).
func (s *shellRuns) alias(text string, args []shellWord, depth int) {
	for _, a := range endOfOptions(args) {
		if !a.static {
			s.unsure("`" + clip(text) + "` defines an alias only known when it runs")
			continue
		}
		// alias -- -r=rm defines -r; -p only prints.
		if n, v, ok := strings.Cut(a.text, "="); ok {
			s.script(v, text, depth)
			if s.aliases == nil {
				s.aliases = map[string][]string{}
			}
			if !slices.Contains(s.aliases[n], v) {
				s.aliases[n] = append(s.aliases[n], v)
			}
		}
	}
}

// trap ACTION SIGNAL…: the action is a command string the shell runs later
// (on EXIT: as soon as the command line ends).
func (s *shellRuns) trap(text string, args []shellWord, depth int) {
	if len(args) > 0 && args[0].static && (args[0].text == "-l" || args[0].text == "-p" || args[0].text == "-lp") {
		return
	}
	args = endOfOptions(args)
	if len(args) < 2 {
		return // a single operand resets the signal
	}
	if !args[0].static {
		s.unsure("`" + clip(text) + "` sets a trap only known when it runs")
		return
	}
	if a := args[0].text; a != "-" && a != "" {
		s.script(a, text, depth)
	}
}

// historyListed: fc only lists the history (fc -l, fc -lnr …); any other
// use runs commands from it, which the line may have put there (history
// -s).
func historyListed(args []shellWord) bool {
	for _, a := range args {
		if !a.static || !strings.HasPrefix(a.text, "-") || strings.ContainsAny(a.text, "es") {
			return false
		}
		if strings.Contains(a.text, "l") {
			return true
		}
	}
	return false
}

// namesAtRun: a builtin given a variable's name only known when it runs
// (unset "$x", read "$v", printf -v "$x") evaluates its subscript, which
// can run a command (x='a[$(rm -rf ~)]'): doubt. The names are the values
// of the short options in nameOpts (read -a NAME) and, with operands, the
// operands (printf's are values, not names).
func (s *shellRuns) namesAtRun(text string, args []shellWord, spec optSpec, nameOpts string, operands bool) {
	opts, rest, ok := parseOpts(args, spec, false)
	if !ok {
		return
	}
	var names []shellWord
	if operands {
		names = rest
	}
	for _, o := range opts {
		if len(o.name) == 1 && strings.Contains(nameOpts, o.name) {
			names = append(names, o.word())
		}
	}
	for _, n := range names {
		switch {
		case !n.static:
			s.unsure("`" + clip(text) + "` names a variable by a value only known when it runs, whose subscript can run a command")
			return
		case codeVar(n.text, "$("):
			s.stopped("`" + clip(text) + "` sets " + n.text + ", whose value bash may run as code")
			return
		}
	}
}

// withCommandOption follows the command string given as the value of the
// option named name (mapfile -C).
func (s *shellRuns) withCommandOption(text string, args []shellWord, spec optSpec, name string, depth int) {
	// Builtins read their options before the first operand, as getopt
	// does without reordering.
	opts, _, ok := parseOpts(args, spec, false)
	if !ok {
		s.stopped("`" + clip(text) + "` has options this analysis does not read")
		return
	}
	for _, o := range opts {
		if o.name == name {
			s.scriptOption(o, text, depth, shellCommand{})
		}
	}
}

// quoteWords is words as a command line that gives them back as they are:
// a static word single-quoted, another as written.
func quoteWords(words []shellWord) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !w.static {
			b.WriteString(w.text)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w.text, "'", `'\''`) + "'")
	}
	return b.String()
}

// endOfOptions is args after a leading "--" (eval --, source --, trap --).
func endOfOptions(args []shellWord) []shellWord {
	if len(args) > 0 && args[0].static && args[0].text == "--" {
		return args[1:]
	}
	return args
}
