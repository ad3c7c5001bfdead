package hookconfig

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// TypeOPA is an opa: entry's kind.
const TypeOPA = "opa"

// OPASpec is an entry decided by an Open Policy Agent server (opa: in a
// Hermes-style entry): the entry's payload is POSTed as {"input": …} to
// URL, a path of OPA's data API, and the document it answers with is read
// as {decision, message}. The dispatcher posts it (dispatcher/kind_opa.go,
// through internal/hookhttp); hookconfig keeps the URL and what is sent
// with each post.
type OPASpec struct {
	URL string
	// Headers are sent with each post (an OPA server started with
	// --authentication=token reads Authorization: Bearer …); their values
	// may name the variables AllowedEnvVars lists, filled in as an http
	// hook's are (HTTPSpec).
	Headers        map[string]string
	AllowedEnvVars []string
	// Invalid says why the headers or allowed_env_vars as written cannot
	// be sent ("" when they can): the entry is kept and fails when it
	// runs, so that a fail_closed guard fails closed rather than vanish
	// or post without them. It never holds a header's value.
	Invalid string
}

// Kind implements Spec.
func (*OPASpec) Kind() string { return TypeOPA }

// Label implements Spec: an opa entry is listed and approved by its URL,
// marked as OPA's so that it never reads as an http hook's, shown as
// ShownURL shows it. The approval still pins the whole URL (the
// dispatcher's opaSpec), so a changed password needs a new approval.
func (s *OPASpec) Label() string { return "opa: " + ShownURL(s.URL) }

// SentText is the canonical text of what a post sends besides its body
// (an http hook's or an opa: entry's): a line per header, sorted by name,
// then one per allowed variable, sorted and without repeats, each value
// Go-quoted; "" for none. The dispatcher's approval specs end with it, so
// that a header added or changed after approval needs a new one, and an
// opa entry's SameKey with it, so that two entries of one URL that send
// different tokens are two hooks (numbered apart by numberShown), not one
// run once.
func SentText(headers map[string]string, allowed []string) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		b.WriteString("\nheader " + strconv.Quote(name) + " " + strconv.Quote(headers[name]))
	}
	for _, name := range slices.Compact(slices.Sorted(slices.Values(allowed))) {
		b.WriteString("\nallowed_env " + strconv.Quote(name))
	}
	return b.String()
}
