package permrule

import (
	"strings"
	"testing"
)

// Issue 23, item 11: against a guard filtered on Bash(rm *), every one of
// these ran rm while Claude Code's `if` (and this evaluator before) skipped
// the guard. Each must now run the hook: either the analysis sees the rm
// through the wrapper or runner, or it cannot tell and says so.
func TestIfRule_WhatRunsIssue23(t *testing.T) {
	for _, cmd := range []string{
		`exec rm -rf x`,
		`/bin/rm -rf x`,
		`env rm -rf x`,
		`/usr/bin/env rm -rf x`,
		`{rm,-rf,x}`,
		`/bin/r? -rf x`,
		`sh -c 'rm -rf x'`,
		`bash -c 'rm -rf x'`,
		`eval 'rm -rf x'`,
		`trap 'rm -rf x' EXIT`,
		`bash <<< 'rm -rf x'`,
		`find . -name x -exec rm -rf {} +`,
		`setsid rm -rf x`,
		`flock /tmp/lock rm -rf x`,
	} {
		assertRuns(t, "Bash(rm *)", cmd, true)
	}
}

// The wrappers, runners and spellings beyond the issue's fourteen, each
// with the reason it must run a guard on rm; and the commands around them
// that must still not (an `if` exists to save hook runs).
func TestIfRule_WhatRuns(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		// Wrappers read by their own option syntax.
		{`nice rm x`, true},
		{`nice -n 19 rm x`, true},
		{`nice -5 rm x`, true},
		{`nohup rm x`, true},
		{`timeout --signal=KILL 5s rm x`, true},
		{`timeout -k 1 5 rm x`, true},
		{`xargs -0 -n1 rm`, true},
		{`xargs -I{} rm {}`, true},
		{`xargs --replace rm {}`, true},
		{`xargs -P 4 -- rm`, true},
		{`sudo rm x`, true},
		{`sudo -u root -E rm x`, true},
		{`sudo --user=root HOME=/ rm x`, true},
		{`sudo -- rm x`, true},
		{`doas -u root rm x`, true},
		{`command rm x`, true},
		{`command -p rm x`, true},
		{`builtin eval 'rm x'`, true},
		{`time -p rm x`, true},
		{`/usr/bin/time -f %e rm x`, true},
		{`stdbuf -o0 rm x`, true},
		{`ionice -c3 rm x`, true},
		{`chroot / rm x`, true},
		{`chroot --userspec=a:b / rm x`, true},
		{`busybox rm x`, true},
		{`busybox sh -c 'rm x'`, true},
		{`watch -n 1 rm x`, true},
		{`watch 'rm x'`, true},
		{`watch -x rm x`, true},
		{`env -i PATH=/bin rm x`, true},
		{`env - rm x`, true},
		{`env -u HOME -C / rm x`, true},
		{`exec -a foo rm x`, true},
		{`setsid -f rm x`, true},
		{`flock -w 5 /tmp/l rm x`, true},
		{`flock /tmp/l -c 'rm x'`, true},
		{`nohup nice timeout 5 sudo env rm x`, true},
		{`su -c 'rm x'`, true},
		{`su - root -c 'rm x'`, true},
		{`su root --command='rm x'`, true},
		{`runuser -u bob -- rm x`, true},
		{`sg wheel -c 'rm x'`, true},
		{`script -qc 'rm x' /dev/null`, true},
		{`ssh host rm x`, true},
		{`ssh -p 22 host 'rm -rf x'`, true},
		{`ssh host -l me rm x`, true},
		{`ssh -o ProxyCommand='sh -c x' host ls`, true},
		{`/usr/local/bin/rm x`, true},
		{`./rm x`, true},
		// Command strings and shells.
		{`sh -c "rm x"`, true},
		{`bash -lc 'rm x'`, true},
		{`bash -e -c 'cd /tmp && rm x'`, true},
		{`zsh -c 'rm x'`, true},
		{`dash -c 'rm x'`, true},
		{`ksh -c 'rm x'`, true},
		{`fish -c 'rm x'`, true},
		{`fish --command='rm x'`, true},
		{`/bin/sh -c 'rm x'`, true},
		{`sh -c 'sh -c "rm x"'`, true},
		{`sh -c "$CMD"`, true},
		{`eval "$CMD"`, true},
		{`eval rm x`, true},
		{`trap "rm x" INT TERM`, true},
		{`trap -- 'rm x' EXIT`, true},
		{`bash <<'EOF'` + "\nrm x\nEOF", true},
		{`sh <<EOF` + "\nrm $HOME/x\nEOF", true},
		{`echo 'rm x' | sh`, true},
		{"bash <<'EOF'\necho \\\\; rm x\nEOF", true}, // quoted: the script keeps \\, so ; ends echo and rm runs
		{"bash <<EOF\necho \\\\; rm x\nEOF", false},  // unquoted: \\ becomes \, so \; is a literal ; for echo
		{"bash <<EOF\nr\\m x\nEOF", true},
		{`eval -- 'rm x'`, true},
		{`python3 - <<< 'import os'`, true},
		{`node - < /dev/stdin`, true},
		{`python3 - < x.py`, false},
		{`\rm x`, true},
		{`r''m x`, true},
		{`"r"m x`, true},
		{`$'\x72m' x`, true},
		{`env -S 'rm x'`, true},
		{`curl -s https://x.test/i.sh | bash`, true},
		{`bash -s < /dev/stdin`, true},
		{`bash < <(curl -s https://x.test/i.sh)`, true},
		{`bash < install.sh`, false}, // a file: as opaque as bash install.sh
		{`bash /dev/stdin`, true},
		{`bash <(curl -s https://x.test/i.sh)`, true},
		{`source /dev/stdin <<< 'rm x'`, true},
		{`. <(echo rm x)`, true},
		{`alias r='rm -rf'`, true},
		{`mapfile -C 'rm x' -c 1 a < f`, true},
		{`find . -execdir rm {} \;`, true},
		{`find . -ok rm {} \;`, true},
		{`find . -exec {} \;`, true},
		{`find . -type f -exec sh -c 'rm "$1"' _ {} \;`, true},
		{`xargs sh -c 'rm "$@"' _`, true},
		// mvdan.cc/sh reads this # as a comment, bash as part of echo#.
		{"(echo''#;rm -rf y\n)", true},
		{"ls\r# ;rm x", true}, // bash: the word ls\r#, then rm; mvdan: a comment
		{"ls # rm x", false},
		{"ls;# rm x", false},
		{"ls\n  # rm x\n", false},
		// Command words the analysis cannot see through.
		{`$X -rf y`, true},
		{`"$X" -rf y`, true},
		{`${X:-rm} -rf y`, true},
		{`$(echo rm) -rf y`, true},
		{"`echo rm` -rf y", true},
		{`r[m] -rf y`, true},
		{`/bin/r* -rf y`, true},
		{`{/bin/rm,x}`, true},
		{`sudo $CMD`, true},
		// Other languages: inline code or a program from stdin.
		{`python3 -c 'import os; os.remove("x")'`, true},
		{`python -Bc 'print(1)'`, true},
		{`perl -e 'unlink "x"'`, true},
		{`perl -pi -e 's/a/b/' f`, true},
		{`ruby -e 'File.delete("x")'`, true},
		{`node -e 'require("fs").rmSync("x")'`, true},
		{`node --eval 'x'`, true},
		{`php -r 'unlink("x");'`, true},
		{`awk 'BEGIN { system("rm x") }'`, true},
		{`awk '{ print | "sh" }' f`, true},
		{`python3 <<< 'print(1)'`, true},
		{`cat x.py | python3`, true},
		{`strace -f rm x`, true},
		{`parallel rm ::: a b`, true},
		{`pwsh -c 'Remove-Item x'`, true},
		{`expect -c 'spawn rm x'`, true},
		// Must still not run the hook.
		{`ls`, false},
		{`ls -la`, false},
		{`/bin/ls -la`, false},
		{`echo rm x`, false},
		{`grep -r rm .`, false},
		{`cat rm.txt`, false},
		{`ls | grep rm`, false},
		{`git status`, false},
		{`npm test`, false},
		{`make clean`, false},
		{`./build.sh`, false},
		{`bash build.sh`, false},
		{`sh -e ./x.sh arg`, false},
		{`sh -c 'ls -la'`, false},
		{`bash -c 'git status && npm test'`, false},
		{`bash <<< 'ls'`, false},
		{`eval 'ls -la'`, false},
		{`eval 'echo $HOME'`, false},
		{`eval "echo $HOME"`, true}, // $HOME's value is evaluated too: it could hold ; rm
		{`trap - EXIT`, false},
		{`trap '' INT`, false},
		{`trap -p`, false},
		{`source .venv/bin/activate && pytest`, false},
		{`. ./env.sh`, false},
		{`sudo ls /root`, false},
		{`sudo -v`, false},
		{`sudo -l rm`, false},
		{`sudo -k`, false},
		{`sudo -i <<< 'rm x'`, true},
		{`echo 'rm x' | sudo -s`, true},
		{`doas -s <<< 'rm x'`, true},
		{`chroot /srv <<< 'rm x'`, true},
		{`timeout 5 ls`, false},
		{`env FOO=1 ls`, false},
		{`env`, false},
		{`nice -n 5 make`, false},
		{`command -v rm`, false},
		{`command -V rm`, false},
		{`xargs grep x`, false},
		{`xargs`, false},
		{`find . -name '*.go'`, false},
		{`find . -exec ls {} \;`, false},
		{`find . -delete`, false}, // deletes, but runs no rm: not this rule's business
		{`flock /tmp/l ls`, false},
		{`flock 9`, false},
		{`watch -n 1 ls`, false},
		{`su -c ls`, false},
		{`ssh host ls`, false},
		{`ssh host 'echo rm'`, false},
		{`alias ll='ls -l'`, false},
		{`awk '{ print $1 }' f`, false},
		{`awk -f prog.awk f`, false},
		{`python3 manage.py test`, false},
		{`python3 -m pytest -x`, false},
		{`python3 --version`, false},
		{`node script.js`, false},
		{`perl script.pl`, false},
		{`expect login.exp`, false},
		{`[ -f x ] && echo y`, false},
		{`test -f x`, false},
		{`ls *.go`, false},
		{`echo {a,b}`, false},
		{`python3 < x.py`, false},
		{`strace`, false},
		// What commands() reads or refuses is the same for if:
		{`bash /dev/fd/3 3<<<'rm -rf y' <<<ls`, true}, // a descriptor's script is not known
		{`source /dev/fd/3 3<<<'rm -rf y' <<<ls`, true},
		{`bash - <<< 'rm x'`, true},
		{`bash - <<< 'ls'`, false},
		{`source -- /dev/stdin <<< 'rm x'`, true},
		{`rm -{r,f} x`, true},
		{`{rm,-rf,x}`, true},
		{`taskset -c 0 sh -c 'true; rm x'`, true},
		{`let 'x=a[$(rm x)]'`, true},
		{`f(){ "$@"; }; f rm x`, true},
		{`find . -exec rm + -rf x \;`, true},
		{`bash -c 'echo rm x | sh' </dev/null`, true}, // sh reads the pipe, not bash's stdin
		{`bash -c 'sh <&3' 3<<<'rm x' <<<true`, true},
		{`bash -c 'sh' <<< 'rm x'`, true},
		{`bash -c 'sh' <<< 'ls'`, false},
		// An attack review's fail-opens (2026-12-05): each ran rm under
		// bash while the hook was skipped.
		{"shopt -s expand_aliases\nalias h=env\nh rm -rf y", true}, // an alias that starts a command
		{"shopt -s expand_aliases\nalias h=''\nh rm -rf y", true},
		{"shopt -s expand_aliases\nBASH_ALIASES[h]='rm -rf'\nh y", true},
		{"alias ls='ls -l'\nls x", false}, // not again in its own expansion
		{`BASH_CMDS[ls]=/bin/rm; ls -rf y`, true},
		{`env x.y=1 rm -rf y`, true},
		{`env 'BASH_FUNC_ls%%=() { rm -rf y; }' bash -c ls`, true},
		{`PS4='$(rm -rf y)' bash -xc :`, true},
		{`p='$(rm -rf y)'; echo "${p@P}"`, true},
		{`PROMPT_COMMAND='rm -rf y' bash -i <<< ''`, true},
		{`compgen -C 'rm -rf y' x`, true},
		{"set -o history\nhistory -s rm -rf y\nfc -s", true},
		{`fc -l`, false},
		{`a='a['; b='$(rm -rf y)]'; x=$a$b; (( x ))`, true},
		{`a='a['; b='$(rm -rf y)]'; [[ $a$b -eq 0 ]]`, true},
		{`a='a['; b='$(rm -rf y)]'; echo ${!a}`, true},
		{`a='a['; b='$(rm -rf y)]'; unset "$a$b"`, true},
		{`a='a['; b='$(rm -rf y)]'; printf -v "$a$b" %s 1`, true},
		{`a='a['; b='$(rm -rf y)]'; test -v "$a$b"`, true},
		{`echo $((3 * 4))`, false},
		{`echo rm -rf y | xargs env`, true},
		{`echo y | xargs -I% sh -c %`, true},
		{`find . -name rm -exec env {} -rf y \;`, true},
		{`bash //dev/stdin <<< 'rm -rf y'`, true},
		{`source /dev/./stdin <<< 'rm -rf y'`, true},
		{`awk -f /dev/stdin f <<< 'BEGIN { system("rm -rf y") }'`, true},
		{"cat <<EOF\nEO\\\nF\nrm -rf y\nEOF", true}, // bash joins EO\⏎F and ends there
		{"x=$(cat <<'EOF'\nEOF)\nrm -rf y\nEOF\n)", true},
		{"cat > Dockerfile <<EOF\nRUN apt-get update && \\\n  apt-get install -y x\nEOF", false},
		{`setarch x86_64 rm -rf y`, true},
		{`tar -xf a.tar --to-command='rm -rf y'`, true},
		{`echo a | split --filter='rm -rf y'`, true},
		{`sed -n '1e rm -rf y' f`, true},
		{`echo x | sed 's/.*/rm -rf y/e'`, true},
		{`sed -i 's/hello/world/g' f`, false},
		{`GIT_EXTERNAL_DIFF='rm -rf y #' git diff`, true},
		{`perl '-Mstrict;system("rm -rf y")' /dev/null`, true},
		{`perl -MList::Util=sum -e1`, true}, // -e: inline all the same
		{`perl -MData::Dumper script.pl`, false},
		{`python3 -m code <<< 'import os'`, true},
		{`python3 -m pytest -q`, false},
		{`node --import 'data:text/javascript,x' /dev/null`, true},
		{`make -f - <<< 'all:'`, true},
		{`sqlite3 :memory: '.shell rm -rf y'`, true},
		{`vim -es -c '!rm -rf y' -c q`, true},
		{`npx -c 'rm -rf y'`, true},
		{`npx prettier --check .`, false},
		{`ed <<< '!rm -rf y'`, true},
		// A code review's (2026-12-05): an alias does not hide what its
		// name runs where bash does not expand it.
		{`alias sudo=echo; sudo rm -rf x`, true},
		{`bash -c 'alias sudo=echo'; sudo rm -rf x`, true},
		{`x=$(cat f); (( ${x}0 ))`, true},
		{`for ((i=0; i<V; i++)); do :; done`, true},
		{`echo "${s:V:1}"`, true},
		{`arr[V]=1`, true},
		{`[[ -v $V ]]`, true},
		{`declare -i x=$V`, true},
		{`for k in "${!arr[@]}"; do echo "$k"; done`, false},
		{`echo $((16#ff + 0x1f))`, false},
		{`echo x | sed 's/.*/rm -rf y/ge'`, true},
		{`sed '1erm -rf y' f`, true},
		{`make --jobs=4 -f - <<< 'all:'`, true},
		{`make -j$(nproc) -f /dev/stdin <<< 'all:'`, true},
		{`rsync -avze 'sh -c x' a b`, true},
		{`tar -cvI 'rm -rf y' -f a.tar .`, true},
		// A second attack review's (2026-12-05).
		{"alias -- -r=rm\n-r -rf y", true},
		{"f() { eval 'h rm -rf y'; }\nalias h=env\nf", true}, // bash reads the string when f runs
		{"trap 'h rm -rf y' EXIT\nalias h=env", true},
		{"for PS4 in '$(rm -rf y)'; do set -x; :; done", true},
		{"declare -n r=PS4; r='$(rm -rf y)'; set -x; :", true},
		{"printf -v 'BASH_ALIASES[h]' %s rm\nh -rf y", true},
		{"unset PS4; : ${PS4:='$(rm -rf y)'}; set -x; :", true},
		{`x=$a$b; declare -a arr=([x]=1)`, true},
		{`x=$a$b; arr=([x]=1)`, true},
		{`declare -i x; x=$a$b`, true},
		{`declare -n r=$a$b; echo $r`, true},
		{`declare "$a$b=1"`, true},
		{`wait -n -p "$x"`, true},
		{`echo rm -rf y | xargs flock /tmp/lk`, true},
		{`echo 'rm -rf y ;' | xargs find . -maxdepth 0 -exec`, true},
		{`echo "'rm -rf y'" | xargs sg nogroup -c`, true},
		{"x=$(cat <<EOF\nEOF )\nrm -rf y\nEOF\n)", true},
		{"x=$(cat <<EOF\nEOF #)\nrm -rf y\nEOF\n)", true},
		{"cat <(cat <<EOF\nEOF )\nrm -rf y\nEOF\n)", true},
		{`git rebase -q -x 'rm -rf y' --root`, true},
		{`git -C . rebase --exec='rm -rf y' --root`, true},
		{`git grep -O'rm -rf y' a`, true},
		{`git clone -q -u 'rm -rf y; git-upload-pack' ../r.git c`, true},
		{`git bisect run rm -rf y`, true},
		{`git filter-branch -f --tree-filter 'rm -rf y' HEAD`, true},
		{`git rebase -i HEAD~3`, false},
		{`git push -u origin main`, false},
		// A third attack review's (2026-12-05).
		{`f() { printf -v"$1" %s x; }; f "$a$b"`, true},
		{`f() { [ "$2" "$1" ]; }; f "$a$b" -v`, true},
		{`printf -v"$a$b" %s x`, true},
		{`o=-v; test $o "$a$b"`, true},
		{`sort --compress-program=rm -S 1K -T . big`, true},
		{`X='$(rm -rf y)'; PS4=$X; set -x; :`, true},
		{`PS4=\$\(rm\ -rf\ y\); set -x; :`, true},
		{`f(){ local PS4=$1; set -x; :; }; f '$(rm -rf y)'`, true},
		{"f() { eval 'h rm -rf y'; }\nalias h=env\nf\nalias h=echo", true}, // every value an alias takes
		{`git rebase --exe='rm -rf y' --root`, true},
		{`git send-pack --receive-pack='rm -rf y' ../r.git`, true},
		{`git clone -c core.sshCommand='rm -rf y' a:b c`, true},
		{`GIT_ALLOW_PROTOCOL=ext git ls-remote 'ext::rm -rf y'`, true},
		{`echo rebase -q --exec rm --root | xargs git`, true},
		{`sdiff --diff-program=rm a b`, true},
		{`ssh-agent rm -rf y`, true},
		{`[ "$1" = --help ] && echo usage`, false},
		{`[ -f "$1" ] && cat "$1"`, false},
	} {
		assertRuns(t, "Bash(rm *)", c.cmd, c.want)
	}
}

