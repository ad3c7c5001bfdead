package permrule

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// git: its options, the commands it runs itself and the aliases a line
// gives it.

// git's options before its command (-C DIR, --no-pager, --git-dir=…)
// say where and how it runs, not what: git -C x push is compared as git
// push too (and git -C x alone as git, for xargs to complete). -c and
// --config-env can make git run a command of their own (an alias "!…",
// core.pager, core.sshCommand …), and so can some of its commands given
// one (gitCommandOptsOf): doubt. An alias the line gives (-c alias.NAME=VALUE, git
// config alias.NAME VALUE) is followed where git runs it (gitAlias); a
// command its configuration or variables give it where the line gives
// them (gitSettings, gitConfigCommand), and one its command is given
// (gitCommandRuns: rebase -x, bisect run, submodule foreach …).
func (s *shellRuns) git(text string, args []shellWord, c shellCommand, depth int) {
	spec := optSpec{flags: "pPhv", args: "Cc",
		longFlags: " no-pager paginate bare no-replace-objects literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs no-optional-locks no-lazy-fetch no-advice version help html-path man-path info-path exec-path list-cmds ",
		longArgs:  " git-dir work-tree namespace super-prefix config-env attr-source "}
	opts, rest, ok := parseOpts(args, spec, false)
	if !ok {
		s.unsure("`" + clip(text) + "` passes git options this analysis does not read")
		return
	}
	if why := s.gitEnvAlias(opts, rest); why != "" {
		s.stopped("`" + clip(text) + "` may set a git alias through " + why + ", which this analysis does not follow")
		return
	}
	if why := s.gitSettings(text, opts, depth); why != "" {
		s.stopped("`" + clip(text) + "` " + why)
		return
	}
	for _, o := range opts {
		if o.name == "c" || o.name == "--config-env" {
			s.unsure("`" + clip(text) + "` sets git configuration, which can run commands (an alias, a pager)")
		}
		if _, v, ok := aliasSetting(o.value); ok && o.name == "c" && o.static {
			s.gitAliasValue(v, text, depth)
		}
	}
	if len(opts) > 0 {
		s.addForm(joinWords(append([]shellWord{{text: "git", static: true}}, rest...)))
	}
	if len(rest) > 0 && rest[0].static {
		if gitCommandOptsOf(rest[0].text).givesCommand(rest[1:]) {
			s.unsure("`" + clip(text) + "` gives git a command to run (rebase -x, bisect run …)")
		}
		if rest[0].text == "config" {
			s.gitConfigAlias(text, rest[1:], depth)
		} else {
			s.gitAlias(text, args[:len(args)-len(rest)], rest, c, depth)
		}
		if why := s.gitCommandRuns(text, rest, c, depth); why != "" {
			s.stopped("`" + clip(text) + "` " + why)
			return
		}
	}
	for _, a := range rest {
		if strings.Contains(a.text, "ext::") {
			s.unsure("`" + clip(text) + "` names a git remote of the ext:: transport, which runs a command")
		}
	}
}

// gitEnvAlias reports how git may be given an alias that is not
// followed as -c alias.NAME=VALUE is: --config-env=alias.NAME=VAR (its
// value in the environment), -c alias.NAME=… with a value only known when
// it runs (gitAlias follows a static one), a -c or --config-env setting
// whose key is only known when it runs (-c "$X", --config-env="$K"; git -c
// "user.name=$N" names its key), a configuration file included from a
// pipe (-c include.path=/dev/stdin, <(…)) or named in the environment
// (--config-env=include.path=V), or the line's values of GIT_CONFIG_KEY_n
// (with GIT_CONFIG_COUNT and GIT_CONFIG_VALUE_n) or GIT_CONFIG_PARAMETERS
// (what git -c hands the gits it starts) naming one, or only known when
// it runs, and of GIT_CONFIG_GLOBAL or GIT_CONFIG_SYSTEM naming a pipe.
// Refused, not followed.
func (s *shellRuns) gitEnvAlias(opts []option, rest []shellWord) string {
	for _, o := range opts {
		setting := o.value
		if !o.static {
			setting = o.script
		}
		key, val, _ := strings.Cut(setting, "=")
		switch {
		case (o.name == "c" || o.name == "--config-env") && strings.HasPrefix(strings.ToLower(key), "include") &&
			(o.name == "--config-env" || !o.static || readsStdin(val)):
			return o.name + " " + clip(o.word().text) + " (a configuration file it cannot read)"
		case o.name != "c" && o.name != "--config-env":
		case strings.ContainsAny(key, "$`") || !o.static && o.script == "":
			return o.name + " " + clip(o.word().text) + " (a key only known when it runs)"
		case o.name == "--config-env" && aliasKey(key):
			return "--config-env"
		case !o.static && aliasKey(key):
			return "-c " + clip(o.word().text) + " (a value only known when it runs)"
		}
	}
	if len(rest) > 0 && !rest[0].static && (strings.HasPrefix(rest[0].text, "-c") || strings.HasPrefix(rest[0].text, "--config-env")) {
		return clip(rest[0].text) + " (a setting only known when it runs)"
	}
	if s.vals == nil {
		return ""
	}
	for name, vals := range s.vals.vals {
		if gitConfigFile(name) && slices.ContainsFunc(vals, readsStdin) {
			return name + " (a configuration file read from a pipe)"
		}
		if !gitConfigEnv(name) {
			continue
		}
		if len(vals) == 0 {
			return name + " (a value only known when it runs)"
		}
		for _, v := range vals {
			if gitEnvAliasValue(name, v) {
				return name
			}
		}
	}
	return ""
}

