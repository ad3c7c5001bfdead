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
		{line: "git config alias.p \"$V\"; git p", err: ""},
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
