package protocol

import (
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// A reply in another dialect's words. Each parser reads its own dialect's
// keys and nothing else, so a guard copied from another agent (a Claude
// Code hook placed under a Hermes event without dialect: claude, a Cursor
// script, a key written in another case) refuses in words nobody reads and
// its refusal reads as "no objection". For a fail_closed guard that is the
// "other agent's word" hermesVerbs already refuses for a known key's
// value; here it is the key itself. So where the dialect fails closed, a
// reply its parser did not read as a refusal but that holds a word another
// dialect refuses or stops with is unreadable: a fail_closed guard refuses,
// naming whose word it is and the fix, and any other hook keeps its result
// with that as its note (shown by test, doctor and the agent's failure
// channel).

// refusalWord is one top-level key another dialect refuses or stops with.
type refusalWord struct {
	key string
	// owner is whose word it is, in messages ("Cursor's").
	owner string
	// readBy are the dialects parsed here that read the key themselves:
	// for them it is no foreign word (their parser decided already), only
	// its spellings in another case are.
	readBy []Dialect
	// refuses is the word as shown after its key (` "deny"`,
	// `.permissionDecision "deny"`) when v refuses, "" when it does not.
	// Values compare in any case: a refusal in capitals is still one.
	refuses func(v any) string
}

// refusalWords, in the order a reply is searched. Only refusals and stops
// count: a foreign "allow" (or continue: true) asks for nothing a guard
// could be denied, and a mixed reply is read as before.
var refusalWords = []refusalWord{
	{key: "action", owner: "the Hermes dialect's", readBy: []Dialect{Hermes}, refuses: oneOf("block", "deny", "skip")},
	{key: "decision", owner: "the Hermes dialect's", readBy: []Dialect{Hermes, Claude}, refuses: oneOf("block", "deny")},
	{key: "hookSpecificOutput", owner: "Claude Code's", readBy: []Dialect{Claude}, refuses: hsoRefuses},
	{key: "continue", owner: "Claude Code's", readBy: []Dialect{Claude}, refuses: is(false)},
	{key: "permissionDecision", owner: "Copilot CLI's", refuses: oneOf("deny", "ask")},
	{key: "permission", owner: "Cursor's", refuses: oneOf("deny", "ask")},
	{key: "cancel", owner: "Cline's", refuses: is(true)},
	{key: "behavior", owner: "Copilot CLI's", refuses: oneOf("deny")},
}

// oneOf refuses a string equal to one of words in any case.
func oneOf(words ...string) func(any) string {
	return func(v any) string {
		s, ok := v.(string)
		if !ok {
			return ""
		}
		for _, w := range words {
			if strings.EqualFold(s, w) {
				return " " + shownValue(v)
			}
		}
		return ""
	}
}

// is refuses the boolean b (continue: false, cancel: true).
func is(b bool) func(any) string {
	return func(v any) string {
		if got, ok := v.(bool); ok && got == b {
			return " " + shownValue(v)
		}
		return ""
	}
}

// hsoRefuses reads Claude Code's hookSpecificOutput for its refusals: a
// permissionDecision "deny" or "ask", a decision whose behavior is "deny"
// (PermissionRequest); its members in any case, since the reply is not
// read as Claude Code's anyway.
func hsoRefuses(v any) string {
	hso, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range sortedKeys(hso) {
		switch {
		case strings.EqualFold(k, "permissionDecision"):
			if s := oneOf("deny", "ask")(hso[k]); s != "" {
				return "." + k + s
			}
		case strings.EqualFold(k, "decision"):
			dec, _ := hso[k].(map[string]any)
			for _, b := range sortedKeys(dec) {
				if !strings.EqualFold(b, "behavior") {
					continue
				}
				if s := oneOf("deny")(dec[b]); s != "" {
					return "." + k + "." + b + s
				}
			}
		}
	}
	return ""
}

// foreignApplies reports whether d's fail_closed applies on ev: where a
// foreign refusal is unreadable (the gating events for Hermes', any event
// a block or a stop refuses for Claude's). Other dialects are their
// codecs' to read.
func foreignApplies(d Dialect, ev *Event) bool {
	switch d {
	case Hermes:
		return ev.FailsClosed()
	case Claude:
		return ev.Can(CapBlock | CapContinue)
	}
	return false
}

// foreignRefusal describes the first word of refusal in obj, a reply read
// in dialect d on ev, that d does not read — another dialect's key, or
// any dialect's in another case — with the fix; "" when there is none.
// The caller asks only when d's reading of obj did not refuse.
func foreignRefusal(d Dialect, ev *Event, obj map[string]any) string {
	if len(obj) == 0 || !foreignApplies(d, ev) {
		return ""
	}
	// In one order, so that which of two words a message names does not
	// depend on map iteration.
	keys := sortedKeys(obj)
	for _, w := range refusalWords {
		for _, k := range keys {
			if !strings.EqualFold(k, w.key) {
				continue
			}
			if k == w.key && slices.Contains(w.readBy, d) {
				if d == Claude && k == "hookSpecificOutput" {
					if s := hsoCase(obj[k]); s != "" {
						return s
					}
				}
				continue
			}
			shown := w.refuses(obj[k])
			switch {
			case shown == "":
				continue
			case k != w.key:
				return caseText(k, strings.TrimPrefix(shown, " "), w.key)
			}
			return "its reply's " + k + shown + " is " + w.owner + " word, which the " + dialectTitle(d) + " dialect does not read: " + foreignFix(d, ev, w)
		}
	}
	return ""
}

// hsoCase finds, in Claude Code's own hookSpecificOutput, a refusal whose
// key is in another case (PermissionDecision), which Claude Code does not
// read.
func hsoCase(v any) string {
	hso, _ := v.(map[string]any)
	for _, k := range sortedKeys(hso) {
		if k == "permissionDecision" || !strings.EqualFold(k, "permissionDecision") {
			continue
		}
		if s := oneOf("deny", "ask")(hso[k]); s != "" {
			return caseText("hookSpecificOutput."+k, s[1:], "permissionDecision")
		}
	}
	return ""
}

func caseText(key, shown, want string) string {
	return "its reply's key " + key + " (" + shown + ") is " + want + " in another case, which no dialect reads: keys are case-sensitive"
}

// foreignFix is how to make an entry of dialect d say what w's reply
// meant: read it in the dialect it speaks when hermes-hooks reads that
// one, else reply in d's own words.
func foreignFix(d Dialect, ev *Event, w refusalWord) string {
	own := `reply {"decision": "block", "reason": "…"}`
	if d == Hermes {
		own = `reply {"action": "block", "message": "…"}`
		if ev.HermesReply == ReplyGateway {
			own = `reply {"action": "skip", "reason": "…"}`
		}
	}
	switch {
	case d == Hermes && slices.Contains(w.readBy, Claude):
		return "put dialect: claude on its entry, or " + own
	case d == Claude && slices.Contains(w.readBy, Hermes):
		return "drop dialect: claude from its entry, or " + own
	}
	return own + " to refuse"
}

func dialectTitle(d Dialect) string {
	if d == Claude {
		return "Claude"
	}
	return "Hermes"
}

// shownValue is a value as messages quote it: compact JSON, cut.
func shownValue(v any) string {
	return textutil.CutRunes(string(pyjson.Encode(v, pyjson.Compact)), 60)
}

// foreignNoteMarks are in every foreignRefusal text: badReplyNote tells
// such a note by them.
var foreignNoteMarks = []string{" dialect does not read: ", " in another case, which no dialect reads"}
