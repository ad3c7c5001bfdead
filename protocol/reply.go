package protocol

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultBlockMessage is Hermes' message for a block without a usable one.
const DefaultBlockMessage = "Blocked by shell hook."

// ClaudeDefaultBlockReason is Claude Code's text for a deny without reason.
const ClaudeDefaultBlockReason = "Blocked by hook"

// ClaudeExit2NoStderr is the reason of a Claude-dialect exit-2 block whose
// hook wrote nothing on stderr.
const ClaudeExit2NoStderr = "Blocked by hook (exit code 2, no stderr output)"

// Hermes cuts an exit-2 stderr to this many characters for the block message.
const hermesStderrCut = 400

// Reply is everything known about one finished (or failed) hook run.
type Reply struct {
	Dialect Dialect
	Event   *Event
	// Command is the configured command string (named in fail-closed
	// messages).
	Command string
	// ExitCode is the exit status; negative for death by signal. Ignored when
	// SpawnError or TimedOut is set.
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// SpawnError is the error text when the process could not start.
	SpawnError string
	// TimedOut is set when the hook was killed at its timeout; Timeout is the
	// configured timeout in seconds, for the message.
	TimedOut bool
	Timeout  float64
	// FailClosed turns failures into blocks (pre_tool_call only for the
	// Hermes dialect; any blocking event for the Claude dialect).
	FailClosed bool
}

// ParseReply turns one hook run into its contribution (nil: none) and a note
// explaining a reply that contributed nothing or was partly ignored.
func ParseReply(r Reply) (*Contribution, string) {
	if r.Event == nil {
		return nil, "unknown event"
	}
	if r.Dialect == Claude {
		return parseClaude(r)
	}
	return parseHermes(r)
}

func failedClosed(command, reason string) *Contribution {
	msg := "hook " + command + " failed closed: " + reason
	return &Contribution{Decision: DecisionBlock, Message: toValidUTF8([]byte(msg))}
}

// exitText describes a non-zero exit status for messages.
func exitText(code int) string {
	if code < 0 {
		return "was killed by signal " + strconv.Itoa(-code)
	}
	return "exited with status " + strconv.Itoa(code)
}

// ---- Hermes dialect ----------------------------------------------------

func parseHermes(r Reply) (*Contribution, string) {
	ev := r.Event
	blocking := ev.Gating()
	failClosed := r.FailClosed && blocking

	if r.SpawnError != "" || r.TimedOut {
		reason := r.SpawnError
		if r.TimedOut {
			reason = "timed out after " + strconv.FormatFloat(r.Timeout, 'f', -1, 64) + "s"
		}
		if failClosed {
			return failedClosed(r.Command, reason), reason
		}
		return nil, reason
	}

	stdout := pyStrip(toValidUTF8(r.Stdout))
	c, note, isObject := parseHermesStdout(ev, stdout)

	if r.ExitCode == 2 && blocking {
		if c != nil && c.Decision == DecisionBlock {
			return c, ""
		}
		msg := cutRunes(pyStrip(toValidUTF8(r.Stderr)), hermesStderrCut)
		if msg == "" {
			msg = DefaultBlockMessage
		}
		return &Contribution{Decision: DecisionBlock, Message: msg}, ""
	}
	// The first line of stderr says why a hook failed ("jq: command not
	// found"); without it the report would only say that it did.
	why := prefixIf(": ", firstLine(pyStrip(toValidUTF8(r.Stderr))))
	if r.ExitCode != 0 {
		note = joinNonEmpty("; ", "hook "+exitText(r.ExitCode)+why, note)
	}
	if c == nil && failClosed {
		if stdout != "" && !isObject {
			return failedClosed(r.Command, "unparseable stdout (expected a JSON object)"), note
		}
		// Hermes lets a fail_closed hook that crashed with empty stdout
		// through (its open issue #102405); a guard that dies silently must
		// not open the gate, so we block.
		if stdout == "" && r.ExitCode != 0 {
			return failedClosed(r.Command, exitText(r.ExitCode)+" and printed nothing"+why), note
		}
	}
	return c, note
}

