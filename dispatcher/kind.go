package dispatcher

import (
	"context"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// hookKind is how the dispatcher handles one kind of hook — one
// hookconfig.Spec — in one file per kind (kind_*.go): what consent
// approves, what keeps an approved hook from running here, and running
// it. Everything else about an entry (selection, the gate, payloads, the
// reply's dialect, the fold, the journal) is the same for every kind.
type hookKind interface {
	// fixed is what the gate approves for a kind that starts no local
	// command: a target known by its text (Opaque) and, when it has one,
	// the canonical text of what it does (Spec), whose digest the approval
	// pins. nil for a command: cmdpin resolves what it runs (commandOf),
	// and the gate checks and pins those files.
	fixed(e *hookconfig.Entry) *cmdpin.Target
	// cannotRun says why an approved hook of this kind cannot run here
	// ("" when it can): it is then skipped, and on a gating event it
	// blocks rather than let a guard be skipped silently.
	cannotRun() string
	// run runs an approved hook with its payload. h.fields are the
	// fields it fires with (a transform chain's rewrites included), for a
	// kind that decides in-process from the firing rather than by a
	// reply.
	run(ctx context.Context, d *Dispatcher, ev *protocol.Event, h Invocation, payload []byte) ran
}

// ran is what a kind's run gives back: the result, read as a process's
// (its reply in the entry's dialect); a note for the report; and, when
// set, what to do once the report is complete (read what the hook left
// in its CLAUDE_ENV_FILE).
//
// A kind that decides in-process (a rule, an answer it reads itself)
// sets decided: then direct is its contribution (nil: no objection) and
// no reply is parsed; res then only carries the elapsed time. A kind that
// fails (an evaluation error, an unreachable server) leaves decided false
// and sets res.SpawnError or res.TimedOut: the failure is then read as a
// failed hook's, so fail_closed blocks a gating event the same way for
// every kind.
type ran struct {
	res     hookproc.Result
	note    string
	after   func(*protocol.HookReport)
	decided bool
	direct  *protocol.Contribution
	// answer is what a kind decided in-process read in place of a reply
	// (an opa: entry's OPA answer, its body as it came), for test and
	// doctor (HookRun.Answer).
	answer []byte
	// http is what the answer said of itself, for a reply that came over
	// HTTP (protocol.Reply.HTTP).
	http *protocol.HTTPAnswer
	// timeout is the timeout it ran under (Invocation.timeout: the
	// entry's, or less where a shared budget ends first), for the words
	// of a timeout; 0: the entry's.
	timeout time.Duration
	// timedOut marks an in-process decision stopped at its time bound (a
	// rule's): its report says it timed out, as a process killed at its
	// timeout's does, and res.SpawnError says how it stopped (past its
	// bound, or never started) — the words a fail_closed refusal quotes,
	// which res.TimedOut would have replaced with a process's.
	timedOut bool
}

// kinds maps a spec to its kind: each returns nil for a spec that is not
// its own. A new kind is one row here and its file; a test may append its
// own kind (and remove it when it ends).
var kinds = []func(hookconfig.Spec) hookKind{
	commandKindOf,
	workerKindOf,
	httpKindOf,
	opaKindOf,
	ruleKindOf,
	unsupportedKindOf,
}

// kindOf is the kind of an entry. A spec no kind knows cannot run here:
// like an unsupported handler, it blocks a gating event rather than be
// skipped.
func kindOf(e *hookconfig.Entry) hookKind {
	s := e.Spec
	if s == nil {
		s = &hookconfig.CommandSpec{}
	}
	for _, of := range kinds {
		if k := of(s); k != nil {
			return k
		}
	}
	return unsupportedKind{why: "a " + s.Kind() + " hook, which this dispatcher cannot run"}
}

// kindOf is the kind of the dispatcher's own entries, mapped once by New;
// any other entry's (RunEntry's) is mapped now.
func (d *Dispatcher) kindOf(e *hookconfig.Entry) hookKind {
	if k, ok := d.kinds[e]; ok {
		return k
	}
	return kindOf(e)
}
