package dispatcher

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

type fakeRecorder struct {
	mu   sync.Mutex
	recs []Record
}

func (f *fakeRecorder) Record(_ context.Context, r *Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recs = append(f.recs, *r)
}

func TestShadowHookDecidesNothing(t *testing.T) {
	dir := t.TempDir()
	block := script(t, dir, "block.sh", `echo '{"decision":"block","reason":"no rm"}'`)
	// An earlier tier's shadow block must not stop the later tier.
	ctxHook := script(t, dir, "first.sh", `echo '{"decision":"block","reason":"first"}'`)
	yml := "hooks:\n  pre_tool_call:\n" +
		"    - command: " + block + "\n      mode: shadow\n" +
		"    - command: " + ctxHook + "\n      mode: shadow\n      priority: -1\n"
	cfg, err := hookconfig.ParseConfig([]byte(yml), "t.yaml")
	if err != nil || len(cfg.Warnings) != 0 {
		t.Fatal(err, cfg.Warnings)
	}

	rec := &fakeRecorder{}
	d, err := New(cfg, Options{Gate: AllowAll, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"})
	if o.Decision != protocol.DecisionNone || len(o.Hooks) != 2 {
		t.Fatalf("outcome %+v", o)
	}
	byCmd := map[string]protocol.HookReport{}
	for _, h := range o.Hooks {
		byCmd[h.Command] = h
	}
	if r := byCmd[block]; !r.Ran || !r.Shadow || r.Would != "block: no rm" || r.Contribution != nil {
		t.Fatalf("block report %+v", r)
	}
	if r := byCmd[ctxHook]; !r.Ran || !r.Shadow || r.Would != "block: first" || r.Contribution != nil {
		t.Fatalf("context report %+v", r)
	}
	if len(rec.recs) != 1 || rec.recs[0].Outcome.Decision != protocol.DecisionNone || rec.recs[0].Event.Name != "pre_tool_call" {
		t.Fatalf("records %+v", rec.recs)
	}
	js := string(protocol.AppendOutcome(nil, &o, pyjson.Compact))
	if !strings.Contains(js, `"shadow":true,"would":"block: no rm","contribution":null`) {
		t.Fatalf("outcome JSON %s", js)
	}
}

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		shadow  bool
		warning string
	}{
		{"mode: shadow", true, ""},
		{"mode: Shadow", true, ""},
		{"mode: enforce", false, ""},
		{"mode: dry", false, ".mode must be 'enforce' or 'shadow'"},
		{"mode: [shadow]", false, ".mode must be"},
	} {
		cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", "./x.sh", tc.mode)), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var warns []string
		for _, w := range cfg.Warnings {
			warns = append(warns, w.String())
		}
		if cfg.Entries[0].Shadow != tc.shadow || (tc.warning == "") != (len(warns) == 0) || !strings.Contains(strings.Join(warns, "\n"), tc.warning) {
			t.Errorf("%s: shadow=%v warnings=%q", tc.mode, cfg.Entries[0].Shadow, warns)
		}
	}
}

