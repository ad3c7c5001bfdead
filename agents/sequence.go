package agents

import (
	"maps"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// What the next hook of a sequential run (protocol.Sequencer: Gemini CLI's
// and Qwen Code's sequential groups) is fed from the one before it. Both
// agents do the same two things: a tool input the hook gave back is merged
// over the call's (its keys win), and context it added follows the prompt
// after a blank line.

// sequentialTrue reads a matcher group's sequential key as both agents
// do: only the boolean true (entry.sequential === true).
func sequentialTrue(group map[string]any) bool { return group["sequential"] == true }

// withMergedArgs is fields with the tool's arguments merged with in (nil:
// fields as they are). fields is not modified.
func withMergedArgs(ev *protocol.Event, fields map[string]any, in map[string]any) map[string]any {
	if in == nil {
		return fields
	}
	f := protocol.NewFiring(ev, "", fields)
	merged := map[string]any{}
	if cur, ok := f.Args.(map[string]any); ok {
		maps.Copy(merged, cur)
	}
	maps.Copy(merged, in)
	return f.WithArgs(merged)
}

// withPromptContext is fields with ctx after the prompt, a blank line
// apart ("": fields as they are). Only a text prompt takes it, as in both
// agents. fields is not modified.
func withPromptContext(ev *protocol.Event, fields map[string]any, ctx string) map[string]any {
	if ctx == "" {
		return fields
	}
	prompt, _ := protocol.ClaudeFieldValue(ev, fields, "prompt")
	s, ok := prompt.(string)
	if !ok {
		return fields
	}
	out := maps.Clone(fields)
	out["prompt"] = s + "\n\n" + ctx
	return out
}
