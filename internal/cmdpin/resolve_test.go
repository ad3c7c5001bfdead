//go:build !windows

// The POSIX rules (shlex words, execute bits, #! lines, /bin/sh); the
// Windows rules are tested in winrules_windows_test.go.

package cmdpin

import (
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// The resolver's table: what each command runs, resolved in the hook's own
// environment and directory (issue 12, item 2).
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "my proj")
	for _, d := range []string{bin, home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"bin/myguard", "bin/sh", "bin/bash", "bin/python3", "bin/node", "bin/uv", "bin/env", "bin/nice", "bin/timeout", "bin/make", "bin/npm", "bin/deno", "bin/perl", "bin/ruby", "bin/zsh", "bin/bun", "bin/flock", "bin/stdbuf", "bin/java", "bin/jq", "bin/awk", "bin/gawk", "bin/sed", "bin/opa", "run", "tool", "watch"} {
		writeFile(t, filepath.Join(dir, f), "#!/bin/sh\n", 0o755)
	}
	env := []string{"PATH=" + bin, "HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "SPACED=a b"}
	abs := func(p string) string { return filepath.Join(dir, p) }
	me, _ := user.Current()

	for _, tc := range []struct {
		name, cmd string
		shell     bool
		files     []string
		path      string
		dir       string
		direct    bool
		runShell  bool
		opaque    string // substring
		err       string
	}{
		{name: "absolute script", cmd: abs("run"), files: []string{abs("run")}, path: abs("run"), direct: true},
		{name: "relative script", cmd: "./run --x", files: []string{abs("run")}, path: abs("run"), direct: true},
		{name: "bare name on the hook's PATH", cmd: "myguard --v", files: []string{abs("bin/myguard")}, path: abs("bin/myguard"), direct: true},
		{name: "not found", cmd: "nope", err: "command not found"},
		{name: "decoy argument", cmd: "./run /tmp/decoy.sh", files: []string{abs("run"), "/tmp/decoy.sh"}, direct: true},
		{name: "program and its rules script", cmd: "./run --rules .hermes/rules.sh", files: []string{abs("run"), abs(".hermes/rules.sh")}, direct: true},
		{name: "--opt=script", cmd: "./run --rules=x.py", files: []string{abs("run"), abs("x.py")}, direct: true},
		{name: "data arguments are not pinned", cmd: "./run --log /tmp/hook.log rules.yaml", files: []string{abs("run")}, direct: true},
		{name: "executable argument pinned", cmd: "./run ./tool", files: []string{abs("run"), abs("tool")}, direct: true},
		{name: "a jar or a plugin is code", cmd: "./run -jar hook.jar --plugin=./p.so", files: []string{abs("run"), abs("hook.jar"), abs("p.so")}, direct: true},
		{name: "java source file", cmd: "java -Xmx64m Hook.java a", files: []string{abs("bin/java"), abs("Hook.java")}, direct: true},
		{name: "java -jar", cmd: "java -jar hook.jar", files: []string{abs("bin/java"), abs("hook.jar")}, direct: true, opaque: "java loads classes"},
		{name: "java class name", cmd: "java -cp . Hook", files: []string{abs("bin/java")}, direct: true, opaque: "java loads classes"},
		{name: "java options from the command", cmd: "env JAVA_TOOL_OPTIONS=-javaagent:a.jar java Hook.java", files: []string{abs("bin/java"), abs("Hook.java")}, opaque: "JAVA_TOOL_OPTIONS"},
		{name: "sh x.sh", cmd: "sh hooks/x.sh a", files: []string{abs("hooks/x.sh")}, path: abs("bin/sh")},
		{name: "bash -e x.sh", cmd: "bash -e -o pipefail hooks/x.sh", files: []string{abs("hooks/x.sh")}},
		{name: "python3 -u x.py", cmd: "python3 -u -W ignore x.py arg", files: []string{abs("x.py")}},
		{name: "python3 -m", cmd: "python3 -m mypkg.hook", opaque: "python -m"},
		{name: "python3 -c is its text", cmd: "python3 -c 'print(1)'"},
		{name: "node x.js", cmd: "node --require ./setup.js hook.js", files: []string{abs("hook.js"), abs("setup.js")}},
		{name: "deno run", cmd: "deno run --allow-read hook.ts", files: []string{abs("hook.ts")}},
		{name: "uv run x.py", cmd: "uv run --with requests hook.py", files: []string{abs("hook.py")}, opaque: "uv run takes its Python"},
		{name: "uv run tool", cmd: "uv run myguard", files: []string{abs("bin/myguard")}, opaque: "uv run takes its Python"},
		{name: "env wrapper", cmd: "env FOO=1 python3 x.py", files: []string{abs("x.py")}, path: abs("bin/env")},
		{name: "nice wrapper", cmd: "nice -n 10 ./run", files: []string{abs("run")}},
		{name: "timeout wrapper", cmd: "timeout 5 ./run", files: []string{abs("run")}},
		{name: "make target", cmd: "make -s hook", opaque: "make target"},
		{name: "npm script", cmd: "npm run lint", opaque: "npm"},
		{name: "tilde", cmd: "~/h.sh", files: []string{filepath.Join(home, "h.sh")}, direct: true},
		{name: "tilde user", cmd: "~" + me.Username + "/h.sh", files: []string{filepath.Join(me.HomeDir, "h.sh")}, direct: true},
		{name: "Hermes does not expand $VAR", cmd: "$HOME/h.sh", files: []string{abs("$HOME/h.sh")}, direct: true},
		{name: "unparseable", cmd: "./run 'open", err: "No closing quotation"},

		{name: "claude $HOME", cmd: "$HOME/h.sh", shell: true, files: []string{filepath.Join(home, "h.sh")}, direct: true},
		{name: "claude quoted project dir", cmd: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh x`, shell: true, files: []string{filepath.Join(proj, ".claude/hooks/g.sh")}, direct: true},
		{name: "claude unquoted $VAR splits like the shell", cmd: `$SPACED`, shell: true, err: "command not found"},
		{name: "claude cd && ./x.sh", cmd: `cd "$CLAUDE_PROJECT_DIR" && ./x.sh`, shell: true, files: []string{filepath.Join(proj, "x.sh")}, dir: proj, direct: true},
		{name: "claude assignment prefix", cmd: `FOO=1 ./run`, shell: true, files: []string{abs("run")}, direct: true},
		{name: "claude redirect keeps the shell", cmd: `./run 2>/dev/null`, shell: true, files: []string{abs("run")}, runShell: true, direct: true},
		{name: "claude pipe", cmd: `./run | jq .`, shell: true, opaque: "compound", runShell: true},
		{name: "claude list", cmd: `./run; ./tool`, shell: true, opaque: "compound", runShell: true},
		{name: "claude command substitution", cmd: `./run $(cat x)`, shell: true, opaque: "shell features", runShell: true},
		{name: "claude glob", cmd: `./run *.sh`, shell: true, opaque: "shell features", runShell: true},
		{name: "claude builtin", cmd: `echo '{"decision":"block"}'`, shell: true, runShell: true},
		{name: "claude sh -c", cmd: `sh -c '"$CLAUDE_PROJECT_DIR"/x.sh'`, shell: true, files: []string{filepath.Join(proj, "x.sh")}},
		{name: "claude source", cmd: `. ./lib.sh`, shell: true, files: []string{abs("lib.sh")}, runShell: true},
		{name: "claude unparseable", cmd: `./run "open`, shell: true, opaque: "cannot be parsed", runShell: true},
		{name: "claude exec", cmd: `exec ./run`, shell: true, files: []string{abs("run")}, direct: true},

		// Code loaded besides the script (issue 31, item 3).
		{name: "env -S", cmd: "env -S 'sh g.sh' a", files: []string{abs("g.sh")}, path: abs("bin/env")},
		{name: "env -S attached", cmd: "env -S'sh g.sh'", files: []string{abs("g.sh")}},
		{name: "env --split-string=", cmd: "env --split-string='FOO=1 python3 g.py' a", files: []string{abs("g.py")}},
		{name: "env --split-string WORDS", cmd: "env -i --split-string 'bash -e g.sh'", files: []string{abs("g.sh")}},
		{name: "env -vS", cmd: "env -vS'sh g.sh'", files: []string{abs("g.sh")}},
		{name: "env -S with an escape", cmd: `env -S 'sh\_g.sh'`, opaque: "env -S"},
		{name: "env -S with ${VAR}", cmd: "env -S 'sh ${G}'", opaque: "env -S"},
		{name: "env -C", cmd: "env -C sub ./g.sh", opaque: "env -C"},
		{name: "node -r path", cmd: "node -r ./pre.js hook.js", files: []string{abs("hook.js"), abs("pre.js")}},
		{name: "node --require=", cmd: "node --require=./pre.js hook.js", files: []string{abs("hook.js"), abs("pre.js")}},
		{name: "node --import --loader", cmd: "node --import ./a.mjs --loader=file://" + abs("l.mjs") + " --experimental-loader ../b.mjs hook.js", files: []string{abs("hook.js"), abs("a.mjs"), abs("l.mjs"), filepath.Join(filepath.Dir(dir), "b.mjs")}},
		{name: "node -r package is not a file", cmd: "node -r dotenv/config hook.js", files: []string{abs("hook.js")}},
		{name: "node --env-file", cmd: "node --env-file .env hook.js", files: []string{abs("hook.js"), abs(".env")}, opaque: "node --env-file sets variables"},
		{name: "node -r with -e", cmd: "node -r ./pre.js -e 'x()'", files: []string{abs("pre.js")}},
		{name: "perl -I dir -MMod", cmd: "perl -I lib -MFoo::Bar g.pl", files: []string{abs("g.pl"), abs("lib/Foo/Bar.pm")}},
		{name: "perl -Ilib -mMod=x", cmd: "perl -Ilib -Ivendor -mGuard=x g.pl", files: []string{abs("g.pl"), abs("lib/Guard.pm"), abs("vendor/Guard.pm")}},
		{name: "perl -M system module", cmd: "perl -Mstrict g.pl", files: []string{abs("g.pl")}},
		{name: "ruby -r path", cmd: "ruby -r ./pre g.rb", files: []string{abs("g.rb"), abs("pre.rb")}},
		{name: "ruby -I -r name", cmd: "ruby -I lib -rguard g.rb", files: []string{abs("g.rb"), abs("lib/guard.rb")}},
		{name: "bash --rcfile", cmd: "bash --rcfile rc.sh -i g.sh", files: []string{abs("g.sh"), abs("rc.sh")}},
		{name: "bash -o opt --rcfile", cmd: "bash -o pipefail --init-file rc g.sh", files: []string{abs("g.sh"), abs("rc")}},
		{name: "env BASH_ENV=", cmd: "env BASH_ENV=./lib.sh bash g.sh", files: []string{abs("g.sh"), abs("lib.sh")}},
		{name: "env NODE_OPTIONS=", cmd: "env 'NODE_OPTIONS=--require ./pre.js' node hook.js", files: []string{abs("hook.js"), abs("pre.js")}},
		{name: "claude BASH_ENV=", cmd: `BASH_ENV=lib.sh bash -c 'echo hi'`, shell: true, files: []string{abs("lib.sh")}},
		{name: "claude ENV=", cmd: `ENV="$HOME/rc" sh -i`, shell: true, files: []string{filepath.Join(home, "rc")}},
		{name: "claude BASH_ENV=$(…) is opaque", cmd: `BASH_ENV='$(x)' bash g.sh`, shell: true, files: []string{abs("g.sh")}, opaque: "BASH_ENV", runShell: true},
		{name: "claude NODE_OPTIONS=--require=", cmd: `NODE_OPTIONS=--require=./pre.js node hook.js`, shell: true, files: []string{abs("hook.js"), abs("pre.js")}},
		{name: "claude PERL5OPT", cmd: `PERL5OPT='-Ilib -MGuard' perl g.pl`, shell: true, files: []string{abs("g.pl"), abs("lib/Guard.pm")}},
		{name: "claude PERL5LIB with -M", cmd: `PERL5LIB=lib perl -MGuard g.pl`, shell: true, files: []string{abs("g.pl"), abs("lib/Guard.pm")}},
		{name: "claude RUBYLIB with RUBYOPT", cmd: `RUBYLIB=lib RUBYOPT=-rguard ruby g.rb`, shell: true, files: []string{abs("g.rb"), abs("lib/guard.rb")}},
		{name: "claude RUBYOPT", cmd: `RUBYOPT=-r./pre ruby g.rb`, shell: true, files: []string{abs("g.rb"), abs("pre.rb")}},
		{name: "claude LD_PRELOAD", cmd: `LD_PRELOAD=./evil.so:libc.so.6 ./run`, shell: true, files: []string{abs("run"), abs("evil.so")}, direct: true},
		{name: "claude LD_LIBRARY_PATH", cmd: `LD_LIBRARY_PATH=lib ./run`, shell: true, files: []string{abs("run")}, direct: true, opaque: "LD_LIBRARY_PATH names directories", runShell: true},
		{name: "DYLD_INSERT_LIBRARIES", cmd: `env DYLD_INSERT_LIBRARIES=./i.dylib ./run`, files: []string{abs("run"), abs("i.dylib")}},
		{name: "claude sh < g", cmd: `sh < g.sh`, shell: true, files: []string{abs("g.sh")}, runShell: true},
		{name: "claude python3 - < g.py", cmd: `python3 - < "$HOME/g.py"`, shell: true, files: []string{filepath.Join(home, "g.py")}, runShell: true},
		{name: "claude bash -s < g", cmd: `bash -s a 0< g.sh`, shell: true, files: []string{abs("g.sh")}, runShell: true},
		{name: "claude sh <<EOF is its text", cmd: "sh <<EOF\necho hi\nEOF", shell: true, runShell: true},
		{name: "claude sh < $(x) is opaque", cmd: `sh < $(x)`, shell: true, opaque: "redirection", runShell: true},
		{name: "claude data redirect", cmd: `./run < rules.txt`, shell: true, files: []string{abs("run")}, runShell: true, direct: true},
		{name: "claude command sh g.sh", cmd: `command sh g.sh`, shell: true, files: []string{abs("g.sh")}, path: abs("bin/sh")},
		{name: "claude exec sh g.sh", cmd: `exec sh g.sh`, shell: true, files: []string{abs("g.sh")}, path: abs("bin/sh")},
		{name: "claude command -p bash g.sh", cmd: `command -p bash g.sh`, shell: true, files: []string{abs("g.sh")}},
		{name: "claude exec -a name keeps the shell", cmd: `exec -a x python3 g.py`, shell: true, files: []string{abs("g.py")}, runShell: true},
		{name: "claude command -v runs nothing", cmd: `command -v sh g.sh`, shell: true, runShell: true},
		{name: "claude trap runs its action", cmd: `trap './run' EXIT`, shell: true, files: []string{abs("run")}, runShell: true},
		{name: "claude trap action compound", cmd: `trap -- './run; ./tool' EXIT INT`, shell: true, opaque: "compound", runShell: true},
		{name: "claude trap -p", cmd: `trap -p EXIT`, shell: true, runShell: true},
		{name: "claude trap reset", cmd: `trap - EXIT`, shell: true, runShell: true},
		{name: "sh -c trap", cmd: `sh -c "trap 'sh g.sh' EXIT"`, files: []string{abs("g.sh")}},

		// Command strings nest; the programs a command line chooses itself.
		{name: "sh -c inside sh -c", cmd: `sh -c "bash -c 'sh g.sh'"`, files: []string{abs("g.sh")}},
		{name: "claude sh -c inside sh -c", cmd: `sh -c "sh -c 'sh g.sh' && true"`, shell: true, opaque: "compound", runShell: true},
		{name: "claude sh -c inside bash -c", cmd: `bash -c "sh -c './run'"`, shell: true, files: []string{abs("run")}},
		{name: "interpreter named by a path", cmd: "./bin/python3 g.py", files: []string{abs("g.py"), abs("bin/python3")}},
		{name: "wrapper named by a path", cmd: "bin/nice sh g.sh", files: []string{abs("g.sh"), abs("bin/nice")}},
		{name: "interpreter on a PATH the command sets", cmd: "env PATH=" + bin + " sh g.sh", files: []string{abs("g.sh"), abs("bin/sh")}},
		{name: "interpreter on a relative PATH the command sets", cmd: "env PATH=bin:/usr/bin sh g.sh", files: []string{abs("g.sh"), abs("bin/sh")}},
		{name: "claude interpreter on a PATH the command sets", cmd: "PATH=bin python3 g.py", shell: true, files: []string{abs("g.py"), abs("bin/python3")}},
		{name: "claude project interpreter", cmd: `"$CLAUDE_PROJECT_DIR"/../bin/python3 g.py`, shell: true, files: []string{abs("g.py"), abs("bin/python3")}},
		{name: "wrapper's program not found yet", cmd: "env PATH=nobin:bin2 python3 g.py", files: []string{abs("nobin/python3"), abs("bin2/python3")}},

		// Wrappers' options as getopt reads them.
		{name: "env -iu NAME", cmd: "env -iu FOO sh g.sh", files: []string{abs("g.sh")}},
		{name: "env -", cmd: "env - FOO=1 sh g.sh", files: []string{abs("g.sh")}},
		{name: "env --block-signal", cmd: "env --block-signal --unset FOO sh g.sh", files: []string{abs("g.sh")}},
		{name: "env unknown option", cmd: "env --frobnicate sh g.sh", opaque: "env option --frobnicate"},
		{name: "timeout -k5 -s KILL", cmd: "timeout -k5 -s KILL --foreground 10 sh g.sh", files: []string{abs("g.sh")}},
		{name: "nice -5", cmd: "nice -5 sh g.sh", files: []string{abs("g.sh")}},
		{name: "nice --5", cmd: "nice --5 sh g.sh", files: []string{abs("g.sh")}},
		{name: "nice -n5", cmd: "nice -n5 sh g.sh", files: []string{abs("g.sh")}},
		{name: "stdbuf -oL -e 0", cmd: "stdbuf -oL -e 0 sh g.sh", files: []string{abs("g.sh")}},
		{name: "a hook of its own named like a runner", cmd: "./watch", files: []string{abs("watch")}, direct: true},
		{name: "flock runs a command", cmd: "flock /tmp/l bash hook.sh", files: []string{abs("bin/flock"), abs("hook.sh")}, direct: true, opaque: "flock runs a command"},

		// Code an interpreter finds by itself where the command points it.
		{name: "PYTHONPATH", cmd: "env PYTHONPATH=lib python3 g.py", files: []string{abs("g.py")}, opaque: "PYTHONPATH, a directory python3 loads code from"},
		{name: "claude PYTHONUSERBASE", cmd: "PYTHONUSERBASE=ub python3 g.py", shell: true, files: []string{abs("g.py")}, opaque: "PYTHONUSERBASE", runShell: true},
		{name: "claude HOME for python", cmd: "HOME=. python3 g.py", shell: true, files: []string{abs("g.py")}, opaque: "HOME", runShell: true},
		{name: "claude HOME through sh -c", cmd: "HOME=. sh -c 'uv run g.py'", shell: true, files: []string{abs("g.py")}, opaque: "HOME", runShell: true},
		{name: "claude PYTHONPATH for a binary", cmd: "PYTHONPATH=lib ./run", shell: true, files: []string{abs("run")}, direct: true},
		{name: "PYTHONSTARTUP", cmd: "env PYTHONSTARTUP=./s.py python3 -i", files: []string{abs("s.py")}},
		{name: "ZDOTDIR", cmd: "env ZDOTDIR=. zsh g.zsh", files: []string{abs("g.zsh")}, opaque: "ZDOTDIR"},
		{name: "HOME for a login bash", cmd: "env HOME=. bash -o pipefail -l g.sh", files: []string{abs("g.sh")}, opaque: "HOME"},
		{name: "HOME for bash -ic", cmd: "env HOME=. bash -ic 'echo'", opaque: "HOME"},
		{name: "HOME for a bash script", cmd: "env HOME=. bash -o pipefail g.sh", files: []string{abs("g.sh")}},
		{name: "node --test finds its files", cmd: "node --test", opaque: "node --test"},
		{name: "node --test glob", cmd: "node --test 'test/*.test.js'", opaque: "node --test"},
		{name: "node --test not a script", cmd: "node --test test", opaque: "node --test"},
		{name: "node --test files", cmd: "node --test --test-reporter=./r.mjs a.test.js b.test.mjs", files: []string{abs("a.test.js"), abs("b.test.mjs"), abs("r.mjs")}},
		{name: "node --test-reporter by name", cmd: "node --test-reporter spec hook.js", files: []string{abs("hook.js")}},
		{name: "node --run", cmd: "node --run lint", opaque: "node --run"},
		{name: "node config file", cmd: "node --experimental-config-file=node.config.json hook.js", files: []string{abs("hook.js")}, opaque: "can load other code"},
		{name: "NODE_OPTIONS --openssl-config", cmd: "env NODE_OPTIONS=--openssl-config=./o.cnf node hook.js", files: []string{abs("hook.js")}, opaque: "can load other code"},
		{name: "bun pins a bunfig.toml to come", cmd: "bun --preload ./p.ts hook.ts", files: []string{abs("hook.ts"), abs("bunfig.toml"), abs("p.ts")}},
		{name: "perl -d:Mod", cmd: "perl -Ilib -d:Trace=x g.pl", files: []string{abs("g.pl"), abs("lib/Devel/Trace.pm")}},
		{name: "perl -d", cmd: "perl -I lib -d g.pl", files: []string{abs("g.pl"), abs("lib/perl5db.pl")}},
		{name: "perl -xDIR", cmd: "perl -xsub g.pl", files: []string{abs("g.pl")}, opaque: "perl -x"},
		{name: "perl -x", cmd: "perl -x g.pl", files: []string{abs("g.pl")}},
		{name: "ruby -Cdir", cmd: "ruby -Csub g.rb", files: []string{abs("g.rb")}, opaque: "ruby -C"},

		// A program whose own code comes from a file it is given: the
		// file is the hook's logic (a jq or awk guard), whatever its name.
		{name: "jq -f program.jq", cmd: "jq -n -f policy.jq", files: []string{abs("bin/jq"), abs("policy.jq")}, direct: true},
		{name: "jq -f program without extension", cmd: "jq -r --arg a b -f hooks/policy in.json", files: []string{abs("bin/jq"), abs("hooks/policy")}, direct: true},
		{name: "jq -nf cluster", cmd: "jq -nf policy", files: []string{abs("bin/jq"), abs("policy")}, direct: true},
		{name: "jq --from-file before its operand", cmd: "jq --from-file -c --slurpfile s s.json -L lib policy in.json", files: []string{abs("bin/jq"), abs("policy")}, direct: true},
		{name: "jq -f after --args", cmd: "jq -n --args -f policy a b", files: []string{abs("bin/jq"), abs("policy")}, direct: true},
		{name: "jq filter text is its text", cmd: "jq -r .x in.json", files: []string{abs("bin/jq")}, direct: true},
		{name: "awk -f program", cmd: "awk -F: -f prog /dev/null", files: []string{abs("bin/awk"), abs("prog")}, direct: true},
		{name: "awk -fprog and a second -f", cmd: "awk -v x=1 -fprog -f lib.awk in", files: []string{abs("bin/awk"), abs("lib.awk"), abs("prog")}, direct: true},
		{name: "gawk --file= and --exec", cmd: "gawk --file=prog --exec main", files: []string{abs("bin/gawk"), abs("prog"), abs("main")}, direct: true},
		{name: "sed -f program", cmd: "sed -n -f prog in", files: []string{abs("bin/sed"), abs("prog")}, direct: true},
		{name: "sed -nf cluster", cmd: "sed -nf prog in", files: []string{abs("bin/sed"), abs("prog")}, direct: true},
		{name: "sed --file= and -e text", cmd: "sed -e p --file=prog in", files: []string{abs("bin/sed"), abs("prog")}, direct: true},
		{name: "sed -e text holding an f", cmd: "sed -ef in", files: []string{abs("bin/sed")}, direct: true},
		{name: "opa policy file is code", cmd: "opa eval -d policy.rego -I data.x", files: []string{abs("bin/opa"), abs("policy.rego")}, direct: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Resolve(Command{Text: tc.cmd, Shell: tc.shell, Env: env, Dir: dir})
			if tc.err != "" || got.Err != "" {
				if !strings.Contains(got.Err, tc.err) || tc.err == "" {
					t.Fatalf("Err = %q, want %q (%+v)", got.Err, tc.err, got)
				}
				return
			}
			if tc.opaque != "" || got.Opaque != "" {
				if tc.opaque == "" || !strings.Contains(got.Opaque, tc.opaque) {
					t.Fatalf("Opaque = %q, want %q", got.Opaque, tc.opaque)
				}
			}
			if !slices.Equal(got.Files, tc.files) {
				t.Errorf("Files = %q, want %q", got.Files, tc.files)
			}
			if tc.path != "" && got.Path != tc.path {
				t.Errorf("Path = %q, want %q", got.Path, tc.path)
			}
			if tc.dir != "" && got.Dir != tc.dir {
				t.Errorf("Dir = %q, want %q", got.Dir, tc.dir)
			}
			if tc.files != nil && got.Direct != tc.direct {
				t.Errorf("Direct = %v, want %v", got.Direct, tc.direct)
			}
			if tc.shell && got.Shell != tc.runShell {
				t.Errorf("Shell = %v, want %v", got.Shell, tc.runShell)
			}
		})
	}
}

