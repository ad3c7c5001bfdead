package protocol

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Claude Code dialect replies.

// Claude Code's reasons for the refusals Event.RefusesAsk and
// Event.RefusesInputChange make (2.1.332, its PreSkillShellCommand reply
// rules).
const (
	AskRefusedReason         = "the hook asked for approval, which a skill can't wait for"
	InputChangeRefusedReason = "the hook changed the command, which isn't supported here"
)

// validationFailed starts the note of a reply that fails validation.
const validationFailed = "hook output failed validation: "

// parseClaude reads a Claude-dialect reply: its contribution, its note,
// and the refusal in words it did not read (foreignRefusal), "" when none.
func parseClaude(r Reply) (*Contribution, string, string) {
	ev := r.Event
	if r.SpawnError != "" || r.TimedOut {
		reason := r.NotRun()
		if r.FailClosed && ev.Can(CapBlock|CapContinue) {
			return failedClosed(r.Command, reason), reason, ""
		}
		return nil, reason, ""
	}
	stdout := JSTrim(toValidUTF8(r.Stdout))
	stderr := JSTrim(toValidUTF8(r.Stderr))

	var (
		c       *Contribution
		note    string
		isJSON  bool
		badJSON bool
		unread  = unparseable // why, when badJSON
		invalid bool          // JSON that fails Claude Code's schema: no reply at all
		// hsoUnread: why hookSpecificOutput was not applied (no or another
		// event's hookEventName: Claude Code's error), "" when it was.
		hsoUnread string
		obj       map[string]any // the reply, when isJSON
	)
	if strings.HasPrefix(stdout, "{") {
		v, err := pyjson.DecodeUnique([]byte(stdout))
		var ok bool
		obj, ok = v.(map[string]any)
		if amb := ambiguous(err); amb != "" {
			badJSON, unread = true, "ambiguous stdout: "+amb
			note = AmbiguousNote(amb, stdout)
		} else if err != nil || !ok {
			badJSON = true
			note = "hook stdout looks like a JSON object but is not valid JSON: " + textutil.CutRunes(stdout, 200)
		} else {
			isJSON = true
			c, note, hsoUnread = claudeJSON(ev, obj)
			invalid = c == nil && strings.HasPrefix(note, validationFailed)
		}
	}

	switch {
	case r.ExitCode == 2 && stdout == "" && missingScript(ev, stderr):
		// Claude Code downgrades this on stop events: a stop hook whose
		// script is gone must not keep the agent going forever.
		note = textutil.JoinNonEmpty("; ", note, "exit code 2 with a missing script ("+firstLine(stderr)+") is a non-blocking error on "+ev.ClaudeName())
	case r.ExitCode == 2 || r.ExitCode != 0 && ev.Exit2 == ExitNonZeroBlocks:
		var n string
		c, n = claudeExit2(ev, c, stderr)
		note = textutil.JoinNonEmpty("; ", note, n)
	case r.ExitCode == 0:
		switch {
		case isJSON || badJSON || stdout == "":
		case ev.PlainContext:
			c = &Contribution{Context: stdout}
		case ev.PlainResult:
			c = &Contribution{Result: &stdout}
		}
	default:
		if !isJSON {
			note = textutil.JoinNonEmpty("; ", note, "Failed with non-blocking status code "+strconv.Itoa(r.ExitCode)+prefixIf(": ", firstLine(stderr)))
		}
	}

	if c != nil && c.Decision == DecisionBlock && c.Message == "" {
		// A JSON block without a reason, not exit 2's: Claude Code's text.
		c.Message = ClaudeDefaultBlockReason
	}

	// Another dialect's refusal where this reply neither refuses nor stops
	// (foreignRefusal). Where exit 2 blocks, c is that block; where it
	// does nothing (PermissionRequest, a Hermes event), stdout still
	// speaks.
	var foreign string
	if isJSON && (c == nil || c.Decision != DecisionBlock && !c.Stop) {
		if foreign = foreignRefusal(Claude, ev, obj, c != nil && c.Decision == DecisionAsk); foreign != "" {
			note = textutil.JoinNonEmpty("; ", note, foreign)
		}
	}
	if r.FailClosed && ev.Can(CapBlock|CapContinue) && (c == nil || c.Decision != DecisionBlock) {
		switch {
		case badJSON:
			return failedClosed(r.Command, unread), note, foreign
		case invalid:
			// Claude Code reads such a reply as a non-blocking error, on
			// exit 0 as on 1 or 3 (exit 2 blocked above): the guard said
			// nothing it could use, which a fail_closed guard must not
			// turn into "allow".
			return failedClosed(r.Command, "its reply "+strings.TrimPrefix(note, "hook output ")), note, foreign
		case !isJSON && r.ExitCode == 0 && strings.Contains(stdout, "{") && !ev.PlainContext && !ev.PlainResult:
			// Text before a reply where only JSON decides (a shell
			// profile's banner): Claude Code ignores it, and the reply
			// after it. Text alone ("ok") is a success there, and stays one.
			return failedClosed(r.Command, unparseable), note, foreign
		case hsoUnread != "" && r.ExitCode != 2:
			// The same error for the part that carries a PreToolUse
			// decision: what the guard decided there was not read.
			return failedClosed(r.Command, "its reply's "+hsoUnread), note, foreign
		case foreign != "":
			return failedClosed(r.Command, foreign), note, foreign
		case r.ExitCode != 0 && r.ExitCode != 2 && !isJSON:
			return failedClosed(r.Command, r.failText()), note, foreign
		}
	}
	if c.IsEmpty() {
		return nil, note, foreign
	}
	return c, note, foreign
}

