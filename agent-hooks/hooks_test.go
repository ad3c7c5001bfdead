package agenthooks_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// Every script is exercised the way an agent uses it: through the real
// hermes-hooks binary (`dispatch EVENT`, JSON in, outcome out), with a
// config that wires the script by its repository-relative path, a throwaway
// HERMES_HOME, and the repository root as working directory.

var (
	binary   string // the hermes-hooks built by TestMain
	repoRoot string // absolute path of the repository root
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if _, err := exec.LookPath("jq"); err != nil {
		fmt.Fprintln(os.Stderr, "agent-hooks tests: jq is not on PATH; every example script needs it (apt-get install jq)")
		return 1
	}
	dir, err := os.MkdirTemp("", "agent-hooks-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if binary, err = testbin.Build(dir, ".."); err != nil {
		fmt.Fprintln(os.Stderr, "agent-hooks tests: building hermes-hooks:", err)
		return 1
	}
	if repoRoot, err = filepath.Abs(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// outcome is the part of dispatch's output the tests look at.
type outcome struct {
	Event        string   `json:"event"`
	Decision     string   `json:"decision"`
	Message      string   `json:"message"`
	Context      string   `json:"context"`
	Result       *string  `json:"result"`
	InjectSystem string   `json:"inject_system"`
	Hooks        []report `json:"hooks"`
}

type report struct {
	Command      string `json:"command"`
	Dialect      string `json:"dialect"`
	Ran          bool   `json:"ran"`
	Skipped      string `json:"skipped"`
	ExitCode     *int   `json:"exit_code"`
	TimedOut     bool   `json:"timed_out"`
	Error        string `json:"error"`
	Note         string `json:"note"`
	Contribution *struct {
		Decision string `json:"decision"`
		Message  string `json:"message"`
		Context  string `json:"context"`
	} `json:"contribution"`
}

// hookEnv is one throwaway installation: a config file, a HERMES_HOME and a
// HOME of its own, and extra environment for the hooks.
type hookEnv struct {
	config string
	home   string // HERMES_HOME
	user   string // HOME
	env    []string
}

// newHookEnv writes a config holding the given hooks: block.
func newHookEnv(t *testing.T, hooksYAML string) *hookEnv {
	t.Helper()
	dir := t.TempDir()
	e := &hookEnv{config: filepath.Join(dir, "config.yaml"), home: filepath.Join(dir, "hermes"), user: filepath.Join(dir, "user")}
	for _, d := range []string{e.home, e.user} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(e.config, []byte("hooks:\n"+hooksYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// environ is the process environment minus everything that would change
// what the dispatcher or the scripts do, plus this env's own settings.
func (e *hookEnv) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "HERMES_"), strings.HasPrefix(name, "GIT_"), name == "HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HERMES_HOME="+e.home, "HOME="+e.user,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	return append(env, e.env...)
}

// exec runs hermes-hooks with args from the repository root.
func (e *hookEnv) exec(stdin []byte, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(binary, args...)
	cmd.Dir = repoRoot
	cmd.Env = e.environ()
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return "", "", -1, fmt.Errorf("running hermes-hooks %v: %w", args, err)
		}
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode(), nil
}

func (e *hookEnv) run(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	stdout, stderr, code, err := e.exec(stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return stdout, stderr, code
}

// fire sends fields to `hermes-hooks --accept-hooks dispatch EVENT` and
// decodes the outcome. With clean, it also requires that a hook matched and
// that every matching hook ran and exited 0: an "allowed" verdict from a
// hook that never ran would prove nothing.
func (e *hookEnv) fire(event string, fields any, clean bool) (outcome, error) {
	var o outcome
	in, err := json.Marshal(fields)
	if err != nil {
		return o, err
	}
	stdout, stderr, code, err := e.exec(in, "--config", e.config, "--accept-hooks", "dispatch", event)
	if err != nil {
		return o, err
	}
	if code != 0 {
		return o, fmt.Errorf("dispatch %s exited %d\nstdout: %s\nstderr: %s", event, code, stdout, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		return o, fmt.Errorf("dispatch %s printed %q: %w", event, stdout, err)
	}
	if !clean {
		return o, nil
	}
	if len(o.Hooks) == 0 {
		return o, fmt.Errorf("dispatch %s: no hook matched\nstdout: %s\nstderr: %s", event, stdout, stderr)
	}
	for _, h := range o.Hooks {
		if !h.Ran || h.TimedOut || h.Error != "" || h.ExitCode == nil || *h.ExitCode != 0 {
			return o, fmt.Errorf("dispatch %s: hook %s did not run cleanly: %+v\nstderr: %s", event, h.Command, h, stderr)
		}
	}
	return o, nil
}

// dispatch is fire with clean set, failing the test on any error.
func (e *hookEnv) dispatch(t *testing.T, event string, fields any) outcome {
	t.Helper()
	o, err := e.fire(event, fields, true)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// hook is one entry of a hooks: block.
func hook(event, script, matcher string) string {
	y := "  " + event + ":\n    - command: agent-hooks/" + script + "\n      timeout: 60\n"
	if matcher != "" {
		y += "      matcher: '" + matcher + "'\n"
	}
	return y
}

func wantDecision(t *testing.T, o outcome, decision string) {
	t.Helper()
	if o.Decision != decision {
		t.Fatalf("decision = %q (message %q), want %q", o.Decision, o.Message, decision)
	}
}

func wantNoOpinion(t *testing.T, o outcome) {
	t.Helper()
	if o.Decision != "none" || o.Message != "" || o.Context != "" {
		t.Fatalf("outcome = decision %q, message %q, context %q; want no opinion", o.Decision, o.Message, o.Context)
	}
	for _, h := range o.Hooks {
		if h.Contribution != nil {
			t.Fatalf("hook %s contributed %+v, want nothing", h.Command, *h.Contribution)
		}
	}
}

func terminal(command string) map[string]any {
	return map[string]any{"tool_name": "terminal", "args": map[string]any{"command": command}, "session_id": "s1"}
}

func TestBlockRmRfBlocksDangerousForms(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("pre_tool_call", "block-rm-rf.sh", "terminal"))
	cases := []struct{ command, refused, target string }{
		{"rm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{"rm -fr /", "rm -fr /", "/ (the whole filesystem)"},
		{"rm -r -f /", "rm -r -f /", "/ (the whole filesystem)"},
		{"rm -Rf /", "rm -Rf /", "/ (the whole filesystem)"},
		{"rm -rf /*", "rm -rf /*", "/* (the whole filesystem)"},
		{"rm -rf //", "rm -rf //", "// (the whole filesystem)"},
		{"rm / -rf", "rm / -rf", "/ (the whole filesystem)"},
		{"rm -rf ~", "rm -rf ~", "~ (your home directory)"},
		{"rm -rf ~/", "rm -rf ~/", "~/ (your home directory)"},
		{"rm -rf $HOME", "rm -rf $HOME", "$HOME (your home directory)"},
		{`rm -rf "$HOME"/`, "rm -rf $HOME/", "$HOME/ (your home directory)"},
		{"rm -rf ${HOME}", "rm -rf ${HOME}", "${HOME} (your home directory)"},
		{"rm --recursive --force /", "rm --recursive --force /", "/ (the whole filesystem)"},
		{"sudo rm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{"sudo -u root rm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{"rm -rf --no-preserve-root /", "rm -rf --no-preserve-root /", "/ (the whole filesystem)"},
		{"/bin/rm -rf /etc/", "/bin/rm -rf /etc/", "/etc/ (a system directory)"},
		{"rm -rf /tmp/../", "rm -rf /tmp/../", "/tmp/../ (the whole filesystem)"},
		{"cd /tmp; rm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{"make clean && rm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{"false || rm -rf ~", "rm -rf ~", "~ (your home directory)"},
		{"yes | rm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{"ls\nrm -rf /", "rm -rf /", "/ (the whole filesystem)"},
		{`sh -c "rm -rf /"`, "rm -rf /", "/ (the whole filesystem)"},
		{"echo $(rm -rf /)", "rm -rf /", "/ (the whole filesystem)"},
	}
	for _, c := range cases {
		t.Run(c.command, func(t *testing.T) {
			t.Parallel()
			o := e.dispatch(t, "pre_tool_call", terminal(c.command))
			wantDecision(t, o, "block")
			want := fmt.Sprintf("block-rm-rf: refused %q: it recursively deletes %s. Delete a narrower path instead.", c.refused, c.target)
			if o.Message != want {
				t.Fatalf("message = %q\nwant      %q", o.Message, want)
			}
		})
	}
}

func TestBlockRmRfAllowsOrdinaryCommands(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("pre_tool_call", "block-rm-rf.sh", "terminal"))
	for _, command := range []string{
		"rm -rf ./build",
		"rm -rf /tmp/x",
		"rm -rf build dist node_modules",
		"ls -la /",
		"rm -f /tmp/x.lock",
		"rm /",                         // not recursive: rm refuses a directory anyway
		`git commit -m "rm -rf /"`,     // the text is an argument, not a command
		"echo 'rm -rf ~' >> notes.txt", // likewise
		"find . -name '*.o' -delete",
	} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			wantNoOpinion(t, e.dispatch(t, "pre_tool_call", terminal(command)))
		})
	}
}

func TestBlockRmRfIgnoresPayloadsWithoutACommand(t *testing.T) {
	t.Parallel()
	// No matcher, so the hook also sees tools without a command argument.
	e := newHookEnv(t, hook("pre_tool_call", "block-rm-rf.sh", ""))
	for _, fields := range []map[string]any{
		{"tool_name": "read_file", "args": map[string]any{"path": "/etc/passwd"}},
		{"tool_name": "terminal", "args": []any{"rm", "-rf", "/"}}, // not a mapping: tool_input is null
		{"tool_name": "terminal", "args": map[string]any{"command": 42}},
		{"tool_name": "terminal"},
	} {
		wantNoOpinion(t, e.dispatch(t, "pre_tool_call", fields))
	}
}

// writeFile creates path with content, making parent directories.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAutoFormat(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("gofmt not on PATH")
	}
	e := newHookEnv(t, hook("post_tool_call", "auto-format.sh", "write_file|patch"))
	const (
		messy     = "package demo\nfunc  Add( a,b int ) int {\nreturn a+b }\n"
		formatted = "package demo\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	)
	written := func(tool, cwd string, args map[string]any) map[string]any {
		return map[string]any{"tool_name": tool, "args": args, "cwd": cwd, "session_id": "s1",
			"result": `{"success": true}`, "status": "ok"}
	}

	t.Run("reformats a .go file given relative to cwd", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		file := filepath.Join(dir, "pkg", "add.go")
		writeFile(t, file, messy)
		o := e.dispatch(t, "post_tool_call", written("write_file", dir, map[string]any{"path": "pkg/add.go", "content": messy}))
		if want := "auto-format: gofmt reformatted " + file; o.Context != want {
			t.Fatalf("context = %q, want %q", o.Context, want)
		}
		if got := readFile(t, file); got != formatted {
			t.Fatalf("file after the hook:\n%s\nwant:\n%s", got, formatted)
		}
	})
	t.Run("patch with an absolute path", func(t *testing.T) {
		t.Parallel()
		file := filepath.Join(t.TempDir(), "add.go")
		writeFile(t, file, messy)
		o := e.dispatch(t, "post_tool_call", written("patch", "/", map[string]any{"path": file, "old_string": "a", "new_string": "b"}))
		if want := "auto-format: gofmt reformatted " + file; o.Context != want {
			t.Fatalf("context = %q, want %q", o.Context, want)
		}
		if got := readFile(t, file); got != formatted {
			t.Fatalf("file after the hook:\n%s\nwant:\n%s", got, formatted)
		}
	})
	t.Run("every file of a V4A patch", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
		writeFile(t, a, messy)
		writeFile(t, b, messy)
		patch := "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: b.go\n+package demo\n*** End Patch\n"
		o := e.dispatch(t, "post_tool_call", written("patch", dir, map[string]any{"mode": "patch", "patch": patch}))
		if want := "auto-format: gofmt reformatted " + a + "\nauto-format: gofmt reformatted " + b; o.Context != want {
			t.Fatalf("context = %q, want %q", o.Context, want)
		}
	})
	t.Run("silent on an already formatted file", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		file := filepath.Join(dir, "add.go")
		writeFile(t, file, formatted)
		wantNoOpinion(t, e.dispatch(t, "post_tool_call", written("write_file", dir, map[string]any{"path": "add.go"})))
		if got := readFile(t, file); got != formatted {
			t.Fatalf("formatted file changed:\n%s", got)
		}
	})
	t.Run("silent on a .txt file", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		file := filepath.Join(dir, "notes.txt")
		writeFile(t, file, messy)
		wantNoOpinion(t, e.dispatch(t, "post_tool_call", written("write_file", dir, map[string]any{"path": "notes.txt"})))
		if got := readFile(t, file); got != messy {
			t.Fatalf(".txt file changed:\n%s", got)
		}
	})
	t.Run("silent on a missing file", func(t *testing.T) {
		t.Parallel()
		wantNoOpinion(t, e.dispatch(t, "post_tool_call", written("write_file", t.TempDir(), map[string]any{"path": "gone.go"})))
	})
	t.Run("silent on Go that does not parse, file left alone", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		file := filepath.Join(dir, "broken.go")
		const broken = "package demo\nfunc {\n"
		writeFile(t, file, broken)
		wantNoOpinion(t, e.dispatch(t, "post_tool_call", written("write_file", dir, map[string]any{"path": "broken.go"})))
		if got := readFile(t, file); got != broken {
			t.Fatalf("broken file changed:\n%s", got)
		}
	})
}

