package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// replayJournal writes: one record without a payload, then with payloads
// (commands a, b, c, one of an event this version does not know).
func replayJournal(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), DefaultFile)
	newWriter(t, Options{Path: p}).Record(context.Background(), record("old"))
	w := newWriter(t, Options{Path: p, IncludePayload: true})
	for _, cmd := range []string{"a", "b", "c"} {
		r := record("no " + cmd)
		r.Fields = map[string]any{"tool_name": "terminal", "args": map[string]any{"command": cmd, "ratio": json.Number("1.50")}}
		w.Record(context.Background(), r)
	}
	r := record("gone")
	r.Outcome.Event = "no_such_event"
	w.Record(context.Background(), r)
	return p
}

func command(fields map[string]any) string {
	args, _ := fields["args"].(map[string]any)
	s, _ := args["command"].(string)
	return s
}

func TestReplay(t *testing.T) {
	p := replayJournal(t)
	before, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var seen []map[string]any
	dispatch := func(_ context.Context, f *protocol.Firing) (protocol.Outcome, error) {
		ev, fields := f.Event, f.Fields
		seen = append(seen, fields)
		o := protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: "still",
			Hooks: []protocol.HookReport{{Command: "./guard.sh", Contribution: &protocol.Contribution{Decision: protocol.DecisionBlock}}}}
		if command(fields) == "b" {
			// Now allowed by one hook; a shadow hook that would block is
			// not named as deciding.
			o = protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionAllow, Hooks: []protocol.HookReport{
				{Command: "./shadow.sh", Shadow: true, Would: "block"},
				{Command: "./guard.sh", Contribution: &protocol.Contribution{}},
				{Command: "./allow.sh", Contribution: &protocol.Contribution{Decision: protocol.DecisionAllow}},
			}}
		}
		return o, nil
	}
	rep, err := Replay(context.Background(), p, ReplayOptions{Fire: dispatch})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Events != 5 || rep.Replayed != 3 || rep.NotReplayable != 2 || rep.Differ != 1 || len(rep.Differences) != 1 {
		t.Fatalf("report %+v", rep)
	}
	d := rep.Differences[0]
	want := Difference{Seq: 3, Time: d.Time, Event: "pre_tool_call", Tool: "terminal",
		Recorded: Side{Decision: "block", Message: "no b", Hooks: []string{"./guard.sh"}, Commands: []string{"./guard.sh"}, Rules: []string{""}},
		Now:      Side{Decision: "allow", Hooks: []string{"./allow.sh"}, Commands: []string{"./allow.sh"}, Rules: []string{""}}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("difference\n got %+v\nwant %+v", d, want)
	}
	// The fields are the recorded ones, numbers as written (1.50, not 1.5).
	if len(seen) != 3 || command(seen[0]) != "a" || seen[0]["args"].(map[string]any)["ratio"] != json.Number("1.50") {
		t.Fatalf("fields %#v", seen)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Fatal("Replay changed the journal")
	}

	// Keep selects; the others are not counted.
	rep, err = Replay(context.Background(), p, ReplayOptions{Fire: dispatch, Keep: func(e *Entry) bool { return e.Seq == 3 }})
	if err != nil || rep.Events != 1 || rep.Differ != 1 {
		t.Fatalf("kept: %+v %v", rep, err)
	}
}

