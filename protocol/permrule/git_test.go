package permrule

import "testing"

// TestCommandsGitAliases: an alias the line gives git (-c alias.NAME=…,
// git config alias.NAME …) is followed where git runs it — a ! value as a
// shell command string with the words after it, any other as git's
// command — and where the line defines it, as it runs later (a git config
// alias outlives the line). One given where the text does not show its
// value (--config-env, GIT_CONFIG_KEY_n, a config file from a pipe) is
// refused.
func TestCommandsGitAliases(t *testing.T) {
	checkCommands(t, []commandsCase{
		{line: "git -c alias.p='push -f' p", want: []string{"git push -f"}},
		{line: "git -c alias.P='push' p --force origin", want: []string{"git push --force origin"}},
		{line: "git -calias.p=push p -f", want: []string{"git push -f"}},
		{line: "git config alias.p 'push -f' && git p origin main", want: []string{"git push -f origin main"}},
		{line: "git config --global alias.p 'push --force'", want: []string{"git push --force"}},
		{line: "git config set alias.p 'push --force'", want: []string{"git push --force"}},
		{line: "git -c alias.a=b -c alias.b='push -f' a", want: []string{"git push -f"}},
		{line: "git -c alias.x='!rm -rf /tmp/v' x", want: []string{"rm -rf /tmp/v"}},
		{line: "git -c alias.x='!rm' x -rf /tmp/v", want: []string{"rm -rf /tmp/v"}},
		{line: "git config alias.st '!rm -rf ~'", want: []string{"rm -rf ~"}},
		// Defined after its use in a loop: a later iteration runs it.
		{line: "for i in 1 2; do git p; done; git config alias.p 'push -f'", want: []string{"git push -f"}},
		// A loop of aliases ends (git refuses it).
		{line: "git -c alias.a=a a", want: []string{"git a"}},
		{line: "git config alias.a b; git config alias.b a; git a", want: []string{"git a", "git b"}},
		{line: "git config --get alias.p", want: []string{"git config --get alias.p"}, not: []string{"git push"}},
		{line: "git -c alias.p='push -f' status", not: []string{"git push -f status"}},
		// A definition that is not all on the line is refused.
		{line: "git config alias.p \"$V\"; git p", err: "alias only known when it runs"},
		{line: "git config --global \"$(echo alias.x)\" '!rm -rf /'; git x", err: "key only known when it runs"},
		{line: "git config foo.x '!rm -rf /'; git config --rename-section foo alias; git x", err: "moves a section to alias"},
		{line: "git config foo.x '!rm -rf /'; git config rename-section foo alias; git x", err: "moves a section to alias"},
		{line: "export GIT_CONFIG_PARAMETERS=\"'al''ias.x=!rm -rf /'\"; git x", err: "git alias through"},
		{line: "git config --rename-section old new", want: []string{"git config --rename-section old new"}},
		{line: "git config user.name \"$NAME\"", want: []string{"git config user.name \"$NAME\""}},
		// Only a subsection known when it runs, and reading git's
		// variables, are read (the sweep's lines).
		{line: "git config branch.\"$BRANCH\".remote origin", want: []string{"git config branch.\"$BRANCH\".remote origin"}},
		{line: "git config \"remote.$REMOTE.url\" \"$URL\"", want: []string{"git config \"remote.$REMOTE.url\" \"$URL\""}},
		{line: "git config \"alias.$A\" '!rm -rf /'", err: "key only known when it runs"},
		{line: "git config \"core.$K\" 'rm -rf /'", err: "key only known when it runs"},
		{line: "echo \"${GIT_CONFIG_GLOBAL:-unset}\"; printenv GIT_CONFIG_GLOBAL; unset GIT_CONFIG_GLOBAL", want: []string{"printenv GIT_CONFIG_GLOBAL"}},
		{line: "K=GIT_CONFIG_KEY_0; export $K=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' GIT_CONFIG_COUNT=1; git x", err: "git alias through"},
		{line: "printf -v K GIT_CONFIG_KEY_0; export $K=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' GIT_CONFIG_COUNT=1; git x", err: "when it runs"},
		// A value is split as git splits it: ( # ; $ are plain characters.
		{line: "git config alias.lg 'log --graph --pretty=format:%h(%s)'", want: []string{"git log --graph --pretty=format:%h(%s)"}},
		{line: "git -c 'alias.p=push #' p --force", want: []string{"git push # --force"}},
		{line: "git -c 'alias.p=push \"-f\"' p", want: []string{"git push -f"}},
		{line: "git -c 'alias.p=push \"-f' p", not: []string{"git push -f"}}, // git refuses the open quote
		// What a definition runs later is listed as far as it reads; what
		// it cannot read does not make the line unreadable.
		{line: "git config --global alias.pf '!f() { git push --force \"$@\"; }; f'", want: []string{"git config --global alias.pf !f() { git push --force \"$@\"; }; f"}},
		{line: "git config --file alias.cfg alias.p 'push -f'", want: []string{"git push -f"}, not: []string{"git alias.p"}},
		{line: "git config alias.pf '!f() { git push --force \"$@\"; }; f'; git pf", err: "runs its arguments"},
		{line: "git -c alias.x='!sh -c \"rm -rf /tmp/v (\"' x", err: "cannot be parsed"},
		// An alias set through the environment (--config-env,
		// GIT_CONFIG_KEY_n, GIT_CONFIG_PARAMETERS) is refused.
		{line: "V='!rm -rf /' git --config-env=alias.x=V x", err: "git alias through"},
		{line: "V='!rm -rf /' git --config-env Alias.X=V x", err: "git alias through"},
		{line: "git --config-env=\"$K\" x", err: "git alias through"},
		{line: "git --config-env \"$K\" x", err: "git alias through"},
		{line: "git -c \"$S\" x", err: "git alias through"},
		{line: "git -c \"alias.x=!rm $D\" x", err: "git alias through"},
		{line: "GIT_CONFIG_KEY_0=alias.x bash -c 'git x'", err: "git alias through"},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' git x", err: "git alias through"},
		{line: "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=ALIAS.x GIT_CONFIG_VALUE_0='!rm -rf /'; git x", err: "git alias through"},
		{line: "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' git x", err: "git alias through"},
		{line: "K=alias.x; GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=$K GIT_CONFIG_VALUE_0='!rm -rf /' git x", err: "git alias through"},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=$(printf alias.x) GIT_CONFIG_VALUE_0='!rm -rf /' git x", err: "GIT_CONFIG_KEY_0"},
		{line: "GIT_CONFIG_KEY_0=user.name; GIT_CONFIG_KEY_0=$K; GIT_CONFIG_COUNT=1 GIT_CONFIG_VALUE_0='!rm -rf /' git x", err: "GIT_CONFIG_KEY_0"},
		{line: "printf -v GIT_CONFIG_KEY_0 alias.x; export GIT_CONFIG_KEY_0 GIT_CONFIG_COUNT=1 GIT_CONFIG_VALUE_0='!rm -rf /'; git x", err: "git alias through"},
		{line: "GIT_CONFIG_PARAMETERS=\"'alias.x=!rm -rf /'\" git x", err: "git alias through"},
		{line: "git -c include.path=/dev/stdin x <<< '[alias] x = !rm -rf /'", err: "git alias through"},
		{line: "git -c include.path=<(printf '[alias] x = !rm -rf /') x", err: "git alias through"},
		{line: "P=/dev/stdin git --config-env=include.path=P x <<< '[alias] x = !rm -rf /'", err: "git alias through"},
		{line: "GIT_CONFIG_GLOBAL=/dev/stdin git x <<< '[alias] x = !rm -rf /'", err: "git aliases"},
		{line: "GIT_CONFIG_GLOBAL=<(printf '[alias] x = !rm -rf /') git x", err: "git aliases"},
		{line: "env GIT_CONFIG_GLOBAL=/dev/fd/3 git x 3<<< '[alias] x = !rm -rf /'", err: "git alias through"},
		{line: "bash -c 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=\"!rm -rf /\" git x'", err: "git alias through"},
		// Named in a word other than NAME=VALUE: braces, a name from a
		// variable (the third review's).
		{line: "export GIT_CONFIG_KEY_0{,}=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' GIT_CONFIG_COUNT=1; git x", err: "git alias through"},
		{line: "declare -x GIT_CONFIG_KEY_{0..0}=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' GIT_CONFIG_COUNT=1; git x", err: "git alias through"},
		{line: "K=GIT_CONFIG_KEY_0; export $K=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' GIT_CONFIG_COUNT=1; git x", err: "git alias through"},
		{line: "env GIT_CONFIG_KEY_0{,}=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' GIT_CONFIG_COUNT=1 git x", err: "git alias through"},
		{line: "export GIT_CONFIG_GLOBAL{,}=/dev/stdin; git x <<< '[alias] x = !rm -rf /'", err: "git alias through"},
		// Other configuration is read as before.
		{line: "git -c color.ui=never log", want: []string{"git log"}},
		{line: "git -c \"user.name=$NAME\" commit -m x", want: []string{"git commit -m x"}},
		{line: "git -c include.path=../shared.gitconfig log", want: []string{"git log"}},
		{line: "GIT_CONFIG_GLOBAL=/dev/null git -c core.pager=cat log -3", want: []string{"git log -3"}},
		{line: "GIT_CONFIG_GLOBAL=\"$HOME/.gitconfig-work\" git status", want: []string{"git status"}},
		{line: "git --config-env=user.name=NAME commit -m x", want: []string{"git commit -m x"}},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' git status", want: []string{"git status"}},
		{line: "env GIT_CONFIG_GLOBAL=/dev/null git status", want: []string{"env GIT_CONFIG_GLOBAL=/dev/null git status", "git status"}},
		{line: "git status && git log --oneline -5", want: []string{"git status", "git log --oneline -5"}},
	})
}

