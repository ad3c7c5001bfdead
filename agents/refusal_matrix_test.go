package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// read is what an agent does with one reply to a gating event, as the
// agent itself reads it (the channels it reads there, nothing more).
type read struct {
	refused, asks, rewritten, stops, context bool
}

// readers read a reply as each agent (and each host of an agent's file)
// does before a tool runs: one per name in the registry. A new agent
// without one fails TestGatingDecisionsNeverRunTheOriginalCall, so its
// author must say how it reads a refusal.
var readers = map[string]func(agentEvent string, r Reply) read{
	"claude": readClaudeShaped(true, true, true),
	"vscode": readClaudeShaped(true, true, true),
	// Codex 0.169 fails a PreToolUse reply with ask, allow without
	// updatedInput, or continue:false: the call then runs.
	"codex":   readCodex,
	"factory": readClaudeShaped(true, true, true),
	// Qwen 0.24 reads neither continue:false nor updatedInput before a tool.
	"qwen":    readClaudeShaped(false, true, false),
	"copilot": readFlat("permissionDecision", "modifiedArgs", "additionalContext"),
	"cursor": func(ev string, r Reply) read {
		rd := readFlat("permission", "updated_input", "")(ev, r)
		rd.rewritten = rd.rewritten && ev == "preToolUse"
		return rd
	},
	"gemini": func(_ string, r Reply) read {
		obj := replyObject(r)
		hso, _ := obj["hookSpecificOutput"].(map[string]any)
		d, _ := obj["decision"].(string)
		return read{
			refused: r.Exit == 2 || d == "deny" || d == "block", asks: d == "ask",
			rewritten: hso["tool_input"] != nil, stops: obj["continue"] == false,
		}
	},
	"kiro":     func(_ string, r Reply) read { return read{refused: r.Exit == 2} },
	"windsurf": func(_ string, r Reply) read { return read{refused: r.Exit == 2} },
	"cline": func(ev string, r Reply) read {
		obj := replyObject(r)
		return read{refused: obj["cancel"] == true, stops: obj["cancel"] == true,
			rewritten: obj["overrideInput"] != nil && clineFile(ev) != ev,
			context:   obj["contextModification"] != nil}
	},
}

func replyObject(r Reply) map[string]any {
	if r.Exit != 0 || len(r.Stdout) == 0 {
		return nil
	}
	v, _ := pyjson.Decode(r.Stdout)
	obj, _ := v.(map[string]any)
	return obj
}

// readClaudeShaped reads Claude Code's PreToolUse reply: exit 2, or
// hookSpecificOutput.permissionDecision, updatedInput, additionalContext,
// and continue:false; stops and rewrites say whether the agent reads those.
func readClaudeShaped(stops, asks, rewrites bool) func(string, Reply) read {
	return func(_ string, r Reply) read {
		obj := replyObject(r)
		hso, _ := obj["hookSpecificOutput"].(map[string]any)
		pd, _ := hso["permissionDecision"].(string)
		return read{
			refused: r.Exit == 2 || pd == "deny" || obj["decision"] == "block",
			asks:    asks && pd == "ask", rewritten: rewrites && hso["updatedInput"] != nil,
			stops: stops && obj["continue"] == false, context: hso["additionalContext"] != nil,
		}
	}
}

func readCodex(ev string, r Reply) read {
	obj := replyObject(r)
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	pd, _ := hso["permissionDecision"].(string)
	if pd == "ask" || pd == "allow" && hso["updatedInput"] == nil || obj["continue"] == false {
		return read{} // an invalid reply: the hook failed, the call runs
	}
	return readClaudeShaped(false, false, true)(ev, r)
}

// readFlat reads a flat reply: a permission key (deny, ask), the rewritten
// arguments' key and the context's.
func readFlat(perm, args, ctx string) func(string, Reply) read {
	return func(_ string, r Reply) read {
		obj := replyObject(r)
		p, _ := obj[perm].(string)
		return read{refused: r.Exit == 2 || p == "deny", asks: p == "ask",
			rewritten: obj[args] != nil, context: ctx != "" && obj[ctx] != nil}
	}
}

// gatingCall is one caller (an agent, or a host of its file) on one of the
// agent's gating events.
type gatingCall struct {
	name string
	call *Call
}

// gatingCalls lists every agent's and host's gating events, from the
// registry and the catalog: a new agent or event is covered as it is added.
func gatingCalls(t *testing.T) []gatingCall {
	var out []gatingCall
	for _, a := range All() {
		for _, ae := range a.AgentEvents() {
			c, err := a.Decode([]byte(`{}`), ae)
			if err != nil || c.Event == nil {
				t.Fatalf("%s %s: Decode = %+v, %v", a.Name, ae, c, err)
			}
			if !c.Event.Gating() {
				continue
			}
			out = append(out, gatingCall{a.Name, c})
			for _, h := range a.hosts {
				hc := *c
				hc.Host = h
				out = append(out, gatingCall{h.Name, &hc})
			}
		}
	}
	return out
}

