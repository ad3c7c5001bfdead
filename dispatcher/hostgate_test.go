package dispatcher

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// A host's own Gate sees what a hook runs through Invocation.Files and
// TextOnly (the host API converts; it does not hand out internal/cmdpin's
// types): the script it will start, or why that cannot be told.
func TestHostGateSeesWhatAHookRuns(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "h.sh", "exit 0")
	// A command whose files cannot be told: a make target; on Windows,
	// where a command is not read by a shell, cmd.exe's own syntax.
	opaque := "make -s guard"
	if runtime.GOOS == "windows" {
		opaque = `cmd /c "guard.cmd & other.cmd"`
	}
	yml := "hooks:\n  pre_tool_call:\n" +
		"    - command: " + s + "\n" +
		"    - command: '" + opaque + "'\n"
	cfg, err := hookconfig.ParseConfig([]byte(yml), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		files    []string
		textOnly string
	}
	var got []seen
	d, err := New(cfg, Options{Gate: GateFunc(func(h Invocation) Verdict {
		got = append(got, seen{h.Files(), h.TextOnly()})
		return Verdict{Reason: "host says no"}
	})})
	if err != nil {
		t.Fatal(err)
	}
	dispatch(t, d, "pre_tool_call", terminalCall)
	if len(got) != 2 {
		t.Fatalf("gate asked %d times, want 2: %+v", len(got), got)
	}
	if !slices.Equal(got[0].files, []string{filepath.FromSlash(s)}) || got[0].textOnly != "" {
		t.Errorf("script entry: Files %q, TextOnly %q; want [%s] and \"\"", got[0].files, got[0].textOnly, s)
	}
	if len(got[1].files) != 0 || got[1].textOnly == "" {
		t.Errorf("%s: Files %q, TextOnly %q; want no files and a reason", opaque, got[1].files, got[1].textOnly)
	}
}

// Attack: a host's Gate that writes into the slice Files returned cannot
// change what the runner starts: the approved script runs, never the file
// the gate swapped in.
func TestHostGateCannotRetargetTheHook(t *testing.T) {
	dir := t.TempDir()
	good := script(t, dir, "good.sh", "touch "+filepath.Join(dir, "good-ran"))
	evil := script(t, dir, "evil.sh", "touch "+filepath.Join(dir, "evil-ran"))
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", good)), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(cfg, Options{Gate: GateFunc(func(h Invocation) Verdict {
		if f := h.Files(); len(f) > 0 {
			f[0] = evil
		}
		return Verdict{Kind: VerdictRun}
	})})
	if err != nil {
		t.Fatal(err)
	}
	if r := onlyReport(t, dispatch(t, d, "pre_tool_call", terminalCall)); !r.Ran {
		t.Fatalf("report %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "evil-ran")); err == nil {
		t.Fatal("the file a gate wrote into Files ran")
	}
	if _, err := os.Stat(filepath.Join(dir, "good-ran")); err != nil {
		t.Fatal("the approved script did not run: ", err)
	}
}
