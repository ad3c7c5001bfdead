package agents

import (
	"encoding/json"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// A hook file can say, in its own settings, that the agent runs none of
// its hooks, or not a given one. Install adding its entries under such a
// switch would report "now runs hermes-hooks" for lines the agent never
// runs, and doctor's probe, which runs each line itself, would agree: a
// repository that commits the switch turns the guards off unseen. So
// Install refuses the file (HookFile.Off), naming the switch; the person
// decides whether it goes.

// SwitchedOff is why a would not run command from doc, a hook file of
// its ("" when it would): the setting that switches it off, named as the
// file spells it. doctor reads an installed file with it.
func (a *Agent) SwitchedOff(doc pyjson.OrderedObject, command string) string {
	if a.HookFile.Off == nil {
		return ""
	}
	return a.HookFile.Off(doc, command)
}

// off is HookFile.Off's reason for doc and command, as an error's text
// ("" when the agent would run command from doc).
func (a *Agent) off(doc pyjson.OrderedObject, command string) string {
	why := a.SwitchedOff(doc, command)
	if why == "" {
		return ""
	}
	return why + ": " + a.Title + " runs no entry install would write here (remove that setting first, if the file is yours to change)"
}

// offByDisableAll is a top-level "disableAllHooks": true, which turns off
// the file's hooks for Claude Code and GitHub Copilot CLI
// (docs/agent-protocols.md); Qwen Code's reading is qwenOff.
func offByDisableAll(doc pyjson.OrderedObject, _ string) string {
	if on, _ := get(doc, "disableAllHooks").(bool); on {
		return `"disableAllHooks" is true`
	}
	return ""
}

// qwenOff is Qwen Code's disableAllHooks: any value JavaScript reads as
// true turns every hook off (switches_gemini.go), 1 and "yes" too.
func qwenOff(doc pyjson.OrderedObject, _ string) string {
	if v, set := doc.Get("disableAllHooks"); set && orderedTruthy(v) {
		return `"disableAllHooks" is true`
	}
	return ""
}

// orderedTruthy is JavaScript's truth of v, a value pyjson.DecodeOrdered
// returns (numbers are json.Number).
func orderedTruthy(v any) bool {
	if n, isNumber := v.(json.Number); isNumber {
		f, _ := n.Float64() // past float64's range: ±Inf, true
		return f != 0
	}
	if _, isObject := v.(pyjson.OrderedObject); isObject {
		return true
	}
	return pyjson.Truthy(v)
}

// geminiOff is Gemini CLI's hooksConfig: "enabled" that JavaScript reads
// as false (false, 0, "") turns every hook off, and "disabled" lists the
// hooks it skips by name, else by command (geminiDocument reads a file
// the same way as a hook source). Our handlers have no name: a line of
// ours listed there is skipped.
func geminiOff(doc pyjson.OrderedObject, command string) string {
	cfg, _ := get(doc, "hooksConfig").(pyjson.OrderedObject)
	if v, set := cfg.Get("enabled"); set && v != nil && !orderedTruthy(v) {
		return `"hooksConfig"."enabled" is false`
	}
	list, _ := get(cfg, "disabled").([]any)
	for _, v := range list {
		if s, _ := v.(string); s == command {
			return `"hooksConfig"."disabled" names the line install writes`
		}
	}
	return ""
}
