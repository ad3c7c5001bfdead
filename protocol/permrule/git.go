package permrule

import (
	"slices"
	"strings"
)

// git: its options, the commands it runs itself and the aliases a line
// gives it.

// git's options before its command (-C DIR, --no-pager, --git-dir=…)
// say where and how it runs, not what: git -C x push is compared as git
// push too (and git -C x alone as git, for xargs to complete). -c and
// --config-env can make git run a command of their own (an alias "!…",
// core.pager, core.sshCommand …), and so can some of its commands given
// one (gitRuns): doubt. An alias the line gives (-c alias.NAME=VALUE, git
// config alias.NAME VALUE) is followed where git runs it (gitAlias).
func (s *shellRuns) git(text string, args []shellWord, c shellCommand, depth int) {
	spec := optSpec{flags: "pPhv", args: "Cc",
		longFlags: " no-pager paginate bare no-replace-objects literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs no-optional-locks no-lazy-fetch no-advice version help html-path man-path info-path exec-path list-cmds ",
		longArgs:  " git-dir work-tree namespace super-prefix config-env attr-source "}
	opts, rest, ok := parseOpts(args, spec, false)
	if !ok {
		s.unsure("`" + clip(text) + "` passes git options this analysis does not read")
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
		if marks := gitRuns(rest[0].text); marks != nil && ownCommand(marks, rest[1:]) {
			s.unsure("`" + clip(text) + "` gives git a command to run (rebase -x, bisect run …)")
		}
		if rest[0].text == "config" {
			s.gitConfigAlias(text, rest[1:], depth)
		} else {
			s.gitAlias(text, args[:len(args)-len(rest)], rest, c, depth)
		}
	}
	for _, a := range rest {
		if strings.Contains(a.text, "ext::") {
			s.unsure("`" + clip(text) + "` names a git remote of the ext:: transport, which runs a command")
		}
	}
}

// aliasSetting reads a -c setting NAME=VALUE as an alias's (alias.NAME,
// the key in any case, as git reads config keys).
func aliasSetting(setting string) (name, value string, ok bool) {
	key, value, ok := strings.Cut(setting, "=")
	if !ok || len(key) <= len("alias.") || !strings.EqualFold(key[:len("alias.")], "alias.") {
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
// now.
func (s *shellRuns) gitConfigAlias(text string, args []shellWord, depth int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.static && strings.Contains(gitConfigOptValue, " "+a.text+" ") {
			i++
			continue
		}
		if !a.static || !strings.HasPrefix(strings.ToLower(a.text), "alias.") || i+1 >= len(args) {
			continue
		}
		name, v := strings.ToLower(a.text[len("alias."):]), args[i+1]
		if !v.static {
			s.unsure("`" + clip(text) + "` defines a git alias only known when it runs")
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

// gitRuns: for a git command that runs a command given to it, the
// options (or words) that give it, as ownCommands' marks; nil for others.
// A switch, not a map: nothing to build at every start.
func gitRuns(cmd string) []string {
	switch cmd {
	case "rebase":
		return []string{"-x", "--exec"}
	case "difftool":
		return []string{"-x", "--extcmd"}
	case "grep":
		return []string{"-O", "--open-files-in-pager"}
	case "fetch", "pull", "ls-remote":
		return []string{"--upload-pack"}
	case "clone":
		return []string{"-u", "--upload-pack", "-c", "--config"}
	case "fetch-pack":
		return []string{"--upload-pack", "--exec"}
	case "push", "send-pack":
		return []string{"--receive-pack", "--exec"}
	case "archive":
		return []string{"--exec"}
	case "bisect":
		return []string{"run"}
	case "submodule":
		return []string{"foreach"}
	case "filter-branch":
		return []string{""}
	}
	return nil
}