// gitConfigEnv: a variable that gives git configuration of its own.
func gitConfigEnv(name string) bool {
	return name == "GIT_CONFIG_PARAMETERS" || strings.HasPrefix(name, "GIT_CONFIG_KEY_")
}

// gitConfigFile: a variable naming a configuration file git reads.
func gitConfigFile(name string) bool {
	return name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG"
}

// gitEnvAliasValue: a value of a gitConfigEnv variable that sets an
// alias (the key alias.NAME, in any case; GIT_CONFIG_PARAMETERS holds
// quoted 'key=value' pairs).
func gitEnvAliasValue(name, v string) bool {
	if name == "GIT_CONFIG_PARAMETERS" {
		// git's own hand-over of -c to the gits it starts, quoted its
		// way ('al''ias.x=…' is alias.x): nobody sets it by hand, and a
		// value is not read here.
		return true
	}
	return aliasKey(v)
}

// gitConfigHidden is parseShell's check of what could give git an alias
// or a configuration file the line's text does not show, an error for
// each: an assignment to a gitConfigEnv variable (prefix, export,
// declare) whose value sets an alias or is only known when it runs; a
// gitConfigFile that is a pipe (GIT_CONFIG_GLOBAL=<(…)); a word naming a
// gitConfigNames variable with an = in it other than as plain NAME=VALUE
// (env GIT_CONFIG_KEY_0{,}=…, ${GIT_CONFIG_GLOBAL:=…}); a variable given
// one's name as its value (K=GIT_CONFIG_KEY_0, for export $K=… later);
// and a declaration whose name is not written out (export $K=…, declare
// -x N{,}=…: mvdan.cc/sh gives it no Name). Reading one (echo
// $GIT_CONFIG_GLOBAL, unset, printenv) is not. Every word of every line
// passes here: the cheap tests come first.
func gitConfigHidden(n syntax.Node, src string) error {
	switch n := n.(type) {
	case *syntax.Assign:
		return gitConfigAssign(n, src)
	case *syntax.Word:
		text := source(n, src)
		if !strings.Contains(text, "=") || plainAssignment(shellWordOf(n, src)) {
			return nil
		}
		return gitConfigNamed(text)
	}
	return nil
}

// gitConfigAssign is gitConfigHidden's check of an assignment.
func gitConfigAssign(a *syntax.Assign, src string) error {
	if a.Value == nil {
		return nil
	}
	if a.Name == nil {
		if sw := shellWordOf(a.Value, src); strings.Contains(sw.text, "=") && !plainAssignment(sw) {
			return fmt.Errorf("a declaration names its variable only when it runs (%s), which may set a git alias through the environment, or any variable", clip(source(a.Value, src)))
		}
		return nil
	}
	if name := a.Name.Value; gitConfigFile(name) || gitConfigEnv(name) {
		w := shellWordOf(a.Value, src)
		switch {
		case gitConfigFile(name) && (w.static && readsStdin(w.text) || strings.Contains(w.text, "<(")):
			return fmt.Errorf("it gives git a configuration file read from a pipe (%s), whose git aliases this analysis cannot read", name)
		case !gitConfigEnv(name):
		case !w.static:
			return fmt.Errorf("it gives %s a value only known when it runs, which may set a git alias through the environment", name)
		case gitEnvAliasValue(name, w.text):
			return fmt.Errorf("it sets a git alias through the environment (%s), which this analysis does not follow", name)
		}
	}
	return gitConfigNamed(source(a.Value, src))
}