// git runs git in dir with a fixed identity and no user or system config.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestInjectCwdContext(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	e := newHookEnv(t, hook("pre_llm_call", "inject-cwd-context.sh", ""))
	llmCall := func(cwd string) map[string]any {
		return map[string]any{"session_id": "s1", "cwd": cwd, "user_message": "what next?", "is_first_turn": false}
	}
	// git must not find a repository above the temp dirs (were TMPDIR inside
	// a work tree, "not a repository" would not hold).
	e.env = []string{"GIT_CEILING_DIRECTORIES=" + os.TempDir()}

	t.Run("uncommitted changes", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		writeFile(t, filepath.Join(dir, "tracked.txt"), "v1\n")
		git(t, dir, "add", "tracked.txt")
		git(t, dir, "commit", "-q", "-m", "init")
		writeFile(t, filepath.Join(dir, "tracked.txt"), "v2\n")
		writeFile(t, filepath.Join(dir, "new.txt"), "new\n")
		o := e.dispatch(t, "pre_llm_call", llmCall(dir))
		if want := "git status --porcelain in " + dir + ":\n M tracked.txt\n?? new.txt"; o.Context != want {
			t.Fatalf("context = %q, want %q", o.Context, want)
		}
	})
	t.Run("listing capped at 50 lines", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		for i := range 60 {
			writeFile(t, filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), "x\n")
		}
		o := e.dispatch(t, "pre_llm_call", llmCall(dir))
		lines := strings.Split(o.Context, "\n")
		if len(lines) != 52 || lines[1] != "?? f00.txt" || lines[50] != "?? f49.txt" || lines[51] != "… 10 more" {
			t.Fatalf("context has %d lines: first %q, last %q; want header, 50 entries, then \"… 10 more\"", len(lines), lines[:2], lines[len(lines)-2:])
		}
	})
	t.Run("clean repository", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		writeFile(t, filepath.Join(dir, "tracked.txt"), "v1\n")
		git(t, dir, "add", "tracked.txt")
		git(t, dir, "commit", "-q", "-m", "init")
		wantNoOpinion(t, e.dispatch(t, "pre_llm_call", llmCall(dir)))
	})
	t.Run("not a repository", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "file.txt"), "x\n")
		wantNoOpinion(t, e.dispatch(t, "pre_llm_call", llmCall(dir)))
	})
	t.Run("cwd that does not exist", func(t *testing.T) {
		t.Parallel()
		wantNoOpinion(t, e.dispatch(t, "pre_llm_call", llmCall(filepath.Join(t.TempDir(), "gone"))))
	})
}

