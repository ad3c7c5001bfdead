package permrule

import (
	"strings"
	"testing"
)

type ifCall struct {
	tool  string
	input map[string]any
}

func bashCall(cmd string) ifCall { return ifCall{"Bash", map[string]any{"command": cmd}} }

func fileCall(tool, p string) ifCall {
	key := "file_path"
	switch tool {
	case "NotebookEdit":
		key = "notebook_path"
	case "Glob", "Grep", "LS":
		key = "path"
	}
	return ifCall{tool, map[string]any{key: p}}
}

func fetchCall(u string) ifCall { return ifCall{"WebFetch", map[string]any{"url": u}} }

func agentCall(tool, agentType string) ifCall {
	return ifCall{tool, map[string]any{"subagent_type": agentType, "prompt": "x"}}
}

// The expected results below are the ones Claude Code's documentation
// states, read in August 2026:
//
//   - H:  code.claude.com/docs/en/hooks — "Common fields" (`if`), the Bash
//     `if` matching table, the block-rm walkthrough, MCP tool names.
//   - HG: code.claude.com/docs/en/hooks-guide — "Filter by tool name and
//     arguments with the if field" (its table).
//   - P:  code.claude.com/docs/en/permissions — "Permission rule syntax",
//     "Wildcard patterns", "Bash" (word boundary, compound commands,
//     wrappers), "Read and Edit" (anchors, depth, the src/vendor table),
//     "WebFetch", "MCP", "Agent (subagents)".
//
// Where a permission-rule page describes an allow rule that must match
// every subcommand, the `if` reading (any subcommand, H) is used; the
// comment on the case says so.
func TestIfRule_ClaudeDocs(t *testing.T) {
	ctx := RuleContext{Cwd: "/p", ProjectDir: "/p", Home: "/home/alice"}
	cases := []struct {
		src  string // where the expectation comes from
		rule string
		call ifCall
		want bool
	}{
		// H, Bash `if` table.
		{"H", "Bash(git *)", bashCall("FOO=bar git push"), true},
		{"H", "Bash(git *)", bashCall("npm test && git push"), true},
		{"H", "Bash(rm *)", bashCall("echo $(rm -rf /)"), true},
		{"H", "Bash(rm *)", bashCall("echo $(date)"), false},
		{"H", "Bash(git push *)", bashCall("echo $(date)"), true},
		// H, the block-rm walkthrough.
		{"H", "Bash(rm *)", bashCall("rm -rf /tmp/build"), true},
		{"H", "Bash(rm *)", bashCall("npm test"), false},
		// HG table.
		{"HG", "Bash(git *)", bashCall("git push"), true},
		{"HG", "Bash(git *)", bashCall("echo $(git log)"), true},
		{"HG", "Bash(git *)", bashCall("echo $(date)"), false},
		{"HG", "Bash(git push *)", bashCall("echo $(date)"), true},
		// P, "commands inside $() and backticks are checked" (H) — backticks.
		{"H", "Bash(rm *)", bashCall("echo `rm -rf /`"), true},
		{"H", "Bash(git push *)", bashCall("git push $REMOTE"), true},
		{"H", "Bash(rm *)", bashCall("echo $HOME"), false},
		// P, Bash specifiers.
		{"P", "Bash(npm run build)", bashCall("npm run build"), true},
		{"P", "Bash(npm run build)", bashCall("npm run build --watch"), false},
		{"P", "Bash(npm run test *)", bashCall("npm run test"), true},
		{"P", "Bash(npm run test *)", bashCall("npm run test -- --ci"), true},
		{"P", "Bash(npm *)", bashCall("npm install"), true},
		{"P", "Bash(npm *)", bashCall("npmx install"), false},
		{"P", "Bash(* install)", bashCall("npm install"), true},
		{"P", "Bash(* install)", bashCall("npm ci"), false},
		{"P", "Bash(git * main)", bashCall("git checkout main"), true},
		{"P", "Bash(git * main)", bashCall("git log --oneline main"), true},
		{"P", "Bash(git * main)", bashCall("git push origin main"), true},
		{"P", "Bash(git * main)", bashCall("git merge main"), true},
		{"P", "Bash(git * main)", bashCall("git merge dev"), false},
		{"P", "Bash(git *)", bashCall("git log --oneline --all"), true},
		{"P", "Bash(* --version)", bashCall("node --version"), true},
		// P, word boundary: "requiring the prefix to be followed by a space
		// or end-of-string".
		{"P", "Bash(ls *)", bashCall("ls -la"), true},
		{"P", "Bash(ls *)", bashCall("lsof"), false},
		{"P", "Bash(ls *)", bashCall("ls"), true},
		{"P", "Bash(ls*)", bashCall("lsof"), true},
		{"P", "Bash(ls*)", bashCall("ls -la"), true},
		// P, ":*" is a trailing " *", only at the end.
		{"P", "Bash(ls:*)", bashCall("ls -la"), true},
		{"P", "Bash(ls:*)", bashCall("lsof"), false},
		{"P", "Bash(npm run test:*)", bashCall("npm run test"), true},
		{"P", "Bash(npm run test:*)", bashCall("npm run test foo"), true},
		{"P", "Bash(npm run test:*)", bashCall("npm run testing"), false},
		{"P", "Bash(git:* push)", bashCall("git push"), false},
		// P, "Bash(*)" is "Bash"; a bare name matches every call.
		{"P", "Bash", bashCall("anything at all"), true},
		{"P", "Bash(*)", bashCall("rm -rf /"), true},
		{"P", "Bash", fileCall("Read", "/p/x"), false},
		// Compound commands: P lists the separators; for `if` one matching
		// subcommand is enough (H: "each subcommand is checked").
		{"P+H", "Bash(safe-cmd *)", bashCall("safe-cmd && other-cmd"), true},
		{"P+H", "Bash(rm *)", bashCall("ls && rm -rf x"), true},
		{"P+H", "Bash(rm *)", bashCall("ls || rm -rf x"), true},
		{"P+H", "Bash(rm *)", bashCall("ls; rm -rf x"), true},
		{"P+H", "Bash(rm *)", bashCall("cat list | xargs rm"), true},
		{"P+H", "Bash(rm *)", bashCall("ls |& rm -f y"), true},
		{"P+H", "Bash(rm *)", bashCall("sleep 1 & rm x"), true},
		{"P+H", "Bash(rm *)", bashCall("ls\nrm x"), true},
		{"P+H", "Bash(rm *)", bashCall("ls | grep rm"), false},
		{"P+H", "Bash(rm *)", bashCall("(cd /tmp && rm -rf build)"), true},
		{"P+H", "Bash(rm *)", bashCall("if true; then rm x; fi"), true},
		// P, wrappers and leading assignments.
		{"P", "Bash(npm test *)", bashCall("timeout 30 npm test"), true},
		{"P", "Bash(npm test *)", bashCall("NODE_ENV=test npm test"), true},
		{"P", "Bash(rm *)", bashCall("FOO=bar rm -rf tmp/"), true},
		{"P", "Bash(rm *)", bashCall("nohup nice -n 5 rm -rf tmp/"), true},
		{"P", "Bash(grep *)", bashCall("xargs grep pattern"), true},
		// P strips only a bare xargs for allow rules; an `if` guard follows
		// xargs' options too (issue 23: when in doubt, the hook runs).
		{"P+23", "Bash(grep *)", bashCall("xargs -n1 grep pattern"), true},
		{"P", "Bash(devbox run *)", bashCall("devbox run rm -rf ."), true},
		{"P", "Bash(rm *)", bashCall("command -v rm"), false},
		// H, "fails open ... when the Bash command can't be parsed".
		{"H", "Bash(rm *)", bashCall(`echo "unterminated`), true},
		{"H", "Bash(git status)", bashCall("if then fi ((("), true},
		// Leading *: it may match nothing, so *rm * covers rm at the start
		// as well as after sudo, and even inside a longer word.
		{"P", "Bash(*rm *)", bashCall("rm notes.txt"), true},
		{"P", "Bash(*rm *)", bashCall("sudo rm -rf /etc"), true},
		{"P", "Bash(*rm *)", bashCall("rm"), false},
		// P, "Read and Edit": anchors.
		{"P", "Edit(/docs/**)", fileCall("Edit", "/p/docs/guide.md"), true},
		{"P", "Edit(/docs/**)", fileCall("Edit", "/docs/guide.md"), false},
		{"P", "Edit(/docs/**)", fileCall("Edit", "/p/.claude/docs/guide.md"), false},
		{"P", "Read(~/.zshrc)", fileCall("Read", "/home/alice/.zshrc"), true},
		{"P", "Read(~/.zshrc)", fileCall("Read", "~/.zshrc"), true},
		{"P", "Edit(//tmp/scratch.txt)", fileCall("Edit", "/tmp/scratch.txt"), true},
		{"P", "Read(//Users/alice/secrets/**)", fileCall("Read", "/Users/alice/secrets/key.pem"), true},
		{"P", "Read(~/Documents/*.pdf)", fileCall("Read", "/home/alice/Documents/a.pdf"), true},
		{"P", "Read(~/Documents/*.pdf)", fileCall("Read", "/home/alice/Documents/old/a.pdf"), false},
		{"P", "Read(./.env)", fileCall("Read", ".env"), true},
		// P, depth: bare names at any depth under the anchor only.
		{"P", "Read(.env)", fileCall("Read", "/p/.env"), true},
		{"P", "Read(.env)", fileCall("Read", "/p/sub/dir/.env"), true},
		{"P", "Read(**/.env)", fileCall("Read", "/p/sub/.env"), true},
		{"P", "Read(.env)", fileCall("Read", "/.env"), false},
		{"P", "Read(//**/.env)", fileCall("Read", "/srv/app/.env"), true},
		// P's src/vendor table; H: in `if`, "Edit(src/**)" is <cwd>/src only.
		{"P+H", "Edit(src/**)", fileCall("Edit", "src/app.ts"), true},
		{"P+H", "Edit(src/**)", fileCall("Edit", "vendor/pkg/src/lib.js"), false},
		{"P", "Edit(/src/**)", fileCall("Edit", "/p/src/app.ts"), true},
		{"P", "Edit(/src/**)", fileCall("Edit", "/p/vendor/pkg/src/lib.js"), false},
		{"P", "Edit(**/src/**)", fileCall("Edit", "/p/src/app.ts"), true},
		{"P", "Edit(**/src/**)", fileCall("Edit", "/p/vendor/pkg/src/lib.js"), true},
		// H: "Edit(*.ts)" runs only for TypeScript files; one rule covers one
		// tool's calls (HG: use a handler per tool name).
		{"H", "Edit(*.ts)", fileCall("Edit", "src/app.ts"), true},
		{"H", "Edit(*.ts)", fileCall("Edit", "src/app.js"), false},
		{"HG", "Edit(*.ts)", fileCall("Write", "src/app.ts"), false},
		{"HG", "Read(src/**)", fileCall("Grep", "/p/src/pkg"), false},
		{"P", "Grep(src/**)", fileCall("Grep", "/p/src/pkg"), true},
		// P, "WebFetch".
		{"P", "WebFetch(domain:example.com)", fetchCall("https://example.com/a"), true},
		{"P", "WebFetch(domain:example.com)", fetchCall("https://www.example.com/a"), false},
		{"P", "WebFetch(domain:*.example.com)", fetchCall("https://api.example.com/"), true},
		{"P", "WebFetch(domain:*.example.com)", fetchCall("https://a.b.example.com/"), true},
		{"P", "WebFetch(domain:*.example.com)", fetchCall("https://example.com/"), false},
		{"P", "WebFetch(domain:*)", fetchCall("https://anything.test/"), true},
		{"P", "WebFetch(domain:example.*)", fetchCall("https://example.org/"), true},
		{"P", "WebFetch(domain:example.*)", fetchCall("https://example.evil.com/"), false},
		{"P", "WebFetch(domain:Example.COM.)", fetchCall("https://EXAMPLE.com./x"), true},
		{"P", "WebFetch", fetchCall("https://anything.test/"), true},
		// P, "MCP" and H's MCP tool names.
		{"P", "mcp__puppeteer", ifCall{"mcp__puppeteer__puppeteer_navigate", nil}, true},
		{"P", "mcp__puppeteer__*", ifCall{"mcp__puppeteer__puppeteer_navigate", nil}, true},
		{"P", "mcp__puppeteer__puppeteer_navigate", ifCall{"mcp__puppeteer__puppeteer_navigate", nil}, true},
		{"P", "mcp__puppeteer__puppeteer_navigate", ifCall{"mcp__puppeteer__puppeteer_click", nil}, false},
		{"P", "mcp__puppeteer", ifCall{"mcp__puppeteer2__navigate", nil}, false},
		{"P", "mcp__github__get_*", ifCall{"mcp__github__get_issue", nil}, true},
		{"P", "mcp__github__get_*", ifCall{"mcp__github__create_issue", nil}, false},
		{"P", "mcp__*", ifCall{"mcp__memory__create_entities", nil}, true},
		{"P", "mcp__*", bashCall("ls"), false},
		{"H", "mcp__plugin_my-plugin_db__query", ifCall{"mcp__plugin_my-plugin_db__query", nil}, true},
		// P, "Agent (subagents)", and the Task → Agent rename.
		{"P", "Agent(Explore)", agentCall("Agent", "Explore"), true},
		{"P", "Agent(Explore)", agentCall("Agent", "Plan"), false},
		{"P", "Agent(my-custom-agent)", agentCall("Agent", "my-custom-agent"), true},
		{"P", "Task(Explore)", agentCall("Agent", "Explore"), true},
		{"P", "Agent(Explore)", agentCall("Task", "Explore"), true},
		{"P", "Agent(model:opus)", ifCall{"Agent", map[string]any{"model": "opus"}}, true},
		{"P", "Agent(model:*)", ifCall{"Agent", map[string]any{"prompt": "x"}}, false},
		// Bare names.
		{"P", "WebSearch", ifCall{"WebSearch", map[string]any{"query": "go"}}, true},
		{"P", "Read", fileCall("Read", "/anywhere"), true},
		{"P", "Read", fileCall("Edit", "/anywhere"), false},
	}
	for _, c := range cases {
		r, err := ParseIfRule(c.rule)
		if err != nil {
			t.Errorf("[%s] ParseIfRule(%q): %v", c.src, c.rule, err)
			continue
		}
		got, why := r.Match(c.call.tool, c.call.input, ctx)
		if got != c.want || why == "" {
			t.Errorf("[%s] %s on %s %v = %v (%s), want %v", c.src, c.rule, c.call.tool, c.call.input, got, why, c.want)
		}
	}
	if len(cases) < 40 {
		t.Fatalf("only %d documented cases", len(cases))
	}
}

