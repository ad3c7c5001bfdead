package dispatcher

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// unsupportedKind is a handler that cannot run here (a prompt, agent or
// mcp_tool handler, a shell other than sh and bash; hookconfig's
// UnsupportedSpec). It is approved by its text, and once approved it is
// skipped — and blocks a gating event, where it was meant as a guard.
type unsupportedKind struct{ why string }

func unsupportedKindOf(s hookconfig.Spec) hookKind {
	if u, ok := s.(*hookconfig.UnsupportedSpec); ok {
		return unsupportedKind{why: u.Why}
	}
	return nil
}

func (k unsupportedKind) fixed(*hookconfig.Entry) *cmdpin.Target {
	return &cmdpin.Target{Opaque: k.why}
}

func (k unsupportedKind) cannotRun() string { return k.why }

// run is never reached (the gate phase skips it); should it be, the hook
// fails as one that cannot start.
func (k unsupportedKind) run(context.Context, *Dispatcher, *protocol.Event, Invocation, []byte) ran {
	return ran{res: hookproc.Result{SpawnError: "cannot run here (" + k.why + ")"}}
}

// refusal is what a gating event is told when h cannot run here: the
// words of its spec (hookconfig.UnsupportedSpec.Refusal), or, for a spec
// no kind knows (kindOf), those every handler that cannot run shares.
func (h *Invocation) refusal() string {
	u, ok := h.Entry.Spec.(*hookconfig.UnsupportedSpec)
	if !ok {
		u = &hookconfig.UnsupportedSpec{Why: h.kind.cannotRun()}
	}
	return u.Refusal(h.Entry.Text(), h.Entry.RunByTitle())
}
