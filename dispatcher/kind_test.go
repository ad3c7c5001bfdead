package dispatcher

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// replySpec is a hook kind of this test's own, added as a new kind is: a
// spec (here), a parse case (hookconfig's handlerTypes; see
// hookconfig.TestAHandlerTypeIsOneParseCase) and a handler (replyKind).
// It answers in-process with a fixed reply, the shape of an in-process
// rule: no process starts, and consent pins what it answers.
type replySpec struct{ Name, Reply string }

func (*replySpec) Kind() string    { return "reply" }
func (s *replySpec) Label() string { return "reply: " + s.Name }

type replyKind struct{ spec *replySpec }

func replyKindOf(s hookconfig.Spec) hookKind {
	if r, ok := s.(*replySpec); ok {
		return replyKind{r}
	}
	return nil
}

// fixed: approved by its text, with what it answers pinned (Spec), so a
// changed answer needs a new approval.
func (k replyKind) fixed(*hookconfig.Entry) *cmdpin.Target {
	return &cmdpin.Target{Opaque: "an in-process reply", Spec: "reply\n" + strconv.Quote(k.spec.Reply)}
}

func (replyKind) cannotRun() string { return "" }

func (k replyKind) run(context.Context, *Dispatcher, *protocol.Event, Invocation, []byte) ran {
	return ran{res: hookproc.Result{Exited: true, Stdout: []byte(k.spec.Reply)}}
}

// withKind adds a kind to the table for the test (not parallel: the table
// is the package's).
func withKind(t *testing.T, of func(hookconfig.Spec) hookKind) {
	saved := kinds
	kinds = append(slices.Clip(kinds), of)
	t.Cleanup(func() { kinds = saved })
}

// A new kind runs through Dispatch like any other: the consent gate
// approves it by its text and pins its spec, its reply is read in the
// entry's dialect and folded; a changed spec is no longer approved, and a
// guard of it then blocks.
func TestAHookKindIsOneSpecAndOneHandler(t *testing.T) {
	withKind(t, replyKindOf)
	pre, _ := protocol.Lookup("pre_tool_call")
	block := &replySpec{Name: "no-ls", Reply: `{"action":"block","message":"refused by a reply hook"}`}
	e := &hookconfig.Entry{Event: pre, Spec: block, FailClosed: true}
	dir := t.TempDir()
	store := consent.NewStore(filepath.Join(dir, "home"))
	e.Prepare(nil)
	if _, err := store.ApproveHook(ConsentRequest(e, dir, nil)); err != nil {
		t.Fatal(err)
	}
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: ConsentGate(&consent.Policy{Store: store}), Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}
	o := dispatch(t, d, "pre_tool_call", fields)
	if o.Decision != protocol.DecisionBlock || o.Message != "refused by a reply hook" || len(o.Hooks) != 1 ||
		!o.Hooks[0].Ran || o.Hooks[0].Command != block.Label() {
		t.Fatalf("approved reply hook: %+v", o)
	}

	// The same text with another answer: the approval pinned the first.
	block.Reply = `{"action":"allow"}`
	o = dispatch(t, d, "pre_tool_call", fields)
	if o.Decision != protocol.DecisionBlock || o.Hooks[0].Ran || !strings.Contains(o.Message, "changed since approval") {
		t.Fatalf("a reply hook whose answer changed ran, or its guard did not block: %+v", o)
	}
}

// A spec no kind handles is never skipped silently: an approved guard of
// it blocks the gating event, and elsewhere it is skipped, with why.
func TestASpecWithoutAKindBlocksItsGatingEvent(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	post, _ := protocol.Lookup("post_tool_call")
	spec := &replySpec{Name: "allow", Reply: `{"action":"allow"}`}
	entries := []*hookconfig.Entry{{Event: pre, Spec: spec}, {Event: post, Spec: spec}}
	d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}
	o := dispatch(t, d, "pre_tool_call", fields)
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "a reply hook, which this dispatcher cannot run") || o.Hooks[0].Ran {
		t.Fatalf("pre_tool_call: %+v", o)
	}
	o = dispatch(t, d, "post_tool_call", fields)
	if o.Decision == protocol.DecisionBlock || !strings.Contains(o.Hooks[0].Skipped, "cannot run here") || o.Hooks[0].Ran {
		t.Fatalf("post_tool_call: %+v", o)
	}
}
