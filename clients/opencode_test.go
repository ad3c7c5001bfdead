package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/install"
)

// openCodeGuard refuses rm -rf, rewrites an edit and objects after a
// call, in Claude Code's protocol (the shim speaks it to hermes-hooks).
const openCodeGuard = `#!/bin/sh
in=$(cat)
case "$in" in
*'"hook_event_name":"PostToolUse"'*) echo '{"decision":"block","reason":"look at that output"}' ;;
*'rm -rf'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed here"}}' ;;
*'unpatch-me'*) printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/p/x","content":"y"}}}' ;;
*'rewrite-me'*) printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"mode":"patch","patch":"*** Begin Patch\n*** Add File: /p/rewritten\n+x\n*** End Patch"}}}' ;;
*'/p/.env'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no secrets"}}' ;;
*'"old_string"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/p/a.txt","old_string":"a","new_string":"b, rewritten"}}}' ;;
esac
`

type openCodeCall struct {
	Name   string         `json:"name"`
	Threw  string         `json:"threw"`
	Args   map[string]any `json:"args"`
	Output string         `json:"output"`
}

// driveOpenCode runs the driver on the plugin file and returns its calls
// by name.
func driveOpenCode(t *testing.T, work string, e []string, plugin string) map[string]openCodeCall {
	t.Helper()
	driver, err := filepath.Abs(filepath.Join("testdata", "opencode_driver.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := run(t, work, e, "node", driver, plugin, work)
	if err != nil {
		t.Fatalf("node %s: %v\n%s%s", driver, err, stdout, stderr)
	}
	calls := map[string]openCodeCall{}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var c openCodeCall
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("driver line %q: %v\nstderr %s", l, err, stderr)
		}
		calls[c.Name] = c
	}
	return calls
}

// TestOpenCodePlugin installs the OpenCode plugin with the real binary and
// runs its hooks under node as OpenCode calls them, against an approved
// guard: a refusal throws with the guard's reason, an allowed call passes,
// a rewrite lands in OpenCode's own argument names, an objection after the
// call reaches the output; a hermes-hooks that cannot run throws.
func TestOpenCodePlugin(t *testing.T) {
	need(t, "node")
	t.Parallel()
	home, work := t.TempDir(), t.TempDir()
	guard := filepath.Join(home, "guard.sh")
	if err := os.WriteFile(guard, []byte(openCodeGuard), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "hooks:\n  PreToolUse:\n    - command: " + guard + "\n      matcher: Bash|Edit|Read\n  PostToolUse:\n    - command: " + guard + "\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	e := env(t, "HERMES_HOME="+home)
	bin := filepath.Join(hermesHooks(t), "hermes-hooks")
	for _, args := range [][]string{{"approve", "--all"}, {"install", "opencode", "--project", work}} {
		if out, errs, err := run(t, work, e, bin, args...); err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out, errs)
		}
	}
	// OpenCode (Bun) loads an ES module .js as it is; Node before 22 wants
	// the package type said.
	plugins := filepath.Join(work, ".opencode", "plugins")
	if err := os.WriteFile(filepath.Join(plugins, "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}

	calls := driveOpenCode(t, work, e, filepath.Join(plugins, "hermes-hooks.js"))
	if c := calls["rm"]; c.Threw != "rm -rf is not allowed here" {
		t.Errorf("rm -rf /: %+v, want it refused with the guard's reason", c)
	}
	if c := calls["ls"]; c.Threw != "" || !reflect.DeepEqual(c.Args, map[string]any{"command": "ls", "description": "list"}) {
		t.Errorf("ls: %+v, want it through, untouched", c)
	}
	want := map[string]any{"filePath": "/p/a.txt", "oldString": "a", "newString": "b, rewritten"}
	if c := calls["edit"]; c.Threw != "" || !reflect.DeepEqual(c.Args, want) {
		t.Errorf("edit: %+v, want its args rewritten to %v", c, want)
	}
	// updatedInput is the whole input, as Claude Code reads it: an
	// argument the rewrite left out is gone, not kept from the call.
	if c := calls["edit_all"]; c.Threw != "" || !reflect.DeepEqual(c.Args, want) {
		t.Errorf("edit with replaceAll: %+v, want its args replaced by the rewrite, %v", c, want)
	}
	// OpenCode's apply_patch takes Codex's patch envelope: it reaches the
	// hooks as Hermes' patch tool (Edit to a Claude-dialect guard), as
	// Codex's does, and a rewrite of the patch comes back as patchText.
	if c := calls["patch"]; c.Threw != "no secrets" {
		t.Errorf("apply_patch of /p/.env: %+v, want it refused by the Edit guard", c)
	}
	wantPatch := map[string]any{"patchText": "*** Begin Patch\n*** Add File: /p/rewritten\n+x\n*** End Patch"}
	if c := calls["patch_rewrite"]; c.Threw != "" || !reflect.DeepEqual(c.Args, wantPatch) {
		t.Errorf("apply_patch rewritten: %+v, want %v", c, wantPatch)
	}
	if c := calls["patch_unpatch"]; !strings.Contains(c.Threw, "not a patch") {
		t.Errorf("apply_patch rewritten into a file write: %+v, want it refused", c)
	}
	// The guard judges the path the tool reads (filePath), not a file_path
	// the model put beside it, which the tool never looks at.
	if c := calls["decoy"]; c.Threw != "no secrets" {
		t.Errorf("read of /p/.env with a decoy file_path: %+v, want it refused for the real path", c)
	}
	if c := calls["after"]; c.Threw != "" || c.Output != "a.txt\n\n\n[hermes-hooks] look at that output" {
		t.Errorf("after: %+v, want the guard's objection appended to the output", c)
	}

	// hermes-hooks gone, crashing, or answering nonsense: the plugin cannot
	// evaluate the guards, so every call is refused, saying why.
	for _, bad := range []struct{ name, script, want string }{
		{"missing", "", "ENOENT"},
		{"crash", "#!/bin/sh\necho 'panic: boom' >&2\nexit 1\n", "failed (1): panic: boom"},
		{"nonsense", "#!/bin/sh\ncat >/dev/null\necho 'not json'\n", "unreadable reply: not json"},
	} {
		exe := filepath.Join(home, bad.name)
		if bad.script != "" {
			if err := os.WriteFile(exe, []byte(bad.script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		plugin := filepath.Join(plugins, bad.name+".js")
		if err := os.WriteFile(plugin, install.OpenCodePlugin(exe), 0o644); err != nil {
			t.Fatal(err)
		}
		calls = driveOpenCode(t, work, e, plugin)
		for _, name := range []string{"rm", "ls", "edit"} {
			if c := calls[name]; !strings.Contains(c.Threw, bad.want) {
				t.Errorf("%s, hermes-hooks %s: %+v, want a refusal saying %q", name, bad.name, c, bad.want)
			}
		}
		if c := calls["after"]; c.Threw != "" || !strings.Contains(c.Output, "\n\n[hermes-hooks] ") || !strings.Contains(c.Output, bad.want) {
			t.Errorf("after, hermes-hooks %s: %+v, want the failure in the output", bad.name, c)
		}
	}
}