// A program found through a relative entry of the hook's own PATH lies in
// the hook's directory, where a repository can plant or change it: pinned.
// One found through an absolute entry is the system's: not pinned.
func TestResolve_RelativePATHProgram(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/python3"), "#!/bin/sh\n", 0o755)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"bin", []string{filepath.Join(dir, "g.py"), filepath.Join(dir, "bin/python3")}},
		{":" + filepath.Join(dir, "bin"), []string{filepath.Join(dir, "g.py")}},
		{filepath.Join(dir, "bin"), []string{filepath.Join(dir, "g.py")}},
	} {
		got := Resolve(Command{Text: "nice python3 g.py", Env: []string{"PATH=" + tc.path + ":/usr/bin:/bin"}, Dir: dir})
		if !slices.Equal(got.Files, tc.want) {
			t.Errorf("PATH=%s: Files %q, want %q", tc.path, got.Files, tc.want)
		}
	}
}

// A script's #! line is a command line of its own: what its interpreter's
// options load is pinned (the line itself is part of the pinned script).
func TestResolve_Shebang(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"bin/python3", "bin/node", "bin/nice"} {
		writeFile(t, filepath.Join(dir, f), "#!/bin/sh\n", 0o755)
	}
	env := []string{"PATH=" + filepath.Join(dir, "bin")}
	abs := func(p string) string { return filepath.Join(dir, p) }
	for _, tc := range []struct {
		name, line, cmd string
		files           []string
		opaque          string
	}{
		{name: "plain", line: "#!/bin/sh", files: []string{abs("hook")}},
		{name: "env python3", line: "#!/usr/bin/env python3", files: []string{abs("hook")}},
		{name: "node --require=", line: "#!/usr/bin/node --require=./pre.js", files: []string{abs("hook"), abs("pre.js")}},
		{name: "env -S node -r", line: "#!/usr/bin/env -S node -r ./pre.js", files: []string{abs("hook"), abs("pre.js")}},
		{name: "behind a wrapper", line: "#!/usr/bin/env -S node -r ./pre.js", cmd: "nice ./hook", files: []string{abs("hook"), abs("pre.js")}},
		{name: "env -S PYTHONPATH", line: "#!/usr/bin/env -S PYTHONPATH=lib python3", files: []string{abs("hook")}, opaque: "its #! line: it sets PYTHONPATH"},
		{name: "relative interpreter", line: "#!bin/python3 -u", files: []string{abs("hook"), abs("bin/python3")}},
		{name: "interpreter in the hook's directory", line: "#!" + abs("bin/python3"), files: []string{abs("hook"), abs("bin/python3")}},
		{name: "too long", line: "#!/bin/sh " + strings.Repeat("x", shebangHead), files: []string{abs("hook")}, opaque: "longer than the kernel reads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeFile(t, abs("hook"), tc.line+"\necho '{}'\n", 0o755)
			cmd := tc.cmd
			if cmd == "" {
				cmd = "./hook"
			}
			got := Resolve(Command{Text: cmd, Env: env, Dir: dir})
			wantResolved(t, got, tc.files, tc.opaque)
		})
	}
}

