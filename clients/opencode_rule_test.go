package clients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCodePluginTutorialRule: issue 35's tutorial rule, verbatim in the
// user's config, through the OpenCode plugin install writes, run under node
// as OpenCode calls it. decision: block refuses rm -rf / with the rule's
// message as the error the model reads, and ls goes through; decision: ask
// refuses too (OpenCode cannot ask a person from a plugin), the message
// kept and the refusal saying that it could not ask, as every other agent
// that cannot ask says it (docs/config.md): an ask read as a plain ban is
// one no approval can lift.
func TestOpenCodePluginTutorialRule(t *testing.T) {
	need(t, "node")
	t.Parallel()
	const message = "rm -rf is not allowed here"
	for _, decision := range []string{"block", "ask"} {
		t.Run(decision, func(t *testing.T) {
			t.Parallel()
			home, work := t.TempDir(), t.TempDir()
			cfg := "hooks:\n  pre_tool_call:\n    - matcher: terminal\n" +
				`      rule: 'args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"'` + "\n" +
				"      decision: " + decision + "\n      message: \"" + message + "\"\n"
			if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			e := env(t, "HERMES_HOME="+home)
			bin := filepath.Join(hermesHooks(t), "hermes-hooks")
			if out, errs, err := run(t, work, e, bin, "install", "opencode", "--project", work); err != nil {
				t.Fatalf("install opencode: %v\n%s%s", err, out, errs)
			}
			plugins := filepath.Join(work, ".opencode", "plugins")
			if err := os.WriteFile(filepath.Join(plugins, "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
				t.Fatal(err)
			}
			calls := driveOpenCode(t, work, e, filepath.Join(plugins, "hermes-hooks.js"))
			rm := calls["rm"]
			switch {
			case decision == "block" && rm.Threw != message:
				t.Errorf("rm -rf / under a block rule: %+v, want it refused with %q", rm, message)
			case decision == "ask" && (!strings.HasPrefix(rm.Threw, message) || !strings.Contains(rm.Threw, "cannot ask")):
				t.Errorf("rm -rf / under an ask rule: %+v, want it refused with %q, saying OpenCode cannot ask", rm, message)
			}
			if c := calls["ls"]; c.Threw != "" {
				t.Errorf("ls under a %s rule: %+v, want it through", decision, c)
			}
		})
	}
}
