package dispatcher

import (
	"context"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Who calls a dispatch, and so which entries it leaves to that caller:
// an agent runs its own hook files' entries itself, and a host that calls
// once per agent file it reads (VS Code) may run the rest in its other
// call, except what can refuse or stop (CalledBy, skipRunBy).

type callerKey struct{}

// CalledBy marks a dispatch as made for agent (claude, codex, copilot,
// cursor: `hermes-hooks hook AGENT`). Entries that agent's own hook files
// declare (hookconfig.Entry.RunBy) are skipped: the agent runs them itself, and must
// not see them run twice. agent may list several, comma-separated: a host
// that runs more than one agent's files (VS Code: Claude Code's settings
// and Copilot's hook files).
//
// protocol.OwnRunElsewhere among them also skips the entries of no
// agent's file (the Hermes config's, a project's hooks file): a host that
// calls once per agent file it reads runs those in another of its calls
// for this event. The managed layer's entries are never skipped so, nor
// any entry that can refuse or stop (a tool call's guard, a prompt
// filter: mayRefuse): that other call is known only from files a
// repository can write and from what the host is taken to do with them
// (a VS Code build that reads other files, a timeout Node cuts to 1 ms, a
// hook list frozen before the file appeared), and no guard may rest on
// that. Such a hook runs in both calls, twice at worst; what the skip
// spares is the second run of the hooks that cannot refuse (a log after
// the session, a notification).
func CalledBy(ctx context.Context, agent string) context.Context {
	return context.WithValue(ctx, callerKey{}, agent)
}

func caller(ctx context.Context) string {
	s, _ := ctx.Value(callerKey{}).(string)
	return s
}

// hostCapsStops reports a caller that bounds its stop hooks' consecutive
// blocks itself (protocol.HostCapsStops in its called-by list).
func hostCapsStops(ctx context.Context) bool {
	return slices.Contains(strings.Split(caller(ctx), ","), protocol.HostCapsStops)
}

// recordedCaller is the called-by list a Record keeps: who called, without
// the HostCapsStops marker, which is about this call's session (a replayed
// firing starts no run of stops to cap) and is no agent to show.
func recordedCaller(ctx context.Context) string {
	list := caller(ctx)
	if !strings.Contains(list, protocol.HostCapsStops) {
		return list
	}
	parts := slices.DeleteFunc(strings.Split(list, ","), func(a string) bool { return a == protocol.HostCapsStops })
	return strings.Join(parts, ",")
}

// An entry ev runs as another event's (forwarded) is kept: its agent runs
// it on its own event only.
func skipRunBy(ev *protocol.Event, entries []*hookconfig.Entry, agent string) []*hookconfig.Entry {
	if agent == "" {
		return entries
	}
	runBy := strings.Split(agent, ",")
	own := slices.Contains(runBy, protocol.OwnRunElsewhere)
	out := entries[:0:0]
	for _, e := range entries {
		if forwarded(ev, e) || e.RunBy == "" && (!own || managed(e) || mayRefuse(ev, e)) || e.RunBy != "" && !slices.Contains(runBy, e.RunBy) {
			out = append(out, e)
		}
	}
	return out
}

// mayRefuse reports whether e can refuse or stop anything on ev: a hook
// of an event that can block or stop (a tool call's guard, a prompt
// filter), or a fail_closed one. Those never rest on a host's other call.
func mayRefuse(ev *protocol.Event, e *hookconfig.Entry) bool {
	return ev.Can(protocol.CapBlock|protocol.CapContinue) || e.FailClosed
}

// managed reports whether e is the administrator's: the managed config's
// or a managed bundle's.
func managed(e *hookconfig.Entry) bool { return e.Scope.Managed || e.ManagedBundle }
