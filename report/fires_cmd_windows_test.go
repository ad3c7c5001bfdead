package report

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// fakeBinEnv makes this test binary, copied under another name, stand in
// for a program the Codex line runs: hermes-hooks.exe (answers doctor's
// probe) or where.exe (Wine's is a stub).
const fakeBinEnv = "HERMES_TEST_FAKE_BIN"

func TestMain(m *testing.M) {
	if os.Getenv(fakeBinEnv) == "1" {
		self, _ := os.Executable()
		switch strings.ToLower(filepath.Base(self)) {
		case "where.exe":
			// where $PATH:NAME: exit 0 when NAME is found on PATH, else 1.
			if len(os.Args) == 2 {
				if _, err := exec.LookPath(strings.TrimPrefix(os.Args[1], "$PATH:")); err == nil {
					os.Exit(0)
				}
			}
			os.Exit(1)
		case "evil.exe":
			// A repository's program: it leaves a mark where it ran.
			os.WriteFile(os.Getenv("HERMES_TEST_MARK"), []byte("ran"), 0o644)
			os.Exit(0)
		case "hermes-hooks.exe":
			// hermes-hooks hook AGENT EVENT …: the probe's answer, as hook
			// gives it, with the arguments it was called with.
			tok, err := os.ReadFile(os.Getenv(agents.ProbeEnv))
			io.Copy(io.Discard, os.Stdin)
			if err != nil || len(os.Args) < 4 || os.Args[1] != "hook" {
				os.Exit(1)
			}
			os.Stderr.WriteString(agents.ProbePrefix + agents.ProbeAnswer(strings.TrimSpace(string(tok))) + ": " + strings.Join(os.Args[1:], " ") + "\n")
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// TestDoctorRunsCodexWindowsLine: on Windows doctor proves a Codex entry
// by running its commandWindows line as Codex does (%COMSPEC% /C LINE,
// through the real cmd.exe), not its POSIX command through sh (which
// Windows lacks): with hermes-hooks on PATH the entry fires; without it,
// the line's own refusal (and, where where.exe is Wine's stub, cmd.exe's
// "not recognized") reads as not found.
func TestDoctorRunsCodexWindowsLine(t *testing.T) {
	codex, _ := agents.Lookup("codex")
	root, bin := t.TempDir(), t.TempDir()
	doc, _, err := codex.Install(nil, func(ev string) string { return codex.HookCommand("", ev) })
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".codex", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, pyjson.Encode(doc, pyjson.JSIndent), 0o644); err != nil {
		t.Fatal(err)
	}
	sysRoot := os.Getenv("SystemRoot")
	t.Setenv("PATH", bin+";"+filepath.Join(sysRoot, "System32")+";"+sysRoot)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeBinEnv, "1")
	stubWhere := whereIsStub(t)
	t.Logf("where.exe is a stub here (Wine): %v", stubWhere)
	in := install.Installed{Agent: codex, Root: root, Path: file}
	check := func(what string) map[string]FireCheck {
		t.Helper()
		got := CheckInstalls(context.Background(), []install.Installed{in}, ProbeOptions{Home: t.TempDir()})
		if len(got) != 1 || got[0].Error != "" {
			t.Fatalf("%s: %+v", what, got)
		}
		by := map[string]FireCheck{}
		for _, e := range got[0].Entries {
			by[e.Event] = e
		}
		return by
	}
	hh := filepath.Join(bin, "hermes-hooks.exe")
	if err := os.WriteFile(hh, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for ev, e := range check("hermes-hooks on PATH") {
		line, _ := codex.WindowsHookCommand("", ev)
		if e.Status != FireOK || e.Command != line {
			t.Errorf("hermes-hooks on PATH: %s: %s (%s), line %q", ev, e.Status, e.Detail, e.Command)
		}
	}
	if err := os.Remove(hh); err != nil {
		t.Fatal(err)
	}
	if stubWhere {
		// Wine: where.exe finds everything, so the line calls the missing
		// program and cmd.exe says it is not recognized (exit 9009).
		for _, ev := range []string{"PreToolUse", "Stop"} {
			if e := check("hermes-hooks gone, Wine's where")[ev]; e.Status != FireNotFound || !strings.Contains(e.Detail, "exit 9009") {
				t.Errorf("hermes-hooks gone, Wine's where: %s: %s (%s)", ev, e.Status, e.Detail)
			}
		}
		if err := os.WriteFile(filepath.Join(bin, "where.exe"), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	by := check("hermes-hooks gone")
	if e := by["PreToolUse"]; e.Status != FireNotFound || !strings.Contains(e.Detail, "refusal of every tool call") {
		t.Errorf("hermes-hooks gone: PreToolUse: %s (%s)", e.Status, e.Detail)
	}
	if e := by["Stop"]; e.Status != FireNotFound || !strings.Contains(e.Detail, "passes silently") {
		t.Errorf("hermes-hooks gone: Stop: %s (%s)", e.Status, e.Detail)
	}
}

// TestDoctorCopilotWithoutPowerShell: Copilot CLI runs its powershell
// line on Windows. Where PowerShell does not run a command (Wine's
// powershell.exe is a stub that exits 0) or is not on PATH, doctor runs
// nothing for the entry and says why: not "fires", and not a problem of
// the file. A real PowerShell proves it fires.
func TestDoctorCopilotWithoutPowerShell(t *testing.T) {
	copilot, _ := agents.Lookup("copilot")
	root, bin := t.TempDir(), t.TempDir()
	doc, _, err := copilot.Install(nil, func(ev string) string { return copilot.HookCommand("", ev) })
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".github", "hooks", "hermes-hooks.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, pyjson.Encode(doc, pyjson.JSIndent), 0o644); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "hermes-hooks.exe"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeBinEnv, "1")
	sysRoot := os.Getenv("SystemRoot")
	winPath := filepath.Join(sysRoot, "System32") + ";" + sysRoot + ";" + filepath.Join(sysRoot, "System32", "WindowsPowerShell", "v1.0")
	in := install.Installed{Agent: copilot, Root: root, Path: file}
	for _, path := range []string{bin + ";" + winPath, bin} {
		t.Setenv("PATH", path)
		_, psErr := exec.LookPath("powershell")
		got := CheckInstalls(context.Background(), []install.Installed{in}, ProbeOptions{Home: t.TempDir()})
		if len(got) != 1 || len(got[0].Entries) == 0 {
			t.Fatalf("%+v", got)
		}
		for _, e := range got[0].Entries {
			switch {
			case psErr != nil && e.Status == FireNotRun && strings.Contains(e.Detail, "powershell, which is not on PATH"):
			case psErr == nil && e.Status == FireNotRun && strings.Contains(e.Detail, "did not run a test command"):
				if e.Event == "PreToolUse" {
					t.Logf("%s: %s", e.Event, e.Detail)
				}
			case psErr == nil && e.Status == FireOK:
			default:
				t.Errorf("PATH %s: %s: %s (%s)", path, e.Event, e.Status, e.Detail)
			}
		}
		c := got[0]
		c.Trusted, c.Unreviewed = nil, nil // the folder's trust is another check
		if n := c.Problems(); n != 0 {
			t.Errorf("PATH %s: %d problems", path, n)
		}
	}
}

// whereIsStub reports whether where.exe finds a program that does not
// exist (Wine 8's prints nothing and exits 0 for anything).
func whereIsStub(t *testing.T) bool {
	t.Helper()
	comspec := os.Getenv("COMSPEC")
	r := hookproc.Run(context.Background(), hookproc.Spec{Path: comspec, Argv: []string{comspec, "/C", "where"},
		CmdLine: `"` + comspec + `" /C where $PATH:no-such-program-hermes >nul 2>&1`, Env: os.Environ(), Timeout: probeTimeout})
	if r.SpawnError != "" {
		t.Fatal(r.SpawnError)
	}
	return r.Exited && r.ExitCode == 0
}

// TestAttackDoctorRunsNoRepositoryProgramOnWindows: a repository's Codex
// file whose commandWindows is a form of ours naming a program of the
// repository's (the older bare path), or whose PATH form cmd.exe would
// resolve to a hermes-hooks.cmd in the project folder (cmd.exe looks in
// the current folder first: older lines do not turn that off, and Wine's
// cmd.exe ignores the setting today's line uses), is named and never run.
func TestAttackDoctorRunsNoRepositoryProgramOnWindows(t *testing.T) {
	codex, _ := agents.Lookup("codex")
	root, bin := t.TempDir(), t.TempDir()
	mark := filepath.Join(t.TempDir(), "ran")
	t.Setenv("HERMES_TEST_MARK", mark)
	t.Setenv(fakeBinEnv, "1")
	sysRoot := os.Getenv("SystemRoot")
	t.Setenv("PATH", bin+";"+filepath.Join(sysRoot, "System32")+";"+sysRoot)
	self, _ := os.Executable()
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(root, "tools", "evil.exe")
	os.MkdirAll(filepath.Dir(evil), 0o755)
	if err := os.WriteFile(evil, data, 0o755); err != nil {
		t.Fatal(err)
	}
	// hermes-hooks itself is on PATH: only the repository's file could
	// keep the entry from firing.
	if err := os.WriteFile(filepath.Join(bin, "hermes-hooks.exe"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(doc pyjson.OrderedObject) install.Installed {
		file := filepath.Join(root, ".codex", "hooks.json")
		os.MkdirAll(filepath.Dir(file), 0o755)
		if err := os.WriteFile(file, pyjson.Encode(doc, pyjson.JSIndent), 0o644); err != nil {
			t.Fatal(err)
		}
		return install.Installed{Agent: codex, Root: root, Path: file}
	}
	doc, _, _ := codex.Install(nil, func(ev string) string { return codex.HookCommand("", ev) })
	hooks, _ := doc.Get("hooks")
	pre, _ := hooks.(pyjson.OrderedObject).Get("PreToolUse")
	h := pre.([]any)[0].(pyjson.OrderedObject)
	inner, _ := h.Get("hooks")
	handler := inner.([]any)[0].(pyjson.OrderedObject)
	inner.([]any)[0] = handler.Set("commandWindows", `"`+evil+`" hook codex PreToolUse --agent-timeout 600`)
	in := write(doc)
	got := CheckInstalls(context.Background(), []install.Installed{in}, ProbeOptions{Home: t.TempDir()})
	for _, e := range got[0].Entries {
		if e.Event == "PreToolUse" && (e.Status != FireForeign || !strings.Contains(e.Detail, evil)) {
			t.Errorf("commandWindows naming the repository's program: %s (%s)", e.Status, e.Detail)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("doctor ran the repository's program")
	}
	// Today's lines, and a hermes-hooks.cmd of the repository's in the
	// project folder.
	doc, _, _ = codex.Install(nil, func(ev string) string { return codex.HookCommand("", ev) })
	in = write(doc)
	planted := filepath.Join(root, "hermes-hooks.cmd")
	if err := os.WriteFile(planted, []byte("@\""+evil+"\"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = CheckInstalls(context.Background(), []install.Installed{in}, ProbeOptions{Home: t.TempDir()})
	for _, e := range got[0].Entries {
		if e.Status != FireForeign || !strings.Contains(e.Detail, planted) {
			t.Errorf("a hermes-hooks.cmd in the project folder: %s: %s (%s)", e.Event, e.Status, e.Detail)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("doctor ran the repository's hermes-hooks.cmd")
	}
}
