package permrule

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// WebFetch domains and Tool(param:value) rules.

// domainPattern is WebFetch(domain:…) (permissions docs, "WebFetch"): the
// URL's host name, case-insensitively, a trailing dot ignored on both sides.
// "*" is every host; a leading "*." is any subdomain at any depth but not
// the domain itself; any other * matches within one label (example.*
// matches example.org, not example.evil.com). Without a wildcard the host
// must be exactly the domain: domain:example.com does not cover
// www.example.com. The host is the one the fetch goes to, read by the
// WHATWG URL standard (urlHost); where it cannot be told, the hook runs.
type domainPattern struct {
	raw    string
	any    bool
	sub    bool     // leading "*."
	labels []string // label patterns (* within a label)
}

func compileDomainPattern(v string) (domainPattern, error) {
	d := domainPattern{raw: "domain:" + v}
	v, ok := idnaASCII(strings.TrimSpace(v))
	if !ok {
		return d, fmt.Errorf("%q: write the domain in its ASCII form (xn--…), as hosts are compared", d.raw)
	}
	v = strings.TrimSuffix(v, ".")
	switch {
	case v == "":
		return d, errors.New("domain: needs a host name")
	case v == "*":
		d.any = true
		return d, nil
	case strings.HasPrefix(v, "*."):
		d.sub, v = true, v[2:]
	}
	d.labels = strings.Split(v, ".")
	for _, l := range d.labels {
		if l == "" {
			return d, fmt.Errorf("%q is not a host name", v)
		}
	}
	return d, nil
}

func (d domainPattern) match(input map[string]any) (bool, string) {
	rule := "WebFetch(" + d.raw + ")"
	raw, _ := input["url"].(string)
	if raw == "" {
		return false, "tool_input has no url"
	}
	host, doubt := urlHost(raw)
	if doubt != "" {
		return true, doubt + ", so the hook runs"
	}
	host = strings.TrimSuffix(host, ".")
	if d.any {
		return true, host + " matches " + rule
	}
	labels := strings.Split(host, ".")
	if d.sub {
		if len(labels) <= len(d.labels) {
			return false, host + " is not a subdomain matching " + rule
		}
		labels = labels[len(labels)-len(d.labels):]
	}
	if len(labels) != len(d.labels) {
		return false, host + " does not match " + rule
	}
	for i, l := range d.labels {
		if !starMatch(l, labels[i]) {
			return false, host + " does not match " + rule
		}
	}
	return true, host + " matches " + rule
}

// starMatch matches s against a pattern whose only metacharacter is *.
func starMatch(pat, s string) bool {
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return pat == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// paramPattern is Tool(param:value) (permissions docs, "Match by input
// parameter"): the tool_input's top-level field param, a scalar, equals
// value, where * in value matches any run of characters. A missing field
// never matches. The docs describe it for deny and ask rules; that `if`
// honours it is UNVERIFIED, and it is accepted here so that such a rule
// filters rather than errors.
type paramPattern struct {
	name, value string
}

// Compiled at first use, not at every start of the one-shot binary.
var paramRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$`) })

func parseParamRule(content string) (paramPattern, bool) {
	m := paramRule().FindStringSubmatch(content)
	if m == nil {
		return paramPattern{}, false
	}
	return paramPattern{name: m[1], value: m[2]}, true
}

func (p paramPattern) match(input map[string]any) (bool, string) {
	rule := p.name + ":" + p.value
	var s string
	switch v := input[p.name].(type) {
	case string:
		s = v
	case bool:
		s = strconv.FormatBool(v)
	case float64:
		s = strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		s = v.String()
	case int:
		s = strconv.Itoa(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	default:
		return false, "tool_input has no scalar " + p.name
	}
	if !starMatch(p.value, s) {
		return false, p.name + " is " + s + ", not " + p.value
	}
	return true, "tool_input matches " + rule
}
