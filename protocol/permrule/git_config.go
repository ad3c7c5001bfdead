package permrule

import (
	"slices"
	"strings"
)

// git's configuration and environment that name a command git runs: a
// pager, an editor, an ssh command, a diff or merge driver, a filter, a
// credential helper … git runs each value with sh -c (run-command's
// use_shell), so a line that gives one runs it as a command string:
// `git -c core.pager='rm -rf /' log` runs rm -rf /. Where the line gives
// the value (-c KEY=VALUE, git config KEY VALUE, GIT_CONFIG_KEY_n and
// GIT_CONFIG_VALUE_n, GIT_PAGER=…) it is followed as one; where git is
// pointed at a directory of programs (core.hooksPath, --exec-path,
// GIT_EXEC_PATH) what runs cannot be read, and the line is refused. A
// setting is followed wherever the line gives it, whether or not the git
// command it is given to uses it: listing a command too many is harmless,
// refusing an ordinary line is not.

// gitRun is how git uses a configuration value.
type gitRun int

const (
	gitRunsNothing gitRun = iota
	gitRunsShell          // a command string git runs with sh -c
	gitRunsDir            // a directory of programs git runs (hooks)
)

// gitShellKeys are the keys (section.name, in lower case) whose value is
// a command string git runs; gitShellSubKeys those of the form
// section.SUBSECTION.name (diff.DRIVER.command, gpg.ssh.program). The
// pager.CMD keys, core.fsmonitor, credential.helper and
// submodule.NAME.update are read by gitConfigRun. Paths of programs (difftool.TOOL.path) are listed too:
// git-mergetool runs them through its shell.
const (
	gitShellKeys = " core.pager core.editor core.sshcommand core.askpass core.gitproxy core.alternaterefscommand " +
		"sequence.editor diff.external interactive.difffilter gpg.program uploadpack.packobjectshook " +
		"sendemail.tocmd sendemail.cccmd sendemail.sendmailcmd sendemail.headercmd imap.tunnel "
	gitShellSubKeys = " gpg.program gpg.defaultkeycommand diff.command diff.textconv merge.driver " +
		"filter.clean filter.smudge filter.process sendemail.tocmd sendemail.cccmd sendemail.sendmailcmd " +
		"sendemail.headercmd trailer.cmd trailer.command " +
		"difftool.cmd difftool.path mergetool.cmd mergetool.path browser.cmd browser.path man.cmd man.path " +
		"remote.uploadpack remote.receivepack "
)

// gitConfigRun reads a configuration key and its value: the command
// string git runs for it (gitRunsShell), a directory of hooks it runs
// (gitRunsDir), or nothing. Section and name are read in any case, as git
// reads them; the subsection as written.
func gitConfigRun(key, value string) (string, gitRun) {
	section, rest, ok := strings.Cut(key, ".")
	if !ok {
		return "", gitRunsNothing
	}
	sub, name := false, rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = true, rest[i+1:]
	}
	k := strings.ToLower(section) + "." + strings.ToLower(name)
	switch {
	case value == "":
		// An empty value turns the command off (core.pager=, a
		// credential.helper list reset).
		return "", gitRunsNothing
	case !sub && k == "core.hookspath":
		if value == "/dev/null" {
			return "", gitRunsNothing // the usual way to run no hooks
		}
		return "", gitRunsDir
	case !sub && (k == "core.fsmonitor" || strings.HasPrefix(k, "pager.")):
		// true, false …: git's own monitor, or whether to page; any
		// other value is the command to run.
		if gitBool(value) {
			return "", gitRunsNothing
		}
		return value, gitRunsShell
	case k == "credential.helper":
		// !CMD is a command string; an absolute path is run as written,
		// any other NAME ARGS as git credential-NAME ARGS — all by sh.
		if cmd, ok := strings.CutPrefix(value, "!"); ok {
			return cmd, gitRunsShell
		}
		if strings.HasPrefix(value, "/") {
			return value, gitRunsShell
		}
		return "git credential-" + value, gitRunsShell
	case sub && k == "submodule.update":
		// !CMD: the command git submodule update runs in the submodule
		// (given by configuration, not .gitmodules); any other value is
		// a way to update.
		if cmd, ok := strings.CutPrefix(value, "!"); ok {
			return cmd, gitRunsShell
		}
		return "", gitRunsNothing
	case !sub && k == "core.sshcommand":
		return value + gitSSHArgs, gitRunsShell
	case !sub && strings.Contains(gitShellKeys, " "+k+" "), sub && strings.Contains(gitShellSubKeys, " "+k+" "):
		return value, gitRunsShell
	}
	return "", gitRunsNothing
}

// gitSSHArgs stand for the words git gives its ssh command: the host, and
// the command to run there (git-upload-pack 'PATH'). Without them ssh
// would be read as a login shell reading the pipe git writes to.
const gitSSHArgs = " HOST git-upload-pack"

// gitRunsKey: a key git may run a command for, whatever its value.
func gitRunsKey(key string) bool {
	_, run := gitConfigRun(key, "x")
	return run != gitRunsNothing
}

// gitBool: a value git reads as a boolean (git_parse_maybe_bool: yes, on,
// true, 1, no, off, false, 0, any integer).
func gitBool(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "false", "no", "off":
		return true
	}
	v = strings.TrimLeft(v, "+-")
	return v != "" && strings.Trim(v, "0123456789") == ""
}