// bun reads bunfig.toml where it starts: one that exists may preload
// anything, so the command is approved by its text.
func TestResolve_BunConfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/bun"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(dir, "bin/bun.exe"), "#!/bin/sh\n", 0o755) // its name on Windows
	writeFile(t, filepath.Join(dir, "bunfig.toml"), "preload = [\"./p.ts\"]\n", 0o644)
	for _, bun := range []string{"bun", "bun.exe"} {
		got := Resolve(Command{Text: bun + " hook.ts", Env: []string{"PATH=" + filepath.Join(dir, "bin")}, Dir: dir})
		if !strings.Contains(got.Opaque, "bunfig.toml") {
			t.Errorf("%s: %+v", bun, got)
		}
	}
}

// Shell command strings are followed however they nest, up to a bound past
// which the command is approved by its text.
func TestResolve_NestedShellStrings(t *testing.T) {
	dir := t.TempDir()
	cmd := "sh g.sh"
	for i := range maxShellDepth + 2 {
		got := Resolve(Command{Text: cmd, Shell: true, Env: []string{"PATH=/usr/bin:/bin"}, Dir: dir})
		if i <= maxShellDepth {
			if !slices.Equal(got.Files, []string{filepath.Join(dir, "g.sh")}) || got.Opaque != "" {
				t.Fatalf("depth %d: %+v", i, got)
			}
		} else if !strings.Contains(got.Opaque, "nested too deeply") {
			t.Fatalf("depth %d: Opaque %q (%+v)", i, got.Opaque, got)
		}
		cmd = "sh -c " + shquote.Quote(cmd)
	}
}

