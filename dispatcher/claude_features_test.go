package dispatcher

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// settingsDispatcher loads a Claude settings file and runs every hook.
func settingsDispatcher(t *testing.T, settings string, opts Options) *Dispatcher {
	t.Helper()
	entries, _, err := parseClaudeSettings([]byte(settings), filepath.Join(t.TempDir(), "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &hookconfig.Config{Entries: entries, Tools: protocol.DefaultTools()}

	if opts.Gate == nil {
		opts.Gate = AllowAll
	}
	d, err := New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Exec form (args): the program runs with exactly those arguments, no
// shell; ${CLAUDE_PROJECT_DIR} is substituted (issue 13, item 6).
func TestClaudeExecFormArgs(t *testing.T) {
	dir := t.TempDir()
	body := `printf '{"decision":"block","reason":"%s|%s|%s"}' "$1" "$2" "$3"`
	if runtime.GOOS == "windows" {
		// CLAUDE_PROJECT_DIR's backslashes, quoted for JSON
		// (hookscript_test.go).
		body = `printf '{"decision":"block","reason":%s}' "$(jsonstr "$1|$2|$3")"`
	}
	s := script(t, dir, "args.sh", body)
	d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"`+s+`",
	  "args":["a b", "$HOME", "${CLAUDE_PROJECT_DIR}/x"]}]}]}}`, Options{Cwd: dir})
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "cwd": dir})
	if o.Message != "a b|$HOME|"+dir+"/x" {
		t.Fatalf("message %q (%+v)", o.Message, o.Hooks)
	}
	if got := d.Config().Entries[0].Command; got != s+" 'a b' '$HOME' '${CLAUDE_PROJECT_DIR}/x'" {
		t.Fatalf("consent key %q", got)
	}
}

// shell: "bash" runs a shell-form command with bash.
func TestClaudeShellBash(t *testing.T) {
	d := settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","shell":"bash",
	  "command":"echo \"${BASH_VERSION:+bash}\""}]}]}}`, Options{})
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": "hi"}); o.Context != "bash" {
		t.Fatalf("context %q (%+v)", o.Context, o.Hooks)
	}
}

// An http handler: the payload is POSTed; a 2xx body is read as a Claude
// reply; headers interpolate only allowedEnvVars; a non-2xx status is a
// non-blocking error; a refused connection with onFailure: block blocks.
func TestClaudeHTTPHook(t *testing.T) {
	var mu sync.Mutex
	var got struct {
		body, auth, leak string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got.body, got.auth, got.leak = string(b), r.Header.Get("Authorization"), r.Header.Get("X-Leak")
		mu.Unlock()
		if strings.Contains(string(b), "fail") {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		w.Write([]byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"remote says no"}}`))
	}))
	defer srv.Close()
	env := append(os.Environ(), "HOOK_TOKEN=t0k", "SECRET=s3cret")
	d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"`+srv.URL+`/hook",
	  "headers":{"Authorization":"Bearer $HOOK_TOKEN","X-Leak":"${SECRET}"},"allowedEnvVars":["HOOK_TOKEN"]}]}]}}`, Options{Env: env})
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}})
	if o.Decision != protocol.DecisionBlock || o.Message != "remote says no" {
		t.Fatalf("outcome %+v", o)
	}
	mu.Lock()
	if got.auth != "Bearer t0k" || got.leak != "" || !strings.Contains(got.body, `"tool_name":"Bash"`) {
		t.Fatalf("request: %+v", got)
	}
	mu.Unlock()
	o = dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "fail"}})
	if o.Decision != protocol.DecisionNone || !strings.Contains(o.Hooks[0].Note, "non-blocking status code 1") {
		t.Fatalf("non-2xx: %+v", o.Hooks[0])
	}
	srv.Close()
	d = settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"`+srv.URL+`","onFailure":"block"}]}]}}`, Options{})
	if o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"}); !o.Blocked() || !strings.Contains(o.Message, "failed closed: http hook") {
		t.Fatalf("refused connection with onFailure: block: %+v", o)
	}
}

// An http hook is posted over net/http (internal/hookhttp): a
// fail_closed one that cannot reach its URL blocks with the reason, never a
// guard skipped in silence.
func TestClaudeHTTPHookDefaultPoster(t *testing.T) {
	d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"http://127.0.0.1:1/x","onFailure":"block"}]}]}}`, Options{})
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"})
	if !o.Blocked() || !strings.Contains(strings.ToLower(o.Message), "connection refused") { // Windows: "Connection refused."
		t.Fatalf("fail_closed http hook, nothing listening: %+v", o)
	}
}

