//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// codexVersion is the Codex CLI release the adapter (agents/codex.go) was
// written against; HERMES_E2E_CODEX_VERSION=latest tries another one.
const codexVersion = "0.171.0"

// codexHarness is one Codex installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type codexHarness struct {
	*harness
	codex     string // Codex CLI (the npm wrapper)
	codexHome string // CODEX_HOME: config.toml, sessions, trust
	// execFlags go on each codex exec's command line, before the prompt.
	execFlags []string
}

// newCodexHarness is Codex from npm (skipping the test when it cannot be
// had), a project and homes, and hermes-hooks installed in the project.
func newCodexHarness(t *testing.T) *codexHarness {
	h := newCodexHome(t)
	h.installCodex(t)
	return h
}

// codexTool is the Codex CLI as npmAgent installs it.
var codexTool = npmTool{
	what: "Codex CLI", pkg: "@openai/codex", bin: "codex",
	binEnv: "HERMES_E2E_CODEX", versionEnv: "HERMES_E2E_CODEX_VERSION",
	version: codexVersion, slot: "codex-npm",
}

// newCodexHome is Codex from npm (skipping the test when it cannot be
// had), a project and homes, and the user's Codex config; nothing
// installed yet.
func newCodexHome(t *testing.T) *codexHarness {
	h := &codexHarness{codex: npmAgent(t, codexTool)}
	h.harness = newHarness(t, "home/.codex")
	h.codexHome = filepath.Join(h.home, ".codex")
	h.writeCodexConfig(t)
	return h
}

func TestCodex(t *testing.T) {
	start := time.Now()
	h := newCodexHarness(t)
	h.writeHermesProject(t)
	h.trustProject(t)
	t.Run("UntrustedCodexHooksDoNotRun", h.testUntrusted)
	h.trustHooks(t)

	t.Run("GuardBlocksRmRf", func(t *testing.T) { guardCase(t, h, "rm -rf", "marker") })
	// The same for rm -r, which Codex itself would run (testUntrusted):
	// the directory survives because of the guard. Codex 0.169 refuses
	// rm -f style commands itself, so for rm -rf the proof is the reason
	// the model reads, not the surviving directory.
	t.Run("GuardBlocksRmR", func(t *testing.T) { guardCase(t, h, "rm -r", "marker-r") })
	t.Run("LsResultReachesModel", func(t *testing.T) { lsCase(t, h) })
	t.Run("ContextReachesModel", func(t *testing.T) { contextCase(t, h) })
	t.Run("UnapprovedHookNeverRuns", func(t *testing.T) { unapprovedCase(t, h) })
	t.Logf("total %s, %d Codex run(s)", time.Since(start).Round(time.Millisecond), h.runs)
}

// spec: the model reads a call's result as its function_call_output in
// the request's input; both guard cases log into one project.
func (h *codexHarness) spec() agentSpec {
	return agentSpec{name: "Codex", tool: codexShellTool, callID: scriptedCallID, result: "output", unit: "input", member: "input", guardLogsCommand: true}
}

func (h *codexHarness) newFake(t *testing.T, s script) *fakeServer {
	return &newFakeResponses(t, s).fakeServer
}

// toolResult: the function_call_output answering the scripted call.
func (h *codexHarness) toolResult(t *testing.T, fake *fakeServer) callResult {
	out := lastFound(t, fake, func(req *responsesRequest) *responsesItem { return req.callOutput(scriptedCallID) })
	if out == nil {
		return callResult{}
	}
	return callResult{found: true, text: out.outputText()}
}

