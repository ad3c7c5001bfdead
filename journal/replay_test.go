package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
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
	dispatch := func(_ context.Context, event string, fields map[string]any) (protocol.Outcome, error) {
		ev, ok := protocol.Lookup(event)
		if !ok {
			return protocol.Outcome{}, &dispatcher.UnknownEventError{Name: event}
		}
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
	rep, err := Replay(context.Background(), p, ReplayOptions{Dispatch: dispatch})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Events != 5 || rep.Replayed != 3 || rep.NotReplayable != 2 || rep.Differ != 1 || len(rep.Differences) != 1 {
		t.Fatalf("report %+v", rep)
	}
	d := rep.Differences[0]
	want := Difference{Seq: 3, Time: d.Time, Event: "pre_tool_call", Tool: "terminal",
		Recorded: Side{Decision: "block", Message: "no b", Hooks: []string{"./guard.sh"}},
		Now:      Side{Decision: "allow", Hooks: []string{"./allow.sh"}}}
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
	rep, err = Replay(context.Background(), p, ReplayOptions{Dispatch: dispatch, Keep: func(e *Entry) bool { return e.Seq == 3 }})
	if err != nil || rep.Events != 1 || rep.Differ != 1 {
		t.Fatalf("kept: %+v %v", rep, err)
	}
}

func TestReplayStopsAtADispatchError(t *testing.T) {
	p := replayJournal(t)
	boom := errors.New("boom")
	calls := 0
	rep, err := Replay(context.Background(), p, ReplayOptions{Dispatch: func(context.Context, string, map[string]any) (protocol.Outcome, error) {
		calls++
		return protocol.Outcome{}, boom
	}})
	if !errors.Is(err, boom) || calls != 1 || rep.Replayed != 0 {
		t.Fatalf("err %v, %d calls, %+v", err, calls, rep)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Replay(ctx, p, ReplayOptions{Dispatch: func(context.Context, string, map[string]any) (protocol.Outcome, error) {
		return protocol.Outcome{Decision: protocol.DecisionNone}, nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