// `command sh g.sh` and `exec sh g.sh` start sh with sh as its argv[0]
// and the script where the runner hands the pinned copy: the builtin's own
// word is not part of what starts (issue 31, item 3).
func TestResolve_BuiltinPrefixArgv(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"bin/sh", "bin/python3"} {
		writeFile(t, filepath.Join(dir, f), "#!/bin/sh\n", 0o755)
	}
	env := []string{"PATH=" + filepath.Join(dir, "bin")}
	for _, tc := range []struct{ cmd, interp, script string }{
		{"command sh g.sh a", "sh", "g.sh"},
		{"exec sh g.sh a", "sh", "g.sh"},
		{"command python3 -u g.py a", "python", "g.py"},
		{"command -- sh g.sh a", "sh", "g.sh"},
	} {
		got := Resolve(Command{Text: tc.cmd, Shell: true, Env: env, Dir: dir})
		if got.Shell || filepath.Base(got.Argv[0]) != filepath.Base(got.Path) || got.Interp != tc.interp ||
			got.ScriptArg == 0 || got.Argv[got.ScriptArg] != tc.script || got.Argv[len(got.Argv)-1] != "a" {
			t.Errorf("%s: %+v", tc.cmd, got)
		}
	}
}

// A script handed to an interpreter records where it sits in argv, so the
// runner can hand the interpreter the pinned copy instead.
func TestResolve_ScriptArg(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/python3"), "#!/bin/sh\n", 0o755)
	got := Resolve(Command{Text: "nice python3 -u hook.py a", Env: []string{"PATH=" + filepath.Join(dir, "bin") + ":/usr/bin:/bin"}, Dir: dir})
	if got.ScriptArg != 3 || got.Interp != "python" || got.Argv[got.ScriptArg] != "hook.py" {
		t.Fatalf("%+v", got)
	}
}

