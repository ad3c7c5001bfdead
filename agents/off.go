package agents

import (
	"encoding/json"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// A hook file can say, in its own settings, that the agent runs none of
// its hooks, or not a given one. Install adding its entries under such a
// switch would report "now runs hermes-hooks" for lines the agent never
// runs, and doctor's probe, which runs each line itself, would agree: a
// repository that commits the switch turns the guards off unseen. So
// Install refuses the file (HookFile.Off), naming the switch; the person
// decides whether it goes.

// OffIn is why a would not run each command of doc, a hook file of its
// ("" when it would): the setting that switches it off, named as the file
// spells it. doc is read once (doctor asks it for every entry of a file:
// reading the file per entry grew with the square of its size); lookup is
// the agent's environment for an agent that expands variables in its
// settings (nil: none is set).
func (a *Agent) OffIn(doc pyjson.OrderedObject, lookup func(string) (string, bool)) func(command string) string {
	if a.HookFile.Off == nil {
		return func(string) string { return "" }
	}
	return a.HookFile.Off(doc, lookup)
}

// off is OffIn as an error's text ("" when the agent would run command
// from doc).
func (a *Agent) off(doc pyjson.OrderedObject, lookup func(string) (string, bool)) func(command string) string {
	off := a.OffIn(doc, lookup)
	return func(command string) string {
		why := off(command)
		if why == "" {
			return ""
		}
		return why + ": " + a.Title + " runs no entry install would write here (remove that setting first, if the file is yours to change)"
	}
}

// offByDisableAll is a top-level "disableAllHooks": true, which turns off
// the file's hooks for Claude Code and GitHub Copilot CLI
// (docs/agent-protocols.md); Qwen Code's reading is qwenOff.
func offByDisableAll(doc pyjson.OrderedObject, _ func(string) (string, bool)) func(string) string {
	why := ""
	if on, _ := get(doc, "disableAllHooks").(bool); on {
		why = `"disableAllHooks" is true`
	}
	return func(string) string { return why }
}

// qwenOff is Qwen Code's disableAllHooks, read as its switch files are
// (qwenDisableValues: any value JavaScript reads as true, 1 and "yes"
// too, its strings' variables expanded).
func qwenOff(doc pyjson.OrderedObject, lookup func(string) (string, bool)) func(string) string {
	return switchRules["qwen"].ownOff(doc, lookup)
}

// geminiOff is Gemini CLI's hooksConfig in the hook file itself, read as
// its switch files are (geminiEnabledValues, geminiDisabledList): an
// "enabled" Gemini reads as false turns every hook off ("false" in any
// case too, and "${UNSET:-}", which it expands to ""), and "disabled"
// lists the hooks it skips by name, else by command. Our handlers have no
// name: a line of ours listed there is skipped. A second reading here
// took "false" for true and expanded nothing, so doctor said a line that
// Gemini skipped fires.
func geminiOff(doc pyjson.OrderedObject, lookup func(string) (string, bool)) func(string) string {
	return switchRules["gemini"].ownOff(doc, lookup)
}

// ownOff reads doc, a hook file that is also one of r's switch files,
// once, for the setting that turns off the agent's hooks, or a command's
// line alone ("": none). The strings are expanded in doctor's environment, the agent's
// when doctor runs where it does; a file that would expand past
// maxExpanded is read as written.
func (r switchRule) ownOff(doc pyjson.OrderedObject, lookup func(string) (string, bool)) func(command string) string {
	plain, _ := plainJSON(doc).(map[string]any)
	if v, err := r.expanded(plain, lookup); err == nil {
		plain = v
	}
	if _, key, off := r.offBy([]map[string]bool{r.values(plain)}); off {
		why := r.setting(key)
		return func(string) string { return why }
	}
	if r.lines == nil {
		return func(string) string { return "" }
	}
	named := r.lines([]map[string]any{plain})
	return func(command string) string {
		if _, ok := named(command); ok {
			return r.lineSetting
		}
		return ""
	}
}

// plainJSON is v, a value pyjson.DecodeOrdered returns, as the switch
// readers take it (ParseNode's: objects as maps, a key given twice its
// last value, numbers as float64, past its range ±Inf as in JavaScript).
func plainJSON(v any) any {
	switch t := v.(type) {
	case pyjson.OrderedObject:
		out := make(map[string]any, len(t))
		for _, m := range t {
			out[m.Key] = plainJSON(m.Value)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainJSON(e)
		}
		return out
	case json.Number:
		f, _ := strconv.ParseFloat(string(t), 64)
		return f
	}
	return v
}