func TestReplayStopsAtADispatchError(t *testing.T) {
	p := replayJournal(t)
	boom := errors.New("boom")
	calls := 0
	rep, err := Replay(context.Background(), p, ReplayOptions{Fire: func(context.Context, *protocol.Firing) (protocol.Outcome, error) {
		calls++
		return protocol.Outcome{}, boom
	}})
	if !errors.Is(err, boom) || calls != 1 || rep.Replayed != 0 {
		t.Fatalf("err %v, %d calls, %+v", err, calls, rep)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Replay(ctx, p, ReplayOptions{Fire: func(context.Context, *protocol.Firing) (protocol.Outcome, error) {
		return protocol.Outcome{Decision: protocol.DecisionNone}, nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// A record is fired again as it was made: for the agent it answered and
// in the directory it was bound to, so that a rule reading agent or cwd
// decides as it did live. The recorded directory stands in only when the
// host's own cwd is not a directory here, and only when it still is one.
func TestReplayFiresAsRecorded(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, DefaultFile)
	w := newWriter(t, Options{Path: p, IncludePayload: true})
	for _, tc := range []struct{ agent, cwd, hostCwd string }{
		{"claude", proj, ""},                      // no cwd sent: the dispatcher's, recorded
		{"", proj, filepath.Join(dir, "gone")},    // a cwd that is no directory
		{"codex", filepath.Join(dir, "gone"), ""}, // recorded where nothing is now
		{"", dir, proj},                           // the host's cwd, a directory: its own
	} {
		r := record("no")
		r.Agent, r.Cwd = tc.agent, tc.cwd
		if tc.hostCwd != "" {
			r.Fields["cwd"] = tc.hostCwd
		}
		w.Record(context.Background(), r)
	}
	lines := readLines(t, p)
	projJSON, _ := json.Marshal(proj) // a Windows path's backslashes are escaped
	if !strings.Contains(lines[0], `"cwd":`+string(projJSON)+`,"agent":"claude",`) || strings.Contains(lines[1], `"agent"`) {
		t.Fatalf("the agent is not journalled after cwd:\n%s\n%s", lines[0], lines[1])
	}

	var got []string
	fire := func(ctx context.Context, f *protocol.Firing) (protocol.Outcome, error) {
		got = append(got, f.HostCwd)
		return protocol.Outcome{Event: f.Event.Name, Decision: protocol.DecisionBlock, Message: "no"}, nil
	}
	if _, err := Replay(context.Background(), p, ReplayOptions{Fire: fire}); err != nil {
		t.Fatal(err)
	}
	want := []string{proj, proj, "", proj}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the firings' cwd\n got %q\nwant %q", got, want)
	}

	// Through a real dispatcher: a rule that blocks only for claude in
	// proj decides the first record as it was decided (block), the
	// others not.
	src := "hooks:\n  pre_tool_call:\n    - rule: 'agent == \"claude\" && cwd == " + strconv.Quote(proj) + "'\n      decision: block\n      message: no\n"
	cfg, err := hookconfig.ParseConfig([]byte(src), filepath.Join(dir, "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rep, err := Replay(context.Background(), p, ReplayOptions{Fire: d.Fire})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replayed != 4 || rep.Differ != 3 || rep.Differences[0].Seq != 2 {
		t.Fatalf("a rule on agent and cwd, replayed: %+v", rep)
	}
}

// A cut dispatch's record (dispatcher.Record.Cut) says so, and replay
// passes it over: its outcome was no answer, and the firing's answer has
// a record of its own.
func TestCutRecordIsNotReplayed(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, IncludePayload: true})
	r := record("")
	r.Outcome.Decision = protocol.DecisionNone
	r.Cut = true
	w.Record(context.Background(), r)
	w.Record(context.Background(), record("late"))
	var cut []bool
	if err := Scan(p, func(_ Line, e *Entry) bool { cut = append(cut, e.Cut); return true }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cut, []bool{true, false}) {
		t.Fatalf("cut per record %v; want [true false]", cut)
	}
	fired := 0
	rep, err := Replay(context.Background(), p, ReplayOptions{Fire: func(_ context.Context, f *protocol.Firing) (protocol.Outcome, error) {
		fired++
		return protocol.Outcome{Event: f.Event.Name, Decision: protocol.DecisionBlock}, nil
	}})
	if err != nil || fired != 1 || rep.Events != 1 {
		t.Fatalf("fired %d, report %+v, err %v; want the one record that is not cut", fired, rep, err)
	}
}
