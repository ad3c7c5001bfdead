package permrule

import "strings"

// git's commands that run a command given to them: rebase -x CMD, bisect
// run CMD ARGS…, submodule foreach CMD, filter-branch --tree-filter CMD,
// difftool -x CMD … Each is followed as the command string git runs (with
// sh, as run-command's use_shell does), so that `git rebase -x 'rm -rf /'`
// lists rm -rf /.

// gitCommandOpts is what of a git command's words gives it a command to
// run: options whose value is a command string it runs (runs), options
// whose value is a setting KEY=VALUE (config: clone's -c and --config;
// gitSetting), a word after which its words are the command (bisect run,
// submodule foreach), or, for filter-branch, whatever it is given
// (always: each of its filters is a shell script). One table: what
// gitCommandRuns follows is what givesCommand calls doubt. A switch, not a
// map: nothing to build at every start. The upload-pack and receive-pack
// commands run here for a local remote, over ssh for others: listed
// either way.
type gitCommandOpts struct {
	runs, config gitOpts
	word         string
	always       bool
}

// gitOpts are options by their short letters and long names (" name "),
// and whether the value can only be attached (grep -O[PAGER],
// --open-files-in-pager[=…]).
type gitOpts struct {
	short, long string
	attached    bool
}

func gitCommandOptsOf(cmd string) gitCommandOpts {
	switch cmd {
	case "rebase":
		return gitCommandOpts{runs: gitOpts{short: "x", long: " exec "}}
	case "difftool":
		return gitCommandOpts{runs: gitOpts{short: "x", long: " extcmd "}}
	case "grep":
		return gitCommandOpts{runs: gitOpts{short: "O", long: " open-files-in-pager ", attached: true}}
	case "fetch", "pull", "ls-remote":
		return gitCommandOpts{runs: gitOpts{long: " upload-pack "}}
	case "clone":
		return gitCommandOpts{runs: gitOpts{short: "u", long: " upload-pack "}, config: gitOpts{short: "c", long: " config "}}
	case "fetch-pack":
		return gitCommandOpts{runs: gitOpts{long: " upload-pack exec "}}
	case "push", "send-pack":
		return gitCommandOpts{runs: gitOpts{long: " receive-pack exec "}}
	case "archive":
		return gitCommandOpts{runs: gitOpts{long: " exec "}}
	case "send-email":
		return gitCommandOpts{runs: gitOpts{long: " sendmail-cmd to-cmd cc-cmd header-cmd "}}
	case "bisect":
		return gitCommandOpts{word: "run"}
	case "submodule":
		return gitCommandOpts{word: "foreach"}
	case "filter-branch":
		// A shell script: each filter is eval'd or run with sh -c.
		return gitCommandOpts{runs: gitOpts{long: " setup env-filter tree-filter index-filter parent-filter msg-filter commit-filter tag-name-filter "}, always: true}
	}
	return gitCommandOpts{}
}

// givesCommand reports whether args, a git command's words, may give it a
// command to run (doubt): a word of the table, or one only known when it
// runs.
func (spec gitCommandOpts) givesCommand(args []shellWord) bool {
	if spec == (gitCommandOpts{}) {
		return false
	}
	if spec.always {
		return true
	}
	for _, a := range args {
		if !a.static || spec.word != "" && a.text == spec.word {
			return true
		}
		if _, _, ok := spec.runs.value(a.text); ok {
			return true
		}
		if _, _, ok := spec.config.value(a.text); ok {
			return true
		}
	}
	return false
}

// gitCommandRuns follows what git's command rest[0] runs that its words
// give it: bisect run's and submodule foreach's words, and the values of
// its gitCommandOpts. It returns why git runs what cannot be read, or "".
func (s *shellRuns) gitCommandRuns(text string, rest []shellWord, c shellCommand, depth int) string {
	args := rest[1:]
	switch rest[0].text {
	case "bisect":
		if len(args) > 0 && args[0].static && args[0].text == "run" {
			s.gitShellWords(args[1:], text, c, depth)
		}
		return ""
	case "submodule":
		s.gitForeach(args, text, c, depth)
		return ""
	}
	spec := gitCommandOptsOf(rest[0].text)
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		if !a.static {
			t = a.script
		}
		if t == "--" {
			break
		}
		if v, next, ok := spec.config.value(t); ok {
			w := gitCommandWord(v, a)
			if next && i+1 < len(args) {
				i++
				w = args[i]
			}
			if why := s.gitSetting(text, option{name: "c", value: w.text, static: w.static, script: w.script}, depth); why != "" {
				return why
			}
			continue
		}
		cmd, next, ok := spec.runs.value(t)
		switch {
		case !ok:
		case next && i+1 < len(args):
			i++
			s.gitShell(args[i], text, depth, c)
		case !next && cmd != "":
			s.gitShell(gitCommandWord(cmd, a), text, depth, c)
		}
	}
	return ""
}

// value reads an option word t: whether it is one of the options (a long
// name or any unambiguous start of one, as parse-options takes it; a
// short letter, in a group too: clone -vc KEY=VALUE), and its value:
// attached (cmd), or the next word (next).
func (spec gitOpts) value(t string) (cmd string, next, ok bool) {
	if long, ok := strings.CutPrefix(t, "--"); ok {
		name, val, hasVal := strings.Cut(long, "=")
		if len(name) < 2 || !strings.Contains(spec.long, " "+name) {
			return "", false, false
		}
		return val, !hasVal && !spec.attached, true
	}
	if len(t) < 2 || t[0] != '-' {
		return "", false, false
	}
	for j := 1; j < len(t); j++ {
		if strings.IndexByte(spec.short, t[j]) >= 0 {
			return t[j+1:], t[j+1:] == "" && !spec.attached, true
		}
	}
	return "", false, false
}

// gitForeach follows git submodule [--quiet] foreach [--recursive] CMD…:
// the words after foreach's options are the command it runs in each
// submodule.
func (s *shellRuns) gitForeach(args []shellWord, text string, c shellCommand, depth int) {
	i := 0
	for i < len(args) && args[i].static && strings.HasPrefix(args[i].text, "-") {
		i++ // git submodule's own options (--quiet)
	}
	if i == len(args) || !args[i].static || args[i].text != "foreach" {
		return
	}
	for i++; i < len(args) && args[i].static && strings.HasPrefix(args[i].text, "-"); i++ {
		if args[i].text == "--" {
			i++
			break
		}
	}
	s.gitShellWords(args[i:], text, c, depth)
}

// gitShellWords follows a command git is given as words (bisect run,
// submodule foreach): git runs the first as a command string, the others
// as its arguments ("$@"), as run-command's shell does.
func (s *shellRuns) gitShellWords(words []shellWord, text string, c shellCommand, depth int) {
	if len(words) == 0 {
		return
	}
	w := words[0]
	if len(words) > 1 {
		tail := " " + quoteWords(words[1:])
		if w.static {
			w.text += tail
		} else {
			w.script += tail
		}
	}
	s.gitShell(w, text, depth, c)
}