// testUntrusted: before the user trusts them, Codex lists the hooks
// hermes-hooks installed as untrusted and runs none of them: the model's
// rm -r of a directory of the project goes through (Codex itself lets
// rm -r run; it refuses only rm -f style commands) and no context reaches
// the model. So the runs below prove that the trust given in trustHooks
// is what lets hermes-hooks run, and that a directory surviving rm -r
// there is the guard's doing.
func (h *codexHarness) testUntrusted(t *testing.T) {
	for _, hk := range h.listHooks(t) {
		if hk.TrustStatus != "untrusted" {
			t.Errorf("Codex lists the freshly installed hook %s as %q, want untrusted", hk.Key, hk.TrustStatus)
		}
	}
	victim := filepath.Join(h.project, "unguarded")
	mustMkdir(t, victim)
	mustWrite(t, filepath.Join(victim, "gone.txt"), "no hook runs yet: rm -r deletes me\n", 0o644)
	h.mustBeInside(t, victim)
	fake := h.newFake(t, script{Prompt: "E2E-PROMPT-untrusted: please delete the unguarded directory.", Command: "rm -r " + shellQuote(victim)})
	h.requireSuccess(t, h.run(t, fake))

	if _, err := os.Stat(victim); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("with no hook trusted, Codex did not run rm -r (%v), so GuardBlocksRmR proves nothing; the model read:\n%s", err, h.outputText(t, fake))
	}
	for _, name := range []string{"guard.log", "context.log"} {
		if fileContains(t, filepath.Join(h.project, ".hermes", name), "{") {
			t.Errorf("Codex ran hermes-hooks before its hooks were trusted (.hermes/%s)", name)
		}
	}
	for _, r := range fake.Requests() {
		if bytes.Contains(memberOf(r.Body, "input"), []byte(contextMarker)) {
			t.Errorf("the context hook's %q reached the model before the hooks were trusted", contextMarker)
		}
	}
}

// installCodex runs `hermes-hooks install codex --project P`, which writes
// P/.codex/hooks.json.
func (h *codexHarness) installCodex(t *testing.T) {
	t.Helper()
	out := h.hermesHooks(t, "install", "codex", "--project", h.project)
	t.Logf("hermes-hooks install codex --project: %s", strings.TrimSpace(out))
	data, err := os.ReadFile(filepath.Join(h.project, ".codex", "hooks.json"))
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	t.Logf("%s:\n%s", filepath.Join(h.project, ".codex", "hooks.json"), clip(string(data), 600))
}

// codexConfig is the user's Codex config the harness starts from: the
// fake model provider, nothing that could reach OpenAI.
//
// base_url is a placeholder here: each run points it at its own fake
// (-c model_providers.fake.base_url=…). Retries are off so that a
// refused request fails the run at once rather than after backoff.
const codexConfig = `# hermes-hooks e2e: a fake model, nothing else.
model = "gpt-e2e"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "e2e fake Responses API"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "E2E_FAKE_OPENAI_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
`

// writeCodexConfig writes codexConfig as the user's config.toml.
func (h *codexHarness) writeCodexConfig(t *testing.T) {
	t.Helper()
	mustWrite(t, filepath.Join(h.codexHome, "config.toml"), codexConfig, 0o644)
}

// trustProject marks the project trusted, as Codex's own onboarding does
// when its user trusts a directory: only then does Codex read the
// project's .codex/ layer (and so its hooks.json). Written through
// `codex app-server`'s config/batchWrite, Codex's own config writer.
func (h *codexHarness) trustProject(t *testing.T) {
	t.Helper()
	rpc := h.startAppServer(t)
	defer rpc.close(t)
	rpc.call(t, "config/batchWrite", map[string]any{"edits": []any{map[string]any{
		"keyPath": "projects", "mergeStrategy": "upsert",
		"value": map[string]any{h.project: map[string]any{"trust_level": "trusted"}},
	}}}, nil)
}

// listHooks is app-server's hooks/list for the project: the hooks
// hermes-hooks installed, with their key, hash and trust status. It
// fails the test when there are none: Codex does not see the install.
func (h *codexHarness) listHooks(t *testing.T) []codexHook {
	t.Helper()
	rpc := h.startAppServer(t)
	defer rpc.close(t)
	return h.ourHooks(t, rpc)
}