// parseHermesStdout reads a Hermes reply on stdout (already trimmed).
// isObject reports whether stdout was a JSON object at all.
func parseHermesStdout(ev *Event, stdout string) (c *Contribution, note string, isObject bool) {
	if stdout == "" {
		return nil, "", false
	}
	if stdout == "{}" {
		return nil, "", true
	}
	v, err := DecodeJSON([]byte(stdout))
	if err != nil {
		return nil, "shell hook stdout was not valid JSON (event=" + ev.Name + "): " + cutRunes(stdout, 200), false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, "shell hook stdout was JSON but not an object", false
	}
	switch ev.Name {
	case "pre_tool_call":
		c = hermesToolReply(obj)
	case "pre_verify":
		c = hermesVerifyReply(obj)
	case "transform_user_input":
		c = hermesInputReply(obj)
	default:
		c = hermesContext(obj)
		if ev.Name == "pre_llm_call" {
			c = hermesLLMReply(obj, c)
		}
		if ev.Can(CapTransform) {
			c = hermesTransformReply(obj, c)
		}
	}
	return withExtensions(obj, c), "", true
}

// hermesContext is Hermes' rule for every other event: a non-blank string
// context, returned untrimmed.
func hermesContext(obj map[string]any) *Contribution {
	if s, ok := obj["context"].(string); ok && pyStrip(s) != "" {
		return &Contribution{Context: s}
	}
	return nil
}

// withExtensions adds the runtime-extension keys any reply may carry: a
// session state patch and metadata for later hooks of the same firing.
func withExtensions(obj map[string]any, c *Contribution) *Contribution {
	state, hasState := obj["state"].(map[string]any)
	meta, hasMeta := obj["metadata"].(map[string]any)
	if !hasState && !hasMeta {
		return c
	}
	if c == nil {
		c = &Contribution{}
	}
	if hasState {
		c.State = state
	}
	if hasMeta && len(meta) > 0 {
		c.Metadata = meta
	}
	if c.IsEmpty() {
		return nil
	}
	return c
}

// rewriteText reads the replacement text of {"action":"rewrite","value":…}
// or {"result":…}; a non-string value is encoded as JSON. An empty or absent
// text is "unchanged".
func rewriteText(obj map[string]any) (string, bool) {
	v, ok := obj["result"]
	if action, _ := obj["action"].(string); action == "rewrite" {
		v, ok = obj["value"]
	}
	if !ok || v == nil {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		s = string(EncodeJSON(v, Compact))
	}
	return s, s != ""
}

// hermesTransformReply: {"result": …} or {"action":"rewrite","value": …}
// replaces the event's text.
func hermesTransformReply(obj map[string]any, c *Contribution) *Contribution {
	s, ok := rewriteText(obj)
	if !ok {
		return c
	}
	if c == nil {
		c = &Contribution{}
	}
	c.Result = &s
	return c
}

// hermesInputReply handles transform_user_input: rewrite the message, or
// block the turn.
func hermesInputReply(obj map[string]any) *Contribution {
	if action, _ := obj["action"].(string); action == "block" {
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["message"], obj["reason"])}
	}
	return hermesTransformReply(obj, hermesContext(obj))
}

// hermesLLMReply adds pre_llm_call's extension verbs: inject_system,
// inject_user and block (only as an "action"; Hermes ignores a
// "decision":"block" here, and so do we).
func hermesLLMReply(obj map[string]any, c *Contribution) *Contribution {
	action, _ := obj["action"].(string)
	value, _ := obj["value"].(string)
	switch {
	case action == "block":
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["message"], obj["reason"]), Context: contextOf(c)}
	case action == "inject_system" && pyStrip(value) != "":
		if c == nil {
			c = &Contribution{}
		}
		c.InjectSystem = value
	case action == "inject_user" && pyStrip(value) != "":
		if c == nil {
			c = &Contribution{}
		}
		c.InjectUser = value
	}
	return c
}

func contextOf(c *Contribution) string {
	if c == nil {
		return ""
	}
	return c.Context
}

func hermesToolReply(obj map[string]any) *Contribution {
	action, _ := obj["action"].(string)
	decision, _ := obj["decision"].(string)
	switch {
	case action == "block":
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["message"], obj["reason"])}
	case decision == "block":
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["reason"], obj["message"])}
	}
	if action == "modify" {
		if m, ok := obj["args"].(map[string]any); ok {
			return &Contribution{Args: m}
		}
	}
	if action == "rewrite" {
		// The runtime-extension spelling of modify (intercept_tool_call).
		if m, ok := obj["value"].(map[string]any); ok {
			return &Contribution{Args: m}
		}
	}
	if decision == "modify" {
		if m, ok := obj["tool_input"].(map[string]any); ok {
			return &Contribution{Args: m}
		}
	}
	if action == "approve" {
		c := &Contribution{Decision: DecisionAsk}
		if s, ok := obj["message"].(string); ok {
			c.Message = pyStrip(s)
		}
		if s, ok := obj["rule_key"].(string); ok {
			c.RuleKey = pyStrip(s)
		}
		return c
	}
	return nil
}

