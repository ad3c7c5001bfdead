package agents

import "github.com/hermes-hooks/hermes-hooks/protocol"

// Codex CLI: PLACEHOLDER until the protocol is confirmed.
var codex = &Agent{
	Name:     "codex",
	Title:    "Codex CLI",
	EventKey: "hook_event_name",
	Events:   map[string]string{},
	decode:   decodeClaude,
	encode:   encodeClaude,
	deny: func(c *Call, reason string) Reply {
		return encodeClaude(c, &protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: reason})
	},
}

// GitHub Copilot CLI: PLACEHOLDER until the protocol is confirmed.
var copilot = &Agent{
	Name:     "copilot",
	Title:    "GitHub Copilot CLI",
	EventKey: "hook_event_name",
	Events:   map[string]string{},
	decode:   decodeClaude,
	encode:   encodeClaude,
	deny: func(c *Call, reason string) Reply {
		return encodeClaude(c, &protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: reason})
	},
}
