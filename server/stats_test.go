//go:build unix

package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/report"
)

func (f *fixture) stats() report.Stats {
	f.t.Helper()
	r := f.do(http.MethodGet, "/v1/stats", nil)
	if r.status != http.StatusOK {
		f.t.Fatalf("GET /v1/stats: %d %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		f.t.Errorf("Content-Type %q", ct)
	}
	var st report.Stats
	if err := json.Unmarshal(r.body, &st); err != nil {
		f.t.Fatalf("GET /v1/stats: %v: %s", err, r.body)
	}
	return st
}

func hookStatsOf(t *testing.T, st report.Stats, command string) report.HookStats {
	t.Helper()
	for _, h := range st.Hooks {
		if h.Command == command {
			return h
		}
	}
	t.Fatalf("no hook %s in /v1/stats: %+v", command, st.Hooks)
	return report.HookStats{}
}

// GET /v1/stats counts, per configured hook, what the outcomes of the
// answered dispatches say it did, with its consent state; the counters of
// a hook the next config keeps carry over the reload.
func TestStatsCountsEachHook(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	ok := f.script("ok.sh", "cat >/dev/null\necho '{}'\n")
	block := f.script("block.sh", blockScript)
	fail := f.script("fail.sh", "cat >/dev/null\necho oops >&2\nexit 3\n")
	unapproved := f.script("unapproved.sh", "cat >/dev/null\necho '{}'\n")
	never := f.script("never.sh", "cat >/dev/null\necho '{}'\n")
	for _, c := range []string{ok, block, fail, never} {
		if _, err := f.store.Approve("pre_tool_call", c); err != nil {
			t.Fatal(err)
		}
	}
	f.writeConfig("hooks:\n  pre_tool_call:\n" +
		"    - command: " + ok + "\n" +
		"    - command: " + block + "\n      matcher: terminal\n" +
		"    - command: " + fail + "\n" +
		"    - command: " + unapproved + "\n" +
		"    - command: " + never + "\n      matcher: browser\n" +
		"    - command: " + ok + "\n") // a duplicate: runs once, as the first
	f.waitGeneration(2)

	before := time.Now()
	for range 3 {
		f.outcome("pre_tool_call", `{"tool_name":"terminal","args":{"command":"ls"}}`)
	}
	f.outcome("pre_tool_call", `{"tool_name":"read_file"}`)
	f.outcome("on_session_start", ``)
	// A dispatch that is refused (unknown event) counts nowhere.
	f.dispatch("pre_tool_cal", `{}`)

	st := f.stats()
	if st.Generation != 2 || st.Config != f.config || st.Since.After(before) {
		t.Errorf("header: generation %d config %q since %v", st.Generation, st.Config, st.Since)
	}
	if st.Dispatches["pre_tool_call"] != 4 || st.Dispatches["on_session_start"] != 1 || len(st.Dispatches) != 2 {
		t.Errorf("dispatches %v", st.Dispatches)
	}
	if len(st.Hooks) != 6 || !st.Hooks[5].Duplicate || st.Hooks[5].Matched != 0 {
		t.Fatalf("hooks (the duplicate listed last, uncounted): %+v", st.Hooks)
	}

	h := hookStatsOf(t, st, ok)
	if h.Matched != 4 || h.Ran != 4 || h.Blocks != 0 || h.Errors != 0 || h.Skipped != 0 || !h.Approved || !h.Runs ||
		h.LastFired == nil || h.LastFired.Before(before) || h.Timeout != 60 || h.Source != f.config || h.Canonical != "pre_tool_call" {
		t.Errorf("ok.sh: %+v", h)
	}
	if h.ElapsedMS == nil || h.ElapsedMS.Samples != 4 || h.ElapsedMS.P50 <= 0 || h.ElapsedMS.P50 > h.ElapsedMS.P99 || h.ElapsedMS.P99 > h.ElapsedMS.Max {
		t.Errorf("ok.sh elapsed: %+v", h.ElapsedMS)
	}
	if h := hookStatsOf(t, st, block); h.Matched != 3 || h.Ran != 3 || h.Blocks != 3 || h.Errors != 0 || h.Matcher != "terminal" {
		t.Errorf("block.sh: %+v", h)
	}
	if h := hookStatsOf(t, st, fail); h.Ran != 4 || h.Errors != 4 || h.LastError != "exit status 3" {
		// Exactly: never the hook's stderr ("oops"), which may hold secrets.
		t.Errorf("fail.sh: %+v", h)
	}
	if h := hookStatsOf(t, st, unapproved); h.Matched != 4 || h.Ran != 0 || h.Skipped != 4 || h.Approved || h.Runs ||
		!strings.HasPrefix(h.LastSkip, "not allowlisted") || h.LastFired != nil || h.ElapsedMS != nil {
		t.Errorf("unapproved.sh: %+v", h)
	}
	if h := hookStatsOf(t, st, never); h.Matched != 0 || h.Ran != 0 || !h.Approved {
		t.Errorf("never.sh: %+v", h)
	}

	// A reload that drops fail.sh: ok.sh keeps its record, fail.sh is
	// gone from the stats.
	f.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + ok + "\n    - command: " + block + "\n      matcher: terminal\n")
	f.waitGeneration(3)
	f.outcome("pre_tool_call", `{"tool_name":"terminal"}`)
	st = f.stats()
	if st.Generation != 3 || len(st.Hooks) != 2 {
		t.Fatalf("after the reload: %+v", st)
	}
	if h := hookStatsOf(t, st, ok); h.Ran != 5 || h.ElapsedMS == nil || h.ElapsedMS.Samples != 5 {
		t.Errorf("ok.sh after the reload: %+v", h)
	}
	if h := hookStatsOf(t, st, block); h.Blocks != 4 {
		t.Errorf("block.sh after the reload: %+v", h)
	}

	r := f.do(http.MethodPost, "/v1/stats", nil)
	if r.status != http.StatusMethodNotAllowed || r.header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /v1/stats: %d %s", r.status, r.body)
	}
}

// An async hook's run happens outside the dispatch: it counts as handed to
// the background. Its reply, delivered with the session's next dispatch,
// is not a run of that dispatch and must not count as one.
func TestStatsAsyncReplyIsNotARun(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	async := f.script("async.sh", `cat >/dev/null
echo '{"systemMessage":"async said hi"}'
`)
	if _, err := f.store.Approve("PostToolUse", async); err != nil {
		t.Fatal(err)
	}
	f.writeConfig("hooks:\n  PostToolUse:\n    - hooks:\n        - type: command\n          command: " + async + "\n          async: true\n")
	f.waitGeneration(2)
	f.outcome("post_tool_call", `{"session_id":"s1","tool_name":"terminal"}`)
	// The reply comes with the session's next dispatch once the hook has
	// finished; an event without hooks of its own keeps asking.
	waitFor(t, "the async reply", func() bool {
		o := f.outcome("pre_llm_call", `{"session_id":"s1"}`)
		for _, h := range hooksOf(t, o) {
			if h["command"] == async {
				return true
			}
		}
		return false
	})
	h := hookStatsOf(t, f.stats(), async)
	if h.Matched != 1 || h.Background != 1 || h.Ran != 0 || h.LastFired == nil || h.ElapsedMS != nil {
		t.Errorf("async.sh: %+v", h)
	}
}