// claudeExit2 applies a blocking exit (2; any non-zero exit where the
// event says ExitNonZeroBlocks) to c, the reading of the reply's stdout;
// the note says when it does nothing.
func claudeExit2(ev *Event, c *Contribution, stderr string) (*Contribution, string) {
	switch ev.Exit2 {
	case Exit2Blocks, ExitNonZeroBlocks:
		// The block's reason is the reply's own, else stderr (a JSON block
		// without a reason of its own takes stderr too: spec §4.2).
		if c == nil || c.Decision != DecisionBlock || c.Message == "" {
			if c == nil {
				c = &Contribution{}
			}
			c.Decision, c.Message, c.RuleKey = DecisionBlock, stderr, ""
			if c.Message == "" {
				c.Message = ClaudeExit2NoStderr
			}
		}
	case Exit2User:
		if stderr != "" {
			if c == nil {
				c = &Contribution{}
			}
			c.SystemMessage = textutil.JoinNonEmpty("\n", c.SystemMessage, stderr)
		}
	default:
		return c, "exit code 2 has no effect on " + ev.ClaudeName()
	}
	return c, ""
}

// missingScript reports Claude Code's special case (Event.SoftMissingScript):
// an exit 2 whose stderr says the script could not be found or opened is a
// non-blocking error, not a block.
func missingScript(ev *Event, stderr string) bool {
	return ev.SoftMissingScript && (strings.Contains(stderr, "No such file") || strings.Contains(stderr, "can't open"))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func prefixIf(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// claudeJSON applies a parsed Claude reply object. A type or enum error in a
// known field invalidates the whole reply (Claude Code's schema validation:
// a non-blocking error, the action proceeds). hsoUnread says why its
// hookSpecificOutput was not applied, "" when it was (or there is none).
func claudeJSON(ev *Event, obj map[string]any) (_ *Contribution, _ string, hsoUnread string) {
	if msg := validateClaude(obj); msg != "" {
		return nil, validationFailed + msg, ""
	}
	c := &Contribution{}
	var notes []string

	if cont, ok := obj["continue"].(bool); ok && !cont {
		c.Stop = true
		c.StopReason, _ = obj["stopReason"].(string)
	}
	c.SystemMessage, _ = obj["systemMessage"].(string)
	c.TerminalSequence, _ = obj["terminalSequence"].(string)
	reason, _ := obj["reason"].(string)

	// Gating candidates: the top-level decision and hookSpecificOutput's;
	// the most restrictive wins (Claude Code 2.1.330 blocks when either
	// blocks).
	var (
		topDecision Decision
		hsoDecision Decision
		hsoReason   string
	)
	if d, ok := obj["decision"].(string); ok {
		switch {
		case d == "block" && ev.Can(CapBlock|CapContinue):
			topDecision = DecisionBlock
		case d == "approve" && ev.Can(CapApprove):
			topDecision = DecisionAllow
		default:
			notes = append(notes, "decision \""+d+"\" has no effect on "+ev.ClaudeName())
		}
	}
	if c.SystemMessage != "" && ev.DropsSystemMessage {
		notes = append(notes, "systemMessage is discarded on "+ev.ClaudeName())
		c.SystemMessage = ""
	}

	if raw, present := obj["hookSpecificOutput"]; present && raw != nil {
		hso := raw.(map[string]any) // validated above
		name, _ := hso["hookEventName"].(string)
		switch {
		case name == "":
			hsoUnread = "hookSpecificOutput has no hookEventName"
			notes = append(notes, "hookSpecificOutput without hookEventName ignored")
		case name != ev.ClaudeName() && !slices.Contains(ev.HSOAliases, name):
			hsoUnread = "hookSpecificOutput.hookEventName \"" + name + "\" is not " + ev.ClaudeName()
			notes = append(notes, "hookSpecificOutput.hookEventName \""+name+"\" does not match "+ev.ClaudeName()+"; ignored")
		default:
			if msg := validateBehavior(ev, hso); msg != "" {
				return nil, validationFailed + msg, ""
			}
			c.HookSpecific = unmodelledHSO(hso)
			d, msg, n := claudeHSO(ev, hso, c)
			if n != "" {
				notes = append(notes, n)
			}
			hsoDecision, hsoReason = refusals(ev, hso, d, msg, reason, topDecision)
		}
	}

	// The most restrictive of the two forms applies; its message is its own
	// reason (for hookSpecificOutput, permissionDecisionReason, else the
	// top-level reason). A block without one is left without: exit 2 gives
	// it stderr, else parseClaude gives it Claude Code's default.
	decision, msg := topDecision, reason
	if hsoDecision.Rank() > topDecision.Rank() {
		decision, msg = hsoDecision, hsoReason
		if msg == "" {
			msg = reason
		}
	}
	if decision.Rank() > 0 {
		c.Decision, c.Message = decision, msg
		if decision == DecisionDefer {
			c.Message = ""
		}
	}
	if c.Decision.Rank() == 0 && c.Context != "" && ev.Can(CapContinue) {
		// A stop hook that only adds context makes Claude Code go on with
		// the turn, that context its reason to (issue 13, item 3): the
		// same as a block, under the same cap of consecutive blocks.
		c.Decision, c.Message, c.Context = DecisionBlock, c.Context, ""
	}
	c = withExtensions(obj, c)
	if c.IsEmpty() {
		c = nil
	}
	return c, strings.Join(notes, "; "), hsoUnread
}

// refusals applies the event's refusal rules to hookSpecificOutput's
// decision d (reason msg; the reply's top-level reason and decision beside
// it), as Claude Code 2.1.332 reads a PreSkillShellCommand reply: ask and
// defer refuse, their reason followed by AskRefusedReason; an updatedInput
// refuses with InputChangeRefusedReason unless the reply refuses already.
func refusals(ev *Event, hso map[string]any, d Decision, msg, reason string, top Decision) (Decision, string) {
	switch {
	case ev.RefusesAsk && (d == DecisionAsk || d == DecisionDefer):
		if msg == "" {
			msg = reason
		}
		return DecisionBlock, textutil.JoinNonEmpty("; ", msg, AskRefusedReason)
	case ev.RefusesInputChange && d != DecisionBlock && top != DecisionBlock && hso["updatedInput"] != nil:
		return DecisionBlock, InputChangeRefusedReason
	}
	return d, msg
}

// claudeHSO reads hookSpecificOutput for ev. It returns the gating decision
// it asks for (if any) and that decision's reason.
func claudeHSO(ev *Event, hso map[string]any, c *Contribution) (d Decision, reason string, note string) {
	if s, ok := hso["additionalContext"].(string); ok && ev.Can(CapContext) {
		c.Context = s
	}
	if ev.Permission {
		reason, _ = hso["permissionDecisionReason"].(string)
		switch hso["permissionDecision"] {
		case "deny":
			d = DecisionBlock
		case "ask":
			d = DecisionAsk
		case "allow":
			d = DecisionAllow
		case "defer":
			// Left to the host's own permission flow: it outranks ask and
			// allow (Claude Code merges deny > defer > ask > allow), and the
			// fold turns a winning defer into "none".
			d = DecisionDefer
		}
	}
	if ev.UpdatedInput {
		if m, ok := hso["updatedInput"].(map[string]any); ok {
			c.Args, c.ReplaceArgs = m, true
		}
	}
	if ev.Behavior {
		if dec, ok := hso[decisionMember].(map[string]any); ok {
			switch dec["behavior"] {
			case "allow":
				d = DecisionAllow
				if m, ok := dec["updatedInput"].(map[string]any); ok {
					c.Args, c.ReplaceArgs = m, true
				}
			case "deny":
				d = DecisionBlock
				reason, _ = dec["message"].(string)
			}
			keepDecisionMembers(c, dec)
		}
	}
	if ev.ToolOutput {
		readToolOutput(c, hso)
	}
	return d, reason, note
}

// validateBehavior checks, on an event that reads one (PermissionRequest),
// hookSpecificOutput.decision: an object whose behavior is "allow" or
// "deny", as Claude Code's schema has it ("Deny" fails it; the request
// then goes on to the person). It returns the problem, or "".
func validateBehavior(ev *Event, hso map[string]any) string {
	v, ok := hso["decision"]
	if !ev.Behavior || !ok || v == nil {
		return ""
	}
	if dec, ok := v.(map[string]any); ok && (dec["behavior"] == "allow" || dec["behavior"] == "deny") {
		return ""
	}
	return `hookSpecificOutput.decision.behavior must be "allow" or "deny"`
}

// validateClaude checks the types of the universal fields. It returns a
// description of the first problem, or "".
func validateClaude(obj map[string]any) string {
	for _, k := range []string{"continue", "suppressOutput"} {
		if v, ok := obj[k]; ok && v != nil {
			if _, ok := v.(bool); !ok {
				return k + " must be a boolean"
			}
		}
	}
	for _, k := range []string{"stopReason", "systemMessage", "reason", "terminalSequence"} {
		if v, ok := obj[k]; ok && v != nil {
			if _, ok := v.(string); !ok {
				return k + " must be a string"
			}
		}
	}
	if v, ok := obj["decision"]; ok && v != nil {
		if s, ok := v.(string); !ok || (s != "approve" && s != "block") {
			return `decision must be "approve" or "block"`
		}
	}
	if v, ok := obj["hookSpecificOutput"]; ok && v != nil {
		hso, ok := v.(map[string]any)
		if !ok {
			return "hookSpecificOutput must be an object"
		}
		if pd, ok := hso["permissionDecision"]; ok && pd != nil {
			switch pd {
			case "allow", "deny", "ask", "defer":
			default:
				return "permissionDecision must be allow, deny, ask or defer"
			}
		}
		for _, k := range []string{"permissionDecisionReason", "additionalContext", "hookEventName"} {
			if v, ok := hso[k]; ok && v != nil {
				if _, ok := v.(string); !ok {
					return "hookSpecificOutput." + k + " must be a string"
				}
			}
		}
		if v, ok := hso["updatedInput"]; ok && v != nil {
			if _, ok := v.(map[string]any); !ok {
				return "hookSpecificOutput.updatedInput must be an object"
			}
		}
	}
	return ""
}