// gitEnvCommands are the variables whose value git runs as a command
// string (an ssh command, a pager, an editor, an external diff, a
// password prompt, a proxy for git://).
var gitEnvCommands = []string{"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
	"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "PAGER", "EDITOR", "VISUAL"}

// gitSettings follows the commands git's options give it (-c KEY=VALUE,
// --config-env=KEY=VAR) and, once per line, those the line's values of
// git's variables give it. It returns why git runs what cannot be read,
// for git to refuse, or "".
func (s *shellRuns) gitSettings(text string, opts []option, depth int) string {
	for _, o := range opts {
		switch o.name {
		case "--exec-path":
			if o.value != "" {
				return "points git at a directory of its programs (--exec-path), which this analysis cannot read"
			}
		case "c":
			if why := s.gitSetting(text, o, depth); why != "" {
				return why
			}
		case "--config-env":
			key, name, _ := strings.Cut(o.value, "=")
			if !o.static || !gitRunsKey(key) {
				continue // a key only known when it runs: gitEnvAlias
			}
			var vals []string
			if s.vals != nil {
				vals = s.vals.vals[name]
			}
			if len(vals) == 0 {
				return "gives git a command in the environment (--config-env " + clip(key) + "), which the line does not show"
			}
			for _, v := range vals {
				if why := s.gitSetting(text, option{name: "c", value: key + "=" + v, static: true}, depth); why != "" {
					return why
				}
			}
		}
	}
	if s.gitEnvDone {
		return ""
	}
	s.gitEnvDone = true // the line's values are the same for each git it runs
	return s.gitEnvRuns(text, depth)
}

// gitSetting follows a -c KEY=VALUE setting that gives git a command: a
// static one as the command string it is, one with expansions as that
// string as written (doubt, as sh -c "$X" is), one of hooks refused.
func (s *shellRuns) gitSetting(text string, o option, depth int) string {
	setting := o.value
	if !o.static {
		setting = o.script // its key is static: gitEnvAlias refuses others
	}
	key, value, ok := strings.Cut(setting, "=")
	if !ok {
		return "" // -c KEY alone: true, no command
	}
	cmd, run := gitConfigRun(key, value)
	switch run {
	case gitRunsDir:
		return "gives git a directory of hooks to run (" + clip(key) + "), which this analysis cannot read"
	case gitRunsShell:
		s.gitShell(gitCommandWord(cmd, o.word()), text, depth, shellCommand{})
	}
	return ""
}

// gitCommandWord is the word of the command string cmd that git makes of
// a value written as w: static as w is, else with w's text as its source
// and cmd as its script (the expansions as written).
func gitCommandWord(cmd string, w shellWord) shellWord {
	if w.static {
		return shellWord{text: cmd, static: true}
	}
	return shellWord{text: w.text, script: cmd}
}

// gitEnvRuns follows the line's values of git's variables that name a
// command (gitEnvCommands) and of GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n
// that give one; it refuses GIT_EXEC_PATH (a directory of git's programs)
// and a command key whose GIT_CONFIG_VALUE_n the line does not give. (Any
// GIT_CONFIG_PARAMETERS is refused before: gitEnvAlias.) A value only known when it
// runs stays doubt (programVar).
func (s *shellRuns) gitEnvRuns(text string, depth int) string {
	if s.vals == nil {
		return ""
	}
	for _, name := range gitEnvCommands {
		for _, v := range s.vals.vals[name] {
			if v != "" && strings.HasPrefix(name, "GIT_SSH") {
				v += gitSSHArgs
			}
			if v != "" {
				s.gitShell(shellWord{text: v, static: true}, text, depth, shellCommand{})
			}
		}
	}
	if len(s.vals.vals["GIT_EXEC_PATH"]) > 0 {
		return "points git at a directory of its programs (GIT_EXEC_PATH), which this analysis cannot read"
	}
	names := make([]string, 0, len(s.vals.vals))
	for name := range s.vals.vals {
		if strings.HasPrefix(name, "GIT_CONFIG_KEY_") {
			names = append(names, name)
		}
	}
	slices.Sort(names) // the same reason for the same line
	for _, name := range names {
		valName := "GIT_CONFIG_VALUE_" + strings.TrimPrefix(name, "GIT_CONFIG_KEY_")
		for _, key := range s.vals.vals[name] {
			if !gitRunsKey(key) {
				continue
			}
			vals := s.vals.vals[valName]
			if len(vals) == 0 {
				return "gives git a command through " + name + " whose " + valName + " the line does not show"
			}
			for _, v := range vals {
				if why := s.gitSetting(text, option{name: "c", value: key + "=" + v, static: true}, depth); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// gitShell follows a command string git runs: git runs it with sh, not
// with the shell the line runs in (zsh's own readings do not apply).
func (s *shellRuns) gitShell(w shellWord, text string, depth int, in shellCommand) {
	defer s.inZsh(notZsh)()
	s.scriptOf([]shellWord{w}, text, depth, in)
}

// gitConfigCommand follows git config KEY VALUE for a key git runs a
// command for: the value is followed now, as an alias's is (the setting
// outlives the line; what the analysis cannot read in it does not make
// this line unreadable). core.hooksPath is doubt only: the hooks are the
// repository's files, as .git/hooks are, which any git commit runs.
func (s *shellRuns) gitConfigCommand(text, key string, v shellWord, depth int) {
	value := v.text
	if !v.static {
		value = v.script
		s.unsure("`" + clip(text) + "` gives git a command only known when it runs")
	}
	cmd, run := gitConfigRun(key, value)
	switch run {
	case gitRunsDir:
		s.unsure("`" + clip(text) + "` gives git a directory of hooks to run, which this analysis does not read")
	case gitRunsShell:
		lost, doubt := s.lost, s.doubt
		s.gitShell(gitCommandWord(cmd, v), text, depth, shellCommand{})
		if !s.vals.halted() {
			s.lost = lost
			if v.static {
				s.doubt = doubt
			}
		}
	}
}