// Serve resolves hooks for many requests at once: Resolve must be safe to call
// concurrently, for both shells (a shared shell parser raced under -race).
func TestResolve_Concurrent(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/bash"), "#!/bin/sh\n", 0o755)
	env := []string{"PATH=" + filepath.Join(dir, "bin"), "HOME=" + dir}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := Command{Text: `cd "$HOME" && ./x.sh a b`, Shell: true, Env: env, Dir: dir}
			if i%2 == 1 {
				c.ShellPath = "bash"
			}
			for range 200 {
				if got := Resolve(c); len(got.Files) != 1 || got.Opaque != "" || got.Err != "" {
					t.Errorf("%+v", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"./x.sh", `cd "$P" && ./x.sh`, "python3 -m x", "a | b", "$(x)", `"unterminated`, "~u/x", "env -i A=1 nice -n 1 timeout 5 uv run x.py",
		"env -S 'sh g' x", "command sh g.sh", "sh < g", "BASH_ENV=x NODE_OPTIONS='-r ./a' node -r ./b x.js", "perl -Ilib -MA::B x.pl", "ruby -I l -r x y.rb",
		"sh -c \"bash -c 'sh g'\"", "trap 'sh g' EXIT", "env -iu X PATH=b sh g", "PYTHONPATH=l python3 g.py", "node --test a.test.js", "flock l sh g", "ruby -Cd x.rb"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, cmd string, shell bool) {
		got := Resolve(Command{Text: cmd, Shell: shell, Env: []string{"PATH=/nonexistent", "HOME=/h"}, Dir: dir})
		for _, p := range got.Files {
			if !filepath.IsAbs(p) {
				t.Fatalf("relative file %q from %q", p, cmd)
			}
		}
		if got.ScriptArg != 0 && (got.ScriptArg >= len(got.Argv) || len(got.Files) == 0) {
			t.Fatalf("ScriptArg %d out of range for %q: %+v", got.ScriptArg, cmd, got)
		}
	})
}

// The option and environment readers of resolve_loads.go on any input:
// every file they pin is absolute, and they never panic.
func FuzzEnvLoads(f *testing.F) {
	for _, s := range []string{"BASH_ENV=./x", "NODE_OPTIONS=--require=./a -r \"b c\" --import", "PERL5OPT=-Ilib -MA::B=x -I", "RUBYOPT=-r -I", "LD_PRELOAD=./a.so:b.so $ORIGIN/c", "PERL5LIB=a:b", "ENV="} {
		f.Add(s, "-r ./x -I d -MFoo -rbar --rcfile r --import=file:///y")
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, assign, opts string) {
		tg := Target{Dir: dir}
		envLoads(&tg, []string{assign})
		words := strings.Fields(opts)
		for _, k := range [][2]string{{"node", "node"}, {"sh", "bash"}, {"other", "perl"}, {"other", "ruby"}} {
			interpLoads(&tg, k[0], k[1], words)
		}
		flushLoads(&tg)
		for _, p := range tg.Files {
			if !filepath.IsAbs(p) {
				t.Fatalf("relative file %q from %q %q", p, assign, opts)
			}
		}
	})
}