func TestParseJournal(t *testing.T) {
	for _, tc := range []struct {
		yml     string
		want    hookconfig.JournalConfig
		warning string
	}{
		{"", hookconfig.JournalConfig{}, ""},
		{"journal: false", hookconfig.JournalConfig{Off: true, OffBy: "journal: false"}, ""},
		{"journal: {enabled: false}", hookconfig.JournalConfig{Off: true, OffBy: "journal: {enabled: false}"}, ""},
		{"journal: {path: j.jsonl, include_payload: true, max_bytes: 1048576}", hookconfig.JournalConfig{Path: "j.jsonl", IncludePayload: true, MaxBytes: 1 << 20}, ""},
		{"journal: {max_bytes: 10}", hookconfig.JournalConfig{}, "journal.max_bytes: must be a whole number of bytes, at least 4096"},
		{"journal: {enabled: maybe}", hookconfig.JournalConfig{}, "journal.enabled: must be true or false"},
		{"journal: {colour: red}", hookconfig.JournalConfig{}, "journal.colour: is not a journal key"},
		{"journal: 3", hookconfig.JournalConfig{}, "journal: must be a mapping"},
	} {
		cfg, err := hookconfig.ParseConfig([]byte(tc.yml+"\n"), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var warns []string
		for _, w := range cfg.Warnings {
			warns = append(warns, w.String())
		}
		if cfg.Journal != tc.want || (tc.warning == "") != (len(warns) == 0) || !strings.Contains(strings.Join(warns, "\n"), tc.warning) {
			t.Errorf("%q: %+v warnings=%q", tc.yml, cfg.Journal, warns)
		}
	}
}

func TestRecorderNotCalledWithoutAHookRun(t *testing.T) {
	rec := &fakeRecorder{}
	cfg, _ := hookconfig.ParseConfig([]byte(hookYAML("post_tool_call", "/bin/true")), "t.yaml")

	d, _ := New(cfg, Options{Gate: AllowAll, Recorder: rec})
	dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"})
	if len(rec.recs) != 0 {
		t.Fatalf("recorded a dispatch that ran nothing: %+v", rec.recs)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = d.Dispatch(context.Background(), "pre_tool_call", nil) }); n != 0 {
		t.Fatalf("no-match path allocates %v times with a Recorder", n)
	}
}

// cancellingRecorder ends the dispatch's context while it records: what
// a journal that waits for a held lock until the hook call's deadline
// amounts to.
type cancellingRecorder struct{ cancel context.CancelFunc }

func (c cancellingRecorder) Record(context.Context, *Record) { c.cancel() }

// However long a Recorder takes, the outcome stands: whether the hooks
// were cut short is settled before the record. The old fold asked after
// it, so a journal whose lock was held past a hook call's deadline turned
// a guard's answer into "did not answer in time".
func TestSlowRecorderChangesNoOutcome(t *testing.T) {
	dir := t.TempDir()
	block := script(t, dir, "block.sh", `echo '{"decision":"block","reason":"no rm"}'`)
	cfg, err := hookconfig.ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: "+block+"\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := New(cfg, Options{Gate: AllowAll, Recorder: cancellingRecorder{cancel}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	o, err := d.Dispatch(ctx, "pre_tool_call", map[string]any{"tool_name": "terminal"})
	if err != nil || o.Decision != protocol.DecisionBlock {
		t.Fatalf("outcome %+v, err %v", o.Decision, err)
	}
}

// A dispatch whose context ends while its hooks run is recorded (its
// hooks did run) as cut: its outcome was no answer, and the caller's own
// answer (hook AGENT's refusal) is another record. A dispatch that ended
// in time is not.
func TestCutDispatchIsRecordedAsCut(t *testing.T) {
	dir := t.TempDir()
	slow := script(t, dir, "slow.sh", `exec sleep 600`)
	block := script(t, dir, "block.sh", `echo '{"decision":"block","reason":"no"}'`)
	for _, tc := range []struct {
		hook string
		cut  bool
	}{{slow, true}, {block, false}} {
		cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", tc.hook)), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		rec := &fakeRecorder{}
		d, err := New(cfg, Options{Gate: AllowAll, Recorder: rec})
		if err != nil {
			t.Fatal(err)
		}
		// The bound the slow hook must outlast; the other answers far
		// within it.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err = d.Dispatch(ctx, "pre_tool_call", map[string]any{"tool_name": "terminal"})
		cancel()
		d.Close()
		var ce *CancelledError
		if errors.As(err, &ce) != tc.cut {
			t.Fatalf("%s: err %v", tc.hook, err)
		}
		if len(rec.recs) != 1 || rec.recs[0].Cut != tc.cut {
			t.Errorf("%s: records %+v; want one with Cut %v", tc.hook, rec.recs, tc.cut)
		}
	}
}
