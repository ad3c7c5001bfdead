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
// channel). The same holds for the hooks of an agent's own file read in
// its dialect (a Codec: Gemini CLI's, Cursor's …): each declares the words
// it reads (ReplyWords) and CodecRead searches the rest of this table.

// refusalWord is one top-level key another dialect refuses or stops with.
type refusalWord struct {
	key string
	// owner is whose word it is, in messages ("Cursor's").
	owner string
	// readBy are the dialects parsed here that read the key themselves,
	// on the events readOn says: there it is no foreign word (their parser
	// decided already), only its spellings in another case are.
	readBy []Dialect
	// open are the values that say "no objection" (allow, continue:
	// true, cancel: false); asks are those that ask the user, no objection
	// beside a reply that asks too. Any other value, a listed refusal or a
	// word nobody lists ("block" where Cursor says "deny"), is what a
	// guard meant to say and nobody reads. Strings compare in any case.
	open, asks []any
}

// refusalWords, in the order a reply is searched. A mixed reply (an allow
// here, a refusal there) is not read as allow.
var refusalWords = []refusalWord{
	{key: "action", owner: "the Hermes dialect's", readBy: []Dialect{Hermes}, open: []any{"allow", "pass", ""}, asks: []any{"approve"}},
	{key: "decision", owner: "the Hermes and Claude dialects'", readBy: []Dialect{Hermes, Claude}, open: []any{"allow", "approve", ""}},
	{key: "hookSpecificOutput", owner: "Claude Code's", readBy: []Dialect{Claude}},
	{key: "continue", owner: "Claude Code's", readBy: []Dialect{Claude}, open: []any{true}},
	// Copilot CLI's words are read by its codec (agents: a copilot_hooks
	// file's hooks, ReplyWords), not by a dialect parsed here.
	{key: "permissionDecision", owner: "Copilot CLI's", open: []any{"allow"}, asks: []any{"ask"}},
	{key: "permission", owner: "Cursor's", open: []any{"allow"}, asks: []any{"ask"}},
	{key: "cancel", owner: "Cline's", open: []any{false}},
	{key: "behavior", owner: "Copilot CLI's", open: []any{"allow"}},
}

// hsoWords are the members of Claude Code's hookSpecificOutput that
// refuse, by their path below it, with their no-objection and ask values
// (permissionDecision "defer" leaves the call to the host's own flow).
var hsoWords = []struct {
	path       []string
	open, asks []any
}{
	{path: []string{"permissionDecision"}, open: []any{"allow", "defer"}, asks: []any{"ask"}},
	{path: []string{"decision", "behavior"}, open: []any{"allow"}},
}

// passes reports whether v says no objection: absent (null), one of open,
// or, when the reply asks already (asks), one of asks.
func passes(v any, open, asks []any, asking bool) bool {
	if v == nil {
		return true
	}
	in := func(vals []any) bool {
		for _, w := range vals {
			ws, isStr := w.(string)
			if s, ok := v.(string); ok && isStr && strings.EqualFold(s, ws) {
				return true
			}
			if b, ok := v.(bool); ok && w == any(b) {
				return true
			}
		}
		return false
	}
	return in(open) || asking && in(asks)
}

// readOn reports whether d's parser reads w's key on ev: Claude's its
// top-level keys everywhere; Hermes' its verbs only where the reply form
// has them (hermesVerbs, whose unreadVerb checks their values), not on
// PreSkillShellCommand, whose Hermes reply is context.
func (w refusalWord) readOn(d Dialect, ev *Event) bool {
	if !slices.Contains(w.readBy, d) {
		return false
	}
	if d == Hermes {
		_, ok := hermesVerbs[ev.HermesReply]
		return ok
	}
	return true
}

// foreignApplies reports whether d's fail_closed applies on ev: where a
// foreign refusal is unreadable (the gating events for Hermes', any event
// a block or a stop refuses for Claude's). Other dialects are their
// codecs' to say (ReplyWords.Refusal, CodecRead).
func foreignApplies(d Dialect, ev *Event) bool {
	switch d {
	case Hermes:
		return ev.FailsClosed()
	case Claude:
		return ev.Can(CapBlock | CapContinue)
	}
	return false
}