// allowedHttpHookUrls restricts which URLs http handlers may target.
func TestClaudeHTTPHookURLAllowlist(t *testing.T) {
	entries, warnings, err := parseClaudeSettings([]byte(`{"allowedHttpHookUrls":["https://hooks.example.com/*"],
	  "hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"https://hooks.example.com/a"},{"type":"http","url":"https://evil.example/x"}]}]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Text() != "https://hooks.example.com/a" || !strings.Contains(warningsOf(warnings), "not in allowedHttpHookUrls") {
		t.Fatalf("entries %v warnings %v", entries, warnings)
	}
}

// A prompt, agent or mcp_tool handler cannot run here: on PreToolUse it
// blocks the call (never a silently skipped guard); elsewhere it is skipped
// and reported.
func TestClaudeUnsupportedHandlers(t *testing.T) {
	d := settingsDispatcher(t, `{"hooks":{
	  "PreToolUse":[{"hooks":[{"type":"prompt","prompt":"Is this command safe? $ARGUMENTS"}]}],
	  "PostToolUse":[{"hooks":[{"type":"agent","prompt":"review"}]}]}}`, Options{})
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"})
	if !o.Blocked() || !strings.Contains(o.Message, "cannot run outside Claude Code (a prompt handler: it needs a model)") ||
		!strings.HasSuffix(o.Message, "so this tool call is blocked rather than let an unchecked guard through; remove or replace that handler to allow it") {
		t.Fatalf("PreToolUse: %+v", o)
	}
	o = dispatch(t, d, "post_tool_call", map[string]any{"tool_name": "terminal"})
	if o.Blocked() || o.Hooks[0].Ran || !strings.Contains(o.Hooks[0].Skipped, "cannot run here") {
		t.Fatalf("PostToolUse: %+v", o)
	}
}

func warningsOf(ws []hookconfig.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

// CLAUDE_ENV_FILE on SessionStart: the variables the hook exports reach the
// host in the outcome's env, and the file is removed (issue 13, item 6).
func TestClaudeEnvFileOnSessionStart(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen")
	s := script(t, dir, "env.sh", `echo "$CLAUDE_ENV_FILE" > `+seen+`; printf 'export NODE_ENV=production\nexport GREETING="hello world"\n' >> "$CLAUDE_ENV_FILE"`)
	d := settingsDispatcher(t, `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"`+s+`"}]}]}}`, Options{})
	o := dispatch(t, d, "on_session_start", map[string]any{"session_id": "s1"})
	if o.Env["NODE_ENV"] != "production" || o.Env["GREETING"] != "hello world" || len(o.Env) != 2 {
		t.Fatalf("env %v (%+v)", o.Env, o.Hooks)
	}
	if b := protocol.AppendOutcome(nil, &o, pyjson.Compact); !strings.Contains(string(b), `"env":{"GREETING":"hello world","NODE_ENV":"production"}`) {
		t.Fatalf("outcome JSON %s", b)
	}
	path, _ := os.ReadFile(seen)
	if _, err := os.Stat(strings.TrimSpace(string(path))); err == nil {
		t.Fatal("CLAUDE_ENV_FILE was left behind")
	}
	// Other events get none.
	d = settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo \"[${CLAUDE_ENV_FILE}]\""}]}]}}`, Options{})
	if o := dispatch(t, d, "pre_llm_call", map[string]any{}); o.Context != "[]" {
		t.Fatalf("UserPromptSubmit context %q", o.Context)
	}
}

