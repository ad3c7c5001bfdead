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
		// A "script file" that is the standard input or a descriptor is
		// commands the line feeds it, in the shell's own language.
		{line: "tcsh /dev/stdin <<< 'rm -rf /'", err: "runs tcsh with"},
		{line: "echo 'rm -rf /' | nu /dev/stdin", err: "runs nu with"},
		{line: "tcsh /dev/fd/3 3<<'EOF'\nrm -rf /\nEOF", err: "runs tcsh with"},
		{line: "csh //dev/./stdin <<< 'rm -rf /'", err: "runs csh with"},
		{line: "nu /proc/self/fd/0 <<< '^rm -rf /'", err: "runs nu with"},
		{line: "tcsh <(echo 'rm -rf /')", err: "runs tcsh with"},
		// fish is a language of its own (and, or, \' in '…').
		{line: "fish -c 'true; and rm -rf /'", err: "runs fish with"},
		{line: "fish -c \"echo 'a\\\\' ' ; rm -rf / ; echo ' #'\"", err: "runs fish with"},
		{line: "fish --command='rm -rf /tmp/v'", err: "runs fish with"},
		{line: "echo 'rm -rf /' | fish", err: "runs fish with"},
		{line: "fish deploy.fish", want: []string{"fish deploy.fish"}},
		// More sh-language shells, and versioned names.
		{line: "loksh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "mrsh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "gash -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "brush -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "pfksh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "pfbash -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "/bin/zsh-5.9 -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "bash5.2 -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "zsh5 -c 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "bash-5 -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
	})
}