// logLine is what log-orchestration.sh writes.
type logLine struct {
	TS             string `json:"ts"`
	SessionID      any    `json:"session_id"`
	ChildSessionID any    `json:"child_session_id"`
	ChildRole      any    `json:"child_role"`
	ChildStatus    any    `json:"child_status"`
	DurationMS     any    `json:"duration_ms"`
	Summary        any    `json:"summary"`
}

// readLog parses every line of the log strictly: each must be one JSON
// object with exactly the documented keys.
func readLog(t *testing.T, path string) []logLine {
	t.Helper()
	data := readFile(t, path)
	if !strings.HasSuffix(data, "\n") {
		t.Fatalf("log does not end with a newline: %q", data)
	}
	var lines []logLine
	for _, raw := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &keys); err != nil {
			t.Fatalf("log line is not a JSON object: %v\n%q", err, raw)
		}
		if len(keys) != 7 {
			t.Fatalf("log line has keys %v, want the 7 documented ones", keys)
		}
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.DisallowUnknownFields()
		var l logLine
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("log line %q: %v", raw, err)
		}
		lines = append(lines, l)
	}
	return lines
}

func subagentStop(parent, child, role, summary string, ms int) map[string]any {
	return map[string]any{
		"session_id": parent, "parent_turn_id": "t1", "child_session_id": child, "child_role": role,
		"child_summary": summary, "child_status": "completed", "duration_ms": ms,
		"tool_call_history": []any{map[string]any{"tool_name": "terminal", "status": "ok"}},
	}
}