// async hooks run in the background: the event does not wait for them, and
// their context (for asyncRewake, an exit 2's stderr) comes with the
// session's next dispatch (issue 13, item 6).
func TestClaudeAsyncHooks(t *testing.T) {
	dir := t.TempDir()
	gate := filepath.Join(dir, "gate")
	// The hook waits for the test to open the gate: proof that the event did
	// not wait for it.
	s := script(t, dir, "async.sh", `while [ ! -e `+gate+` ]; do sleep 0.01; done; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint found 3 problems"}}'`)
	w := script(t, dir, "wake.sh", `echo "tests failed: 2" >&2; exit 2`)
	d := settingsDispatcher(t, `{"hooks":{"PostToolUse":[{"hooks":[
	  {"type":"command","command":"`+s+`","async":true},
	  {"type":"command","command":"`+w+`","asyncRewake":true}]}]}}`, Options{Sessions: sessions.NewMemory()})
	defer d.Close()
	o := dispatch(t, d, "post_tool_call", map[string]any{"session_id": "S", "tool_name": "terminal"})
	if o.Context != "" || len(o.Hooks) != 2 || !strings.HasPrefix(o.Hooks[0].Skipped, "async: running in the background") {
		t.Fatalf("the event must not wait for async hooks: %+v", o)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d.Wait()
	o = dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S", "user_message": "next"})
	if !strings.Contains(o.Context, "lint found 3 problems") || !strings.Contains(o.Context, "tests failed: 2") {
		t.Fatalf("the async replies did not come with the next dispatch: %+v", o)
	}
	if !strings.Contains(o.Hooks[0].Note, "async hook fired on an earlier PostToolUse") {
		t.Fatalf("note %q", o.Hooks[0].Note)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S"}); o.Context != "" {
		t.Fatalf("delivered twice: %+v", o)
	}
}

// once: a hook that runs once per session (issue 13, item 6), a Claude
// handler of the Hermes config; in a Claude Code settings file, where
// Claude Code ignores once (it honours it in a skill's frontmatter only),
// the hook runs every time.
func TestClaudeOnce(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "once.sh", `echo "welcome"`)
	fromSettings := settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"`+s+`","once":true}]}]}}`, Options{Sessions: sessions.NewMemory()})
	for i := range 2 {
		if o := dispatch(t, fromSettings, "pre_llm_call", map[string]any{"session_id": "A"}); o.Context != "welcome" {
			t.Fatalf("settings, prompt %d: %+v", i+1, o)
		}
	}
	d := dispatcherWith(t, "hooks:\n  UserPromptSubmit:\n    - hooks:\n        - {type: command, command: "+s+", once: true}\n", Options{Sessions: sessions.NewMemory()})
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "A"}); o.Context != "welcome" {
		t.Fatalf("first: %+v", o)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "A"}); o.Context != "" || o.Hooks[0].Skipped != "once: it already ran in this session" {
		t.Fatalf("second: %+v", o)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "B"}); o.Context != "welcome" {
		t.Fatalf("another session: %+v", o)
	}
}

// "if" conditions filter which tool calls run a handler (issue 13, item 2):
// the rm guard of Claude Code's own documentation, Bash(*rm *), fires for
// rm notes.txt and for a compound command that contains an rm, not for ls;
// a rule that cannot be evaluated blocks PreToolUse instead of being
// skipped; on events that are not tool events the handler never runs.
func TestClaudeIfConditions(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	guard := script(t, dir, "guard.sh", `echo x >> `+ran+`; echo "no rm here" >&2; exit 2`)
	d := settingsDispatcher(t, `{"hooks":{
	  "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+guard+`","if":"Bash(*rm *)"}]}],
	  "UserPromptSubmit":[{"hooks":[{"type":"command","command":"`+guard+`","if":"Bash(*)"}]}]}}`, Options{Cwd: dir})
	fire := func(cmd string) protocol.Outcome {
		return dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": cmd}})
	}
	if o := fire("rm notes.txt"); !o.Blocked() || o.Message != "no rm here" {
		t.Fatalf("rm notes.txt: %+v", o)
	}
	if o := fire("ls -la && rm -f build.log"); !o.Blocked() {
		t.Fatalf("a compound command with an rm: %+v", o)
	}
	if o := fire("ls -la"); o.Blocked() || len(o.Hooks) != 0 {
		t.Fatalf("ls must not run the guard: %+v", o)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": "hi"}); len(o.Hooks) != 0 {
		t.Fatalf("if on a non-tool event: the handler never runs: %+v", o)
	}
	b := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"`+guard+`","if":"Bash(unclosed"}]}]}}`, Options{Cwd: dir})
	o := dispatch(t, b, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}})
	if !o.Blocked() || !strings.Contains(o.Message, "cannot be evaluated") {
		t.Fatalf("an unevaluable if must block PreToolUse: %+v", o)
	}
}

// The if rules of a firing are analysed within a bound (ifBound): a
// hostile command held a dispatch in that analysis for 47 s, past the
// agent's wait, which lost the call's other guards with it. Past the bound
// a rule lets its handler run, as one whose command cannot be read does:
// the guard decides.
func TestClaudeIfPastItsBoundRuns(t *testing.T) {
	dir := t.TempDir()
	guard := script(t, dir, "guard.sh", `echo "checked" >&2; exit 2`)
	d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+guard+`","if":"Bash(git push:*)"}]}]}}`, Options{Cwd: dir})
	fire := func() protocol.Outcome {
		return dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls -la"}})
	}
	if o := fire(); o.Blocked() || len(o.Hooks) != 0 {
		t.Fatalf("within the bound, ls is not git push: %+v", o)
	}
	defer func(b time.Duration) { ifBound = b }(ifBound)
	ifBound = 0
	if o := fire(); !o.Blocked() || o.Message != "checked" {
		t.Fatalf("past the bound, the handler must run: %+v", o)
	}
}