// TestCommandsUserShell: su and runuser run their -c string with the
// shell -s names: one of the sh language is read, any other refused.
func TestCommandsUserShell(t *testing.T) {
	checkCommands(t, []commandsCase{
		{line: "su -s /usr/bin/nu -c '^rm -rf /' root", err: "not of the sh language"},
		{line: "su -s /bin/tcsh -c \"alias r 'rm -rf /'\nr\" root", err: "not of the sh language"},
		{line: "su --shell=/usr/bin/fish -c 'true; and rm -rf /' root", err: "not of the sh language"},
		{line: "su root --shell /bin/csh -c 'rm -rf /'", err: "not of the sh language"},
		{line: "runuser -s /usr/bin/elvish -c 'rm -rf /' bob", err: "not of the sh language"},
		{line: "su -s \"$S\" -c 'rm -rf /' root", err: "not of the sh language"},
		{line: "su -s /bin/tcsh root <<< 'rm -rf /'", err: "not of the sh language"},
		{line: "su -s /bin/zsh -c 'repeat 1 rm -rf /' root", err: "zsh reads otherwise"},
		// Still read.
		{line: "su -c 'ls' root", want: []string{"ls"}},
		{line: "su -s /bin/bash -c 'ls' root", want: []string{"ls"}},
		{line: "su -s /bin/sh -c 'rm -rf /tmp/v' root", want: []string{"rm -rf /tmp/v"}},
		{line: "runuser -s /bin/bash -c 'make test' bob", want: []string{"make test"}},
		{line: "su - root -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
	})
}

// TestCommandsZsh: zsh runs some lines that parse as bash otherwise than
// bash would: a string zsh runs is refused where it uses those forms
// (repeat, precommand modifiers, glob qualifiers that run code, =cmd,
// its own tables of aliases, functions and commands), and read as sh
// otherwise.
func TestCommandsZsh(t *testing.T) {
	checkCommands(t, []commandsCase{
		{line: "zsh -c 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c \"echo *(e:'rm -rf /':)\"", err: "zsh reads otherwise"},
		{line: "zsh -c \"echo *(.e:'rm -rf /':)\"", err: "zsh reads otherwise"},
		{line: "zsh -c 'ls *(+rmall)'", err: "zsh reads otherwise"},
		{line: "zsh -c 'echo ${(e)X}'", err: "not all of the command can be read"},
		{line: "zsh -c 'nocorrect rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c 'noglob rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c 'true; - rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c 'builtin - rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c '=rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c 'sudo =rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c \"emulate sh -c 'rm -rf /'\"", err: "zsh reads otherwise"},
		{line: "zsh -c 'hash ls=/bin/rm; ls -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c \"aliases[ls]='rm -rf /'; ls\"", err: "zsh reads otherwise"},
		{line: "zsh -c \"functions[ls]='rm -rf /'; ls\"", err: "zsh reads otherwise"},
		{line: "zsh -c 'commands[ls]=/bin/rm; ls -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c \"alias -g X='true;'; echo X rm -rf /\"", err: "zsh reads otherwise"},
		{line: "zsh -c \"eval 'repeat 1 rm -rf /'\"", err: "zsh reads otherwise"},
		{line: "zsh -c \"eval 'rep''eat 1 rm -rf /'\"", err: "zsh reads otherwise"},
		{line: "X='repeat 1 rm -rf /'; zsh -c \"$X\"", err: "zsh reads otherwise"},
		{line: "zsh <<< 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -s <<'EOF'\nrepeat 1 rm -rf /\nEOF", err: "zsh reads otherwise"},
		{line: "zsh /dev/stdin <<< 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "sudo zsh -c 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "rzsh -c 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh-static -c 'repeat 1 rm -rf /'", err: "zsh reads otherwise"},
		{line: "zsh -c 'bash -c \"repeat 1 rm -rf /\"'", want: []string{"repeat 1 rm -rf /"}}, // bash runs it
		// The third review's forms: zsh's $=, $~, $^, modifiers,
		// subscripts counted from 1, glob_subst, tables set through
		// ${T=…}, and zmv (each ran rm -rf / in zsh 5.9).
		{line: `zsh -c 'X="rm -rf /"; $=X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X="rm -rf /"; ${=X}'`, err: "cannot be parsed"},
		{line: `zsh -c 'X="rm -rf /"; eval $=X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X="rm -rf /"; "$=X"'`, err: "zsh reads otherwise"},
		{line: `ssh host 'X="rm -rf /"; $=X'`, err: "zsh reads otherwise"},
		{line: `su bob -c 'X="rm -rf /"; $=X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X="rm -rf /"; $~X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'x=(rm); $^x -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=rm; echo $#X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=RM; ${X:l} -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=RM; ${X:u} -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=rm.x; ${X:r} -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=/bin/rm; ${X:t} -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=rm.x; $X:r -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X=RM; "$X:l" -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'x=(rm echo); ${x[1]} -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'x=(rm echo); $x[1] -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'x=(rm -rf /); $x'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'n="functions[ls]"; typeset "$n=rm -rf /"; ls'`, err: "when it runs"},
		{line: `zsh -c 'export PATH=$HOME/bin:$PATH; make'`, want: []string{"make"}},
		{line: "bash --version; zsh --version", want: []string{"bash --version", "zsh --version"}},
		// Where the shell only may be zsh (ssh's, su's, script's login
		// shell: mostly bash), modifiers, subscripts and $x of an array
		// are read as bash's: bash text has them ($USER:www-data).
		{line: `ssh host 'sudo chown -R $USER:www-data /var/www/app'`, want: []string{"chown -R $USER:www-data /var/www/app"}},
		{line: `ssh host 'docker pull $IMAGE:latest; echo ${arr[0]}'`, want: []string{"docker pull $IMAGE:latest"}},
		{line: `su -c 'x=(a b); echo ${x[1]} $x' deploy`, want: []string{"echo ${x[1]} $x"}},
		// su -s naming zsh runs zsh, as zsh -c does.
		{line: `su -s /bin/zsh -c 'X=RM; ${X:l} -rf /' root`, err: "zsh reads otherwise"},
		{line: `su -s /bin/bash -c 'echo $USER:www-data' root`, want: []string{"echo $USER:www-data"}},
		{line: `zsh -c 'X=rmx; ${X[1,2]} -rf /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'x=(echo -rf /); x[1]=rm; "${x[@]}"'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'set -A x rm -rf /; $x'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'X="*(e:rm -rf ~:)"; print $~X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'setopt globsubst; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'setopt GLOB_SUBST; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'setopt glob_subst; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'unsetopt noglobsubst; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'O=globsubst; setopt $O; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'setopt $(echo globsubst); X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'set -o globsubst; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'emulate sh; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -o globsubst -c 'X="*(e:rm -rf ~:)"; print $X'`, err: "starts zsh with"},
		{line: `zsh -oGLOB_SUBST -c 'X="*(e:rm -rf ~:)"; print $X'`, err: "starts zsh with"},
		{line: `zsh +o "$O" -c 'X="*(e:rm -rf ~:)"; print $X'`, err: "starts zsh with"},
		{line: `zsh --emulate sh -c 'X="*(e:rm -rf ~:)"; print $X'`, err: "starts zsh with"},
		{line: `zsh -c 'options[globsubst]=on; X="*(e:rm -rf ~:)"; print $X'`, err: "zsh reads otherwise"},
		{line: `zsh -c ': ${functions[ls]="rm -rf /"}; ls'`, err: "zsh reads otherwise"},
		{line: `zsh -c ': ${functions[ls]:="rm -rf /"}; ls'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'unset NULLCMD; : ${NULLCMD:=rm}; < /'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'autoload -U zmv; zmv -p rm "(*)" "-rf /"'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'autoload -U zmv; zcp -p rm "(*)" x'`, err: "zsh reads otherwise"},
		{line: `zsh -c 'autoload -U zmv; zln -p rm "(*)" x'`, err: "zsh reads otherwise"},
		{line: `sh -o globsubst -c 'rm -rf /tmp/v'`, want: []string{"rm -rf /tmp/v"}}, // not zsh: bash has no such option to miss
		{line: `bash -c 'X=rm.x; echo $X:r ${a[1]}'`, want: []string{"echo $X:r ${a[1]}"}},
		// Ordinary lines stay readable.
		{line: "zsh -c 'echo hi'", want: []string{"echo hi"}},
		{line: "zsh -c 'ls *.go'", want: []string{"ls *.go"}},
		{line: "zsh -c 'rm -rf /tmp/v'", want: []string{"rm -rf /tmp/v"}},
		{line: "zsh -c 'a=(one two); for x in \"${a[@]}\"; do echo $x; done'", want: []string{"echo $x"}},
		{line: "zsh -c 'a=(one two); for x in $a; do echo $x; done'", err: "zsh reads otherwise"},
		{line: "zsh -c 'f() { git status; }; f'", want: []string{"git status"}},
		{line: "zsh -c '[ \"$a\" = b ] && echo $((2*(3+4)))'", want: []string{"echo $((2*(3+4)))"}},
		{line: "zsh -lc 'source ~/.zshrc && npm test'", want: []string{"npm test"}},
		{line: "zsh -c 'echo $HOME'", want: []string{"echo $HOME"}},
		{line: "zsh -c 'cd /tmp && make'", want: []string{"cd /tmp", "make"}},
		{line: "zsh -c 'for f in *.txt; do wc -l $f; done'", want: []string{"wc -l $f"}},
		{line: "zsh -c 'a=(x y); echo \"${a[@]}\" ${#a[*]} ${X:-d} ${X:0:2} $HOST:8080'", want: []string{"echo \"${a[@]}\" ${#a[*]} ${X:-d} ${X:0:2} $HOST:8080"}},
		{line: `zsh -c 'echo \$=X "\$~X" x:l'`, want: []string{"echo $=X $~X x:l"}},
		{line: "zsh -c 'setopt extendedglob; ls *.go'", want: []string{"ls *.go"}},
		{line: "ssh host 'uptime; df -h'", want: []string{"uptime", "df -h"}},
		{line: `ssh host "echo ${HOME}"`, want: []string{"echo ${HOME}"}},
		{line: "zsh script.zsh", want: []string{"zsh script.zsh"}},
		{line: "bash -c 'repeat 1 rm -rf /'", want: []string{"repeat 1 rm -rf /"}}, // bash: a program named repeat
	})
}

// TestCommandsReadsEverydayShellLines: what zsh.go, foreignShell and the
// login-shell check refuse leaves ordinary command strings readable,
// in zsh or in a shell that may be zsh (ssh's, su's).
func TestCommandsReadsEverydayShellLines(t *testing.T) {
	checkReads(t, []string{
		"zsh -c 'echo hi'",
		"zsh -lc 'cd ~/proj && make build 2>&1 | tail -20'",
		"zsh -ic 'nvm use 18 && npm test'",
		`zsh -c 'for f in *.go; do gofmt -l "$f"; done'`,
		"zsh -c '[[ -f ~/.zshrc ]] && source ~/.zshrc; which node'",
		"zsh -c 'x=(a b); print -l \"${x[@]}\" ${#x}; echo $((2*(3+4)))'",
		`zsh -c 'git log --format="%h %s" -5 | grep -v "^$"'`,
		"ssh host 'cd /srv && git pull && sudo systemctl restart app'",
		`ssh host "ls -la /var/log/*.log"`,
		"su -c 'apt-get update' root",
		"sudo su - postgres -c 'psql -c \"select 1\"'",
		"bash -c 'shopt -s extglob; ls !(*.go)'",
		"sh -c 'npm ci && npm run build'",
		"tcsh build.csh",
		"fish deploy.fish",
		"GIT_CONFIG_GLOBAL=/dev/null git -c core.pager=cat log -3",
	})
}
