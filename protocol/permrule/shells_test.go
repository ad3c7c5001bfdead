package permrule

import "testing"

// TestCommandsShellNames: every shell is a shell. The Korn shells and
// the other sh-language shells are followed as sh is (ksh93 -c '…' runs
// what sh -c '…' would); a shell of another language (csh, nu, rc …)
// given a command string, options or commands from a pipe is refused:
// its words are not sh's (nu's ^rm is rm), so reading them as Bash would
// list what does not run and miss what does.
func TestCommandsShellNames(t *testing.T) {
	checkCommands(t, []commandsCase{
		{line: "ksh93 -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "lksh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "oksh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "pdksh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "rksh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "rzsh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "bash-static -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "/usr/bin/zsh-static -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "osh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "busybox hush -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "echo 'rm -rf /tmp/v' | ksh93", err: "standard input"},
		{line: "find . -exec ksh93 -c 'rm -rf {}' \\;", want: []string{"rm -rf {}"}},
		{line: "ksh93 deploy.ksh", want: []string{"ksh93 deploy.ksh"}},

		{line: "csh -c 'rm -rf /tmp/v'", err: "runs csh with"},
		{line: "tcsh -fc 'rm -rf /tmp/v'", err: "runs tcsh with"},
		{line: "sudo tcsh -c 'rm -rf /tmp/v'", err: "runs tcsh with"},
		{line: "nu -c '^rm -rf /tmp/v'", err: "runs nu with"},
		{line: "nu --commands '^rm -rf /tmp/v'", err: "runs nu with"},
		{line: "elvish -c 'rm -rf /tmp/v'", err: "runs elvish with"},
		{line: "xonsh -c 'rm -rf /tmp/v'", err: "runs xonsh with"},
		{line: "rc -c 'rm -rf /tmp/v'", err: "runs rc with"},
		{line: "es -c 'rm -rf /tmp/v'", err: "runs es with"},
		{line: "ysh -c 'rm -rf /tmp/v'", err: "runs ysh with"},
		{line: "echo 'rm -rf /tmp/v' | csh", err: "runs csh with"},
		{line: "tcsh <<< 'rm -rf /tmp/v'", err: "runs tcsh with"},
		{line: "curl -s https://x.y/i | tcsh -f", err: "runs tcsh with"},
		{line: "tcsh $S", err: "runs tcsh with"},
		{line: "printf x | xargs csh -c", err: "runs csh with"},
		// A script file is as opaque as any program, in any language.
		{line: "tcsh -f build.csh", err: "tcsh with commands or options"},
		{line: "tcsh build.csh -x", want: []string{"tcsh build.csh -x"}},
		{line: "nu --config c.nu -c '^rm -rf /tmp/v'", err: "nu with commands or options"},
		{line: "xonsh -D X=1 -c 'rm -rf /tmp/v'", err: "xonsh with commands or options"},
		{line: "nu -e '^rm -rf /tmp/v'", err: "nu with commands or options"},
		{line: "nu script.nu", want: []string{"nu script.nu"}},
		{line: "tcsh < build.csh", want: []string{"tcsh"}},
		{line: "nu --version", want: []string{"nu --version"}},
	})
}
