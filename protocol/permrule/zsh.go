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
//   - its tables of aliases, functions, commands and options, set by
//     assignment (aliases[ls]='rm -rf /', commands[ls]=/bin/rm,
//     options[globsubst]=on), hash ls=/bin/rm
//     or a global or suffix alias (alias -g X='true;' makes `echo X rm`
//     run rm), and NULLCMD, the command a bare redirection runs;
//   - builtins that run a command string or their arguments: emulate -c,
//     sched, zpty, zargs, and zargs' kin zmv, zcp and zln (zmv -p rm …);
//   - $ before =, ~ or ^ ($=X splits X's value into words, $~X makes it
//     a pattern, whose qualifiers may run code, $^X spreads an array as
//     braces do), and $#X, X's length (bash: $# then X);
//   - modifiers: ${X:l}, ${X:r}, ${X:u} … (a letter or & after the
//     colon, where bash reads an offset), and $X:r, $X:h, "$X:l" … after
//     an unbraced $X (bash: the literal text :r);
//   - subscripts, which zsh counts from 1 and reads ranges in: ${x[1]},
//     ${X[1,2]}, $x[1] (bash: $x then [1]), x[1]=… and set -A; only
//     ${x[@]} and ${x[*]}, alike in both, are read;
//   - glob_subst, under which a value's glob qualifier runs code: setopt,
//     unsetopt or set -o naming it (any case, _ ignored, no… too), setopt
//     with options only known when it runs, emulate sh (ksh, bash), and
//     a zsh started with -o glob_subst (or -o only known when it runs) or
//     --emulate other than zsh (wrappers.go's shell asks zshStartOptions);
//   - those tables set through a default: ${functions[ls]=…},
//     ${NULLCMD:=…}.
//
// A string that uses any of them is refused (stopped); ${(e)…} and the
// other parameter flags, ${=X}, ${~X}, ${X:s/a/b/}, ${X:&}, =(…),
// `always` and the short loop forms do not
// parse as Bash and are refused as any such string is. The strings read
// so are those s.zsh marks: a zsh's, and those of su, script and ssh,
// whose login shell may be zsh (macOS').

// zshMode is whether the strings being read run in zsh (shellRuns.zsh).
type zshMode uint8

const (
	notZsh zshMode = iota
	// mayBeZsh: a login shell that may be zsh (ssh's, su's, script's),
	// mostly bash: the forms bash text also has ($USER:www-data, ${a[0]},
	// $x of an array) are read as bash's.
	mayBeZsh
	isZsh // zsh -c: those forms are read as zsh's too
)

// inZsh makes m what the strings read from now run in, and returns what
// puts the one before back: defer s.inZsh(m)().
func (s *shellRuns) inZsh(m zshMode) func() {
	was := s.zsh
	s.zsh = m
	return func() { s.zsh = was }
}

// zshFamily: zsh and its builds (rzsh, zsh-static, zsh-5.9, zsh5).
func zshFamily(base string) bool {
	return base == "rzsh" || base == "zsh-static" || base == "zsh" || versioned(base, "zsh")
}

// zshTable: a variable whose values zsh runs or looks commands up in
// (zsh/parameter's special hashes, NULLCMD), as bash's BASH_ALIASES and
// BASH_CMDS (codeVar), or that sets its options (options[globsubst]=on).
// A switch, not a map: nothing to build at start.
func zshTable(name string) bool {
	switch name {
	case "aliases", "galiases", "saliases", "dis_aliases", "dis_galiases", "dis_saliases",
		"functions", "dis_functions", "commands", "NULLCMD", "READNULLCMD", "options":
		return true
	}
	return false
}

