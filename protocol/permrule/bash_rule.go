package permrule

import (
	"regexp"
	"strings"
	"sync"
)

// Bash rules: the pattern syntax of a Bash(…) specifier, matched against
// each subcommand a command line runs (shell.go reads the line).

// shellPattern is a Bash rule's specifier. Claude Code's syntax
// (permissions docs, "Wildcard patterns" and "Bash"):
//
//   - "x:*" (legacy, only at the very end) is a prefix: the command is x, or
//     starts with "x " — so it keeps a word boundary (npm run test:* matches
//     "npm run test" and "npm run test foo", not "npm run testing");
//   - otherwise the pattern is anchored at both ends and every unescaped *
//     matches any run of characters, spaces included, at any position
//     ("git * main", "* --version"); \* is a literal star and \\ a
//     backslash;
//   - a pattern whose only * is a trailing " *" makes the " …" optional, so
//     "ls *" matches "ls" and "ls -la" but not "lsof" (the word boundary),
//     while "ls*" also matches "lsof";
//   - no * at all is an exact command.
type shellPattern struct {
	raw      string
	prefix   string
	isPrefix bool
	re       *regexp.Regexp
	// nameOnly: the pattern names just the command ("rm *", "rm*",
	// "rm:*"). When a command holds $(…), backticks or $VAR, Claude Code
	// evaluates only such patterns against its subcommands and runs the
	// hook for any other (hooks docs, Bash `if` table: Bash(git push *) on
	// `echo $(date)` → runs).
	nameOnly bool
	// alt is the pattern with its command word cut to its base name, when
	// the rule names a command by path (Bash(/bin/rm *)): `rm x` may run
	// /bin/rm, so either spelling on either side matches.
	alt *shellPattern
}

// Compiled at first use, not at every start of the one-shot binary.
var nameOnlyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\s*?\[]+\s?\*$`) })

func compileShellPattern(content string) shellPattern {
	p := compileShellPatternOnly(content)
	pat := strings.TrimSpace(content)
	name, rest, spaced := strings.Cut(pat, " ")
	if strings.Contains(name, "/") && !strings.ContainsAny(name, `*\`) && !strings.HasSuffix(name, "/") {
		base := name[strings.LastIndexByte(name, '/')+1:]
		if spaced {
			base += " " + rest
		}
		alt := compileShellPatternOnly(base)
		p.alt = &alt
	}
	return p
}

func compileShellPatternOnly(content string) shellPattern {
	p := shellPattern{raw: content}
	if len(content) > 2 && strings.HasSuffix(content, ":*") {
		p.isPrefix, p.prefix = true, content[:len(content)-2]
		p.nameOnly = !strings.ContainsAny(p.prefix, " \t\n\r\f\v")
		return p
	}
	p.nameOnly = nameOnlyPattern().MatchString(content)
	pat := strings.TrimSpace(content)
	var b strings.Builder
	stars := 0
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < len(pat) && (pat[i+1] == '*' || pat[i+1] == '\\'):
			b.WriteString(regexp.QuoteMeta(pat[i+1 : i+2]))
			i++
		case c == '*':
			b.WriteString(".*")
			stars++
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	expr := b.String()
	if stars == 1 && strings.HasSuffix(expr, " .*") {
		expr = expr[:len(expr)-len(" .*")] + "(?: .*)?"
	}
	p.re = regexp.MustCompile(`(?s)^` + expr + `$`)
	return p
}

// extends reports whether cmd with more words after it can match: its
// words begin the pattern's literal start (git for Bash(git push *)).
func (p shellPattern) extends(cmd string) bool {
	lit := p.prefix
	if !p.isPrefix {
		lit, _, _ = strings.Cut(strings.TrimSpace(p.raw), "*")
	}
	return strings.HasPrefix(lit, cmd+" ")
}

func (p shellPattern) matches(cmd string) bool {
	if p.isPrefix {
		return cmd == p.prefix || strings.HasPrefix(cmd, p.prefix+" ")
	}
	return p.re.MatchString(cmd)
}

// maxShellCommand bounds what is parsed; a longer command is not analysed
// and the hook runs.
const maxShellCommand = 1 << 16

func (p shellPattern) match(command string, memo *Memo, stop func() bool) (bool, string) {
	rule := "Bash(" + p.raw + ")"
	if len(command) > maxShellCommand {
		return true, "the command is too long to analyse, so the hook runs (as Claude Code does when it cannot tell)"
	}
	runs, err := analyzeRunsOnce(command, memo, stop)
	if err != nil {
		return true, "the command cannot be read (" + err.Error() + "), so the hook runs, as in Claude Code"
	}
	if runs.dynamic && !p.nameOnly {
		return true, "the command holds $(…), backticks or $VAR and " + rule + " names more than the command, so the hook runs, as in Claude Code"
	}
	for _, f := range runs.forms {
		if p.matches(f) || (p.alt != nil && p.alt.matches(f)) {
			return true, "subcommand `" + clip(f) + "` matches " + rule
		}
	}
	for _, f := range runs.open {
		if p.extends(f) {
			return true, "xargs adds the words of its input to `" + clip(f) + "`, which can make it match " + rule + ", so the hook runs"
		}
	}
	if runs.doubt != "" {
		return true, runs.doubt + ", so the hook runs"
	}
	if len(runs.forms) == 0 {
		return false, "the command runs no command"
	}
	return false, "no subcommand matches " + rule
}