func TestIfRule_WhySaysWhy(t *testing.T) {
	ctx := RuleContext{Cwd: "/p"}
	for _, c := range []struct {
		rule string
		call ifCall
		want string
	}{
		{"Bash(rm *)", bashCall("ls && rm -rf x"), "subcommand `rm -rf x` matches Bash(rm *)"},
		{"Bash(rm *)", bashCall(`echo "x`), "cannot be read"},
		{"Bash(git push *)", bashCall("echo $(date)"), "names more than the command"},
		{"Bash(rm *)", bashCall("$CMD -rf /"), "only known when it runs"},
		{"Bash(rm *)", bashCall("   "), "runs no command"},
		{"Bash(rm *)", ifCall{"Bash", map[string]any{}}, "no command string"},
		{"Edit(*.ts)", fileCall("Write", "a.ts"), "the rule is for Edit"},
		{"Read(docs/)", fileCall("Read", "/p/docs/a.md"), "inside /p/docs"},
		{"Read(~/.ssh/**)", fileCall("Read", "/root/.ssh/id"), "unknown"},
	} {
		r, err := ParseIfRule(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		_, why := r.Match(c.call.tool, c.call.input, ctx)
		if !strings.Contains(why, c.want) {
			t.Errorf("%s on %v: why %q, want it to contain %q", c.rule, c.call.input, why, c.want)
		}
	}
}

// Quotes are removed and escapes resolved before comparison; words that
// only have a value at run time keep their source text.
func TestIfRule_ShellWords(t *testing.T) {
	for _, c := range []struct {
		rule, cmd string
		want      bool
	}{
		{`Bash(git commit -m fix it)`, `git commit -m "fix it"`, true},
		{`Bash(git commit -m fix it)`, `git commit -m 'fix it'`, true},
		{`Bash(git commit -m fix it)`, `git commit -m fix\ it`, true},
		{`Bash(echo a	b)`, `echo $'a\tb'`, true},
		{`Bash(rm *)`, `'rm' -rf x`, true},
		{`Bash(rm *)`, `r\m -rf x`, true},
		{`Bash(ls *.go)`, `ls *.go`, true},
		{`Bash(cat ~/x)`, `cat ~/x`, true},
		{`Bash(export *)`, `export FOO=bar`, true},
		{`Bash(rm *)`, `f() { rm -rf "$1"; }; f x`, true},
		{`Bash(rm *)`, `for f in *.tmp; do rm "$f"; done`, true},
		{`Bash(rm *)`, `cat <(rm x)`, true},
		{`Bash(rm *)`, `x=$(rm -rf y)`, true},
		{`Bash(rm *)`, `time rm x`, true},
		{`Bash(rm *)`, `stdbuf -oL rm x`, true},
		{`Bash(rm *)`, `timeout -s KILL 5 rm x`, true},
		{`Bash(timeout *)`, `timeout 5 rm x`, true},
		{`Bash(rm *)`, `env rm x`, true}, // not on Claude Code's wrapper list, but it runs rm (issue 23)
		{`Bash(npm run build)`, `npm run build 2>&1 > log.txt`, true},
		{`Bash(git \*)`, `git *`, true},
		{`Bash(git \*)`, `git status`, false},
		{`Bash(echo \(hi\))`, `echo '(hi)'`, true},
	} {
		r, err := ParseIfRule(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		if got, why := r.Match("Bash", map[string]any{"command": c.cmd}, RuleContext{}); got != c.want {
			t.Errorf("%s on %q = %v (%s), want %v", c.rule, c.cmd, got, why, c.want)
		}
	}
}

func TestIfRule_ParseErrors(t *testing.T) {
	for _, bad := range []string{
		"",
		"   ",
		"Bash(git *",
		"Bash(git *) extra",
		"(git *)",
		"Bash|Edit",
		"Bash, Edit",
		"Bash(git *) && Edit(x)",
		"Bash git",
		"PowerShell(Remove-Item *)",
		"WebSearch(golang)",
		"mcp__github__create_issue(anything)",
		"mcp__github(x)",
		"mcp__*(x)",
		"WebFetch(https://example.com)",
		"WebFetch(url:https://example.com)",
		"WebFetch(domain:)",
		"Read(#secret)",
		"Read(!keep)",
		"Read(../outside)",
		"Edit(//)",
		"Read([)",
		"Bash)",
		"Bä$h",
	} {
		if r, err := ParseIfRule(bad); err == nil {
			t.Errorf("ParseIfRule(%q) = %+v, want an error", bad, r)
		}
	}
	for _, good := range []string{
		"Bash", "Bash()", "Bash(*)", " Bash(git *) ", "Read(\\#secret)", "Skill(name:review)",
		"WebFetch(domain : example.com)", "Agent(my-plugin:reviewer)", "Cd", "*", "Task",
	} {
		if _, err := ParseIfRule(good); err != nil {
			t.Errorf("ParseIfRule(%q): %v", good, err)
		}
	}
}

// A rule that needs a directory the caller does not know matches, so that
// a guard runs rather than being skipped.
func TestIfRule_UnknownContextRunsTheHook(t *testing.T) {
	for _, c := range []struct {
		rule string
		call ifCall
		ctx  RuleContext
	}{
		{"Read(.env)", fileCall("Read", ".env"), RuleContext{}},
		{"Read(~/.ssh/**)", fileCall("Read", "/home/a/.ssh/id"), RuleContext{Cwd: "/p"}},
		{"Read(/secrets/**)", fileCall("Read", "/p/secrets/a"), RuleContext{Home: "/h"}},
		{"Read(.env)", fileCall("Read", "~/.env"), RuleContext{Cwd: "/p"}},
	} {
		r, err := ParseIfRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got, why := r.Match(c.call.tool, c.call.input, c.ctx); !got || !strings.Contains(why, "unknown") {
			t.Errorf("%s with %+v = %v (%s), want a match because of the unknown directory", c.rule, c.ctx, got, why)
		}
	}
	// ProjectDir defaults to Cwd.
	r, _ := ParseIfRule("Edit(/src/**)")
	if got, why := r.Match("Edit", map[string]any{"file_path": "src/a.go"}, RuleContext{Cwd: "/p"}); !got {
		t.Errorf("Edit(/src/**) with no ProjectDir: %s", why)
	}
}

func TestIfRule_MoreShapes(t *testing.T) {
	ctx := RuleContext{Cwd: "/p", ProjectDir: "/p", Home: "/h"}
	for _, c := range []struct {
		rule string
		call ifCall
		want bool
	}{
		{"Read(docs/)", fileCall("Read", "/p/docs/a.md"), true},
		{"Read(docs/)", fileCall("Read", "/p/docs"), false}, // a file named docs
		{"Grep(docs/)", fileCall("Grep", "/p/docs"), true},  // Grep's path is a directory
		{"Read(secrets)", fileCall("Read", "/p/a/secrets/k"), true},
		{"Read(src/*.go)", fileCall("Read", "/p/src/a.go"), true},
		{"Read(src/*.go)", fileCall("Read", "/p/src/x/a.go"), false},
		{"Read(src/**/*.go)", fileCall("Read", "/p/src/a.go"), true},
		{"Read(src/**/*.go)", fileCall("Read", "/p/src/x/y/a.go"), true},
		{"Read(file[0-9].txt)", fileCall("Read", "/p/file7.txt"), true},
		{"Read(file[!0-9].txt)", fileCall("Read", "/p/file7.txt"), false},
		{"Read(a?c)", fileCall("Read", "/p/abc"), true},
		{"Read(.env)", fileCall("Read", "/p/../p/.env"), true},
		{"Read(.env)", fileCall("Read", "/other/.env"), false},
		{"Glob(*.go)", ifCall{"Glob", map[string]any{"pattern": "**/*.go"}}, false}, // cwd itself
		{"Glob", ifCall{"Glob", map[string]any{"pattern": "**/*.go"}}, true},
		{"NotebookEdit(*.ipynb)", fileCall("NotebookEdit", "/p/n.ipynb"), true},
		{"Read(.env)", ifCall{"Read", map[string]any{"path": "/p/.env"}}, true}, // Hermes-style key
		{"Write(*.md)", fileCall("Write", "README.md"), true},
		// No scheme: where it would go cannot be told (issue 23), so the hook runs.
		{"WebFetch(domain:example.com)", fetchCall("not a url"), true},
		{"WebFetch(domain:example.com)", ifCall{"WebFetch", map[string]any{"prompt": "x"}}, false},
		{"WebFetch(domain:example.com)", fetchCall("https://example.com:8443/x"), true},
		{"Skill(commit)", ifCall{"Skill", map[string]any{"skill": "commit"}}, true},
		{"Skill(commit)", ifCall{"Skill", map[string]any{"skill": "commit-all"}}, false},
		{"Skill(review-pr *)", ifCall{"Skill", map[string]any{"skill": "review-pr", "args": "123"}}, true},
		{"Skill(review-pr *)", ifCall{"Skill", map[string]any{"skill": "review-pr"}}, true},
		{"Skill(deploy *)", ifCall{"Skill", map[string]any{"skill": "deployer"}}, false},
		{"mcp__x__y(name:review)", ifCall{"mcp__x__y", map[string]any{"name": "review"}}, true},
		{"Bash(run_in_background:true)", ifCall{"Bash", map[string]any{"command": "run_in_background:true"}}, true},
		{"mcp__x__y(limit:1*)", ifCall{"mcp__x__y", map[string]any{"limit": float64(10)}}, true},
		{"mcp__x__y(limit:1*)", ifCall{"mcp__x__y", map[string]any{"limit": float64(20)}}, false},
		{"*", ifCall{"Anything", nil}, true},
		{"KillShell", ifCall{"TaskStop", nil}, true},
	} {
		r, err := ParseIfRule(c.rule)
		if err != nil {
			t.Errorf("%s: %v", c.rule, err)
			continue
		}
		if got, why := r.Match(c.call.tool, c.call.input, ctx); got != c.want {
			t.Errorf("%s on %s %v = %v (%s), want %v", c.rule, c.call.tool, c.call.input, got, why, c.want)
		}
	}
}

func FuzzIfRule(f *testing.F) {
	for _, s := range []string{
		"Bash(git *)", "Bash(rm *)", "Bash(npm run test:*)", "Bash(*rm *)", "Bash(ls *)",
		"Edit(/src/**/*.ts)", "Read(~/.ssh/**)", "Read(//**/.env)", "Read(.env)", "Grep(docs/)",
		"WebFetch(domain:*.example.com)", "mcp__github", "mcp__github__get_*", "Agent(Explore)",
		"Agent(model:opus)", "Bash(\\(x\\))", "Read([a-)", "*", "Task(", "Bash(\x95)",
	} {
		f.Add(s, "ls && rm -rf x $(date) `id` \"$HOME\" <<EOF\n$(x)\nEOF", "src/a.ts", "https://a.example.com/")
	}
	f.Fuzz(func(t *testing.T, rule, cmd, file, u string) {
		r, err := ParseIfRule(rule)
		if err != nil {
			if _, why := r.Match("Bash", map[string]any{"command": cmd}, RuleContext{}); why == "" {
				t.Fatal("no why for a rule that did not parse")
			}
			return
		}
		ctx := RuleContext{Cwd: "/p", ProjectDir: "/p", Home: "/h"}
		for _, call := range []ifCall{
			bashCall(cmd), fileCall("Read", file), fileCall("Edit", file), fileCall("Grep", file),
			fetchCall(u), agentCall("Agent", file), {"mcp__x__" + file, map[string]any{"k": cmd}},
			{r.String(), nil},
		} {
			if _, why := r.Match(call.tool, call.input, ctx); why == "" {
				t.Fatalf("%q on %v: empty why", rule, call)
			}
			r.Match(call.tool, call.input, RuleContext{})
		}
		// The file a rule names is one it matches.
		for _, tool := range []string{"Read", "Edit", "Grep"} {
			if named, ok := r.NamedFile(tool, ctx); ok {
				if m, why := r.MatchFile(tool, named, ctx); !m {
					t.Fatalf("%q names %s for %s but does not match it: %s", rule, named, tool, why)
				}
			}
		}
	})
}

// TestNamedFile: the one file a wildcard-free path rule names, under its
// anchor; rules with a wildcard, a directory rule, another tool's rule
// and an unknown anchor name none.
func TestNamedFile(t *testing.T) {
	ctx := RuleContext{Cwd: "/w", ProjectDir: "/p", Home: "/h"}
	for _, tc := range []struct {
		rule, tool, want string
	}{
		{"Read(./.env)", "Read", "/w/.env"},
		{"Read(.env)", "Read", "/w/.env"},
		{"Read(config/.env)", "Read", "/w/config/.env"},
		{"Read(/config/.env)", "Read", "/p/config/.env"},
		{"Read(~/.aws/credentials)", "Read", "/h/.aws/credentials"},
		{"Edit(//etc/passwd)", "Edit", "/etc/passwd"},
		{"Read(./.env)", "Edit", ""},
		{"Read(*.env)", "Read", ""},
		{"Read(./secrets/**)", "Read", ""},
		{"Read(./secrets/)", "Read", ""},
		{"Read(./a?b)", "Read", ""},
		{"Bash(cat .env)", "Bash", ""},
	} {
		r, err := ParseIfRule(tc.rule)
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		got, ok := r.NamedFile(tc.tool, ctx)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s for %s: %q %v, want %q", tc.rule, tc.tool, got, ok, tc.want)
		}
	}
	r, _ := ParseIfRule("Read(~/.netrc)")
	if got, ok := r.NamedFile("Read", RuleContext{Cwd: "/w"}); ok {
		t.Errorf("unknown home: %q", got)
	}
}