// hermesBlockMessage picks primary when truthy, else secondary; the chosen
// value must be a non-empty string or the default is used (so a truthy
// non-string primary such as 42 yields the default even when secondary is a
// good string — Hermes' quirk, kept).
func hermesBlockMessage(primary, secondary any) string {
	chosen := primary
	if !truthy(primary) {
		chosen = secondary
	}
	if s, ok := chosen.(string); ok && s != "" {
		return s
	}
	return DefaultBlockMessage
}

func hermesVerifyReply(obj map[string]any) *Contribution {
	verb := obj["action"]
	if !truthy(verb) {
		verb = obj["decision"]
	}
	msg := obj["message"]
	if !truthy(msg) {
		msg = obj["reason"]
	}
	if !truthy(verb) {
		return nil
	}
	v := strings.ToLower(pyStrip(pyStr(verb)))
	if v != "continue" && v != "block" {
		return nil
	}
	s, ok := msg.(string)
	if !ok || pyStrip(s) == "" {
		return nil
	}
	return &Contribution{Decision: DecisionBlock, Message: pyStrip(s)}
}

// truthy is Python truthiness for decoded JSON values.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case float64:
		return x != 0
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return true
}

// pyStr is Python's str() of a decoded JSON value, as far as a verb needs.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return string(x)
	case nil:
		return "None"
	}
	return string(EncodeJSON(v, Python))
}

// ---- Claude dialect ----------------------------------------------------

// plainStdoutIsContext lists the events on which Claude Code turns plain
// (non-JSON) stdout of a successful hook into context.
func plainStdoutIsContext(ev *Event) bool {
	switch ev.Name {
	case "pre_llm_call", "on_session_start", "UserPromptExpansion":
		return true
	}
	return false
}

func parseClaude(r Reply) (*Contribution, string) {
	ev := r.Event
	if r.SpawnError != "" || r.TimedOut {
		reason := r.SpawnError
		if r.TimedOut {
			reason = "timed out after " + strconv.FormatFloat(r.Timeout, 'f', -1, 64) + "s"
		}
		if r.FailClosed && ev.Can(CapBlock|CapContinue) {
			return failedClosed(r.Command, reason), reason
		}
		return nil, reason
	}
	stdout := jsTrim(toValidUTF8(r.Stdout))
	stderr := jsTrim(toValidUTF8(r.Stderr))

	var (
		c       *Contribution
		note    string
		isJSON  bool
		badJSON bool
	)
	if strings.HasPrefix(stdout, "{") {
		v, err := DecodeJSON([]byte(stdout))
		obj, ok := v.(map[string]any)
		if err != nil || !ok {
			badJSON = true
			note = "hook stdout looks like a JSON object but is not valid JSON: " + cutRunes(stdout, 200)
		} else {
			isJSON = true
			c, note = claudeJSON(ev, obj)
		}
	}

	switch {
	case r.ExitCode == 2 && stdout == "" && missingScript(ev, stderr):
		// Claude Code downgrades this on stop events: a stop hook whose
		// script is gone must not keep the agent going forever.
		note = joinNonEmpty("; ", note, "exit code 2 with a missing script ("+firstLine(stderr)+") is a non-blocking error on "+ev.ClaudeName())
	case r.ExitCode == 2:
		switch ev.Exit2 {
		case Exit2Blocks:
			if c == nil || c.Decision != DecisionBlock {
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
				c.SystemMessage = joinNonEmpty("\n", c.SystemMessage, stderr)
			}
		default:
			note = joinNonEmpty("; ", note, "exit code 2 has no effect on "+ev.ClaudeName())
		}
	case r.ExitCode == 0:
		if !isJSON && !badJSON && stdout != "" && plainStdoutIsContext(ev) {
			c = &Contribution{Context: stdout}
		}
	default:
		if !isJSON {
			note = joinNonEmpty("; ", note, "Failed with non-blocking status code "+strconv.Itoa(r.ExitCode)+prefixIf(": ", firstLine(stderr)))
		}
	}

	if r.FailClosed && ev.Can(CapBlock|CapContinue) && (c == nil || c.Decision != DecisionBlock) {
		switch {
		case badJSON:
			return failedClosed(r.Command, "unparseable stdout (expected a JSON object)"), note
		case r.ExitCode != 0 && r.ExitCode != 2 && !isJSON:
			return failedClosed(r.Command, exitText(r.ExitCode)), note
		}
	}
	if c.IsEmpty() {
		return nil, note
	}
	return c, note
}

