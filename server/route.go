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

// servedRoute is the journal route of a dispatch this server answers for
// the query q.
func servedRoute(q url.Values) journal.Route {
	route := journal.Route{ServedBy: "serve"}
	if agent := q.Get(QueryAgent); agent != "" {
		route.Delivered = agents.DeliveredBy(agent, q.Get(QueryAgentHost), q.Get(QueryAgentEvent), "")
		route.AgentEvent = q.Get(QueryAgentEvent)
	}
	return route
}
