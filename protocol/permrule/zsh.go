package permrule

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zsh: the strings a zsh runs are read as sh, since what people write
// there (zsh -c 'echo hi', zsh -c 'ls *.go') parses and runs alike in
// both; but zsh gives meaning to some forms that bash parses as plain
// words, and those run what a Bash reading does not list:
//
//   - precommand words: `repeat 1 rm -rf /` and `nocorrect rm …` run rm,
//     `- rm …` too (bash: a program named repeat, nocorrect, -), and
//     noglob, refused with them;
//   - a glob qualifier, which bash parses as an extended glob:
//     *(e:'rm -rf /':), *(+fn), *(oe:…:) run code for each file;
//   - =cmd, the path of cmd: `=rm -rf /` runs /bin/rm;
//   - its tables of aliases, functions and commands, set by assignment
//     (aliases[ls]='rm -rf /', commands[ls]=/bin/rm), hash ls=/bin/rm
//     or a global or suffix alias (alias -g X='true;' makes `echo X rm`
//     run rm), and NULLCMD, the command a bare redirection runs;
//   - builtins that run a command string or their arguments: emulate -c,
//     sched, zpty, zargs.
//
// A string that uses any of them is refused (stopped); ${(e)…} and the
// other parameter flags, =(…), `always` and the short loop forms do not
// parse as Bash and are refused as any such string is. The strings read
// so are those s.zsh marks: a zsh's, and those of su, script and ssh,
// whose login shell may be zsh (macOS').

// zshFamily: zsh and its builds (rzsh, zsh-static, zsh-5.9, zsh5).
func zshFamily(base string) bool {
	return base == "rzsh" || base == "zsh-static" || base == "zsh" || versioned(base, "zsh")
}

// zshTable: a variable whose values zsh runs or looks commands up in
// (zsh/parameter's special hashes, NULLCMD), as bash's BASH_ALIASES and
// BASH_CMDS (codeVar). A switch, not a map: nothing to build at start.
func zshTable(name string) bool {
	switch name {
	case "aliases", "galiases", "saliases", "dis_aliases", "dis_galiases", "dis_saliases",
		"functions", "dis_functions", "commands", "NULLCMD", "READNULLCMD":
		return true
	}
	return false
}

// zshOtherwise returns what text, a string zsh may run (s.zsh), does that
// zsh reads otherwise than bash; "" for none, or where no zsh runs it.
// cmds are its simple commands as parseShell read them, with the values
// the line gives their words (X='repeat 1 rm -rf /'; zsh -c "$X").
func (s *shellRuns) zshOtherwise(text string, cmds []shellCommand) string {
	if !s.zsh {
		return ""
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return "it does not parse" // parseShell refused it already
	}
	why := ""
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ExtGlob:
			why = "a glob qualifier (" + clip(source(n, text)) + "), which can run code"
		case *syntax.Assign:
			if n.Name != nil && zshTable(n.Name.Value) {
				why = "it sets " + n.Name.Value + ", which names the commands zsh runs"
			}
		case *syntax.Word:
			if zshEquals(n) {
				why = "a word starting with = (" + clip(source(n, text)) + "), which zsh replaces with a command's path"
			}
		}
		return why == ""
	})
	for _, c := range cmds {
		if why != "" {
			break
		}
		why = zshCommand(c.words)
	}
	return why
}

// zshEquals: a word starting with an unquoted = and more (=rm, =(…)),
// which zsh's EQUALS expands; a lone = (test's operator) is not, and ==
// only makes zsh fail.
func zshEquals(w *syntax.Word) bool {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "=") || strings.HasPrefix(lit.Value, "==") {
		return false
	}
	return len(lit.Value) > 1 || len(w.Parts) > 1
}

// zshCommand returns what a simple command does in zsh that bash reads
// otherwise (zsh.go's list), past the precommand words both read alike.
func zshCommand(words []shellWord) string {
	for i, w := range words {
		if !w.static {
			return ""
		}
		switch w.text {
		case "builtin", "command", "exec":
			continue
		case "repeat", "nocorrect", "noglob", "-":
			return "the precommand word `" + w.text + "`, after which zsh runs the command"
		case "sched", "zpty", "zargs":
			return "`" + w.text + "`, which runs the command its arguments give"
		}
		for _, a := range words[i+1:] {
			if why := zshArgument(w.text, a); why != "" {
				return "`" + clip(joinWords(words[i:])) + "`, which " + why
			}
		}
		return ""
	}
	return ""
}

// zshArgument: what an argument makes cmd do that changes what zsh runs
// ("" for nothing): emulate
// -c STRING, hash NAME=PATH, alias -g or -s, or a zshTable named
// to a builtin that sets the variables it names (set -A aliases …, read
// -A functions, typeset 'commands[ls]=…'): see zshTable.
func zshArgument(cmd string, a shellWord) string {
	t := a.text
	opt := len(t) > 1 && (t[0] == '-' || t[0] == '+')
	switch {
	case !a.static:
		return ""
	case cmd == "emulate" && opt && strings.Contains(t, "c"):
		return "runs a command string"
	case cmd == "hash" && strings.Contains(t, "="),
		cmd == "alias" && opt && strings.ContainsAny(t, "gs"):
		return "changes what zsh runs for a word"
	case !strings.Contains(" set read typeset declare local export readonly integer float private print printf vared getopts zparseopts ", " "+cmd+" "):
		return ""
	}
	name, _, _ := strings.Cut(t, "[")
	name, _, _ = strings.Cut(name, "=")
	if zshTable(strings.TrimSuffix(name, "+")) {
		return "sets " + name + ", which names the commands zsh runs"
	}
	return ""
}
