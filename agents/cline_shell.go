package agents

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// clineShellCommand is the command text of cline 3's run_commands input,
// in every shape the SDK's tool takes (@cline/core checks the input
// against a union and runs each: a string, a list of strings or of
// {command, args}, or an object whose commands, command or cmd holds one):
// a line per command, {command, args} as the words it runs. Reading only
// {"commands": [strings]} let {"commands": "rm -rf ~"}, {"command": …}, a
// bare string and six more shapes reach a terminal guard as "" — a
// prompt-injected model needs only to pick one. An input of no shape
// known here is its JSON text, so that a guard reading the command reads
// every word of it, never nothing.
func clineShellCommand(input any) string {
	var lines []string
	if !clineCommands(input, &lines, 0) {
		return string(pyjson.Encode(input, pyjson.Compact))
	}
	return strings.Join(lines, "\n")
}

// clineCommands adds the commands v holds to lines, and says whether v is
// a shape the SDK runs.
func clineCommands(v any, lines *[]string, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case string:
		if d, err := pyjson.Decode([]byte(x)); err == nil {
			switch d.(type) {
			case map[string]any, []any:
				return clineCommands(d, lines, depth+1) // the input as JSON text
			}
		}
		*lines = append(*lines, x)
		return true
	case []any:
		for _, item := range x {
			if !clineCommands(item, lines, depth+1) {
				*lines = append(*lines, string(pyjson.Encode(item, pyjson.Compact)))
			}
		}
		return true
	case map[string]any:
		if c, ok := x["commands"]; ok {
			return clineCommands(c, lines, depth+1)
		}
		if c, ok := x["command"].(string); ok {
			words := []string{c}
			if args, ok := x["args"].([]any); ok {
				for _, a := range args {
					s, ok := a.(string)
					if !ok {
						s = string(pyjson.Encode(a, pyjson.Compact))
					}
					words = append(words, shquote.IfNeeded(s))
				}
			}
			*lines = append(*lines, strings.Join(words, " "))
			return true
		}
		if c, ok := x["cmd"].(string); ok {
			*lines = append(*lines, c)
			return true
		}
	}
	return false
}
