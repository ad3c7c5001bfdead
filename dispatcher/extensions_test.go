package dispatcher

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// dispatcherWith builds a dispatcher from YAML with the given options
// (Gate defaults to AllowAll).
func dispatcherWith(t *testing.T, yml string, opts Options) *Dispatcher {
	t.Helper()
	cfg, err := hookconfig.ParseConfig([]byte(yml), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}

	if opts.Gate == nil {
		opts.Gate = AllowAll
	}
	d, err := New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// jqHook is a hook body that reads the payload with jq and prints the
// filter's JSON result.
func jqHook(filter string) string { return `jq -c '` + filter + `'` }

func entries(event string, cmds ...string) string {
	y := "hooks:\n  " + event + ":\n"
	for _, c := range cmds {
		y += "    - command: " + c + "\n"
	}
	return y
}

func TestExt_TransformUserInputRewriteChain(t *testing.T) {
	dir := t.TempDir()
	a := script(t, dir, "a.sh", jqHook(`{action:"rewrite", value:(.extra.user_message + " world")}`))
	b := script(t, dir, "b.sh", jqHook(`{result:(.extra.user_message + "!")}`))
	o := dispatch(t, dispatcherFor(t, entries("transform_user_input", a, b)), "transform_user_input", map[string]any{"user_message": "hello"})
	if o.Result == nil || *o.Result != "hello world!" || o.Decision != protocol.DecisionNone {
		t.Fatalf("outcome %+v", o)
	}
}

func TestExt_TransformUserInputBlockShortCircuits(t *testing.T) {
	dir := t.TempDir()
	sentinel := filepath.Join(dir, "second-ran")
	a := script(t, dir, "a.sh", `echo '{"action":"block","message":"no secrets in prompts"}'`)
	b := script(t, dir, "b.sh", "touch "+sentinel)
	o := dispatch(t, dispatcherFor(t, entries("transform_user_input", a, b)), "transform_user_input", map[string]any{"user_message": "my password is x"})
	if !o.Blocked() || o.Message != "no secrets in prompts" || o.Hooks[1].Ran || !strings.Contains(o.Hooks[1].Skipped, "blocked") {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := os.Stat(sentinel); err == nil {
		t.Fatal("the hook after a block ran")
	}
	if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"action":"block","message":"no secrets in prompts"}` {
		t.Fatalf("wire %s", w)
	}
}

func TestExt_PreLLMCallInjectionsContextAndBlock(t *testing.T) {
	dir := t.TempDir()
	sys := script(t, dir, "sys.sh", `echo '{"action":"inject_system","value":"Follow the plan in plans/active/plan.md."}'`)
	usr := script(t, dir, "usr.sh", `echo '{"action":"inject_user","value":"(reminder: run the tests)"}'`)
	ctx := script(t, dir, "ctx.sh", `echo '{"context":"branch: main"}'`)
	d := dispatcherFor(t, entries("pre_llm_call", sys, usr, ctx))
	for _, name := range []string{"pre_llm_call", "before_llm_call"} {
		o := dispatch(t, d, name, map[string]any{"user_message": "hi"})
		if o.InjectSystem != "Follow the plan in plans/active/plan.md." || o.InjectUser != "(reminder: run the tests)" || o.Context != "branch: main" {
			t.Fatalf("%s: outcome %+v", name, o)
		}
	}
	blk := script(t, dir, "blk.sh", `echo '{"action":"block","message":"over budget"}'`)
	o := dispatch(t, dispatcherFor(t, entries("before_llm_call", blk)), "pre_llm_call", nil)
	if !o.Blocked() || o.Message != "over budget" {
		t.Fatalf("outcome %+v", o)
	}
	// Hermes' own rule stays: decision:block on pre_llm_call is ignored (A10).
	dec := script(t, dir, "dec.sh", `echo '{"decision":"block","reason":"no"}'`)
	if o := dispatch(t, dispatcherFor(t, entries("pre_llm_call", dec)), "pre_llm_call", nil); o.Blocked() {
		t.Fatalf("decision:block on pre_llm_call must be ignored: %+v", o)
	}
}

func TestExt_InterceptToolCallRewrite(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"action":"rewrite","value":{"command":"ls -la"}}'`)
	o := dispatch(t, dispatcherFor(t, entries("intercept_tool_call", s)), "intercept_tool_call", terminalCall)
	if o.Event != "pre_tool_call" || o.Args["command"] != "ls -la" {
		t.Fatalf("outcome %+v", o)
	}
	if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"action":"modify","args":{"command":"ls -la"}}` {
		t.Fatalf("wire %s", w)
	}
}

func TestExt_TransformEventsChainAndEmptyLeavesUnchanged(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ event, field string }{
		{"transform_tool_result", "result"},
		{"transform_terminal_output", "output"},
		{"transform_llm_output", "response_text"},
	}
	for _, c := range cases {
		upper := script(t, dir, c.event+"-up.sh", jqHook(`{result:(.extra.`+c.field+` | ascii_upcase)}`))
		empty := script(t, dir, c.event+"-empty.sh", `echo '{"result":""}'`)
		suffix := script(t, dir, c.event+"-sfx.sh", jqHook(`{action:"rewrite", value:(.extra.`+c.field+` + " [checked]")}`))
		o := dispatch(t, dispatcherFor(t, entries(c.event, upper, empty, suffix)), c.event, map[string]any{c.field: "secret=abc"})
		if o.Result == nil || *o.Result != "SECRET=ABC [checked]" {
			t.Fatalf("%s: outcome %+v", c.event, o)
		}
		o = dispatch(t, dispatcherFor(t, entries(c.event, empty)), c.event, map[string]any{c.field: "x"})
		if o.Result != nil {
			t.Fatalf("%s: an empty result must leave the text unchanged: %+v", c.event, o)
		}
	}
}

func TestExt_HookResultPassMetadataReachesLaterHooks(t *testing.T) {
	dir := t.TempDir()
	first := script(t, dir, "first.sh", `echo '{"action":"pass","metadata":{"scanned_by":"first","risk":2}}'`)
	second := script(t, dir, "second.sh", jqHook(`{result:("risk=" + (.extra.metadata.risk|tostring) + " by " + .extra.metadata.scanned_by)}`))
	o := dispatch(t, dispatcherFor(t, entries("transform_tool_result", first, second)), "transform_tool_result", map[string]any{"result": "r"})
	if o.Result == nil || *o.Result != "risk=2 by first" || o.Metadata["scanned_by"] != "first" {
		t.Fatalf("outcome %+v", o)
	}
	// Across priority tiers of a gating event too.
	late := script(t, dir, "late.sh", jqHook(`if .extra.metadata.risk == 2 then {action:"block",message:"risky"} else {} end`))
	yml := "hooks:\n  pre_tool_call:\n    - command: " + first + "\n      priority: 1\n    - command: " + late + "\n      priority: 2\n"
	o = dispatch(t, dispatcherFor(t, yml), "pre_tool_call", terminalCall)
	if !o.Blocked() || o.Message != "risky" {
		t.Fatalf("outcome %+v", o)
	}
}

func TestExt_PriorityOrderLowerFirstTiesKeepConfigOrder(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "order")
	mk := func(name string) string {
		return script(t, dir, name+".sh", "cat >/dev/null; echo "+name+" >> "+log+"; echo '{}'")
	}
	yml := "hooks:\n  transform_llm_output:\n" +
		"    - command: " + mk("p10") + "\n      priority: 10\n" +
		"    - command: " + mk("p0a") + "\n" +
		"    - command: " + mk("pminus5") + "\n      priority: -5\n" +
		"    - command: " + mk("p0b") + "\n      priority: 0\n"
	o := dispatch(t, dispatcherFor(t, yml), "transform_llm_output", map[string]any{"response_text": "x"})
	raw, _ := os.ReadFile(log)
	if got := strings.Fields(string(raw)); strings.Join(got, ",") != "pminus5,p0a,p0b,p10" {
		t.Fatalf("order %v", got)
	}
	// Reports follow run order too.
	var cmds []string
	for _, r := range o.Hooks {
		// The hook's name without its extension (.sh; Windows: its .cmd).
		cmds = append(cmds, strings.TrimSuffix(filepath.Base(r.Command), filepath.Ext(r.Command)))
	}
	if strings.Join(cmds, ",") != "pminus5,p0a,p0b,p10" {
		t.Fatalf("reports %v", cmds)
	}
}

func TestExt_GatingBlockStopsLaterPriorityTiers(t *testing.T) {
	dir := t.TempDir()
	sentinel := filepath.Join(dir, "late-ran")
	guard := script(t, dir, "guard.sh", `echo '{"action":"block","message":"stop here"}'`)
	peer := script(t, dir, "peer.sh", `echo '{}'`)
	late := script(t, dir, "late.sh", "touch "+sentinel)
	yml := "hooks:\n  pre_tool_call:\n" +
		"    - command: " + late + "\n      priority: 5\n" +
		"    - command: " + guard + "\n" +
		"    - command: " + peer + "\n"
	o := dispatch(t, dispatcherFor(t, yml), "pre_tool_call", terminalCall)
	if !o.Blocked() || o.Message != "stop here" {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := os.Stat(sentinel); err == nil {
		t.Fatal("a lower-priority hook started after a block")
	}
	if r := o.Hooks[2]; r.Ran || !strings.Contains(r.Skipped, "earlier priority blocked") {
		t.Fatalf("late report %+v", r)
	}
	if !o.Hooks[1].Ran {
		t.Fatal("a hook of the blocking tier must still run (same priority starts together)")
	}
}

func TestExt_StateMergeDeleteClear(t *testing.T) {
	dir := t.TempDir()
	// The hook reports the state it sees as context, then applies the patch
	// given in the event's "patch" field.
	s := script(t, dir, "st.sh", jqHook(`{context:(.extra.state|tojson), state:.extra.patch}`))
	d := dispatcherWith(t, entries("pre_llm_call", s)+entries("on_session_end", s)[len("hooks:\n"):], Options{Sessions: sessions.NewMemory()})
	fire := func(event string, patch map[string]any) string {
		return dispatch(t, d, event, map[string]any{"session_id": "S1", "patch": patch}).Context
	}
	// An empty state is not sent at all (issue 13: Hermes' exact keys).
	if got := fire("pre_llm_call", map[string]any{"plan_read": true, "n": 1}); got != "null" {
		t.Fatalf("first firing saw %s", got)
	}
	if got := fire("pre_llm_call", map[string]any{"n": nil, "extra": "x"}); got != `{"n":1,"plan_read":true}` {
		t.Fatalf("second firing saw %s", got)
	}
	if got := fire("pre_llm_call", nil); got != `{"extra":"x","plan_read":true}` {
		t.Fatalf("null must delete a key: saw %s", got)
	}
	// Another session has its own state.
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S2"}); o.Context != "null" {
		t.Fatalf("S2 saw %s", o.Context)
	}
	fire("on_session_end", nil)
	if got := fire("pre_llm_call", nil); got != "null" {
		t.Fatalf("state must be cleared by on_session_end: saw %s", got)
	}
}

func TestExt_FileSessionsSharedAcrossDispatchers(t *testing.T) {
	dir := t.TempDir()
	stateDir := filepath.Join(dir, "hook-state")
	s := script(t, dir, "st.sh", jqHook(`{context:(.extra.state|tojson), state:{count:((.extra.state.count // 0) + 1)}}`))
	for i, want := range []string{"null", `{"count":1}`, `{"count":2}`} {
		// A fresh dispatcher each time: one-shot dispatch processes.
		d := dispatcherWith(t, entries("pre_llm_call", s), Options{Sessions: &sessions.Files{Dir: stateDir}})
		if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "sess/with odd chars"}); o.Context != want {
			t.Fatalf("firing %d saw %s, want %s", i, o.Context, want)
		}
	}
	files, _ := filepath.Glob(filepath.Join(stateDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("state files %v", files)
	}
	// Windows has no Unix modes (an ACL protects the file there).
	if st, _ := os.Stat(files[0]); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v", st.Mode())
	}
	d := dispatcherWith(t, entries("on_session_finalize", s), Options{Sessions: &sessions.Files{Dir: stateDir}})
	dispatch(t, d, "on_session_finalize", map[string]any{"session_id": "sess/with odd chars"})
	if files, _ := filepath.Glob(filepath.Join(stateDir, "*.json")); len(files) != 0 {
		t.Fatalf("on_session_finalize must clear the state: %v", files)
	}
}

func TestExt_StateSizeBound(t *testing.T) {
	big := strings.Repeat("x", sessions.MaxStateBytes)
	s := script(t, t.TempDir(), "big.sh", `printf '{"state":{"blob":"%s"}}' "`+big+`"`)
	d := dispatcherWith(t, entries("pre_llm_call", s), Options{Sessions: sessions.NewMemory()})
	o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S"})
	if !strings.Contains(o.Hooks[0].Note, "state patch refused") {
		t.Fatalf("report %+v", o.Hooks[0])
	}
	sess, _ := d.opts.Sessions.Load("S")
	if len(sess.State) != 0 {
		t.Fatalf("refused patch changed the state: %v", sess.State)
	}
}

// Claude reference §7.2 case 8: a Stop hook that always blocks cannot wedge
// the session: stop_hook_active is set while continuing, and after 8 blocks
// in a row the agent may stop.
func TestExt_StopHookBlockCap(t *testing.T) {
	skipUnderWine(t)
	dir := t.TempDir()
	seen := filepath.Join(dir, "active")
	s := script(t, dir, "stop.sh", `jq -r '.stop_hook_active' >> `+seen+`; echo '{"decision":"block","reason":"keep going"}'`)
	d := dispatcherWith(t, claudeYAML("Stop", s), Options{Sessions: sessions.NewMemory()})
	for i := 1; i <= stopBlockCap; i++ {
		if o := dispatch(t, d, "pre_verify", map[string]any{"session_id": "S"}); !o.Blocked() {
			t.Fatalf("block %d was not honoured: %+v", i, o)
		}
	}
	o := dispatch(t, d, "pre_verify", map[string]any{"session_id": "S"})
	if o.Blocked() || !strings.Contains(o.Hooks[0].Note, "block cap reached") {
		t.Fatalf("block %d must be overridden: %+v", stopBlockCap+1, o)
	}
	if o := dispatch(t, d, "Stop", map[string]any{"session_id": "S"}); !o.Blocked() {
		t.Fatalf("the count restarts after the cap: %+v", o)
	}
	raw, _ := os.ReadFile(seen)
	lines := strings.Fields(string(raw))
	if lines[0] != "false" || lines[1] != "true" {
		t.Fatalf("stop_hook_active sequence %v", lines)
	}
}

// A Stop hook that only adds context keeps the agent going with it, like a
// block, and under the same cap of 8 in a row (issue 13, item 3).
func TestStopHookContextOnlyContinuesWithinTheCap(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "stop.sh", `echo '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"run the linter too"}}'`)
	d := dispatcherWith(t, claudeYAML("Stop", s), Options{Sessions: sessions.NewMemory()})
	for i := 1; i <= stopBlockCap; i++ {
		o := dispatch(t, d, "pre_verify", map[string]any{"session_id": "S"})
		if !o.Blocked() || o.Message != "run the linter too" {
			t.Fatalf("firing %d did not continue with the context: %+v", i, o)
		}
		if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"action":"continue","message":"run the linter too"}` {
			t.Fatalf("Hermes wire %s", w)
		}
	}
	if o := dispatch(t, d, "pre_verify", map[string]any{"session_id": "S"}); o.Blocked() {
		t.Fatalf("the ninth must let the agent stop: %+v", o)
	}
}

func claudeYAML(event, command string) string {
	return "hooks:\n  " + event + ":\n    - command: " + command + "\n"
}

func TestExt_ProjectHooksDiscovery(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "src", "pkg")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	ctxBody, projCmd, globalCmd := `echo "{\"context\":\"project $(pwd)\"}"`, ".hermes/hooks/ctx.sh", `/bin/echo '{"context":"global"}'`
	if runtime.GOOS == "windows" {
		// The hook's .cmd twin; pwd's backslashes quoted for JSON by the
		// stand-in's jsonstr (hookscript_test.go); no /bin/echo.
		ctxBody = `echo "{\"context\":$(jsonstr "project $(pwd)")}"`
		projCmd, globalCmd = ".hermes/hooks/ctx.cmd", script(t, root, "global.sh", `echo '{"context":"global"}'`)
	}
	hooks := filepath.Join(repo, ".hermes", "hooks.yaml")
	writeFile(t, hooks, "hooks_auto_accept: true\nhooks:\n  pre_llm_call:\n    - command: "+projCmd+"\n")
	if err := os.MkdirAll(filepath.Join(repo, ".hermes", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	script(t, filepath.Join(repo, ".hermes", "hooks"), "ctx.sh", ctxBody)
	// A hooks file above the repository root is never used.
	writeFile(t, filepath.Join(root, ".hermes", "hooks.yaml"), "hooks:\n  pre_llm_call:\n    - command: /bin/false\n")

	if got := hookconfig.FindProjectHooks(sub); got != hooks {
		t.Fatalf("from a subdirectory found %q, want %q", got, hooks)
	}
	if got := hookconfig.FindProjectHooks(filepath.Join(root, "elsewhere")); got != "" {
		t.Fatalf("outside a repository found %q", got)
	}
	global := filepath.Join(root, "global.yaml")
	writeFile(t, global, "hooks:\n  pre_llm_call:\n    - command: "+globalCmd+"\n")
	cfg, err := hookconfig.Load(global, hookconfig.LoadOptions{ProjectDir: sub})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 2 || cfg.Entries[1].Source != hooks || cfg.Entries[1].WorkDir != repo || cfg.AutoAccept {
		t.Fatalf("entries %+v autoaccept %v", cfg.Entries, cfg.AutoAccept)
	}
	if !strings.Contains(warningsText(cfg), "cannot approve its own hooks") {
		t.Fatalf("warnings %q", warningsText(cfg))
	}
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	// The relative command runs from the project root, wherever the host is.
	o := dispatch(t, d, "pre_llm_call", map[string]any{"cwd": sub})
	if o.Context != "global\n\nproject "+repo {
		t.Fatalf("outcome %+v", o)
	}
}

// A Hermes-dialect payload has exactly the keys Hermes sends unless a
// feature is in use (issue 13, item 1): no empty state, no metadata, and
// never Claude's stop_hook_active — even on a stop event of a session, where
// Claude-dialect hooks do get it.
func TestHermesPayloadHasOnlyHermesKeys(t *testing.T) {
	skipUnderWine(t)
	dir := t.TempDir()
	h := script(t, dir, "keys.sh", `jq -c '[(.extra|keys), keys]' > `+filepath.Join(dir, "hermes.json"))
	c := script(t, dir, "claude.sh", `cat > `+filepath.Join(dir, "claude.json"))
	d := dispatcherWith(t, entries("pre_verify", h)+"  Stop:\n    - command: "+c+"\n", Options{Sessions: sessions.NewMemory()})
	dispatch(t, d, "pre_verify", map[string]any{"session_id": "s1", "final_response": "done"})
	data, err := os.ReadFile(filepath.Join(dir, "hermes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(data)); got != `[["final_response"],["cwd","extra","hook_event_name","session_id","tool_input","tool_name"]]` {
		t.Fatalf("Hermes payload keys: %s", got)
	}
	data, err = os.ReadFile(filepath.Join(dir, "claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"stop_hook_active":false`) {
		t.Fatalf("the Claude stop hook must still see stop_hook_active: %s", data)
	}
}