func (h *codexHarness) ourHooks(t *testing.T, rpc *appServer) []codexHook {
	t.Helper()
	var res struct {
		Data []struct {
			Hooks []codexHook `json:"hooks"`
		} `json:"data"`
	}
	rpc.call(t, "hooks/list", map[string]any{"cwds": []string{h.project}}, &res)
	var hooks []codexHook
	for _, d := range res.Data {
		for _, hk := range d.Hooks {
			// install writes `… exec hermes-hooks hook codex EVENT …`,
			// or for the user `… exec '/…/hermes-hooks' hook codex …`.
			if strings.Contains(hk.Command, "hermes-hooks hook codex ") || strings.Contains(hk.Command, "hermes-hooks' hook codex ") {
				hooks = append(hooks, hk)
			}
		}
	}
	if len(hooks) == 0 {
		t.Fatalf("Codex's hooks/list does not show the hooks hermes-hooks installed (for %s)", h.project)
	}
	return hooks
}

// trustHooks trusts each hook hermes-hooks installed, as a person does
// in Codex's /hooks: Codex stores the hash of the hook's definition under
// hooks.state in config.toml and runs the hook while the hash matches.
// hooks/list reports each hook's key and current hash (Codex computes
// it), config/batchWrite stores them.
func (h *codexHarness) trustHooks(t *testing.T) {
	t.Helper()
	rpc := h.startAppServer(t)
	defer rpc.close(t)
	trusted := map[string]any{}
	var events []string
	for _, hk := range h.ourHooks(t, rpc) {
		trusted[hk.Key] = map[string]any{"trusted_hash": hk.CurrentHash}
		events = append(events, hk.EventName)
	}
	rpc.call(t, "config/batchWrite", map[string]any{"edits": []any{map[string]any{
		"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": trusted,
	}}}, nil)
	for _, hk := range h.ourHooks(t, rpc) {
		if hk.TrustStatus != "trusted" {
			t.Fatalf("after trusting, Codex lists %s as %q", hk.Key, hk.TrustStatus)
		}
	}
	t.Logf("trusted the %d hooks hermes-hooks installed, through codex app-server: %s", len(trusted), strings.Join(events, " "))
}