// A module loaded by name may be in any directory the command adds to the
// search path: each candidate is pinned, and marked Optional (approve does
// not require it to exist); a file named as such is not optional.
func TestResolve_OptionalModuleCandidates(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/perl"), "#!/bin/sh\n", 0o755)
	got := Resolve(Command{Text: "perl -I vendor -I lib -MGuard -r ./x g.pl", Env: []string{"PATH=" + filepath.Join(dir, "bin")}, Dir: dir})
	want := []string{filepath.Join(dir, "vendor/Guard.pm"), filepath.Join(dir, "lib/Guard.pm")}
	if !slices.Equal(got.Optional, want) || !slices.Equal(got.Files[1:], want) {
		t.Fatalf("Files %q, Optional %q; want %q", got.Files, got.Optional, want)
	}
}

// An interpreter the command line names is pinned where a repository can
// write it (the hook's directory, or named relative to it), not where only
// the system can: /usr/bin/python3 or PATH=/opt/homebrew/bin:$PATH node
// would need every hook approved again after an upgrade, for nothing.
func TestResolve_SystemInterpreterNotPinned(t *testing.T) {
	sys, proj := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(sys, "node"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(proj, "bin/node"), "#!/bin/sh\n", 0o755)
	env := []string{"PATH=/usr/bin:/bin"}
	for _, tc := range []struct {
		cmd   string
		files []string
	}{
		{sys + "/node hook.js", []string{filepath.Join(proj, "hook.js")}},
		{"PATH=" + sys + ":$PATH node hook.js", []string{filepath.Join(proj, "hook.js")}},
		{"env PATH=" + sys + " node hook.js", []string{filepath.Join(proj, "hook.js")}},
		{proj + "/bin/node hook.js", []string{filepath.Join(proj, "hook.js"), filepath.Join(proj, "bin/node")}},
		{"bin/node hook.js", []string{filepath.Join(proj, "hook.js"), filepath.Join(proj, "bin/node")}},
		{"PATH=" + proj + "/bin:/usr/bin node hook.js", []string{filepath.Join(proj, "hook.js"), filepath.Join(proj, "bin/node")}},
	} {
		got := Resolve(Command{Text: tc.cmd, Shell: true, Env: env, Dir: proj})
		if !slices.Equal(got.Files, tc.files) || got.Opaque != "" {
			t.Errorf("%s: Files %q (opaque %q), want %q", tc.cmd, got.Files, got.Opaque, tc.files)
		}
	}
}

// wantResolved checks a Target's files (exactly, in order) and that it is
// text only for a reason containing opaque ("": not text only).
func wantResolved(t *testing.T, got Target, files []string, opaque string) {
	t.Helper()
	if !slices.Equal(got.Files, files) {
		t.Errorf("Files = %q, want %q", got.Files, files)
	}
	if opaque == "" && got.Opaque != "" || !strings.Contains(got.Opaque, opaque) {
		t.Errorf("Opaque = %q, want %q", got.Opaque, opaque)
	}
}
