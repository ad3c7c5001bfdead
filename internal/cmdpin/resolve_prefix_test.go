package cmdpin

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// CLAUDE_CODE_SHELL_PREFIX (Command.Prefix): what the shell runs is the
// prefix with the command as one argument, so the Target pins the
// command's own files and the prefix program's; an interpreter prefix
// would read the text as a script's name, which is pinned as a file that
// need not exist; the command text is never taken for a file a plain
// program opens; the prefix's value is one quoted word in ShellArgv.
func TestResolveShellPrefix(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell")
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prefix := write("audit.sh", `exec /bin/sh -c "$1"`)
	guard := write("guard.sh", "exit 0")
	env := append(os.Environ(), "PROJ="+dir)
	resolve := func(text, pfx string) Target {
		return Resolve(Command{Text: text, Shell: true, Env: env, Dir: dir, Prefix: pfx})
	}

	tg := resolve(`"$PROJ"/guard.sh now`, prefix)
	if !tg.Shell || tg.Path != "" || !slices.Equal(tg.Files, []string{guard, prefix}) || tg.Err != "" || tg.Opaque != "" {
		t.Fatalf("script under a prefix: %+v", tg)
	}
	if argv := ShellArgv(tg, `"$PROJ"/guard.sh now`); !slices.Equal(argv, []string{"/bin/sh", "-c", "'" + prefix + `' '"$PROJ"/guard.sh now'`}) {
		t.Fatalf("argv %q", argv)
	}
	if plain := resolve(`"$PROJ"/guard.sh`, ""); plain.Shell || plain.Prefix != "" || !slices.Equal(plain.Files, []string{guard}) {
		t.Fatalf("no prefix: %+v", plain)
	}
	// A compound command: approved by its text as before, the prefix pinned.
	if tg := resolve("echo hi | tr h H", prefix); tg.Opaque == "" || !slices.Equal(tg.Files, []string{prefix}) {
		t.Fatalf("compound under a prefix: %+v", tg)
	}
	// An interpreter reads the text as its script's name.
	if sh, err := lookPath("sh", env, dir); err == "" {
		tg := resolve("guard.sh", sh)
		if !slices.Contains(tg.Optional, filepath.Join(dir, "guard.sh")) {
			t.Fatalf("interpreter prefix: %+v", tg)
		}
	}
	// A prefix that is not there: the shell says so when it runs.
	if tg := resolve("true", filepath.Join(dir, "nope")); !strings.Contains(tg.Err, "CLAUDE_CODE_SHELL_PREFIX") || !tg.Shell {
		t.Fatalf("missing prefix: %+v", tg)
	}
	// The value is one word: shell code in it stays text.
	tg = resolve("true", "touch pwned;")
	if argv := ShellArgv(tg, "true"); argv[2] != `'touch pwned;' 'true'` {
		t.Fatalf("argv %q", argv)
	}
	// PowerShell handlers are not prefixed.
	if tg := Resolve(Command{Text: "x", Shell: true, Env: env, Dir: dir, Prefix: prefix, ShellPath: PowerShellShell}); tg.Prefix != "" {
		t.Fatalf("powershell: %+v", tg)
	}
}