func TestLogOrchestrationAppendsOneLinePerCall(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("subagent_stop", "log-orchestration.sh", ""))
	logPath := filepath.Join(t.TempDir(), "not", "yet", "there", "subagents.jsonl")
	e.env = []string{"HERMES_HOOKS_LOG=" + logPath}

	before := time.Now().UTC().Add(-time.Second).Truncate(time.Second)
	wantNoOpinion(t, e.dispatch(t, "subagent_stop", subagentStop("parent-1", "child-a", "researcher", "found 3 sources", 1500)))
	wantNoOpinion(t, e.dispatch(t, "subagent_stop", subagentStop("parent-1", "child-b", "writer", "draft\nwith \"quotes\" and ünïcode", 42)))
	after := time.Now().UTC().Add(time.Second)

	lines := readLog(t, logPath)
	if len(lines) != 2 {
		t.Fatalf("log has %d lines, want 2", len(lines))
	}
	want := []logLine{
		{SessionID: "parent-1", ChildSessionID: "child-a", ChildRole: "researcher", ChildStatus: "completed", DurationMS: 1500.0, Summary: "found 3 sources"},
		{SessionID: "parent-1", ChildSessionID: "child-b", ChildRole: "writer", ChildStatus: "completed", DurationMS: 42.0, Summary: "draft\nwith \"quotes\" and ünïcode"},
	}
	for i, l := range lines {
		ts, err := time.Parse("2006-01-02T15:04:05Z", l.TS)
		if err != nil || ts.Before(before) || ts.After(after) {
			t.Errorf("line %d: ts %q is not a UTC ISO-8601 time between %v and %v (%v)", i, l.TS, before, after, err)
		}
		l.TS = ""
		if fmt.Sprint(l) != fmt.Sprint(want[i]) {
			t.Errorf("line %d = %+v\nwant      %+v", i, l, want[i])
		}
	}
}

func TestLogOrchestrationMissingFieldsAndDefaultPath(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("subagent_stop", "log-orchestration.sh", ""))
	// No HERMES_HOOKS_LOG: the log goes under HERMES_HOME.
	wantNoOpinion(t, e.dispatch(t, "subagent_stop", map[string]any{"parent_session_id": "p"}))
	lines := readLog(t, filepath.Join(e.home, "logs", "subagents.jsonl"))
	if len(lines) != 1 {
		t.Fatalf("log has %d lines, want 1", len(lines))
	}
	l := lines[0]
	if l.SessionID != "p" || l.ChildSessionID != nil || l.ChildRole != nil || l.ChildStatus != nil || l.DurationMS != nil || l.Summary != nil {
		t.Fatalf("line = %+v; want session_id p (from parent_session_id) and null for the missing fields", l)
	}
}

func TestLogOrchestrationConcurrentAppendsStayWhole(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("subagent_stop", "log-orchestration.sh", ""))
	logPath := filepath.Join(t.TempDir(), "subagents.jsonl")
	e.env = []string{"HERMES_HOOKS_LOG=" + logPath}
	// Approve once up front so that the simultaneous dispatches do not all
	// write the allowlist. Goroutines rather than parallel subtests, which
	// -parallel would cap at GOMAXPROCS; the lines are long so that a split
	// write would show.
	e.dispatch(t, "subagent_stop", subagentStop("warmup", "c", "r", "s", 1))
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			summary := strings.Repeat(string(rune('a'+i)), 3000)
			_, err := e.fire("subagent_stop", subagentStop("parent", fmt.Sprint("child-", i), "r", summary, i), true)
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	lines := readLog(t, logPath)
	if len(lines) != n+1 {
		t.Fatalf("log has %d lines, want %d", len(lines), n+1)
	}
	seen := map[any]bool{}
	for _, l := range lines[1:] {
		s, _ := l.Summary.(string)
		if len(s) != 3000 || strings.Trim(s, s[:1]) != "" {
			t.Fatalf("line for %v has a mangled summary (%d bytes)", l.ChildSessionID, len(s))
		}
		seen[l.ChildSessionID] = true
	}
	if len(seen) != n {
		t.Fatalf("lines for %d distinct children, want %d", len(seen), n)
	}
}