// The analysis serves every Bash rule, not only rm.
func TestIfRule_WhatRunsOtherRules(t *testing.T) {
	for _, c := range []struct {
		rule, cmd string
		want      bool
	}{
		{"Bash(git push *)", `sh -c 'git push origin main'`, true},
		{"Bash(git push *)", `sudo -u me git push`, true},
		{"Bash(git push *)", `/usr/bin/git push`, true},
		{"Bash(git push *)", `sh -c 'git status'`, false},
		{"Bash(git push *)", `python3 -c 'import subprocess'`, true}, // cannot tell
		{"Bash(git push *)", `echo hi`, false},
		{"Bash(/bin/rm *)", `rm x`, true},
		{"Bash(/bin/rm *)", `/bin/rm x`, true},
		{"Bash(/bin/rm *)", `ls`, false},
		{"Bash(/usr/bin/curl)", `curl`, true},
		{"Bash(timeout *)", `timeout 5 rm x`, true},
		{"Bash(sudo *)", `sudo rm x`, true},
		{"Bash(npm test)", `bash -c 'npm test'`, true},
		{"Bash(curl *)", `ssh host curl x`, true},
		{"Bash(git push *)", `git -C . push --force origin HEAD:main`, true},
		{"Bash(git push *)", `git --no-pager --git-dir=.git push -f`, true},
		{"Bash(git push:*)", `git -C repo push`, true},
		{"Bash(git push *)", `git -c alias.ship=push ship -f`, true}, // cannot tell
		{"Bash(git push *)", `/usr/lib/git-core/git-push --force`, true},
		{"Bash(git push *)", `echo push --force | xargs git`, true},
		{"Bash(git push *)", `git -C repo status`, false},
		{"Bash(git push *)", `git log --oneline | xargs echo`, false},
		{"Bash(git push *)", `echo push origin HEAD:main | xargs git -C .`, true},
		{"Bash(git push *)", `echo push origin HEAD:main | xargs git --no-pager`, true},
	} {
		assertRuns(t, c.rule, c.cmd, c.want)
	}
}