// gitConfigNames are the variables gitConfigAssign checks where a line
// assigns them plainly; text that names one otherwise (gitConfigHidden)
// may assign it in a way that check does not see.
var gitConfigNames = []string{"GIT_CONFIG_KEY_", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"}

// gitConfigNamed is the error for text that names a gitConfigNames
// variable, nil for other text.
func gitConfigNamed(text string) error {
	for _, name := range gitConfigNames {
		if strings.Contains(text, name) {
			return fmt.Errorf("%s is named in a word other than as NAME=VALUE (%s): it may set a git alias through the environment, which this analysis does not follow", strings.TrimSuffix(name, "_"), clip(text))
		}
	}
	return nil
}

// plainAssignment: w is NAME=VALUE written out.
func plainAssignment(w shellWord) bool {
	name, _, ok := strings.Cut(w.text, "=")
	return ok && w.static && syntax.ValidName(name)
}

// aliasKey: a configuration key of git's aliases (alias.NAME, any case).
func aliasKey(key string) bool {
	return len(key) > len("alias.") && strings.EqualFold(key[:len("alias.")], "alias.")
}

// aliasSetting reads a -c setting NAME=VALUE as an alias's (alias.NAME,
// the key in any case, as git reads config keys).
func aliasSetting(setting string) (name, value string, ok bool) {
	key, value, ok := strings.Cut(setting, "=")
	if !ok || !aliasKey(key) {
		return "", "", false
	}
	return strings.ToLower(key[len("alias."):]), value, true
}

// gitAliasValue follows what an alias's value runs where the line
// defines it: a git config alias outlives the line, so what it will run
// is listed now (git config alias.st '!rm -rf ~' lists rm -rf ~). What
// the analysis cannot read in it does not make this line unreadable, as
// it does not run now (the '!f() { …; }; f' idiom).
func (s *shellRuns) gitAliasValue(v, text string, depth int) {
	lost, doubt := s.lost, s.doubt
	if sh, ok := strings.CutPrefix(v, "!"); ok {
		s.script(sh, text, depth)
	} else if words, ok := gitSplit(v); ok {
		s.gitAliasCommand(text, []shellWord{{text: "git", static: true}}, words, nil, shellCommand{}, depth)
	}
	if !s.vals.halted() {
		s.lost, s.doubt = lost, doubt
	}
}

// gitSplit splits an alias value into words as git does (split_cmdline):
// at white space outside quotes, ' and " quote, a backslash escapes the
// next character except between single quotes; nothing else is special
// (no $, no ;, no #). ok is false where git refuses the value (an open
// quote, a backslash at the end).
func gitSplit(v string) (words []string, ok bool) {
	var b strings.Builder
	var quote byte
	inWord := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'):
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
			continue
		case quote == 0 && (c == '\'' || c == '"'):
			quote, inWord = c, true
			continue
		case c == quote:
			quote = 0
			continue
		case c == '\\' && quote != '\'':
			if i++; i == len(v) {
				return nil, false
			}
			c = v[i]
		}
		b.WriteByte(c)
		inWord = true
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, true
}

// gitAliasCommand follows git with an alias's words: head (git and the
// options kept), the words, then tail (the words after the alias's name).
func (s *shellRuns) gitAliasCommand(text string, head []shellWord, words []string, tail []shellWord, c shellCommand, depth int) {
	if depth >= maxRunDepth {
		s.stopped("`" + clip(text) + "` nests git aliases too deep to follow")
		return
	}
	w := slices.Clone(head)
	for _, x := range words {
		w = append(w, shellWord{text: x, static: true})
	}
	w = append(w, tail...)
	s.command(shellCommand{words: w, stdin: c.stdin, stdinText: c.stdinText}, depth+1)
}

// gitConfigOptValue are git config's options whose value is the next word
// (git config --file alias.cfg alias.p … names the file alias.cfg).
const gitConfigOptValue = " -f --file --blob --type --default --comment --value "

