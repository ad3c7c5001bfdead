package hookconfig

import (
	"errors"
	"net/url"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// opaExcludes are the keys an opa: entry cannot have: each makes the entry
// another kind (a command, a worker, a rule, a matcher group of hooks).
var opaExcludes = []string{"command", "worker", "workers", "worker_idle", "rule", "hooks"}

// parseYAMLEntry reads one entry of a Hermes-style YAML hooks list by its
// kind: an opa: entry, else a command (parseEntry, whose signature it
// shares).
func (cfg *Config) parseYAMLEntry(ev *protocol.Event, declared, path string, index int, n *yaml.Node, dialect protocol.Dialect, codec protocol.Codec, source string) *Entry {
	if pyyaml.MappingGet(n, "opa") != nil {
		return cfg.parseOPAEntry(ev, declared, path, index, n, dialect, source)
	}
	if n.Kind == yaml.MappingNode {
		cfg.opaKeysElsewhere(path, n)
	}
	return cfg.parseEntry(ev, declared, path, index, n, dialect, codec, source)
}

// parseOPAEntry reads a Hermes-style entry whose opa: key names an OPA
// data API URL. Everything but the kind (matcher, timeout, fail_closed,
// dialect, priority, mode, examples) is read by parseEntry, as for any
// entry: the entry's label stands in for the command it reads and is not
// kept as one. An entry that is also another kind is skipped with a
// warning; a URL OPA's data API cannot be at is a warning, and the entry
// is kept, so that a fail_closed guard fails (closed) rather than vanish.
func (cfg *Config) parseOPAEntry(ev *protocol.Event, declared, path string, index int, n *yaml.Node, dialect protocol.Dialect, source string) *Entry {
	o := pyyaml.MappingGet(n, "opa")
	if o.Kind != yaml.ScalarNode || o.Tag != "!!str" || strings.TrimSpace(o.Value) == "" {
		cfg.warn(path, ".opa must be the URL of a path of an OPA server's data API (such as http://127.0.0.1:8181/v1/data/hermes/pre_tool_call); got "+pyyaml.Repr(o)+"; skipped")
		return nil
	}
	for _, k := range opaExcludes {
		if pyyaml.MappingGet(n, k) != nil {
			cfg.warn(path, " has both 'opa' and '"+k+"': an entry is an opa policy, a command or a rule, not two; skipped")
			return nil
		}
	}
	spec := &OPASpec{URL: strings.TrimSpace(o.Value)}
	if why := opaURLProblem(spec.URL); why != "" {
		// Shown as everywhere else (ShownURL): a warning is printed at
		// every dispatch, on a stderr an agent may show or keep.
		shown := *o
		shown.Value = ShownURL(spec.URL)
		cfg.warn(path, ".opa "+pyyaml.Repr(&shown)+" "+why+"; the entry fails when it runs")
	} else if why := opaPathProblem(spec.URL); why != "" {
		shown := *o
		shown.Value = ShownURL(spec.URL)
		cfg.warn(path, ".opa "+pyyaml.Repr(&shown)+" "+why)
	}
	cfg.parseOPASend(spec, path, n)
	e := cfg.parseEntry(ev, declared, path, index, pyyaml.WithMapping(n, "command", spec.Label()), dialect, nil, source)
	if e == nil {
		return nil
	}
	e.Command = ""
	e.Spec = spec
	return e
}

// opaURLProblem says what keeps u from being an OPA data API URL the
// dispatcher can post to ("" when nothing does): only http and https are
// posted to, and a host is needed.
func opaURLProblem(u string) string {
	p, err := url.Parse(u)
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		ue.URL = ShownURL(u) // net/url quotes it whole
	}
	switch {
	case err != nil:
		return "is not a URL (" + err.Error() + ")"
	case p.Scheme != "http" && p.Scheme != "https":
		return "is not an http:// or https:// URL"
	case p.Host == "":
		return "has no host"
	}
	return ""
}

// opaPathProblem says what is wrong with the path of u, a URL that can be
// posted to, as an OPA data API path ("" when nothing is known to be). A
// path behind a proxy or gateway can be anything, so only two mistakes
// are named, each of which leaves the entry deciding nothing, unseen:
// the root of the data document, whose answer holds every package and no
// decision of its own (a decision a level down is caught at run time, two
// or more are not), and the v0 API, which reads the body as the input
// itself, not the {"input": …} posted.
func opaPathProblem(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	path := strings.TrimRight(p.Path, "/")
	switch {
	case strings.HasSuffix(path, "/v1/data"):
		return "names the root of OPA's data document: OPA answers with every package and no decision of its own, so the entry never objects; name the policy's document (such as http://127.0.0.1:8181/v1/data/hermes/pre_tool_call)"
	case strings.HasSuffix(path, "/v0/data") || strings.Contains(path, "/v0/data/"):
		return "is OPA's v0 data API, which reads the posted body as the input itself, not the {\"input\": …} hermes-hooks posts, and answers without a result; use the v1 data API (…/v1/data/…)"
	}
	return ""
}