func TestLogOrchestrationCapsHugeSummaries(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("subagent_stop", "log-orchestration.sh", ""))
	logPath := filepath.Join(t.TempDir(), "subagents.jsonl")
	e.env = []string{"HERMES_HOOKS_LOG=" + logPath}
	e.dispatch(t, "subagent_stop", subagentStop("p", "c", "r", strings.Repeat("é", 20000), 1))
	data := readFile(t, logPath)
	if len(data) > 4000 {
		t.Fatalf("log line is %d bytes, want at most 4000", len(data))
	}
	s, _ := readLog(t, logPath)[0].Summary.(string)
	if !strings.HasPrefix(s, "éé") || !strings.HasSuffix(s, "…") {
		t.Fatalf("summary = %.40q…, want a cut prefix of the original ending in …", s)
	}
}

func TestProtectPaths(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("pre_tool_call", "protect-paths.sh", "write_file|patch|terminal"))
	base := t.TempDir()
	project := filepath.Join(base, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) map[string]any {
		return map[string]any{"tool_name": tool, "args": args, "cwd": project, "session_id": "s1"}
	}
	blocked := func(path string) string {
		return "protect-paths: " + path + " is outside the allowed paths (" + project + "); set HERMES_PROTECT_ALLOWED to widen them"
	}
	v4a := func(headers ...string) map[string]any {
		return map[string]any{"mode": "patch", "patch": "*** Begin Patch\n" + strings.Join(headers, "\n@@\n+x\n") + "\n*** End Patch\n"}
	}
	cases := []struct {
		name    string
		tool    string
		args    map[string]any
		outside string // "" = allowed
	}{
		{"write_file relative inside", "write_file", map[string]any{"path": "src/main.go", "content": "x"}, ""},
		{"write_file absolute inside", "write_file", map[string]any{"path": project + "/a/b.txt"}, ""},
		{"write_file the root itself", "write_file", map[string]any{"path": project}, ""},
		{"write_file .. that stays inside", "write_file", map[string]any{"path": "a/../b.txt"}, ""},
		{"write_file absolute outside", "write_file", map[string]any{"path": "/etc/passwd"}, "/etc/passwd"},
		{"write_file .. escape", "write_file", map[string]any{"path": "../escape.txt"}, base + "/escape.txt"},
		{"write_file deep .. escape", "write_file", map[string]any{"path": "a/b/../../../escape.txt"}, base + "/escape.txt"},
		{"write_file sibling with a common prefix", "write_file", map[string]any{"path": project + "-other/x"}, project + "-other/x"},
		{"patch inside", "patch", map[string]any{"path": "main.go", "old_string": "a", "new_string": "b"}, ""},
		{"patch outside", "patch", map[string]any{"path": base + "/other/main.go", "old_string": "a", "new_string": "b"}, base + "/other/main.go"},
		{"V4A patch inside", "patch", v4a("*** Update File: a.go", "*** Add File: sub/b.go"), ""},
		{"V4A patch adding a file outside", "patch", v4a("*** Update File: a.go", "*** Add File: ../b.go"), base + "/b.go"},
		{"terminal redirect inside", "terminal", map[string]any{"command": "echo hi > out.txt"}, ""},
		{"terminal append inside", "terminal", map[string]any{"command": "echo hi >> logs/out.txt"}, ""},
		{"terminal to /dev/null", "terminal", map[string]any{"command": "make 2>/dev/null >/dev/null"}, ""},
		{"terminal fd copy", "terminal", map[string]any{"command": "make 2>&1 | grep error"}, ""},
		{"terminal reading outside", "terminal", map[string]any{"command": "grep root < /etc/passwd; cat /etc/hosts"}, ""},
		{"terminal redirect outside", "terminal", map[string]any{"command": "echo hi > /etc/motd"}, "/etc/motd"},
		{"terminal append outside", "terminal", map[string]any{"command": "echo hi >>/tmp/x.log"}, "/tmp/x.log"},
		{"terminal redirect .. escape", "terminal", map[string]any{"command": "echo hi > ../x"}, base + "/x"},
		{"terminal stderr outside", "terminal", map[string]any{"command": "make 2> /var/tmp/err"}, "/var/tmp/err"},
		{"terminal redirect after cd", "terminal", map[string]any{"command": "cd /tmp && echo hi > x"}, "/tmp/x"},
		{"terminal redirect inside sh -c", "terminal", map[string]any{"command": `sh -c "echo hi > /etc/x"`}, "/etc/x"},
		{"tee inside", "terminal", map[string]any{"command": "make | tee -a build.log"}, ""},
		{"tee outside", "terminal", map[string]any{"command": "make | tee build.log /tmp/build.log"}, "/tmp/build.log"},
		{"sudo tee outside", "terminal", map[string]any{"command": "echo x | sudo tee /etc/hosts >/dev/null"}, "/etc/hosts"},
		{"tee .. escape", "terminal", map[string]any{"command": "ls | tee sub/../../x"}, base + "/x"},
		{"quoted > is not a redirection", "terminal", map[string]any{"command": `echo "a > /etc/b"`}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := e.dispatch(t, "pre_tool_call", call(c.tool, c.args))
			if c.outside == "" {
				wantNoOpinion(t, o)
				return
			}
			wantDecision(t, o, "block")
			if want := blocked(c.outside); o.Message != want {
				t.Fatalf("message = %q\nwant      %q", o.Message, want)
			}
		})
	}
}

