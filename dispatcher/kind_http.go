package dispatcher

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookhttp"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// httpKind is a Claude Code http hook: the payload POSTed to its URL
// (internal/hookhttp), the answer read as a process's reply. It runs no
// local file, so it is approved by its URL together with what it sends.
type httpKind struct{ spec *hookconfig.HTTPSpec }

func httpKindOf(s hookconfig.Spec) hookKind {
	if h, ok := s.(*hookconfig.HTTPSpec); ok {
		return httpKind{h}
	}
	return nil
}

func (k httpKind) fixed(*hookconfig.Entry) *cmdpin.Target {
	what := "an HTTP endpoint: what it answers can change without notice"
	if sent := sentVariables(k.spec.Headers, k.spec.AllowedEnvVars); len(sent) > 0 {
		// The approval pins the headers, but what the person approving
		// reads is this and the URL: a secret sent along is said here.
		what += "; its headers send " + strings.Join(sent, ", ") + " from your environment"
	}
	return &cmdpin.Target{Opaque: what, Spec: httpSpec(k.spec)}
}

// sentVariables are the environment variables headers send: named in a
// header value and allowed (hookhttp fills no other), sorted. An http
// hook's and an opa: entry's alike.
func sentVariables(headers map[string]string, allowed []string) []string {
	var sent []string
	for _, v := range headers {
		hookhttp.HeaderVariables(v, func(name string) {
			if slices.Contains(allowed, name) && !slices.Contains(sent, name) {
				sent = append(sent, name)
			}
		})
	}
	slices.Sort(sent)
	return sent
}

func (httpKind) cannotRun() string { return "" }

func (k httpKind) run(ctx context.Context, d *Dispatcher, _ *protocol.Event, h Invocation, payload []byte) ran {
	res, status, contentType := hookhttp.Post(ctx, hookhttp.Spec{URL: k.spec.URL, Shown: hookconfig.ShownURL(k.spec.URL), Headers: k.spec.Headers, AllowedEnvVars: k.spec.AllowedEnvVars,
		Env: h.Env, Body: payload, Timeout: h.timeout(), Cap: d.opts.OutputCap})
	r := ran{res: res, timeout: h.timeout()}
	if status != 0 {
		r.http = &protocol.HTTPAnswer{Status: status, ContentType: contentType}
	}
	return r
}

// httpSpec is the canonical text of what an http hook sends where: its URL,
// its headers sorted by name, and the environment variables their values
// may name, sorted and without repeats (their order means nothing). Each
// value is Go-quoted, so no two definitions share a text. The approval pins
// its digest (cmdpin.Target.Spec): a header or an allowed variable added
// after the URL was approved — a secret sent along — needs a new approval.
func httpSpec(s *hookconfig.HTTPSpec) string {
	return "http\nurl " + strconv.Quote(s.URL) + hookconfig.SentText(s.Headers, s.AllowedEnvVars)
}
