package hookconfig

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"

	"gopkg.in/yaml.v3"
)

// opaSendKeys are the keys that say what an opa: entry sends with each
// post besides the input.
var opaSendKeys = []string{"headers", "allowed_env_vars"}

// opaFailsWhenRun ends the warning of what an opa: entry cannot send.
const opaFailsWhenRun = "; the entry fails when it runs"

// parseOPASend reads an opa: entry's headers and allowed_env_vars (at
// path, of mapping n) into s. What cannot be sent as written is warned of,
// naming the key and never the value (it may be the token), and sets
// s.Invalid to the first such problem: the entry then fails when it runs
// rather than post without the header it was given (an OPA that wants a
// token answers 401 anyway, which says less).
func (cfg *Config) parseOPASend(s *OPASpec, path string, n *yaml.Node) {
	problem := func(key, msg string) {
		cfg.warn(path, key+msg+opaFailsWhenRun)
		if s.Invalid == "" {
			s.Invalid = strings.TrimPrefix(key, ".") + msg
		}
	}
	// An alias (headers: *h, a value *token) is its anchor's value, as
	// PyYAML reads it.
	if hn := pyyaml.MappingGet(n, "headers"); hn != nil {
		if hn = pyyaml.Deref(hn); hn.Kind != yaml.MappingNode {
			problem(".headers", " must be a mapping of header names to values (such as Authorization: Bearer ${OPA_TOKEN}); got "+pyyaml.Type(hn))
		} else if cfg.keysOnce(hn, path+".headers", nil) {
			// A name given twice is the file's error (keysOnce), as in
			// every mapping read: PyYAML sends the last value, a reader
			// of the file may take the first.
			s.Headers = cfg.parseOPAHeaders(hn, problem)
		}
	}
	if an := pyyaml.MappingGet(n, "allowed_env_vars"); an != nil {
		if an = pyyaml.Deref(an); an.Kind != yaml.SequenceNode {
			problem(".allowed_env_vars", " must be a list of environment variable names (such as [OPA_TOKEN]); got "+pyyaml.Type(an))
		} else {
			for i, item := range an.Content {
				item = pyyaml.Deref(item)
				if item.Kind != yaml.ScalarNode || item.Tag != "!!str" || !envName(item.Value) {
					problem(".allowed_env_vars["+strconv.Itoa(i)+"]", " is not a variable name (a letter or _, then letters, digits and _)")
					continue
				}
				s.AllowedEnvVars = append(s.AllowedEnvVars, item.Value)
			}
		}
	}
}

// parseOPAHeaders reads the headers mapping hn, reporting each header that
// cannot be sent as written to problem: a name that is no HTTP token, the
// same name twice in another case (which one net/http sends would be
// chance), a value that is no string or that holds a control character
// (CR or LF would end the header; net/http refuses them, and the post
// fails with less said).
func (cfg *Config) parseOPAHeaders(hn *yaml.Node, problem func(key, msg string)) map[string]string {
	h := map[string]string{}
	canonical := map[string]string{}
	for i := 0; i+1 < len(hn.Content); i += 2 {
		name, val := pyyaml.Deref(hn.Content[i]).Value, pyyaml.Deref(hn.Content[i+1])
		// Shown cut, as every name of the file's (a key may run to 1,024
		// characters, repeated at every event in a warning).
		key := ".headers." + textutil.Truncate(name, maxShown)
		if !headerName(name) {
			problem(".headers["+strconv.Quote(textutil.Truncate(name, maxShown))+"]", " is not a header name (letters, digits and !#$%&'*+-.^_`|~ only, such as Authorization)")
			continue
		}
		lower := strings.ToLower(name)
		if first, twice := canonical[lower]; twice {
			problem(key, " is the header "+first+" again (header names are read in any case); give it once")
			continue
		}
		canonical[lower] = textutil.Truncate(name, maxShown)
		switch {
		case val.Kind != yaml.ScalarNode:
			problem(key, " must be a string; got "+pyyaml.Type(val))
		case val.Tag != "!!str":
			problem(key, " must be a string; got "+pyyaml.Type(val)+" (quote it)")
		case strings.ContainsFunc(val.Value, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }):
			problem(key, " must be one line: a value with a line break (CR or LF) or another control character would add a header or fail")
		default:
			h[name] = val.Value
		}
	}
	return h
}

// unlistedAdvice is validate's advice for each header of opa: entry e
// whose value names a variable allowed_env_vars does not list. The entry
// runs as written, the variable sent empty (so that a repository's entry
// cannot send a secret by naming it), but that is seldom what its author
// meant: without a word the first sign of a token never sent was OPA's
// 401. Advice, not a load warning: a repository's entry that names a
// secret it cannot have would be warned of at every event.
func unlistedAdvice(e *Entry) []Warning {
	s, ok := e.Spec.(*OPASpec)
	if !ok {
		return nil
	}
	var out []Warning
	for _, name := range slices.Sorted(maps.Keys(s.Headers)) {
		var said []string
		shquote.Expand(s.Headers[name], func(v string) (string, bool) {
			if !slices.Contains(s.AllowedEnvVars, v) && !slices.Contains(said, v) {
				said = append(said, v)
				out = append(out, Warning{Path: entryKeyPath(e), File: e.Source, Key: entryKeyPath(e) + ".headers",
					Message: ".headers." + textutil.Truncate(name, maxShown) + " names $" + textutil.Truncate(v, maxShown) + ", which allowed_env_vars does not list: it is sent empty (list it in allowed_env_vars to send its value)"})
			}
			return "", true
		})
	}
	return out
}

// headerName reports whether s is an HTTP header name: an RFC 9110 token.
func headerName(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return s != ""
}

// envName reports whether s is a variable name a header value can name
// ($NAME, ${NAME}): a letter or _, then letters, digits and _.
func envName(s string) bool {
	for i, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// opaKeysElsewhere warns of an opa: entry's keys on an entry of another
// kind, which sends nothing with them: silence let a token be thought sent.
func (cfg *Config) opaKeysElsewhere(path string, n *yaml.Node) {
	cfg.keysOnlyOn(path, n, opaSendKeys, "opa:", "")
}