func TestProtectPathsAllowedFromEnvironment(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("pre_tool_call", "protect-paths.sh", ""))
	base := t.TempDir()
	project, shared := filepath.Join(base, "project"), filepath.Join(base, "shared")
	e.env = []string{"HERMES_PROTECT_ALLOWED=" + shared + ":/tmp/scratch"}
	call := func(tool string, args map[string]any) map[string]any {
		return map[string]any{"tool_name": tool, "args": args, "cwd": project, "session_id": "s1"}
	}
	wantNoOpinion(t, e.dispatch(t, "pre_tool_call", call("write_file", map[string]any{"path": shared + "/notes.md"})))
	wantNoOpinion(t, e.dispatch(t, "pre_tool_call", call("terminal", map[string]any{"command": "date > /tmp/scratch/now"})))
	// Without a matcher the hook sees every tool; reading is not writing.
	wantNoOpinion(t, e.dispatch(t, "pre_tool_call", call("read_file", map[string]any{"path": "/etc/passwd"})))
	// The list replaces the default: cwd itself is no longer allowed.
	o := e.dispatch(t, "pre_tool_call", call("write_file", map[string]any{"path": "main.go"}))
	wantDecision(t, o, "block")
	want := "protect-paths: " + project + "/main.go is outside the allowed paths (" + shared + ", /tmp/scratch); set HERMES_PROTECT_ALLOWED to widen them"
	if o.Message != want {
		t.Fatalf("message = %q\nwant      %q", o.Message, want)
	}
}

func TestClaudeBashGuard(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("PreToolUse", "claude-bash-guard.sh", "Bash"))
	cases := []struct {
		command, decision, message string
	}{
		{"rm -rf /", "block", `claude-bash-guard: refused "rm -rf /": it recursively deletes / (the whole filesystem). Delete a narrower path instead.`},
		{"cd /tmp && sudo rm -fr ~/", "block", `claude-bash-guard: refused "rm -fr ~/": it recursively deletes ~/ (your home directory). Delete a narrower path instead.`},
		{"git push --force origin main", "ask", `claude-bash-guard: "git push --force origin main" force-pushes, which can overwrite commits on the remote that exist nowhere else. Confirm that this is intended.`},
		{"git push -f", "ask", `claude-bash-guard: "git push -f" force-pushes, which can overwrite commits on the remote that exist nowhere else. Confirm that this is intended.`},
		{"git reset --hard HEAD~1", "ask", `claude-bash-guard: "git reset --hard HEAD~1" throws away uncommitted changes in the work tree for good. Confirm that this is intended.`},
		{"git reset --hard && rm -rf $HOME", "block", `claude-bash-guard: refused "rm -rf $HOME": it recursively deletes $HOME (your home directory). Delete a narrower path instead.`},
		{"git push origin main", "none", ""},
		{"git reset --soft HEAD~1", "none", ""},
		{"rm -rf ./build", "none", ""},
		{"ls -la", "none", ""},
	}
	// The host may be Hermes (pre_tool_call, tool "terminal") or speak
	// Claude's names (PreToolUse, tool "Bash"): the entry declared under
	// PreToolUse with matcher Bash must fire, in the Claude dialect, for both.
	firings := []struct{ event, tool string }{{"pre_tool_call", "terminal"}, {"PreToolUse", "Bash"}}
	for _, f := range firings {
		for _, c := range cases {
			t.Run(f.event+"/"+c.command, func(t *testing.T) {
				t.Parallel()
				fields := map[string]any{"tool_name": f.tool, "tool_input": map[string]any{"command": c.command}, "session_id": "s1"}
				o := e.dispatch(t, f.event, fields)
				if len(o.Hooks) != 1 || o.Hooks[0].Dialect != "claude" {
					t.Fatalf("hooks = %+v, want the one claude-dialect entry", o.Hooks)
				}
				if c.decision == "none" {
					wantNoOpinion(t, o)
					return
				}
				wantDecision(t, o, c.decision)
				if o.Message != c.message {
					t.Fatalf("message = %q\nwant      %q", o.Message, c.message)
				}
			})
		}
	}
}

// exampleEnv uses agent-hooks/config.yaml itself, named as the README does
// (relative to the repository root, the working directory of every run).
func exampleEnv(t *testing.T) *hookEnv {
	e := newHookEnv(t, "")
	e.config = "agent-hooks/config.yaml"
	// doctor smoke-runs log-orchestration.sh: keep its line out of any real log.
	e.env = []string{"HERMES_HOOKS_LOG=" + filepath.Join(t.TempDir(), "subagents.jsonl")}
	return e
}

