package permrule

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestCode: what Code blanks (the data no command of the line runs) and
// what it leaves whole (data that runs, or that a line could make run).
func TestCode(t *testing.T) {
	for _, tc := range []struct {
		line string
		gone []string // text no longer on the line
		kept []string // text still on it
	}{
		{"git commit -m \"$(cat <<'EOF'\nrules: refuse curl | sh\n\nAlso git push --force and rm -rf /.\nEOF\n)\"", []string{"curl", "--force", "rm -rf"}, []string{"git commit -m"}},
		{"git add -A && git commit -m \"$(cat <<'EOF'\nno curl | sh\nEOF\n)\" && git push", []string{"curl"}, []string{"git add -A", "git push"}},
		{"gh pr create --title \"Block rm -rf\" --body \"$(cat <<'EOF'\n## Summary\n- refuse `curl | bash`\n- refuse `cat ~/.ssh/id_rsa`\nEOF\n)\"", []string{"rm -rf", "curl", "id_rsa"}, []string{"gh pr create --title"}},
		{"git commit -m \"refuse cat .env\"", []string{".env"}, nil},
		{"git commit -am 'no curl | sh'", []string{"curl"}, nil},
		{"echo \"never run curl | sh\" >> NOTES.md", []string{"curl"}, []string{">> NOTES.md"}},
		{"printf '%s\\n' \"git push --force is refused\" > msg.txt", []string{"--force"}, []string{"> msg.txt"}},
		{"echo \"chmod -R 777 / is bad\" > notes.txt", []string{"chmod"}, nil},
		{"cat > docs/install.md <<'EOF'\n# Install\nRun `curl -fsSL https://x.y/install.sh | sh`\nEOF", []string{"curl"}, []string{"cat > docs/install.md <<'EOF'", "\nEOF"}},
		{"gh pr create --title x --body-file - <<'EOF'\ncurl | sh\nEOF", []string{"curl"}, []string{"\nEOF"}},
		{"echo '== rm -rf build ==' && make", []string{"rm -rf"}, []string{"&& make"}},
		// git's message in each of the forms parse-options reads, past
		// the options before git's command that run nothing.
		{"git commit --message='no curl | sh'", []string{"curl"}, []string{"git commit --message='"}},
		{"git commit --message \"no curl | sh\"", []string{"curl"}, []string{"git commit --message '"}},
		{"git commit -m'no curl | sh'", []string{"curl"}, []string{"git commit -m'"}},
		{"git commit -am\"no curl | sh\"", []string{"curl"}, []string{"git commit -am'"}},
		{"git commit -sam 'no curl | sh'", []string{"curl"}, []string{"git commit -sam '"}},
		{"git commit -m fix -m 'no curl | sh' --amend", []string{"curl"}, []string{" --amend"}},
		{"git commit --author 'A <a@b.c>' src/a.go -m 'no curl | sh'", []string{"curl"}, []string{"'A <a@b.c>' src/a.go -m"}},
		{"git commit --message=\"$(cat <<'EOF'\nno curl | sh\nEOF\n)\"", []string{"curl"}, []string{"git commit --message="}},
		{"git -c user.name=A -c 'user.email=a@b.c' commit -m 'no curl | sh'", []string{"curl"}, []string{"git -c user.name=A -c 'user.email=a@b.c' commit -m"}},
		{"git -c commit.gpgSign=false -c core.hooksPath=/dev/null commit -m 'no curl | sh'", []string{"curl"}, nil},
		{"git -C sub/dir commit -am 'no curl | sh'", []string{"curl"}, []string{"git -C sub/dir commit -am"}},
		{"git tag -a v1.2.0 -m 'no curl | sh'", []string{"curl"}, []string{"git tag -a v1.2.0 -m"}},
		{"git tag -s --message='no curl | sh' v1", []string{"curl"}, []string{"' v1"}},
		{"git tag -a v1 -F - <<'EOF'\nno curl | sh\nEOF", []string{"curl"}, []string{"\nEOF"}},
		{"gh pr create --title='no rm -rf' --body=\"no curl | sh\"", []string{"rm -rf", "curl"}, []string{"--title='", "--body='"}},
		{"gh issue create -t'no curl | sh' -b\"no rm -rf\"", []string{"rm -rf", "curl"}, []string{"-t'", "-b'"}},
		{"gh pr create --body=\"$(cat <<'EOF'\nno curl | sh\nEOF\n)\" -t\"$(cat <<'EOF'\nno rm -rf\nEOF\n)\"", []string{"rm -rf", "curl"}, []string{"--body="}},
		{"git commit -sm\"$(cat <<'EOF'\nno curl | sh\nEOF\n)\" -- a.go", []string{"curl"}, []string{"git commit -sm", " -- a.go"}},
		// git merge's, stash push's and save's, notes add's and append's
		// messages, read from their option tables as git's are; gh's
		// clustered flags and its -R before the subcommand.
		{"git commit --amend -m 'no curl | sh'", []string{"curl"}, []string{"git commit --amend -m '"}},
		{"git merge --no-ff -m 'no curl | sh' feature", []string{"curl"}, []string{"git merge --no-ff -m '", "' feature"}},
		{"git merge -em\"no curl | sh\" --message='no rm -rf' origin/main", []string{"curl", "rm -rf"}, []string{"git merge -em'", "--message='", "' origin/main"}},
		{"git -C sub merge -s ours -Xtheirs --log=5 --into-name x -m 'no curl | sh' feature", []string{"curl"}, []string{"-s ours -Xtheirs --log=5 --into-name x -m '"}},
		{"git merge --strategy=ort -F - feature <<'EOF'\nno curl | sh\nEOF", []string{"curl"}, []string{"\nEOF"}},
		{"git stash push -m 'no curl | sh'", []string{"curl"}, []string{"git stash push -m '"}},
		{"git stash push -um\"no curl | sh\" -- src/a.go", []string{"curl"}, []string{"git stash push -um'", "' -- src/a.go"}},
		{"git stash push --keep-index --message='no curl | sh' src", []string{"curl"}, []string{"--message='", "' src"}},
		{"git stash save 'no curl | sh'", []string{"curl"}, []string{"git stash save '"}},
		{"git stash save -k no curl '|' sh -q", []string{"curl", "|"}, []string{"git stash save -k ", " -q"}},
		{"git notes add -m 'no curl | sh' HEAD", []string{"curl"}, []string{"git notes add -m '", "' HEAD"}},
		{"git notes --ref=review add -fm'no curl | sh'", []string{"curl"}, []string{"git notes --ref=review add -fm'"}},
		{"git notes --ref review append --message=\"$(cat <<'EOF'\nno curl | sh\nEOF\n)\" HEAD~1", []string{"curl"}, []string{"append --message=", " HEAD~1"}},
		{"gh pr create -dt 'no curl | sh' -b 'no rm -rf'", []string{"curl", "rm -rf"}, []string{"gh pr create -dt '", " -b '"}},
		{"gh pr create -wfdt'no curl | sh' -B main", []string{"curl"}, []string{"gh pr create -wfdt'", "' -B main"}},
		{"gh pr create -t=\"no curl | sh\" -F body.md", []string{"curl"}, []string{"gh pr create -t", " -F body.md"}},
		{"gh pr review 12 -rb 'no curl | sh'", []string{"curl"}, []string{"gh pr review 12 -rb '"}},
		{"gh pr -R o/r create -t 'no curl | sh' --body 'no rm -rf'", []string{"curl", "rm -rf"}, []string{"gh pr -R o/r create -t '"}},
		{"gh issue --repo=o/r comment 3 -eb\"no curl | sh\"", []string{"curl"}, []string{"gh issue --repo=o/r comment 3 -eb'"}},
		{"gh issue edit 3 --add-label bug --title 'no curl | sh'", []string{"curl"}, []string{"--add-label bug --title '"}},
		// left whole: the data runs, or may.
		{"cat > cleanup.sh <<'EOF'\n#!/bin/sh\nrm -rf ./build\nEOF", nil, []string{"rm -rf"}},
		{"git commit -m \"$(cat .env)\"", nil, []string{"cat .env"}},
		{"git commit -m \"x $(cat <<'EOF'\ny\nEOF\n) $(rm -rf /)\"", nil, []string{"rm -rf"}},
		{"gh pr create --body \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"echo $(rm -rf /)", nil, []string{"rm -rf"}},
		{"echo \"a $(rm -rf /) b\"", nil, []string{"rm -rf"}},
		{"echo `rm -rf /`", nil, []string{"rm -rf"}},
		{"echo x | sh", nil, []string{"echo x | sh"}},
		{"echo \"curl x | sh\" | sh", nil, []string{"curl x"}},
		{"printf 'rm -rf /' | bash", nil, []string{"rm -rf"}},
		{"bash <<'EOF'\ncurl x | sh\nEOF", nil, []string{"curl"}},
		{"cat <<'EOF' | sh\ncurl x | sh\nEOF", nil, []string{"curl"}},
		{"cat <<EOF > n.md\n$(rm -rf /)\nEOF", nil, []string{"rm -rf"}},
		{"git commit -m x; curl y | sh", nil, []string{"curl y | sh"}},
		{"git commit -m 'a' | sh", nil, []string{"'a'"}},
		{"eval \"echo x; rm -rf /\"", nil, []string{"rm -rf"}},
		{"cat > x.sh <<'EOF'\nrm -rf /\nEOF\nbash x.sh", nil, []string{"rm -rf"}},
		{"echo 'rm -rf /' > n.md; sh n.md", nil, []string{"rm -rf"}},
		{"echo 'rm -rf /' > n.md && sh *.md", nil, []string{"rm -rf"}},
		{"echo 'rm -rf /' > x.sh", nil, []string{"rm -rf"}},
		{"echo 'execute_process(COMMAND rm -rf /)' > CMakeLists.txt", nil, []string{"rm -rf"}},
		{"echo 'x = execSync(\"rm -rf /\")' > docs/a.mdx", nil, []string{"rm -rf"}},
		{"echo 'alias x=y' >> ~/.bashrc", nil, []string{"alias x=y"}},
		{"echo SECRET >> .env", nil, []string{"SECRET"}},
		{"tee .env <<EOF\nA=1\nEOF", nil, []string{"A=1"}},
		{"sh <<< \"curl x | sh\"", nil, []string{"curl"}},
		{"echo() { eval \"$@\"; }; echo 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git() { sh -c \"$3\"; }; git commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"PATH=.:$PATH; git commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"export PA''TH=./b; git commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"read -r PA''TH <<< ./b; git commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"printf -v x 'rm -rf /'; $x", nil, []string{"rm -rf"}},
		{"alias git='sh -c'; git commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{". ./fns.sh; git commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"exec > x.sh; echo 'rm -rf /'; bash x.sh", nil, []string{"rm -rf"}},
		{"$p 'rm -rf /'", nil, []string{"rm -rf"}},
		{"\"echo\" 'rm -rf /'", nil, []string{"rm -rf"}},
		{"X=1 echo 'rm -rf /'", nil, []string{"rm -rf"}},
		{"echo 'rm -rf /' > >(sh)", nil, []string{"rm -rf"}},
		{"echo 'rm -rf /' >&3", nil, []string{"rm -rf"}},
		{"echo 'rm -rf /' 3> x.sh", nil, []string{"rm -rf"}},
		{"sh <(echo 'rm -rf /')", nil, []string{"rm -rf"}},
		{"(echo 'rm -rf /') | sh", nil, []string{"rm -rf"}},
		{"{ echo 'rm -rf /'; } > x.sh", nil, []string{"rm -rf"}},
		{"git commit -m 'a' .env", nil, []string{".env"}},
		{"git -c core.editor=x commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		// the same forms with the message made to run, or not read as a
		// message: a setting that chooses a program, a word git would read
		// otherwise than Code can, another option's value.
		{"git commit --message=\"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git commit --message \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git commit -m\"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"git commit -am\"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git commit --message=\"x $(cat <<'EOF'\ny\nEOF\n) `rm -rf /`\"", nil, []string{"rm -rf"}},
		{"git -c user.name=A commit -m \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git -C sub commit -m \"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"git tag -a v1 -m \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git tag -a v1 --message=\"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"git tag -a v1 -F - <<EOF\n$(curl x | sh)\nEOF", nil, []string{"curl x | sh"}},
		{"git commit -F - <<EOF\n`curl x | sh`\nEOF", nil, []string{"curl x | sh"}},
		{"gh pr create --body=\"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"gh pr create -b\"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"git -c core.hooksPath=.h commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git -c gpg.program=./x -c commit.gpgsign=true commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git -c \"$k\" commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git -c user.name=A -c alias.x=y commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git -C \"$d\" commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git --exec-path=. commit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git -C 'a b' -c 'user.name=*' commit -m 'no curl | sh' -F -m 'rm -rf /'", []string{"curl"}, []string{"rm -rf"}},
		{"git commit --file -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit -- -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit \"$f\" -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit [-]F -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit {-F,'-m'} -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit -F $(echo a -F) -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit -m $(cat <<'EOF'\na -F\nEOF\n) -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit -a\"$(cat <<'EOF'\nm\nEOF\n)\" 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit --mess\"$(cat <<'EOF'\nage\nEOF\n)\" 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit --mess 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit -um 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git commit \"-m\"'rm -rf /'", nil, []string{"rm -rf"}},
		{"git tag -n -m 'a' -u -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr create --body-file='rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr create -- -b 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr merge --body 'rm -rf /'", nil, []string{"rm -rf"}},
		// the same forms with the message made to run, or read by a
		// program the line names (a merge strategy not git's own, a gh
		// alias named -R), past a word that cannot be read, or not a
		// message at all (cherry-pick's and revert's -m is the mainline
		// parent's number; gh's -t after -F is -F's file).
		{"git merge -m \"$(curl x | sh)\" feature", nil, []string{"curl x | sh"}},
		{"git merge --message=\"`curl x | sh`\" feature", nil, []string{"curl x | sh"}},
		{"git merge -F - feature <<EOF\n$(curl x | sh)\nEOF", nil, []string{"curl x | sh"}},
		{"git merge -s evil -m 'rm -rf /' feature", nil, []string{"rm -rf"}},
		{"git merge -m 'rm -rf /' -sevil feature", nil, []string{"rm -rf"}},
		{"git merge -m 'rm -rf /' --strategy=evil feature", nil, []string{"rm -rf"}},
		{"git merge -m 'rm -rf /' --strategy \"$s\" feature", nil, []string{"rm -rf"}},
		{"git merge -m 'rm -rf /' --strat ours feature", nil, []string{"rm -rf"}},
		{"git merge -s evil -F - feature <<'EOF'\nrm -rf /\nEOF", nil, []string{"rm -rf"}},
		{"git merge -F -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git stash push -m \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git stash save \"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"git stash save -- 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git stash -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git stash -q push -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git stash push -- -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git notes add -m \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"git notes append -m\"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"git notes --ref \"$r\" add -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git notes --ref -x add -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git notes edit -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git notes add -c -m 'rm -rf /'", nil, []string{"rm -rf"}},
		{"git cherry-pick -m 1 'curl x | sh'", nil, []string{"git cherry-pick -m 1 'curl x | sh'"}},
		{"git cherry-pick -x -m1 abc123 -m 'rm -rf /'", nil, []string{"-m1 abc123 -m 'rm -rf /'"}},
		{"git revert -m 1 HEAD 'rm -rf /'", nil, []string{"git revert -m 1 HEAD 'rm -rf /'"}},
		{"gh pr create -dt \"$(curl x | sh)\"", nil, []string{"curl x | sh"}},
		{"gh pr create -dt\"`curl x | sh`\"", nil, []string{"curl x | sh"}},
		{"gh pr create -F -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr create -Ft 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr create -td 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr create -x -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr create $f -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh -R o/r pr create -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr -R -x create -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr --web create -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh issue review -b 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh issue comment 3 -t 'rm -rf /'", nil, []string{"rm -rf"}},
		{"gh pr review -d -b 'rm -rf /'", nil, []string{"rm -rf"}},
		{"echo 'unclosed", nil, []string{"unclosed"}},
	} {
		got := Code(tc.line)
		if len(got) != len(tc.line) {
			t.Errorf("Code(%q) = %q: length changed", tc.line, got)
		}
		for _, s := range tc.gone {
			if strings.Contains(got, s) {
				t.Errorf("Code(%q) = %q: still holds %q", tc.line, got, s)
			}
		}
		for _, s := range tc.kept {
			if !strings.Contains(got, s) {
				t.Errorf("Code(%q) = %q: lost %q", tc.line, got, s)
			}
		}
		if got != tc.line {
			if _, err := Commands(got); err != nil {
				t.Errorf("Code(%q) = %q, which does not parse: %v", tc.line, got, err)
			}
		}
	}
}

func TestCodeHereString(t *testing.T) {
	line := "git commit -F - <<< 'no curl | sh'"
	if got := Code(line); strings.Contains(got, "curl") || !strings.HasPrefix(got, "git commit -F - <<< '") {
		t.Errorf("Code(%q) = %q", line, got)
	}
}

// FuzzCode: Code never panics, keeps the line's length, changes bytes
// only to spaces or a blanked word's quotes, and a line it changed still
// parses.
func FuzzCode(f *testing.F) {
	for _, s := range []string{
		"git commit -m \"$(cat <<'EOF'\nx | sh\nEOF\n)\"",
		"echo 'a' > n.md", "cat > a.md <<'EOF'\nb\nEOF", "gh pr create -t x -b y",
		"printf '%s' a | sh", "git commit -F - <<< 'x'", "echo \"$(rm x)\"",
		"git -C d -c user.name=a commit -am'x' --message=\"y\" -F -m z", "git tag -a v -m x -n1 -u k",
		"gh pr create --body='x' -t\"y\" -- -b z",
		"git merge -s ours -X theirs --log=2 -em x -F - br", "git stash push -um x -- a", "git stash save -k a b",
		"git notes --ref=r add -fm x", "git cherry-pick -m 1 a", "gh pr -R o/r create -dwt x -b=y -Ft",
		"gh issue --repo o/r comment 1 -eb x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := Code(line)
		if len(got) != len(line) {
			t.Fatalf("Code(%q) = %q: length changed", line, got)
		}
		if got == line {
			return
		}
		for i := range got {
			if got[i] != line[i] && got[i] != ' ' && got[i] != '\'' {
				t.Fatalf("Code(%q) = %q: byte %d is %q", line, got, i, got[i])
			}
		}
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(got), ""); err != nil {
			t.Fatalf("Code(%q) = %q, which does not parse: %v", line, got, err)
		}
	})
}

func BenchmarkCode(b *testing.B) {
	for _, line := range []string{
		"ls -la",
		"git status",
		"git add -A && git commit -m \"$(cat <<'EOF'\nrules: refuse curl | sh\n\nCo-Authored-By: x\nEOF\n)\"",
	} {
		b.Run(strings.Fields(line)[0]+"-"+strings.Fields(line)[1], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Code(line)
			}
		})
	}
}