// gitConfigAlias reads git config [OPTIONS] [set] alias.NAME VALUE: the
// alias is kept for a later git NAME on the line, and its value followed
// now; so is the value of a key git runs a command for (git config
// core.pager less: gitConfigCommand).
func (s *shellRuns) gitConfigAlias(text string, args []shellWord, depth int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.static && strings.Contains(gitConfigOptValue, " "+a.text+" ") {
			i++
			continue
		}
		if a.static && i+1 < len(args) && gitRunsKey(a.text) {
			s.gitConfigCommand(text, a.text, args[i+1], depth)
			return
		}
		if why := gitConfigHides(args, i); why != "" {
			s.stopped("`" + clip(text) + "` " + why + ", which this analysis does not follow")
			return
		}
		if !a.static || !strings.HasPrefix(strings.ToLower(a.text), "alias.") || i+1 >= len(args) {
			continue
		}
		name, v := strings.ToLower(a.text[len("alias."):]), args[i+1]
		if !v.static {
			s.stopped("`" + clip(text) + "` defines a git alias only known when it runs")
			return
		}
		s.gitAliasValue(v.text, text, depth)
		if s.gitAliases == nil {
			s.gitAliases = map[string][]string{}
		}
		if !slices.Contains(s.gitAliases[name], v.text) {
			s.gitAliases[name] = append(s.gitAliases[name], v.text)
		}
		return
	}
}

// gitConfigHides is what git config's word i, with the words after it,
// does that may give an alias the line does not show ("" for nothing): a
// key only known when it runs, given a value (git config "$K" V), or a
// section renamed or copied to alias (git config foo.x '!…'; git config
// --rename-section foo alias).
func gitConfigHides(args []shellWord, i int) string {
	a := args[i]
	switch {
	case !a.static && !strings.HasPrefix(a.text, "-") && i+1 < len(args) && !gitPlainKey(a.text):
		return "sets a key only known when it runs"
	case a.static && strings.Contains(" --rename-section rename-section --copy-section copy-section ", " "+a.text+" ") && i+2 < len(args):
		if to := args[i+2]; !to.static || strings.HasPrefix(strings.ToLower(to.text), "alias") {
			return "moves a section to " + clip(to.text)
		}
	}
	return ""
}

// gitPlainKey: a key whose section and name are written out, and only its
// subsection is known when it runs (branch."$B".remote, remote.$R.url):
// neither an alias, an include nor a key git runs a command for.
func gitPlainKey(key string) bool {
	key = strings.ReplaceAll(key, `"`, "")
	first, rest, ok := strings.Cut(key, ".")
	i := strings.LastIndexByte(rest, '.')
	if !ok || i < 0 || strings.ContainsAny(first, "$`") || strings.ContainsAny(rest[i+1:], "$`") || first == "" {
		return false
	}
	section, name := strings.ToLower(first), rest[i+1:]
	return section != "alias" && !strings.HasPrefix(section, "include") && !gitRunsKey(section+".x."+name) && !gitRunsKey(section+"."+name)
}

// gitAlias follows git NAME WORDS… where NAME is an alias the line gives
// (-c alias.NAME=VALUE among opts, or git config before): git runs VALUE
// with WORDS after it — a ! value as a shell command string, any other
// split as git splits it, as git's command with git's options. The alias
// is not expanded again inside its own expansion (git refuses a loop).
func (s *shellRuns) gitAlias(text string, opts, rest []shellWord, c shellCommand, depth int) {
	name := strings.ToLower(rest[0].text)
	var values []string
	kept := []shellWord{{text: "git", static: true}}
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		setting, pair := "", false
		switch {
		case o.static && o.text == "-c" && i+1 < len(opts):
			setting, pair = opts[i+1].text, true
		case o.static && strings.HasPrefix(o.text, "-c"):
			setting = o.text[2:]
		}
		if n, v, ok := aliasSetting(setting); ok && n == name {
			values = append(values, v)
			if pair {
				i++
			}
			continue // not in its own expansion
		}
		kept = append(kept, o)
	}
	lineValues := s.gitAliases[name]
	values = append(values, lineValues...)
	if len(values) == 0 {
		return
	}
	delete(s.gitAliases, name)
	for _, v := range values {
		if s.aliasesDone++; s.aliasesDone > maxAliasExpansions {
			s.stopped("the command expands more aliases than this analysis follows")
			break
		}
		if sh, ok := strings.CutPrefix(v, "!"); ok {
			s.scriptWith(sh+" "+quoteWords(rest[1:]), text, depth, c)
			continue
		}
		if words, ok := gitSplit(v); ok {
			s.gitAliasCommand(text, kept, words, rest[1:], c, depth)
		}
	}
	if lineValues != nil {
		s.gitAliases[name] = lineValues
	}
}