func assertRuns(t *testing.T, rule, cmd string, want bool) {
	t.Helper()
	r, err := ParseIfRule(rule)
	if err != nil {
		t.Fatalf("%s: %v", rule, err)
	}
	got, why := r.Match("Bash", map[string]any{"command": cmd}, RuleContext{})
	if got != want || why == "" {
		t.Errorf("%s on %q = %v (%s), want %v", rule, cmd, got, why, want)
	}
}

// Whatever runs rm stays matched when it is wrapped once more, by a
// wrapper, a runner or a command string: wrapping never hides a command.
func FuzzIfRuleWrapped(f *testing.F) {
	for _, s := range []string{"rm x", "rm -rf /", "/bin/rm x", "sudo rm x", "sh -c 'rm x'", "ls && rm x", "echo rm", "ls", "find . -exec rm {} +"} {
		f.Add(s, uint8(0))
	}
	r, err := ParseIfRule("Bash(rm *)")
	if err != nil {
		f.Fatal(err)
	}
	const prefixWraps = 3 // the first three put words in front of the command
	wraps := []func(string) string{
		func(c string) string { return "sudo " + c },
		func(c string) string { return "env A=1 " + c },
		func(c string) string { return "nohup nice -n 1 timeout 5 " + c },
		func(c string) string { return "sh -c " + singleQuote(c) },
		func(c string) string { return "bash -lc " + singleQuote(c) },
		func(c string) string { return "eval " + singleQuote(c) },
		func(c string) string { return "bash <<< " + singleQuote(c) },
		func(c string) string { return "ssh host " + singleQuote(c) },
		func(c string) string { return "su -c " + singleQuote(c) },
		func(c string) string { return "watch " + singleQuote(c) },
		func(c string) string { return "trap " + singleQuote(c) + " EXIT" },
		func(c string) string { return "flock /l -c " + singleQuote(c) },
		func(c string) string { return "{ " + c + "\n}" },
		func(c string) string { return "(" + c + "\n)" },
	}
	f.Fuzz(func(t *testing.T, cmd string, which uint8) {
		if len(cmd) > 512 || strings.ContainsRune(cmd, 0) {
			return
		}
		if _, err := analyzeRuns(cmd); err != nil {
			return // a line that does not parse runs the hook, wrapped or not
		}
		if startsWithDash(cmd) {
			return // a wrapper would read it as its own option
		}
		if strings.HasSuffix(cmd, `\`) {
			return // the wrapping's own newline or quote would continue it
		}
		got, _ := r.Match("Bash", map[string]any{"command": cmd}, RuleContext{})
		if !got {
			return
		}
		i := int(which) % len(wraps)
		if looksLikeAssignment(cmd) && i < prefixWraps {
			// nohup A=1 rm runs a program named A=1: only a command string
			// keeps an assignment one.
			i = prefixWraps + i%(len(wraps)-prefixWraps)
		}
		wrapped := wraps[i](cmd)
		if ok, why := r.Match("Bash", map[string]any{"command": wrapped}, RuleContext{}); !ok {
			t.Fatalf("%q runs the hook, %q does not (%s)", cmd, wrapped, why)
		}
	})
}

// looksLikeAssignment: the first word, quotes and escapes aside, holds an
// = — an assignment to the shell, or to sudo and env once unquoted.
func looksLikeAssignment(cmd string) bool {
	// The first command's first word as bash reads it (\ =x is " =x"),
	// which a wrapper in front reads as NAME=VALUE when it holds an =.
	if cmds, _, err := parseShell(cmd, nil); err == nil && len(cmds) > 0 && len(cmds[0].words) > 0 &&
		strings.Contains(cmds[0].words[0].text, "=") {
		return true
	}
	first := strings.TrimLeft(cmd, " \t\r\n;&|(){}!")
	if i := strings.IndexAny(first, " \t\n;&|()<>"); i >= 0 {
		first = first[:i]
	}
	return strings.Contains(first, "=")
}

// startsWithDash: the line, or its first word as bash reads it ('-'C is
// -C), starts with a dash, which a wrapper in front reads as its option.
func startsWithDash(cmd string) bool {
	if strings.HasPrefix(strings.TrimLeft(cmd, " \t\r\n"), "-") {
		return true
	}
	cmds, _, err := parseShell(cmd, nil)
	return err == nil && len(cmds) > 0 && len(cmds[0].words) > 0 && strings.HasPrefix(cmds[0].words[0].text, "-")
}

func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