// codexHook is one entry of app-server's hooks/list.
type codexHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	Source      string `json:"source"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// appServer is a `codex app-server` speaking JSON-RPC (one JSON object a
// line) on its stdin and stdout.
type appServer struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr *bytes.Buffer
	nextID int
}

func (h *codexHarness) startAppServer(t *testing.T) *appServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	cmd := exec.CommandContext(ctx, h.codex, "app-server")
	cmd.Dir = h.project
	cmd.Env = h.codexEnv(nil)
	ownGroup(cmd)
	cmd.Cancel = func() error { return signalGroup(cmd, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &appServer{cmd: cmd, cancel: cancel, in: in, stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("codex app-server: %v", err)
	}
	s.out = bufio.NewScanner(out)
	s.out.Buffer(make([]byte, 1<<20), 16<<20)
	s.call(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "hermes-hooks-e2e", "version": "0"}}, nil)
	s.notify(t, "initialized")
	return s
}

// call sends a request and decodes its result into res (nil: ignored),
// skipping the notifications the server sends meanwhile.
func (s *appServer) call(t *testing.T, method string, params, res any) {
	t.Helper()
	s.nextID++
	id := s.nextID
	s.send(t, map[string]any{"id": id, "method": method, "params": params})
	for s.out.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(s.out.Bytes(), &msg); err != nil {
			t.Fatalf("codex app-server wrote a line that is not JSON: %v\n%s", err, clip(s.out.Text(), 2000))
		}
		if msg.ID == nil || *msg.ID != id || msg.Method != "" {
			continue // a notification (or a request of the server's own)
		}
		if len(msg.Error) > 0 && string(msg.Error) != "null" {
			t.Fatalf("codex app-server %s: %s", method, msg.Error)
		}
		if res != nil {
			if err := json.Unmarshal(msg.Result, res); err != nil {
				t.Fatalf("codex app-server %s: %v\n%s", method, err, clip(string(msg.Result), 2000))
			}
		}
		return
	}
	t.Fatalf("codex app-server closed its output before answering %s (%v); stderr:\n%s", method, s.out.Err(), clip(s.stderr.String(), 4000))
}

func (s *appServer) notify(t *testing.T, method string) {
	t.Helper()
	s.send(t, map[string]any{"method": method})
}

func (s *appServer) send(t *testing.T, msg map[string]any) {
	t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		t.Fatalf("codex app-server: %v; stderr:\n%s", err, clip(s.stderr.String(), 4000))
	}
}

// close ends the server: it exits when its input ends.
func (s *appServer) close(t *testing.T) {
	t.Helper()
	defer s.cancel()
	s.in.Close()
	for s.out.Scan() { // drain, so that it never blocks writing
	}
	if err := s.cmd.Wait(); err != nil {
		t.Logf("codex app-server exited: %v", err)
	}
}

// codexEnv is Codex's environment: a throwaway HOME and CODEX_HOME, the
// dummy key of the fake provider, and every other connection sent to the
// fake's refusing proxy (fake nil: no proxy is needed, nothing is asked
// of a model).
func (h *codexHarness) codexEnv(fake *fakeServer) []string {
	env := append(cleanEnv(),
		"HOME="+h.home,
		"CODEX_HOME="+h.codexHome,
		"HERMES_HOME="+h.hermesHome,
		"E2E_FAKE_OPENAI_KEY=e2e-dummy-key",
	)
	if fake != nil {
		env = append(env, "HTTPS_PROXY="+fake.URL(), "HTTP_PROXY="+fake.URL(), "NO_PROXY=127.0.0.1,localhost")
	}
	return env
}

// run runs `codex exec` in the project against fake; Codex writes its
// final agent message into the harness's logs (--output-last-message).
func (h *codexHarness) run(t *testing.T, fake *fakeServer) *agentRun {
	t.Helper()
	lastFile := filepath.Join(h.logs, fmt.Sprintf("codex-last-%d.txt", h.runs+1))
	res := h.runAgent(t, fake, invocation{
		who: "Codex", what: "codex exec", env: h.codexEnv(fake), bin: h.codex,
		args: slices.Concat([]string{"exec",
			"-c", "model_providers.fake.base_url=" + tomlString(fake.URL()+"/v1"),
			"--skip-git-repo-check",
			"--json",
			"--output-last-message", lastFile},
			h.execFlags, []string{fake.script.Prompt}),
		dump: func(t *testing.T, r *agentRun) {
			// Codex's JSONL events include the hook runs.
			t.Logf("codex exec error: %v\nstdout (JSONL events):\n%s\nstderr:\n%s", r.err, clip(r.stdout, 20000), clip(r.stderr, 8000))
			dumpRequests(t, fake, "input", "input", 4)
			logHookPayloads(t, h.project)
		},
	})
	if data, err := os.ReadFile(lastFile); err == nil {
		res.last = strings.TrimSpace(string(data))
	}
	return res
}

// requireSuccess stops the test unless Codex exited 0 with the fake
// model's final "done".
func (h *codexHarness) requireSuccess(t *testing.T, r *agentRun) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("codex exec failed: %v", r.err)
	}
	if r.last != "done" {
		t.Fatalf("codex exec's last message is %q; want the fake model's final %q", r.last, "done")
	}
}

// outputText is the scripted shell call's output as the model read it,
// for messages.
func (h *codexHarness) outputText(t *testing.T, fake *fakeServer) string {
	t.Helper()
	if out := h.toolResult(t, fake); out.found {
		return out.text
	}
	return "(no request carried it)"
}

// tomlString quotes s as a TOML basic string (for -c key=value).
func tomlString(s string) string {
	b, _ := json.Marshal(s) // a JSON string of printable ASCII is a TOML string
	return string(b)
}
