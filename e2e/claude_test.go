//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeEvents are the events whose hooks run hermes-hooks.
var claudeEvents = []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"}

// claudeHarness is one Claude Code installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type claudeHarness struct {
	*harness
	claude string // Claude Code binary
}

func TestClaudeCode(t *testing.T) {
	start := time.Now()
	h := newClaudeHarness(t)
	runScenarios(t, h, start, nil)
}

func (h *claudeHarness) spec() agentSpec {
	return agentSpec{name: "Claude Code", tool: "Bash", callID: toolUseID, result: "result", unit: "message", member: "messages"}
}

func (h *claudeHarness) newFake(t *testing.T, s script) *fakeServer {
	return &newFakeAPI(t, s).fakeServer
}

// toolResult: the tool_result block answering the Bash call; is_error
// too, which a harmless command's must not be.
func (h *claudeHarness) toolResult(t *testing.T, fake *fakeServer) callResult {
	tr := lastFound(t, fake, func(req *messagesRequest) *contentBlock { return req.toolResult(toolUseID) })
	if tr == nil {
		return callResult{}
	}
	return callResult{found: true, text: tr.text(), isError: tr.IsError, note: fmt.Sprintf(" (is_error=%v)", tr.IsError)}
}

// claudeEnv is Claude Code's environment: the fake API, a throwaway home,
// no updater, telemetry or error reporting, and every other connection
// sent to the fake's refusing proxy.
func (h *claudeHarness) claudeEnv(fake *fakeServer) []string {
	return h.agentEnv(cleanEnv(), fake,
		"ANTHROPIC_BASE_URL="+fake.URL(),
		"ANTHROPIC_API_KEY=e2e-dummy-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	)
}

// run runs `claude -p` in the project against fake, its debug log in
// the harness's logs.
func (h *claudeHarness) run(t *testing.T, fake *fakeServer) *agentRun {
	t.Helper()
	debugLog := filepath.Join(h.logs, fmt.Sprintf("claude-debug-%d.log", h.runs+1))
	return h.runAgent(t, fake, invocation{
		who: "Claude Code", what: "claude -p", env: h.claudeEnv(fake), bin: h.claude,
		args: []string{"-p", fake.script.Prompt, "--allowedTools", "Bash", "--output-format", "json", "--debug-file", debugLog},
		dump: func(t *testing.T, r *agentRun) { h.dump(t, r, fake, debugLog) },
	})
}

// requireSuccess stops the test unless Claude Code exited 0 and printed a
// successful JSON result.
func (h *claudeHarness) requireSuccess(t *testing.T, r *agentRun) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("claude -p failed: %v", r.err)
	}
	var out struct {
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &out); err != nil {
		t.Fatalf("claude -p did not print its JSON result: %v", err)
	}
	if out.IsError || out.Result != "done" {
		t.Fatalf("claude -p finished with %s (is_error=%v), result %q; want the fake model's final %q", out.Subtype, out.IsError, out.Result, "done")
	}
}

// dump logs what a failing case needs: Claude Code's output, every request
// the fake model got and what it answered, the hooks' payloads and the
// hook lines of Claude Code's debug log.
func (h *claudeHarness) dump(t *testing.T, r *agentRun, fake *fakeServer, debugLog string) {
	t.Logf("claude -p error: %v\nstdout:\n%s\nstderr:\n%s", r.err, r.stdout, r.stderr)
	dumpRequests(t, fake, "messages", "messages", 0)
	logHookPayloads(t, h.project)
	if f, err := os.Open(debugLog); err == nil {
		defer f.Close()
		var lines []string
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if l := sc.Text(); strings.Contains(strings.ToLower(l), "hook") {
				lines = append(lines, clip(l, 2000))
			}
		}
		if len(lines) > 200 {
			lines = lines[len(lines)-200:]
		}
		t.Logf("hook lines of Claude Code's debug log %s (HERMES_E2E_KEEP=1 keeps it):\n%s", debugLog, strings.Join(lines, "\n"))
	}
}

// installClaude wires Claude Code in project to hermes-hooks: through
// `hermes-hooks install claude --project P` when that verb exists, else by
// writing the same .claude/settings.json itself.
func installClaude(t *testing.T, bin, project string, env []string) {
	t.Helper()
	cmd := exec.Command(bin, "install", "claude", "--project", project)
	cmd.Dir = project
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	settings := filepath.Join(project, ".claude", "settings.json")
	switch {
	case err == nil:
		t.Logf("hermes-hooks install claude --project: %s", strings.TrimSpace(stdout.String()))
	case !hasVerb(bin, "install"):
		t.Logf("hermes-hooks has no install verb yet (%s); writing %s as it would", strings.TrimSpace(stderr.String()), settings)
		hooks := map[string]any{}
		for _, ev := range claudeEvents {
			hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
				"type": "command", "command": shellQuote(bin) + " hook claude",
			}}}}
		}
		data, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		mustMkdir(t, filepath.Dir(settings))
		mustWrite(t, settings, string(data)+"\n", 0o644)
	default:
		t.Fatalf("hermes-hooks install claude --project %s: %v\nstdout:\n%s\nstderr:\n%s", project, err, stdout.String(), stderr.String())
	}
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	t.Logf("%s:\n%s", settings, data)
}

// hasVerb reports whether the hermes-hooks binary has the verb: its help
// then shows the verb's own usage. (For a missing verb cobra rejects the
// verb's flags before it rejects the verb, so the error alone does not say.)
func hasVerb(bin, verb string) bool {
	out, _ := exec.Command(bin, verb, "--help").Output()
	return strings.Contains(string(out), "hermes-hooks "+verb)
}

// newClaudeHarness is Claude Code from npm (or HERMES_E2E_CLAUDE), hooks
// installed in a fresh project holding the Hermes hooks every scenario uses.
func newClaudeHarness(t *testing.T) *claudeHarness {
	h := &claudeHarness{claude: npmAgent(t, claudeTool)}
	h.harness = newHarness(t)
	installClaude(t, h.bin, h.project, h.hermesEnv())
	h.writeHermesProject(t)
	return h
}

// claudeTool is Claude Code as npmAgent installs it.
var claudeTool = npmTool{
	what: "Claude Code", pkg: "@anthropic-ai/claude-code", bin: "claude",
	binEnv: "HERMES_E2E_CLAUDE", versionEnv: "HERMES_E2E_CLAUDE_VERSION",
	slot: "npm",
}
