package repoenv

import (
	"bytes"
	"os"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// value is what a file does with one variable: set (named at all), its
// value when it can be told the agent's (known).
type value struct {
	v          string
	set, known bool
}

// setIn are the controls data, ef's content, sets that want counts; err:
// a settings file larger than a's reader takes.
func setIn(a *agents.Agent, ef agents.EnvFile, data []byte, want Want) ([]string, error) {
	var vals map[string]value
	if ef.Dotenv {
		vals = dotenvValues(data)
	} else {
		var err error
		if vals, err = settingsValues(a, data); err != nil {
			return nil, err
		}
	}
	var vars []string
	for _, name := range names {
		v := vals[name]
		if !v.set || !ef.Replaces && v.known && v.v == "" && slices.Contains(emptyIsUnset, name) {
			continue // filling an unset variable with "" leaves it unset
		}
		if want(name, v.v, v.known) {
			vars = append(vars, name)
		}
	}
	return vars, nil
}

// dotenvValues are the controls a .env sets. A file of printable ASCII
// reads alike in dotenv and in ParseDotenv; a line that starts to set a
// control where ParseDotenv sees none counts, its value unknown. Any
// other byte (U+00A0, U+2028, \v, a BOM inside a value …) is whitespace
// or a line start to JavaScript and not to Go: every control the file
// names at all counts then, its value unknown.
func dotenvValues(data []byte) map[string]value {
	vals := map[string]value{}
	named := false
	for _, n := range names {
		named = named || bytes.Contains(data, []byte(n))
	}
	if !named {
		return vals // the common file: nothing to parse
	}
	if !agents.PlainDotenv(data) {
		for _, n := range names {
			if bytes.Contains(data, []byte(n)) {
				vals[n] = value{set: true}
			}
		}
		return vals
	}
	var env map[string]string // parsed only for a line that may set a control
	for _, n := range names {
		if !agents.DotenvNames(data, n) {
			continue // DotenvNames is the looser: ParseDotenv sets no n either
		}
		if env == nil {
			env = agents.ParseDotenv(data)
		}
		v, ok := env[n]
		vals[n] = value{v: v, set: true, known: ok}
	}
	return vals
}

// settingsValues are the controls a settings file's "env" sets, read as
// the agent reads the file (agents.SettingsEnv, with this process's
// environment for Qwen Code's expansion: the agent's). A string is put
// into the environment as it is; any other value the agent makes a string
// its own way (Claude Code: 1.0 and ["1"] both "1"), so its value is
// unknown and the name alone counts.
func settingsValues(a *agents.Agent, data []byte) (map[string]value, error) {
	env, err := a.SettingsEnv(data, os.LookupEnv)
	if err != nil {
		return nil, err
	}
	vals := map[string]value{}
	for _, n := range names {
		raw, ok := env[n]
		if !ok {
			continue
		}
		s, isString := raw.(string)
		vals[n] = value{v: s, set: true, known: isString}
	}
	return vals, nil
}
