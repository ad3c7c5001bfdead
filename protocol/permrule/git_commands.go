package permrule

import "strings"

// git's commands that run a command given to them: rebase -x CMD, bisect
// run CMD ARGS…, submodule foreach CMD, filter-branch --tree-filter CMD,
// difftool -x CMD … Each is followed as the command string git runs (with
// sh, as run-command's use_shell does), so that `git rebase -x 'rm -rf /'`
// lists rm -rf /.

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

// gitCommandOpts are a git command's options whose value is a command
// string it runs: short letters, long names (" name "), and whether the
// value can only be attached (grep -O[PAGER], --open-files-in-pager[=…]).
// clone's -c and --config are settings (gitSetting). The upload-pack and
// receive-pack commands run here for a local remote, over ssh for others:
// listed either way.
type gitCommandOpts struct {
	short, long string
	attached    bool
}

func gitCommandOptsOf(cmd string) gitCommandOpts {
	switch cmd {
	case "rebase":
		return gitCommandOpts{short: "x", long: " exec "}
	case "difftool":
		return gitCommandOpts{short: "x", long: " extcmd "}
	case "grep":
		return gitCommandOpts{short: "O", long: " open-files-in-pager ", attached: true}
	case "fetch", "pull", "ls-remote":
		return gitCommandOpts{long: " upload-pack "}
	case "clone":
		return gitCommandOpts{short: "u", long: " upload-pack "}
	case "fetch-pack":
		return gitCommandOpts{long: " upload-pack exec "}
	case "push", "send-pack":
		return gitCommandOpts{long: " receive-pack exec "}
	case "archive":
		return gitCommandOpts{long: " exec "}
	case "filter-branch":
		// A shell script: each filter is eval'd or run with sh -c.
		return gitCommandOpts{long: " setup env-filter tree-filter index-filter parent-filter msg-filter commit-filter tag-name-filter "}
	}
	return gitCommandOpts{}
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
		if o, n, ok := gitCloneSetting(a, args[i+1:]); ok && rest[0].text == "clone" {
			if why := s.gitSetting(text, o, depth); why != "" {
				return why
			}
			i += n
			continue
		}
		cmd, next, ok := spec.value(t)
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

// value reads an option word t: whether it is one of the command options
// (a long name or any unambiguous start of one, as parse-options takes
// it; a short letter, in a group too), and its value: attached (cmd), or
// the next word (next).
func (spec gitCommandOpts) value(t string) (cmd string, next, ok bool) {
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

// gitCloneSetting reads clone's -c KEY=VALUE and --config KEY=VALUE (the
// value attached, or the next word: n words more) as a setting.
func gitCloneSetting(a shellWord, after []shellWord) (o option, n int, ok bool) {
	if !a.static {
		return option{}, 0, false
	}
	var v string
	switch {
	case a.text == "-c" || a.text == "--config":
		if len(after) == 0 {
			return option{}, 0, false
		}
		w := after[0]
		return option{name: "c", value: w.text, static: w.static, script: w.script}, 1, true
	case strings.HasPrefix(a.text, "--config="):
		v = a.text[len("--config="):]
	case strings.HasPrefix(a.text, "-c"):
		v = a.text[2:]
	default:
		return option{}, 0, false
	}
	return option{name: "c", value: v, static: true}, 0, true
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