// zshOtherwise returns what text, a string zsh may run (s.zsh), does that
// zsh reads otherwise than bash; "" for none, or where no zsh runs it.
// file is text as parseShell parsed it, cmds its simple commands with the
// values the line gives their words (X='repeat 1 rm -rf /'; zsh -c "$X").
func (s *shellRuns) zshOtherwise(text string, file *syntax.File, cmds []shellCommand) string {
	if s.zsh == notZsh {
		return ""
	}
	sure := s.zsh == isZsh
	// zsh's $x is every element of an array, bash's the first: x=(rm -rf
	// /); $x runs rm -rf / there. "${x[@]}" is the same in both.
	arrays := map[string]bool{}
	if sure {
		syntax.Walk(file, func(n syntax.Node) bool {
			if a, ok := n.(*syntax.Assign); ok && a.Name != nil && a.Array != nil {
				arrays[a.Name.Value] = true
			}
			return true
		})
	}
	why := ""
	syntax.Walk(file, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		if p, ok := n.(*syntax.ParamExp); ok && sure && p.Param != nil && arrays[p.Param.Value] && p.Index == nil && !p.Length {
			why = "$" + p.Param.Value + " of an array, which is every element in zsh"
			return false
		}
		switch n := n.(type) {
		case *syntax.ExtGlob:
			why = "a glob qualifier (" + clip(source(n, text)) + "), which can run code"
		case *syntax.Assign:
			switch {
			case n.Name != nil && zshTable(n.Name.Value):
				why = "it sets " + n.Name.Value + ", which names the commands zsh runs or its options"
			case n.Index != nil && sure:
				why = "it assigns by subscript (" + clip(source(n, text)) + "), which zsh counts from 1"
			}
		case *syntax.Word:
			if zshEquals(n) {
				why = "a word starting with = (" + clip(source(n, text)) + "), which zsh replaces with a command's path"
			} else {
				why = zshParts(n.Parts, text, sure)
			}
		case *syntax.DblQuoted:
			why = zshParts(n.Parts, text, sure)
		case *syntax.ParamExp:
			why = zshParam(n, text, sure)
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
		case "sched", "zpty", "zargs", "zmv", "zcp", "zln":
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
// ("" for nothing): emulate -c STRING, emulate sh (or ksh, bash: they set
// glob_subst), hash NAME=PATH, alias -g or -s, setopt, unsetopt or set -o
// naming glob_subst (or setopt with options only known when it runs),
// set -A, or a zshTable named to a builtin that sets the variables it
// names (read -A functions, typeset 'commands[ls]=…'): see zshTable.
func zshArgument(cmd string, a shellWord) string {
	t := a.text
	opt := len(t) > 1 && (t[0] == '-' || t[0] == '+')
	switch {
	case !a.static && (cmd == "setopt" || cmd == "unsetopt"):
		return "sets options only known when it runs"
	case !a.static && strings.Contains(" typeset declare local export readonly integer float private ", " "+cmd+" "):
		// export PATH=$HOME/bin:$PATH names its variable; "$n=…" (n=
		// functions[ls]) does not.
		name, _, _ := strings.Cut(t, "=")
		name, _, _ = strings.Cut(name, "[")
		if name = strings.TrimSuffix(name, "+"); !syntax.ValidName(name) {
			return "names a variable only known when it runs"
		}
		if zshTable(name) {
			return "sets " + name + ", which names the commands zsh runs"
		}
		return ""
	case !a.static:
		return ""
	case cmd == "emulate" && opt && strings.Contains(t, "c"):
		return "runs a command string"
	case (cmd == "setopt" || cmd == "unsetopt" || cmd == "set") && zshGlobSubst(t),
		cmd == "emulate" && (t == "sh" || t == "ksh" || t == "bash"):
		return "sets glob_subst, under which a value's glob qualifier runs code"
	case cmd == "set" && opt && strings.Contains(t, "A"):
		return "sets an array, which zsh expands whole and counts from 1"
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

// zshGlobSubst: an option name that is glob_subst, as zsh reads option
// names (any case, underscores ignored; no_ inverts, so noglobsubst is
// refused with it).
func zshGlobSubst(name string) bool {
	return strings.Contains(strings.ToLower(strings.ReplaceAll(name, "_", "")), "globsubst")
}

// zshStartOptions returns what the options a zsh is started with make
// it read otherwise than bash ("" for nothing): -o (+o) naming glob_subst
// or only known when it runs, and --emulate other than zsh (sh and ksh
// set glob_subst).
func zshStartOptions(opts []option) string {
	for _, o := range opts {
		switch {
		case o.name == "o" && (!o.static || zshGlobSubst(o.value)):
			return "-o " + o.value + ", an option (glob_subst) under which a value's glob qualifier runs code"
		case o.name == "--emulate" && (!o.static || o.value != "zsh"):
			return "--emulate " + o.value + ", which sets glob_subst, under which a value's glob qualifier runs code"
		}
	}
	return ""
}

// zshParts returns what a word's parts (or a "…" string's) mean in zsh
// that bash reads otherwise ("" for nothing): $ before =, ~ or ^ ($=X
// splits X's value into words, $~X makes it a pattern whose qualifiers
// may run code, $^X expands an array as braces do); $#X, X's length; and
// after an unbraced $X, a modifier (:l, :r, :h, :&) or a subscript
// ([1], counted from 1) — those three only where it is zsh (sure): a
// login shell that may be zsh is mostly bash, and bash text has them
// ($USER:www-data, $IMAGE:latest).
func zshParts(parts []syntax.WordPart, text string, sure bool) string {
	for i, p := range parts {
		var next string
		if i+1 < len(parts) {
			if l, ok := parts[i+1].(*syntax.Lit); ok {
				next = l.Value
			}
		}
		switch p := p.(type) {
		case *syntax.Lit:
			if zshDollarFlag(p.Value + next) {
				return "a $ before =, ~ or ^ (" + clip(source(p, text)+next) + "), which splits a value, makes it a pattern or spreads it"
			}
		case *syntax.ParamExp:
			if !p.Short || next == "" || !sure {
				continue
			}
			c := next[0]
			switch {
			case p.Param.Value == "#" && (c == '_' || isLetter(c)):
				return "$#" + next + ", which zsh reads as a length"
			case c == '[':
				return "a subscript after $" + p.Param.Value + ", which zsh applies, counting from 1"
			case c == ':' && len(next) > 1 && (next[1] == '&' || isLetter(next[1])):
				return "a modifier after $" + p.Param.Value + " (" + clip(next) + "), which zsh applies to its value"
			}
		}
	}
	return ""
}

// zshDollarFlag: s has a $ (not escaped) followed by =, ~ or ^.
func zshDollarFlag(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '$':
			if strings.IndexByte("=~^", s[i+1]) >= 0 {
				return true
			}
		}
	}
	return false
}

// zshParam returns what a ${…} means in zsh that bash reads otherwise:
// ${X:l} (a modifier: l u r e h t q Q a A c P s… &…, where bash reads an
// offset), a subscript other than [@] or [*] (zsh counts from 1 and reads
// [1,2] as a range) — those two only where it is zsh (sure, as zshParts)
// —, or ${T=…}, ${T:=…} assigning to a zshTable.
func zshParam(p *syntax.ParamExp, text string, sure bool) string {
	if p.Slice != nil && sure {
		if w, ok := p.Slice.Offset.(*syntax.Word); ok && len(w.Parts) > 0 {
			if l, ok := w.Parts[0].(*syntax.Lit); ok && l.Value != "" && (l.Value[0] == '&' || isLetter(l.Value[0])) {
				return "a modifier (" + clip(source(p, text)) + "), which zsh applies where bash reads an offset"
			}
		}
	}
	if p.Index != nil && sure {
		if i := source(p.Index, text); i != "@" && i != "*" {
			return "a subscript (" + clip(source(p, text)) + "), which zsh counts from 1 and reads ranges in"
		}
	}
	if p.Exp != nil && p.Param != nil && zshTable(p.Param.Value) &&
		(p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) {
		return "it sets " + p.Param.Value + " (" + clip(source(p, text)) + "), which names the commands zsh runs or its options"
	}
	return ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// viaShellWords is what makes the words sudo -s or -i hands the user's
// shell run otherwise than as those words ("" for nothing). sudo joins
// them into a -c string with every character escaped but letters,
// digits, _, - and $, so a $NAME stays live: the login environment's
// value (sudo -i resets the rest), which can be a command ($SHELL, and
// $_, the shell's own path: sudo -s env '$SHELL' -c …), split by IFS
// (rm$IFS-rf$IFS/ runs rm -rf /), or a special parameter ($0). Only the
// values that name a place or a person are left to be read as the words
// ($HOME, $USER …: cd $HOME/app); a word only known when it runs is read
// as the analysis reads it, but as the command's name. And a zsh (macOS'
// login shell) reads repeat, nocorrect … as its own (zshCommand).
func viaShellWords(words []shellWord) string {
	for i, w := range words {
		if w.static && liveDollar(w.text) || i == 0 && (!w.static || strings.Contains(w.text, "$")) {
			return "`" + clip(w.text) + "`, whose $ the shell expands"
		}
	}
	return zshCommand(words)
}

// liveDollar: s has a $ the shell expands to something other than one of
// the plain values of a login environment (plainLoginVar).
func liveDollar(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(s) && (isLetter(s[j]) || s[j] == '_' || j > i+1 && s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if !plainLoginVar(s[i+1 : j]) {
			return true
		}
	}
	return false
}

// plainLoginVar: a variable of a login environment whose value is a
// place or a name, never a command or a separator.
func plainLoginVar(name string) bool {
	switch name {
	case "HOME", "USER", "LOGNAME", "PATH", "PWD", "HOSTNAME", "TMPDIR", "LANG", "TERM", "MAIL":
		return true
	}
	return false
}