// reader is the parser a reply was read by, as the search for a refusal
// it did not read asks it: the Hermes or the Claude dialect's, or a
// codec's (words: what it reads in a reply to declared, its agent's
// event).
type reader struct {
	d        Dialect
	ev       *Event
	declared string
	words    *ReplyWords
}

// reads reports whether the parser reads w's key, spelt as w spells it.
func (x reader) reads(w refusalWord) bool {
	if x.words != nil {
		return slices.Contains(x.words.Keys, w.key)
	}
	return w.readOn(x.d, x.ev)
}

// foreignRefusal describes the first word of refusal in obj, a reply read
// in dialect d on ev, that d does not read there — another dialect's key,
// any dialect's in another case, d's own on an event that does not read
// it — with the fix; "" when there is none. asking: d's reading asks the
// user, and an ask in another vocabulary says the same. The caller asks
// only when d's reading of obj did not refuse.
func foreignRefusal(d Dialect, ev *Event, obj map[string]any, asking bool) string {
	if len(obj) == 0 || !foreignApplies(d, ev) {
		return ""
	}
	return reader{d: d, ev: ev}.refusal(obj, asking)
}

// CodecRead is a codec's reading of a run (c, note; obj: the reply object
// it read, nil when it read none) with the search the Hermes and Claude
// dialects make: where the agent's hooks refuse (w.Refusal) and its
// reading neither refused nor stopped, a word of refusal in obj that it
// does not read (w.Keys) — another dialect's, its own in another case — is
// unreadable. A fail_closed guard refuses, naming whose word it is and the
// fix; any other hook keeps c, with that as its note. d is the codec's
// dialect and declared its agent's event, for the message.
func CodecRead(d Dialect, declared string, w ReplyWords, r Reply, obj map[string]any, c *Contribution, note string) Read {
	rd := Read{Contribution: c, Note: note}
	ev := r.Event
	if len(obj) == 0 || ev == nil || w.Refusal == "" || !ev.Can(CapBlock|CapContinue) ||
		c != nil && (c.Decision == DecisionBlock || c.Stop) {
		return rd
	}
	x := reader{d: d, ev: ev, declared: declared, words: &w}
	if rd.Foreign = x.refusal(obj, c != nil && c.Decision == DecisionAsk); rd.Foreign == "" {
		return rd
	}
	rd.Note = textutil.JoinNonEmpty("; ", note, rd.Foreign)
	if r.FailClosed {
		rd.Contribution = failedClosed(r.Command, rd.Foreign)
	}
	return rd
}

// refusal is foreignRefusal for any parser, where its fail_closed applies.
func (x reader) refusal(obj map[string]any, asking bool) string {
	// In one order, so that which of two words a message names does not
	// depend on map iteration.
	keys := sortedKeys(obj)
	for _, w := range refusalWords {
		for _, k := range keys {
			if !strings.EqualFold(k, w.key) {
				continue
			}
			if w.key == "hookSpecificOutput" {
				if s := x.hsoRefusal(k, obj[k], asking); s != "" {
					return s
				}
				continue
			}
			v := obj[k]
			switch {
			case k == w.key && x.reads(w), passes(v, w.open, w.asks, asking):
				continue
			case k != w.key:
				return caseText(k, shownValue(v), w.key)
			}
			return "its reply's " + k + " " + shownValue(v) + " is " + w.owner + " word, " + x.notRead(w.readBy) + x.fix(w.readBy)
		}
	}
	return ""
}

// notRead says that the parser does not read a word (on ev, when d reads
// it on other events: readBy holds d; a codec's, on its event).
func (x reader) notRead(readBy []Dialect) string {
	switch {
	case x.words != nil:
		return "which the " + string(x.d) + " dialect does not read on " + x.declared + ": "
	case !slices.Contains(readBy, x.d):
		return "which the " + dialectTitle(x.d) + " dialect does not read: "
	}
	name := x.ev.Name
	if x.d == Claude {
		name = x.ev.ClaudeName()
	}
	return "which the " + dialectTitle(x.d) + " dialect does not read on " + name + ": "
}

