package server

import (
	"net/url"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/journal"
)

// Query parameters naming the agent call a forwarded `hook AGENT` answers
// (its agent, the host that ran the agent's file — "" for the agent
// itself — and the event as the agent named it), so that the record of it
// says what the agent got (journal.Route.Delivered: an ask it cannot put
// to a person is a refusal). They choose no hook: called_by does.
const (
	QueryAgent      = "agent"
	QueryAgentHost  = "agent_host"
	QueryAgentEvent = "agent_event"
)

// servedRoute is the journal route of a dispatch of event (the canonical
// name) this server answers for the query q. The query is the caller's
// word, whoever can reach the socket: it names the agent call only when
// that call is one this version knows and its event is the one
// dispatched, so a caller naming another agent's or another event's call
// (a PermissionRequest for a pre_tool_call, where an ask is delivered as
// asked) cannot make the record say the agent got what it did not; such
// a record keeps the decision alone, as a direct call's does. It chooses
// no hook and changes no decision either way.
func servedRoute(q url.Values, event string) journal.Route {
	route := journal.Route{ServedBy: "serve"}
	agent, agentEvent := q.Get(QueryAgent), q.Get(QueryAgentEvent)
	if agent == "" || agentEvent == "" {
		return route
	}
	route.Delivered = agents.DeliveredBy(agent, q.Get(QueryAgentHost), agentEvent, event)
	if route.Delivered != nil {
		route.AgentEvent = agentEvent
	}
	return route
}