// A firing that changes nothing in its session writes nothing: no state
// file appears for a session no hook touched, and an existing one keeps
// its inode and contents (no rewrite, no fsync on every event). A reply an
// async hook left is still taken, once.
func TestExt_FileSessionsUntouchedSessionNotRewritten(t *testing.T) {
	dir := t.TempDir()
	stateDir := filepath.Join(dir, "hook-state")
	store := &sessions.Files{Dir: stateDir}
	s := script(t, dir, "quiet.sh", `cat >/dev/null; echo '{}'`)
	d := dispatcherWith(t, entries("pre_llm_call", s), Options{Sessions: store})
	dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S"})
	dispatch(t, d, "post_llm_call", map[string]any{"session_id": "S"})
	if files, _ := filepath.Glob(filepath.Join(stateDir, "*.json")); len(files) != 0 {
		t.Fatalf("firings that changed nothing wrote session files: %v", files)
	}
	if err := store.Update("S", func(sess *sessions.Session) error {
		sess.Pending = append(sess.Pending, sessions.PendingReply{Event: "pre_llm_call", Command: "late.sh", Context: "late context"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(stateDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("session files %v, want one", files)
	}
	path := files[0]
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Update("S", func(*sessions.Session) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if after, err := os.Stat(path); err != nil || !os.SameFile(before, after) {
		t.Fatalf("a no-op Update replaced the file: %v", err)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S"}); !strings.Contains(o.Context, "late context") {
		t.Fatalf("the pending reply was not delivered: %+v", o)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"session_id": "S"}); strings.Contains(o.Context, "late context") {
		t.Fatalf("the pending reply was delivered twice: %+v", o)
	}
}

// Options.BeforeStart runs once, before the first hook process starts, and
// not at all for a firing that starts none: the one-shot CLI prepares its
// signal handling there.
func TestExt_BeforeStartOnceBeforeTheFirstHook(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	body := `cat >/dev/null; if test -e ` + marker + `; then echo '{}'; else echo '{"context":"started before BeforeStart"}'; fi`
	s1, s2 := script(t, dir, "h1.sh", body), script(t, dir, "h2.sh", body)
	calls := 0
	d := dispatcherWith(t, entries("pre_llm_call", s1, s2), Options{BeforeStart: func() {
		calls++
		if err := os.WriteFile(marker, nil, 0o600); err != nil {
			t.Error(err)
		}
	}})
	if o := dispatch(t, d, "post_llm_call", map[string]any{}); calls != 0 || len(o.Hooks) != 0 {
		t.Fatalf("a firing without hooks called BeforeStart %d times", calls)
	}
	o := dispatch(t, d, "pre_llm_call", map[string]any{})
	if calls != 1 || len(o.Hooks) != 2 || !o.Hooks[0].Ran || !o.Hooks[1].Ran || strings.Contains(o.Context, "before BeforeStart") {
		t.Fatalf("BeforeStart calls %d, outcome %+v", calls, o)
	}
	dispatch(t, d, "pre_llm_call", map[string]any{})
	if calls != 1 {
		t.Fatalf("BeforeStart ran %d times", calls)
	}
}

// Each file a repository supplies is read up to hookconfig.MaxProjectEntries hook
// definitions, whatever its shape, with one warning per file; the user's
// own files are not capped.
func TestProjectFilesAreCapped(t *testing.T) {
	n := hookconfig.MaxProjectEntries + 20
	var yml, groups, claude, cursor strings.Builder
	yml.WriteString("claude_settings: [.claude/settings.json]\ncursor_hooks: [.cursor/hooks.json]\nhooks:\n  pre_tool_call:\n")
	groups.WriteString("  PreToolUse:\n    - matcher: Bash\n      hooks:\n")
	claude.WriteString(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[`)
	cursor.WriteString(`{"hooks":{"preToolUse":[`)
	for i := range n {
		yml.WriteString("    - command: ./y" + strconv.Itoa(i) + ".sh\n")
		groups.WriteString("        - command: ./g" + strconv.Itoa(i) + ".sh\n")
		sep := ","
		if i == n-1 {
			sep = ""
		}
		claude.WriteString(`{"type":"command","command":"./c` + strconv.Itoa(i) + `.sh"}` + sep)
		cursor.WriteString(`{"command":"./k` + strconv.Itoa(i) + `.sh"}` + sep)
	}
	claude.WriteString("]}]}}")
	cursor.WriteString("]}}")
	for _, tc := range []struct {
		name, file, text string
		prefix           byte // the commands' first letter after ./
	}{
		{"hooks.yaml", ".hermes/hooks.yaml", yml.String(), 'y'},
		{"hooks.yaml groups", ".hermes/hooks.yaml", "hooks:\n" + groups.String(), 'g'},
		{"claude settings", ".claude/settings.json", claude.String(), 'c'},
		{"cursor hooks", ".cursor/hooks.json", cursor.String(), 'k'},
	} {
		repo := t.TempDir()
		if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		// The hooks file names the two agent files; the case's file
		// replaces its stub.
		writeFile(t, filepath.Join(repo, ".hermes", "hooks.yaml"), "claude_settings: [.claude/settings.json]\ncursor_hooks: [.cursor/hooks.json]\n")
		writeFile(t, filepath.Join(repo, ".claude", "settings.json"), "{}")
		writeFile(t, filepath.Join(repo, ".cursor", "hooks.json"), "{}")
		writeFile(t, filepath.Join(repo, tc.file), tc.text)
		global := filepath.Join(t.TempDir(), "config.yaml")
		// From the hooks: line (the first "hooks:" is cursor_hooks'
		// tail: that made hooks: a key given twice).
		writeFile(t, global, yml.String()[strings.Index(yml.String(), "\nhooks:")+1:])
		cfg, err := hookconfig.Load(global, hookconfig.LoadOptions{ProjectDir: repo})
		if err != nil {
			t.Fatal(err)
		}
		project := 0
		for _, e := range cfg.Listed {
			if !e.Scope.Global() && strings.HasPrefix(e.Command, "./"+string(tc.prefix)) {
				project++
			}
		}
		if project != hookconfig.MaxProjectEntries {
			t.Errorf("%s: %d of the repository's entries read, want %d", tc.name, project, hookconfig.MaxProjectEntries)
		}
		if global := len(cfg.Listed) - project; global != n {
			t.Errorf("%s: %d of the user's own entries read, want all %d", tc.name, global, n)
		}
		if c := strings.Count(warningsText(cfg), "declares more than"); c != 1 {
			t.Errorf("%s: %d cap warnings: %s", tc.name, c, warningsText(cfg))
		}
	}
}