func TestExampleConfigLoadsWithoutWarnings(t *testing.T) {
	t.Parallel()
	e := exampleEnv(t)
	stdout, stderr, code := e.run(t, nil, "--config", e.config, "list")
	if code != 0 || stderr != "" {
		t.Fatalf("list exited %d with stderr:\n%s", code, stderr)
	}
	for _, script := range []string{"block-rm-rf.sh", "protect-paths.sh", "auto-format.sh", "inject-cwd-context.sh", "log-orchestration.sh", "claude-bash-guard.sh"} {
		if !strings.Contains(stdout, "agent-hooks/"+script) {
			t.Errorf("list does not show %s:\n%s", script, stdout)
		}
	}
}

func TestExampleConfigDoctorHealthyAfterApprove(t *testing.T) {
	t.Parallel()
	e := exampleEnv(t)
	if stdout, stderr, code := e.run(t, nil, "--config", e.config, "doctor"); code != 1 {
		t.Fatalf("doctor before approval exited %d, want 1 (nothing approved)\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := e.run(t, nil, "--config", e.config, "approve", "--all"); code != 0 {
		t.Fatalf("approve --all exited %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code := e.run(t, nil, "--config", e.config, "doctor")
	if code != 0 || !strings.Contains(stdout, "All shell hooks look healthy.") {
		t.Fatalf("doctor exited %d\n%s%s", code, stdout, stderr)
	}
}

func TestExampleConfigBlocksRmRfEndToEnd(t *testing.T) {
	t.Parallel()
	e := exampleEnv(t)
	o := e.dispatch(t, "pre_tool_call", terminal("sudo rm -rf --no-preserve-root /"))
	wantDecision(t, o, "block")
	if !strings.HasPrefix(o.Message, `block-rm-rf: refused "rm -rf --no-preserve-root /"`) {
		t.Fatalf("message = %q, want block-rm-rf's (the first blocking hook in config order)", o.Message)
	}
	if len(o.Hooks) != 3 {
		t.Fatalf("%d hooks ran, want block-rm-rf, protect-paths and claude-bash-guard", len(o.Hooks))
	}
	wantNoOpinion(t, e.dispatch(t, "pre_tool_call", terminal("go test ./...")))
}

// Without jq every script must say so on stderr; the two guards then block:
// block-rm-rf refuses by itself (with the reason), protect-paths because
// the example config declares it fail_closed.
func TestScriptsExplainAMissingTool(t *testing.T) {
	t.Parallel()
	e := exampleEnv(t)
	e.env = append(e.env, "PATH="+t.TempDir()) // an empty directory: no jq, no git
	firings := []struct {
		args    []string
		scripts []string
	}{
		{[]string{"pre_tool_call", "--for-tool", "terminal"}, []string{"block-rm-rf.sh", "protect-paths.sh", "claude-bash-guard.sh"}},
		{[]string{"post_tool_call", "--for-tool", "write_file"}, []string{"auto-format.sh"}},
		{[]string{"pre_llm_call"}, []string{"inject-cwd-context.sh"}},
		{[]string{"subagent_stop"}, []string{"log-orchestration.sh"}},
	}
	for _, f := range firings {
		stdout, stderr, code := e.run(t, nil, append([]string{"--config", e.config, "test"}, f.args...)...)
		if code != 0 {
			t.Fatalf("test %v exited %d\n%s%s", f.args, code, stdout, stderr)
		}
		for _, s := range f.scripts {
			want := "stderr: " + s + ": jq is required"
			if s == "block-rm-rf.sh" {
				want = "stderr: " + s + ": jq is not installed"
			}
			if !strings.Contains(stdout, want) {
				t.Errorf("test %v does not show %q:\n%s", f.args, want, stdout)
			}
		}
	}
	o, err := e.fire("pre_tool_call", terminal("ls"), false)
	if err != nil {
		t.Fatal(err)
	}
	wantDecision(t, o, "block")
	if !strings.Contains(o.Message, "block-rm-rf: jq is not installed") {
		t.Fatalf("message = %q, want block-rm-rf refusing for want of jq", o.Message)
	}
}

func scripts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.sh")
	if err != nil || len(files) != 8 {
		t.Fatalf("found scripts %v (%v), want the 8 examples", files, err)
	}
	return files
}

func TestScriptsArePortableExecutables(t *testing.T) {
	t.Parallel()
	for _, f := range scripts(t) {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm()&0o111 != 0o111 {
			t.Errorf("%s has mode %v, want executable by everyone (chmod +x)", f, info.Mode().Perm())
		}
		if body := readFile(t, f); !strings.HasPrefix(body, "#!/bin/sh\n") {
			t.Errorf("%s does not start with #!/bin/sh", f)
		}
	}
}

func TestShellcheck(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck not on PATH (apt-get install shellcheck)")
	}
	out, err := exec.Command("shellcheck", append([]string{"-s", "sh"}, scripts(t)...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("shellcheck -s sh: %v\n%s", err, out)
	}
}

// The workflow guard through dispatch: rewrite, reminders that follow the
// session state, code writes blocked until the plan exists (the whole turn
// is also in testdata/script/workflow_guard.txtar).
func TestWorkflowGuard(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("transform_user_input", "workflow-guard.sh", "")+
		hook("pre_llm_call", "workflow-guard.sh", "")+
		hook("pre_tool_call", "workflow-guard.sh", "write_file|patch|read_file"))
	project := t.TempDir()
	fields := func(extra map[string]any) map[string]any {
		f := map[string]any{"session_id": "wg", "cwd": project}
		for k, v := range extra {
			f[k] = v
		}
		return f
	}
	o := e.dispatch(t, "transform_user_input", fields(map[string]any{"user_message": "/plan ship it"}))
	if o.Result == nil || *o.Result != "Write a plan for: ship it. Save it as plans/active/plan.md before changing any code." {
		t.Fatalf("rewrite: %+v", o)
	}
	if o := e.dispatch(t, "transform_user_input", fields(map[string]any{"user_message": "hello"})); o.Result != nil {
		t.Fatalf("ordinary input must pass: %+v", o)
	}
	if o := e.dispatch(t, "pre_llm_call", fields(nil)); !strings.HasPrefix(o.InjectSystem, "No plan yet") {
		t.Fatalf("reminder: %+v", o)
	}
	write := func(path string) map[string]any {
		return fields(map[string]any{"tool_name": "write_file", "args": map[string]any{"path": path, "content": "x"}})
	}
	wantDecision(t, e.dispatch(t, "pre_tool_call", write("src/a.go")), "block")
	wantDecision(t, e.dispatch(t, "pre_tool_call", write(filepath.Join(project, "src/a.go"))), "block")
	wantNoOpinion(t, e.dispatch(t, "pre_tool_call", write("plans/active/plan.md")))
	writeFile(t, filepath.Join(project, "plans/active/plan.md"), "1. ship it\n")
	if o := e.dispatch(t, "pre_llm_call", fields(nil)); !strings.HasPrefix(o.InjectSystem, "A plan exists") {
		t.Fatalf("reminder after the plan: %+v", o)
	}
	e.dispatch(t, "pre_tool_call", fields(map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "plans/active/plan.md"}}))
	if o := e.dispatch(t, "pre_llm_call", fields(nil)); !strings.HasPrefix(o.InjectSystem, "Follow plans/active/plan.md") {
		t.Fatalf("reminder after reading: %+v", o)
	}
	wantNoOpinion(t, e.dispatch(t, "pre_tool_call", write("src/a.go")))
}

