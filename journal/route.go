package journal

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Route is how a firing reached the process that decided it, as its
// record states: a person reading the journal can tell a decision of the
// long-running server from one `hook` made itself, and why it did.
type Route struct {
	// ServedBy names the server that decided ("serve"), "" for a process
	// that decided itself.
	ServedBy string
	// ServerUnused is why `hook` did not use the server it found (not
	// running, not trusted, other inputs …), "" when there was none.
	ServerUnused string
	// Agent is the agent whose hook call this firing is (`hook AGENT`),
	// "" for a plain dispatch; serve's records name theirs by the
	// forwarded called_by (dispatcher.Record.Agent).
	Agent string
	// Delivered is what the agent makes of an outcome where that is not
	// its decision (agents.Agent.Delivered: an ask it cannot put to a
	// person is a refusal), nil or "" when it gets the decision as
	// decided. Only the entrance that encodes the reply knows the agent
	// and its event; the record keeps both sides.
	Delivered func(o *protocol.Outcome) (delivered protocol.Decision, why string)
	// AgentEvent is the event as the agent named it (PreToolUse,
	// beforeReadFile), "" for a plain dispatch: what the agent makes of a
	// decision depends on it, and replay asks again.
	AgentEvent string
}

type routeKey struct{}

// WithRoute makes the records of dispatches run under ctx state route.
// The route travels in the context because the dispatcher hands its
// context to the Recorder and need not know about routes.
func WithRoute(ctx context.Context, route Route) context.Context {
	return context.WithValue(ctx, routeKey{}, route)
}

// RouteOf is the route WithRoute put in ctx (the zero Route when none).
func RouteOf(ctx context.Context) Route {
	if ctx == nil {
		return Route{}
	}
	r, _ := ctx.Value(routeKey{}).(Route)
	return r
}