// TestCommandsGitRunsCommands: what git runs where the line gives it — a
// configuration value (-c, git config, GIT_CONFIG_KEY_n), a variable
// (GIT_PAGER …), a command's own option or words (rebase -x, bisect run,
// submodule foreach, filter-branch) — is listed as the command string
// git runs with sh; a directory of programs (core.hooksPath,
// --exec-path) is refused. Ordinary lines stay readable.
func TestCommandsGitRunsCommands(t *testing.T) {
	rm := []string{"rm -rf /"}
	checkCommands(t, []commandsCase{
		{line: "git -c core.pager='rm -rf /' log", want: rm},
		{line: "git -c core.sshCommand='rm -rf /' fetch", want: []string{"rm -rf / HOST git-upload-pack"}},
		{line: "git -c diff.external='rm -rf /' diff", want: rm},
		{line: "git -c core.fsmonitor='rm -rf /' status", want: rm},
		{line: "git -c Core.FSMonitor='rm -rf /' status", want: rm},
		{line: "git -c pager.log='rm -rf /' log", want: rm},
		{line: "git -c diff.x.textconv='rm -rf /' diff", want: rm},
		{line: "git -c filter.lfs.smudge='rm -rf /' checkout .", want: rm},
		{line: "git -c merge.ours.driver='rm -rf /' merge x", want: rm},
		{line: "git -c gpg.ssh.program='rm -rf /' commit -S -m x", want: rm},
		{line: "git -c credential.helper='!rm -rf /' push", want: rm},
		{line: "git -c credential.helper='store; rm -rf /' push", want: append(rm, "git credential-store")},
		{line: "git -c core.editor=\"rm -rf $D\" commit", want: []string{"rm -rf $D"}},
		{line: "C='rm -rf /'; git -c core.pager=\"$C\" log", want: rm},
		{line: "git -c core.hooksPath=/tmp/h commit -m x", err: "hooks"},
		{line: "git -c core.hooksPath=\"$H\" commit -m x", err: "hooks"},
		{line: "git config core.fsmonitor 'rm -rf /'; git status", want: rm},
		{line: "git config diff.external 'rm -rf /'; git diff", want: rm},
		{line: "git config --global core.sshCommand 'rm -rf /'; git fetch", want: []string{"rm -rf / HOST git-upload-pack"}},
		{line: "git clone -c core.sshCommand='rm -rf /' git@h:r.git", want: []string{"rm -rf / HOST git-upload-pack"}},
		{line: "git clone --config=core.pager='rm -rf /' git@h:r.git", want: rm},
		// clone reads its options with parse-options: -c in a group of
		// flags, attached there too, and --config abbreviated (each ran
		// the setting's command, checked with git 2.x).
		{line: "git clone -vc core.sshCommand='rm -rf /' git@h:r.git", want: []string{"rm -rf / HOST git-upload-pack"}},
		{line: "git clone -qvccore.pager='rm -rf /' git@h:r.git", want: rm},
		{line: "git clone --conf core.pager='rm -rf /' git@h:r.git", want: rm},
		{line: "git clone --confi=core.hooksPath=/tmp/h git@h:r.git", err: "hooks"},
		// Commands git runs for trailers, submodules, mail and IMAP
		// (trailer.x.cmd checked with git 2.39's commit --trailer).
		{line: "git -c trailer.x.cmd='rm -rf /' commit --trailer x=1 -m m", want: rm},
		{line: "git -c trailer.x.command='rm -rf /' interpret-trailers --trailer x=1", want: rm},
		{line: "git -c submodule.s.update='!rm -rf /' submodule update", want: rm},
		{line: "git -c submodule.s.update=rebase submodule update", want: []string{"git submodule update"}},
		{line: "git -c imap.tunnel='rm -rf /' imap-send", want: rm},
		{line: "git -c sendemail.headerCmd='rm -rf /' send-email x.patch", want: rm},
		{line: "git send-email --to-cmd='rm -rf /' x.patch", want: rm},
		{line: "git send-email --sendmail-cmd 'rm -rf /' x.patch", want: rm},
		{line: "git send-email --to=a@b.c x.patch", want: []string{"git send-email --to=a@b.c x.patch"}},
		{line: "git rebase -x 'rm -rf /'", want: rm},
		{line: "git rebase -ix 'rm -rf /' main", want: rm},
		{line: "git rebase --exec='rm -rf /' main", want: rm},
		{line: "git rebase --exe 'rm -rf /' main", want: rm},
		{line: "git rebase -x 'make test' -x 'rm -rf /' main", want: []string{"make test", "rm -rf /"}},
		{line: "git bisect run rm -rf /", want: rm},
		{line: "git bisect run 'rm -rf /'", want: rm},
		{line: "git submodule foreach 'rm -rf /'", want: rm},
		{line: "git submodule --quiet foreach --recursive 'rm -rf /'", want: rm},
		{line: "git submodule foreach rm -rf /", want: rm},
		{line: "git filter-branch --tree-filter 'rm -rf /'", want: rm},
		{line: "git filter-branch --index-filter='rm -rf /' HEAD", want: rm},
		{line: "git difftool -x 'rm -rf /'", want: rm},
		{line: "git fetch --upload-pack='rm -rf /' ../r", want: rm},
		{line: "git grep -O'rm -rf /' x", want: rm},
		{line: "GIT_SSH_COMMAND='rm -rf /' git fetch", want: []string{"rm -rf / HOST git-upload-pack"}},
		{line: "GIT_EXTERNAL_DIFF='rm -rf /' git diff", want: rm},
		{line: "export GIT_PAGER='rm -rf /'; git log", want: rm},
		{line: "env EDITOR='rm -rf /' git commit", want: rm},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -rf /' git status", want: rm},
		// A value from the environment is doubt, as GIT_PAGER="$P" is.
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=\"$P\" git log", want: []string{"git log"}},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager git log", err: "GIT_CONFIG_VALUE_0"},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/h git commit", err: "hooks"},
		{line: "GIT_CONFIG_PARAMETERS=\"'core.pager=rm -rf /'\" git log", err: "GIT_CONFIG_PARAMETERS"},
		{line: "C='rm -rf /' git --config-env=core.pager=C log", want: rm},
		{line: "git --config-env=core.pager=C log", err: "--config-env"},
		{line: "git --exec-path=/tmp/x x", err: "--exec-path"},
		{line: "GIT_EXEC_PATH=/tmp/x git status", err: "GIT_EXEC_PATH"},
		{line: "git -c alias.x='--exec-path=/tmp y' x", err: "--exec-path"},
		// Given after the command, --config-env is the command's word,
		// not git's option: git x does not read it.
		{line: "git x --config-env=alias.x=V", want: []string{"git x --config-env=alias.x=V"}},
		// git runs these with sh, not the zsh that runs the line.
		{line: "zsh -c \"git -c core.pager='rm -rf /' log\"", want: rm},
		// Ordinary lines.
		{line: "git -c core.pager=cat log -3", want: []string{"cat", "git log -3"}},
		{line: "git -c color.ui=never status", want: []string{"git status"}},
		{line: "git -c user.name=x commit -m y", want: []string{"git commit -m y"}},
		{line: "git -c core.fsmonitor=false -c pager.log=false status", want: []string{"git status"}, not: []string{"false"}},
		{line: "git -c core.hooksPath=/dev/null commit -m x", want: []string{"git commit -m x"}},
		{line: "git --no-pager -c core.sshCommand='ssh -i ~/.ssh/deploy -o IdentitiesOnly=yes' fetch origin", want: []string{"ssh -i ~/.ssh/deploy -o IdentitiesOnly=yes HOST git-upload-pack", "git fetch origin"}},
		{line: "GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no' git clone git@github.com:a/b.git", want: []string{"git clone git@github.com:a/b.git"}},
		{line: "GIT_PAGER=cat git log", want: []string{"cat", "git log"}},
		{line: "GIT_EDITOR=true git commit", want: []string{"true", "git commit"}},
		{line: "GIT_SEQUENCE_EDITOR=\"sed -i -e 's/^pick/squash/'\" git rebase -i HEAD~3", want: []string{"sed -i -e s/^pick/squash/"}},
		{line: "git rebase -i main", want: []string{"git rebase -i main"}},
		{line: "git rebase -x 'go test ./...' main", want: []string{"go test ./..."}},
		{line: "git submodule update --init --recursive", want: []string{"git submodule update --init --recursive"}},
		{line: "git bisect start && git bisect bad && git bisect good v1", want: []string{"git bisect start"}},
		{line: "git bisect run go test ./pkg -run 'TestX$'", want: []string{"go test ./pkg -run TestX$"}},
		{line: "git config core.editor vim", want: []string{"vim", "git config core.editor vim"}},
		{line: "git config --global core.editor \"code --wait\"", want: []string{"code --wait"}},
		{line: "git config --global credential.helper store", want: []string{"git credential-store"}},
		{line: "git config --get core.pager", want: []string{"git config --get core.pager"}},
		{line: "git config core.hooksPath .githooks", want: []string{"git config core.hooksPath .githooks"}},
		{line: "git config --global pull.rebase true && git pull", want: []string{"git pull"}},
		{line: "git clone --depth 1 https://github.com/a/b.git", want: []string{"git clone --depth 1 https://github.com/a/b.git"}},
		{line: "git grep -n foo -- '*.go'", want: []string{"git grep -n foo -- *.go"}},
		{line: "git push --force-with-lease origin HEAD", want: []string{"git push --force-with-lease origin HEAD"}},
		{line: "EDITOR=vim git commit --amend", want: []string{"vim"}},
	})
}