// The three guards that read shell command lines carry the same tokenizer
// (jq defs tokens, unquote, flush, commands): each script must stay one
// self-contained file, so the copies are kept identical by this test rather
// than shared. Comments may differ; the code may not.
func TestShellWordTokenizerCopiesAreIdentical(t *testing.T) {
	t.Parallel()
	extract := func(name string) string {
		data, err := os.ReadFile(filepath.Join(repoRoot, "agent-hooks", name))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		start, end := strings.Index(s, "\ndef tokens:"), strings.Index(s, "\ndef is_cmd(")
		if start < 0 || end < start {
			t.Fatalf("%s: no tokenizer (def tokens: … def is_cmd) found", name)
		}
		var code []string
		for _, line := range strings.Split(s[start:end], "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				code = append(code, line)
			}
		}
		return strings.Join(code, "\n")
	}
	want := extract("block-rm-rf.sh")
	for _, name := range []string{"claude-bash-guard.sh", "protect-paths.sh"} {
		if got := extract(name); got != want {
			t.Errorf("%s: its tokenizer differs from block-rm-rf.sh's; change all three copies together", name)
		}
	}
}

// owner-dm-only.sh (issue 27, README's pre_gateway_dispatch example): only
// the owners' direct messages reach the agent; a broken policy, declared
// fail_closed, skips rather than lets every DM through.
func TestOwnerDMOnly(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, hook("pre_gateway_dispatch", "owner-dm-only.sh", "")+"      fail_closed: true\n")
	e.env = append(e.env, "HERMES_GATEWAY_OWNERS=111, 222")
	msg := func(chatType string, user any) map[string]any {
		return map[string]any{"platform": "telegram", "chat_id": "c1", "chat_type": chatType, "chat_name": "",
			"thread_id": "", "user_id": user, "user_name": "someone", "message_id": "m1", "text": "hi"}
	}
	o := e.dispatch(t, "pre_gateway_dispatch", msg("dm", "999"))
	wantDecision(t, o, "block")
	if want := "owner-dm-only: direct message from 999 on telegram, who is not an owner"; o.Message != want {
		t.Fatalf("message %q, want %q", o.Message, want)
	}
	wantNoOpinion(t, e.dispatch(t, "pre_gateway_dispatch", msg("dm", "222")))
	wantNoOpinion(t, e.dispatch(t, "pre_gateway_dispatch", msg("dm", 111))) // a number, as some platforms send it
	wantNoOpinion(t, e.dispatch(t, "pre_gateway_dispatch", msg("group", "999")))

	// As Hermes gets it through the plugin.
	in, _ := json.Marshal(msg("dm", "999"))
	stdout, stderr, code := e.run(t, in, "--config", e.config, "--accept-hooks", "dispatch", "pre_gateway_dispatch", "--format", "hermes")
	if want := `{"action": "skip", "reason": "owner-dm-only: direct message from 999 on telegram, who is not an owner"}` + "\n"; code != 0 || stdout != want {
		t.Fatalf("--format hermes: exit %d, %q (want %q)\n%s", code, stdout, want, stderr)
	}

	// No owners configured: the policy cannot decide, so it skips.
	e.env = e.env[:len(e.env)-1]
	o, err := e.fire("pre_gateway_dispatch", msg("dm", "222"), false)
	if err != nil {
		t.Fatal(err)
	}
	wantDecision(t, o, "block")
	if !strings.Contains(o.Message, "owner-dm-only.sh failed closed") || !strings.Contains(o.Message, "HERMES_GATEWAY_OWNERS is not set") {
		t.Fatalf("message = %q, want the policy failing closed", o.Message)
	}
}