// missingScript reports Claude Code's special case: on Stop, SubagentStop,
// TaskCompleted and TeammateIdle an exit 2 whose stderr says the script
// could not be found or opened is a non-blocking error, not a block.
func missingScript(ev *Event, stderr string) bool {
	switch ev.ClaudeName() {
	case "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle":
		return strings.Contains(stderr, "No such file") || strings.Contains(stderr, "can't open")
	}
	return false
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
// a non-blocking error, the action proceeds).
func claudeJSON(ev *Event, obj map[string]any) (*Contribution, string) {
	if msg := validateClaude(obj); msg != "" {
		return nil, "hook output failed validation: " + msg
	}
	c := &Contribution{}
	var notes []string

	if cont, ok := obj["continue"].(bool); ok && !cont {
		c.Stop = true
		c.StopReason, _ = obj["stopReason"].(string)
	}
	c.SystemMessage, _ = obj["systemMessage"].(string)
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
	if c.SystemMessage != "" && discardsSystemMessage(ev) {
		notes = append(notes, "systemMessage is discarded on "+ev.ClaudeName())
		c.SystemMessage = ""
	}

	if raw, present := obj["hookSpecificOutput"]; present && raw != nil {
		hso := raw.(map[string]any) // validated above
		name, _ := hso["hookEventName"].(string)
		switch {
		case name == "":
			notes = append(notes, "hookSpecificOutput without hookEventName ignored")
		case name != ev.ClaudeName():
			notes = append(notes, "hookSpecificOutput.hookEventName \""+name+"\" does not match "+ev.ClaudeName()+"; ignored")
		default:
			d, msg, n := claudeHSO(ev, hso, c)
			if n != "" {
				notes = append(notes, n)
			}
			hsoDecision, hsoReason = d, msg
		}
	}

	// The most restrictive of the two forms applies; its message is its own
	// reason (for hookSpecificOutput, permissionDecisionReason, else the
	// top-level reason), else Claude Code's default.
	decision, msg := topDecision, reason
	if hsoDecision.rank() > topDecision.rank() {
		decision, msg = hsoDecision, hsoReason
		if msg == "" {
			msg = reason
		}
	}
	if decision.rank() > 0 {
		c.Decision, c.Message = decision, msg
		if msg == "" && decision == DecisionBlock {
			c.Message = ClaudeDefaultBlockReason
		}
		if decision == DecisionDefer {
			c.Message = ""
		}
	}
	if c.Decision.rank() == 0 && c.Context != "" && ev.Can(CapContinue) {
		// A stop hook that only adds context makes Claude Code go on with
		// the turn, that context its reason to (issue 13, item 3): the
		// same as a block, under the same cap of consecutive blocks.
		c.Decision, c.Message, c.Context = DecisionBlock, c.Context, ""
	}
	c = withExtensions(obj, c)
	if c.IsEmpty() {
		c = nil
	}
	return c, strings.Join(notes, "; ")
}

// discardsSystemMessage lists the events whose systemMessage Claude Code
// drops.
func discardsSystemMessage(ev *Event) bool {
	switch ev.ClaudeName() {
	case "Notification", "SessionEnd", "PreCompact", "PostCompact", "InstructionsLoaded", "StopFailure":
		return true
	}
	return false
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
	switch ev.Name {
	case "PermissionRequest":
		if dec, ok := hso["decision"].(map[string]any); ok {
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
		}
	case "post_tool_call":
		if v, ok := hso["updatedToolOutput"]; ok && v != nil {
			s, isStr := v.(string)
			if !isStr {
				s = string(EncodeJSON(v, Compact))
			}
			c.Result = &s
		} else if v, ok := hso["updatedMCPToolOutput"]; ok && v != nil {
			s := string(EncodeJSON(v, Compact))
			if str, isStr := v.(string); isStr {
				s = str
			}
			c.Result = &s
		}
	}
	return d, reason, note
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

// ---- helpers -----------------------------------------------------------

// cutRunes keeps the first n code points of s.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// Truncate is Hermes' _truncate: s when it has at most n code points, else
// its first n-3 code points and "...".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return cutRunes(s, n-3) + "..."
}
