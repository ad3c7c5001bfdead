package protocol

import "github.com/hermes-hooks/hermes-hooks/internal/pyjson"

// The members of a Claude-dialect reply's hookSpecificOutput that
// hermes-hooks does not fold into the outcome's own fields, kept as the
// hook wrote them (Contribution.HookSpecific) for the agents that read
// Claude Code's reply shape, and the two that follow what the fold
// decides: PermissionRequest's decision and a tool's replacement output.

// modelledHSO are the hookSpecificOutput members hermes-hooks reads and
// folds itself (on whichever event they apply): every other member is the
// agent's own and passes through (Contribution.HookSpecific).
var modelledHSO = map[string]bool{
	"hookEventName": true, "permissionDecision": true, "permissionDecisionReason": true,
	"updatedInput": true, "additionalContext": true, "decision": true,
	"updatedToolOutput": true, "updatedMCPToolOutput": true,
}

// unmodelledHSO copies the members of hso that hermes-hooks does not model,
// nil when there are none: Claude Code 2.1.332's worktreePath (which
// WorktreeCreate needs), sessionTitle, initialUserMessage, watchPaths,
// suppressOriginalPrompt, PermissionDenied's retry, and whatever a later
// version adds, reach the agent as the hook wrote them.
func unmodelledHSO(hso map[string]any) map[string]any {
	var out map[string]any
	for k, v := range hso {
		if modelledHSO[k] {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = v
	}
	return out
}

// decisionMember is the hookSpecificOutput member that holds
// PermissionRequest's decision. HookSpecific keeps, under the same name,
// the members of it hermes-hooks does not model.
const decisionMember = "decision"

// toolOutputForms are the hookSpecificOutput members that replace a tool's
// output (spec §4.4): updatedToolOutput, and the legacy
// updatedMCPToolOutput it superseded, which a reply with both loses to it.
var toolOutputForms = [...]string{"updatedToolOutput", "updatedMCPToolOutput"}

func isToolOutputForm(k string) bool { return k == toolOutputForms[0] || k == toolOutputForms[1] }

// keepDecisionMembers keeps the members of PermissionRequest's decision
// object dec that hermes-hooks does not fold itself (deny's interrupt,
// allow's updatedPermissions, whatever a later version adds): they go back
// to Claude Code with the decision they came with (the fold's followers).
func keepDecisionMembers(c *Contribution, dec map[string]any) {
	var rest map[string]any
	for k, v := range dec {
		switch k {
		case "behavior", "message", "updatedInput":
			continue
		}
		if rest == nil {
			rest = map[string]any{}
		}
		rest[k] = v
	}
	if rest != nil {
		c.HookSpecific = withMember(c.HookSpecific, decisionMember, rest)
	}
}

// readToolOutput reads the replacement of a tool's output. Hosts that take
// text get it as text (a value that is not a string as its JSON); the
// value as written, and under the name it was written with, is kept for
// the agents that read Claude Code's reply shape, unless it is text under
// the current name, which the text says whole.
func readToolOutput(c *Contribution, hso map[string]any) {
	for _, k := range toolOutputForms {
		v, ok := hso[k]
		if !ok || v == nil {
			continue
		}
		s, isStr := v.(string)
		if !isStr {
			s = string(pyjson.Encode(v, pyjson.Compact))
		}
		c.Result = &s
		if !isStr || k != toolOutputForms[0] {
			c.HookSpecific = withMember(c.HookSpecific, k, v)
		}
		return
	}
}

func withMember(m map[string]any, k string, v any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m[k] = v
	return m
}

// HookSpecificModelled reports whether a hookSpecificOutput member is one
// hermes-hooks folds itself (Outcome.HookSpecific may hold what is left of
// it, which only its own encoder writes): an encoder that writes the
// outcome's other members back as the hooks wrote them skips it.
func HookSpecificModelled(key string) bool { return modelledHSO[key] }

// DecisionMembers are the members of PermissionRequest's decision the
// outcome's hooks wrote beside behavior and message (interrupt,
// updatedPermissions …), for its decision object; nil when none.
func (o *Outcome) DecisionMembers() map[string]any {
	m, _ := o.HookSpecific[decisionMember].(map[string]any)
	return m
}

// ToolOutput is the member, and its value, that replaces the tool's output
// in a Claude Code reply: the form the hook whose replacement is the
// outcome's wrote it in, else updatedToolOutput with the text. ok is false
// when nothing replaces it.
func (o *Outcome) ToolOutput() (key string, value any, ok bool) {
	if o.Result == nil {
		return "", nil, false
	}
	for _, k := range toolOutputForms {
		if v, ok := o.HookSpecific[k]; ok {
			return k, v, true
		}
	}
	return toolOutputForms[0], *o.Result, true
}
