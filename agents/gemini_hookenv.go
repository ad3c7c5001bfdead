package agents

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// What Gemini CLI 0.61 gives a hook besides its payload (hookRunner's
// executeCommandHook): the hook's own "env" over its environment, the
// firing's variables, and the command text with them put in
// (expandCommand).

// geminiHookEnv reads a hook's "env" as Gemini merges it into the hook's
// environment (...hookConfig.env, last: it wins over Gemini's own
// variables). Node's spawn writes each value as String(value) does; an
// object or a list is no variable anyone meant, and is reported.
func geminiHookEnv(h map[string]any, warn func(string)) map[string]string {
	raw, present := h["env"]
	if !present || raw == nil {
		return nil
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		warn(".env must be an object of variables; ignored")
		return nil
	}
	out := make(map[string]string, len(obj))
	for k, v := range obj {
		switch x := v.(type) {
		case string:
			out[k] = x
		case bool:
			out[k] = strconv.FormatBool(x)
		case nil:
			out[k] = "null"
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				out[k] = x.String()
				continue
			}
			out[k] = strconv.FormatFloat(f, 'f', -1, 64)
		default:
			warn(".env." + k + " is not a string, number or boolean; ignored")
			continue
		}
		if k == "" || strings.ContainsAny(k, "=\x00") || strings.Contains(out[k], "\x00") {
			warn(".env." + k + " cannot be set in an environment; ignored")
			delete(out, k)
		}
	}
	return out
}

// ExpandCommand implements protocol.CommandExpander: Gemini's
// expandCommand, each variable replaced by its value quoted for the shell
// (shell-quote's quote; PowerShell's rule there).
func (geminiCodec) ExpandCommand(text string, v protocol.HookVars) string {
	if !strings.Contains(text, "$") {
		return text
	}
	q := func(s string) string { return geminiShellArg(s, v.PowerShell) }
	cwd := q(v.Project)
	// One after the other, as Gemini's chained replace calls: a value put
	// in is read by the replacements after it.
	for _, r := range [][2]string{{"$GEMINI_PROJECT_DIR", cwd}, {"$GEMINI_CWD", cwd},
		{"$GEMINI_PLANS_DIR", q(v.PlansDir)}, {"$GEMINI_SESSION_ID", q(v.Session)}, {"$CLAUDE_PROJECT_DIR", cwd}} {
		text = strings.ReplaceAll(text, r[0], r[1])
	}
	return text
}

// HookEnv implements protocol.CommandExpander: the session's id, and the
// plans folder when it is known (Gemini's own, passed down to us when
// Gemini is the host; its place otherwise depends on Gemini's project
// registry, which hermes-hooks does not read).
func (geminiCodec) HookEnv(v protocol.HookVars) map[string]string {
	env := map[string]string{"GEMINI_SESSION_ID": v.Session}
	if v.PlansDir != "" {
		env["GEMINI_PLANS_DIR"] = v.PlansDir
	}
	return env
}

var (
	psPlain   = regexp.MustCompile(`^[a-zA-Z0-9\-_.]+$`)
	shSpecial = regexp.MustCompile("([A-Za-z]:)?([#!\"$&'()*,:;<=>?@[\\\\\\]^`{|}])")
	shDouble  = regexp.MustCompile("([\"\\\\$`!])")
)

// geminiShellArg is Gemini's escapeShellArg: "" for an empty value;
// PowerShell's single quotes; else shell-quote's quote of one word.
func geminiShellArg(s string, powershell bool) string {
	switch {
	case s == "":
		return ""
	case powershell:
		if psPlain.MatchString(s) {
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case strings.ContainsAny(s, `"\`) || strings.IndexFunc(s, jsSpace) >= 0:
		if !strings.Contains(s, "'") {
			return "'" + s + "'"
		}
		return `"` + shDouble.ReplaceAllString(s, `\$1`) + `"`
	case strings.Contains(s, "'"):
		return `"` + shDouble.ReplaceAllString(s, `\$1`) + `"`
	}
	return shSpecial.ReplaceAllString(s, `$1\$2`)
}