// hsoRefusal finds in hookSpecificOutput (v, under the key k) a member
// that refuses and that the parser did not read: any, in any case, when
// it does not read the object (another dialect, a codec, the key in
// another case, another event's hookEventName); else a member in another
// case, or one ev does not read (decision.behavior on PreToolUse). Where
// Claude Code reads a member the parser decided already.
func (x reader) hsoRefusal(k string, v any, asking bool) string {
	hso, _ := v.(map[string]any)
	// The Claude dialect reads hookSpecificOutput, and so does a codec
	// that lists it among its words (Copilot's, which reads Claude Code's
	// beside its own).
	claudeHSO := x.words == nil && x.d == Claude || x.words != nil && slices.Contains(x.words.Keys, "hookSpecificOutput")
	readsObj := claudeHSO && k == "hookSpecificOutput"
	if name, _ := hso["hookEventName"].(string); name != x.ev.ClaudeName() && !slices.Contains(x.ev.HSOAliases, name) {
		readsObj = false
	}
	reads := map[string]bool{"permissionDecision": readsObj && x.ev.Permission, "decision.behavior": readsObj && x.ev.Behavior}
	for _, w := range hsoWords {
		want := strings.Join(w.path, ".")
		for _, m := range members(hso, w.path) {
			if m.exact && reads[want] || passes(m.v, w.open, w.asks, asking) {
				continue
			}
			switch {
			case k != "hookSpecificOutput":
				return caseText(k, "."+m.path+" "+shownValue(m.v), "hookSpecificOutput")
			case !m.exact && claudeHSO:
				return caseText("hookSpecificOutput."+m.path, shownValue(m.v), want)
			}
			return "its reply's hookSpecificOutput." + m.path + " " + shownValue(m.v) + " is Claude Code's word, " +
				x.notRead([]Dialect{Claude}) + x.fix([]Dialect{Claude})
		}
	}
	return ""
}

// found is a member of an object at a path, each key in any case.
type found struct {
	// path is as written; exact: every key as the path spells it.
	path  string
	v     any
	exact bool
}

// members finds every member at path in obj, each key in any case, in
// sorted key order: the one spelled as path (the one Claude Code reads)
// among those in another case (which nobody reads), each of which may
// refuse.
func members(obj map[string]any, path []string) []found {
	var out []found
	for _, k := range sortedKeys(obj) {
		if !strings.EqualFold(k, path[0]) {
			continue
		}
		if len(path) == 1 {
			out = append(out, found{path: k, v: obj[k], exact: k == path[0]})
			continue
		}
		inner, _ := obj[k].(map[string]any)
		for _, f := range members(inner, path[1:]) {
			out = append(out, found{path: k + "." + f.path, v: f.v, exact: f.exact && k == path[0]})
		}
	}
	return out
}

func caseText(key, shown, want string) string {
	return "its reply's key " + key + " (" + shown + ") is " + want + " in another case, which no dialect reads: keys are case-sensitive"
}

// fix is how to make an entry say what a reply in words that readBy read
// meant: read it in the dialect it speaks when hermes-hooks reads that
// one, else reply in the parser's own words (a codec's: its agent's).
func (x reader) fix(readBy []Dialect) string {
	if x.words != nil {
		return x.words.Refusal + " to refuse"
	}
	d, ev := x.d, x.ev
	own := `reply {"decision": "block", "reason": "…"}`
	if d == Hermes {
		switch ev.HermesReply {
		case ReplyTool:
			own = `reply {"action": "block", "message": "…"}`
		case ReplyGateway:
			own = `reply {"action": "skip", "reason": "…"}`
		default:
			// PreSkillShellCommand: its Hermes reply is context only.
			own = "exit 2 with the reason on stderr"
		}
	}
	switch {
	case d == Hermes && slices.Contains(readBy, Claude):
		return "put dialect: claude on its entry, or " + own
	case d == Claude && slices.Contains(readBy, Hermes):
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
