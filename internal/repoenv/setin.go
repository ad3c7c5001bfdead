package repoenv

import (
	"bytes"
	"os"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// value is what a file does with one variable: set (named at all), its
// value when it can be told the agent's (known).
type value struct {
	v          string
	set, known bool
}

// setIn are the variables of ns that data, ef's content, sets and that
// want counts; err: a settings file larger than a's reader takes.
func setIn(a *agents.Agent, ef agents.EnvFile, data []byte, ns nameSet, want Want) ([]string, error) {
	var vals map[string]value
	var names []string
	if ef.Dotenv {
		vals, names = dotenvValues(data, ns.names), ns.names
	} else {
		var err error
		if vals, names, err = settingsValues(a, data, ns); err != nil {
			return nil, err
		}
	}
	var vars []string
	for _, name := range names {
		v := vals[name]
		if a.RepoEnvRefuses(name) {
			continue // the agent takes it from no such file
		}
		if !v.set || !ef.Replaces && v.known && v.v == "" && slices.Contains(emptyIsUnset, name) {
			continue // filling an unset variable with "" leaves it unset
		}
		if want(name, v.v, v.known) {
			vars = append(vars, name)
		}
	}
	return vars, nil
}

// dotenvValues are the variables of names a .env sets (a prefix of
// nameSet matches none: a dotenv name is [\w.-], and the one prefix,
// BASH_FUNC_, names a variable only with a "%%" after the function's
// name). A file of printable ASCII
// reads alike in dotenv and in ParseDotenv; a line that starts to set a
// control where ParseDotenv sees none counts, its value unknown. Any
// other byte (U+00A0, U+2028, \v, a BOM inside a value …) is whitespace
// or a line start to JavaScript and not to Go: every control the file
// names at all counts then, its value unknown.
func dotenvValues(data []byte, names []string) map[string]value {
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

// settingsValues are the variables of ns a settings file's "env" sets
// (and their names: ns's, then those its prefixes match, sorted), read as
// the agent reads the file (agents.SettingsEnv, with this process's
// environment for Qwen Code's expansion: the agent's). A string is put
// into the environment as it is; any other value the agent makes a string
// its own way (Claude Code: 1.0 and ["1"] both "1"), so its value is
// unknown and the name alone counts.
func settingsValues(a *agents.Agent, data []byte, ns nameSet) (map[string]value, []string, error) {
	env, err := a.SettingsEnv(data, os.LookupEnv)
	if err != nil {
		return nil, nil, err
	}
	names := ns.names
	if len(ns.prefixes) > 0 {
		var more []string
		for k := range env {
			if !slices.Contains(names, k) && slices.ContainsFunc(ns.prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
				more = append(more, k)
			}
		}
		slices.Sort(more)
		names = append(slices.Clip(names), more...)
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
	return vals, names, nil
}