// TestGatingDecisionsNeverRunTheOriginalCall (issue 31, item 6): for every
// agent and host × every gating event it serves × every decision a hook
// can make there, the reply as that agent reads it either carries the
// decision out or refuses the call: never exit 0 with the original call
// running. Context changes nothing about what runs: it must neither refuse
// nor stop.
func TestGatingDecisionsNeverRunTheOriginalCall(t *testing.T) {
	neutral := map[string]any{"command": "true"}
	decisions := []struct {
		name    string
		outcome protocol.Outcome
		carried func(read) bool
	}{
		{"block", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no"}, func(r read) bool { return r.refused }},
		{"ask", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"}, func(r read) bool { return r.asks || r.refused }},
		{"rewrite", protocol.Outcome{Args: neutral}, func(r read) bool { return r.rewritten || r.refused }},
		{"stop", protocol.Outcome{Stop: true, StopReason: "enough"}, func(r read) bool { return r.stops || r.refused }},
		{"context", protocol.Outcome{Context: "careful"}, func(r read) bool { return !r.refused && !r.stops }},
		// Decisions together (Claude's continue:false beside an allow, a
		// rewrite beside an ask …): each must be carried out, or the call
		// refused; an allow must not carry the call past a stop.
		{"stop+allow", protocol.Outcome{Decision: protocol.DecisionAllow, Stop: true, StopReason: "enough"}, func(r read) bool { return r.stops || r.refused }},
		{"stop+ask", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", Stop: true}, func(r read) bool { return r.stops || r.refused }},
		{"stop+rewrite", protocol.Outcome{Args: neutral, Stop: true}, func(r read) bool { return r.stops && r.rewritten || r.refused }},
		{"block+rewrite", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no", Args: neutral}, func(r read) bool { return r.refused }},
		{"ask+rewrite", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", Args: neutral}, func(r read) bool { return r.asks && r.rewritten || r.refused }},
		{"allow+rewrite", protocol.Outcome{Decision: protocol.DecisionAllow, Args: neutral}, func(r read) bool { return r.rewritten || r.refused }},
	}
	calls := gatingCalls(t)
	if len(calls) < len(All()) {
		t.Fatalf("%d gating calls for %d agents: every agent serves a gating event", len(calls), len(All()))
	}
	for _, gc := range calls {
		reader, ok := readers[gc.name]
		if !ok {
			t.Errorf("%s: no reader in readers: say how it reads a reply before a tool", gc.name)
			continue
		}
		a, c := gc.call.Agent, gc.call
		for _, d := range decisions {
			t.Run(gc.name+"/"+c.AgentEvent+"/"+d.name, func(t *testing.T) {
				o := d.outcome
				o.Event = c.Event.Name
				r := a.Encode(c, &o)
				if got := reader(c.AgentEvent, r); !d.carried(got) {
					t.Errorf("reply exit %d stdout %q stderr %q reads as %+v: the call runs as announced", r.Exit, r.Stdout, r.Stderr, got)
				}
			})
		}
		t.Run(gc.name+"/"+c.AgentEvent+"/deny", func(t *testing.T) {
			r := a.Deny(c, "guard unreachable")
			if !reader(c.AgentEvent, r).refused || !strings.Contains(string(r.Stdout)+string(r.Stderr), "guard unreachable") {
				t.Errorf("Deny = exit %d stdout %q stderr %q: not a refusal with its reason", r.Exit, r.Stdout, r.Stderr)
			}
		})
	}
}

// TestRefusalsKeepTheirReason: where an agent carries a decision out as a
// refusal — a block, or an ask it cannot put to a person (Codex before a
// tool, Windsurf, Cline, Cursor's beforeReadFile) — the refusal it shows
// carries the reason the hook or rule gave, and a refused ask says that the
// agent could not ask: a rule's "ask before pushing to main" must not read,
// under such an agent, as a plain ban that no approval can lift.
func TestRefusalsKeepTheirReason(t *testing.T) {
	neutral := map[string]any{"command": "true"}
	decisions := []struct {
		name    string
		outcome protocol.Outcome
		ask     bool
	}{
		{"block", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no-such-luck"}, false},
		{"block+rewrite", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no-such-luck", Args: neutral}, false},
		{"ask", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "really-sure"}, true},
		{"ask+rewrite", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "really-sure", Args: neutral}, true},
	}
	for _, gc := range gatingCalls(t) {
		reader := readers[gc.name]
		a, c := gc.call.Agent, gc.call
		for _, d := range decisions {
			t.Run(gc.name+"/"+c.AgentEvent+"/"+d.name, func(t *testing.T) {
				o := d.outcome
				o.Event = c.Event.Name
				r := a.Encode(c, &o)
				got := reader(c.AgentEvent, r)
				if got.asks || !got.refused {
					return
				}
				text := string(r.Stdout) + string(r.Stderr)
				if !strings.Contains(text, o.Message) {
					t.Errorf("the refusal (exit %d stdout %q stderr %q) drops the reason %q", r.Exit, r.Stdout, r.Stderr, o.Message)
				}
				// (Claude Code's own words on PreSkillShellCommand: "the hook
				// asked for approval, which a skill can't wait for".)
				if d.ask && o.Args == nil && !strings.Contains(text, "cannot ask") && !strings.Contains(text, "asked for approval") {
					t.Errorf("an ask refused (exit %d stdout %q stderr %q) does not say the agent cannot ask", r.Exit, r.Stdout, r.Stderr)
				}
			})
		}
	}
}
