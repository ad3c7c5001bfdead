// Package shownurl is how a URL that may carry a secret is shown: the one
// rule for an http or opa hook's URL (hookconfig.ShownURL) and an export
// endpoint's in the errors export reports. A leaf: it imports nothing of
// this module.
package shownurl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// redacted replaces each secret URL hides.
const redacted = "xxxxx"

// URL is raw as a URL is printed (list, approve, the journal, the
// allowlist, serve's metrics, a block's reason the agent and its model
// read). What a URL may carry for the request only is replaced by xxxxx:
//
//   - user information: a password, as net/url's Redacted does, and a
//     user name that comes alone — a token is often passed as one
//     (https://TOKEN@host/);
//   - every value of its query (?token=…, &sig=…), the names kept, so
//     that what is shown still says what kind of thing is sent; a name
//     with no value that is plainly a token is replaced whole;
//   - a path segment that is plainly a credential (a webhook's
//     /services/T…/B…/<token>: looksLikeToken);
//   - its fragment, which is never sent and has no business holding one.
//
// The approval still pins the whole URL (the dispatcher's httpSpec and
// opaSpec digests), so a changed secret needs a new approval. It works on
// the text, so a URL that does not parse (net/http's error quotes it
// whole) is redacted alike.
func URL(raw string) string {
	return redactParts(asciiHost(withoutUserInfo(raw)))
}

// asciiHost is s with every character of its authority that is not ASCII
// shown as its code point (\u043e; a byte that is no UTF-8, \xff): a
// host's look-alike letters (a Cyrillic о in "оpa.cоrp.example") read as
// the host a person trusts, in approve's plan too, while the request goes
// to another (xn--pa-emc.xn--crp-sed.example). Shown as code points they
// stand out; an ASCII host (and xn-- is ASCII) is shown as written. The
// authority is the one withoutUserInfo reads.
func asciiHost(s string) string {
	start, end, ok := authority(s)
	if !ok {
		return s
	}
	host := s[start:end]
	if !hasNonASCII(host) {
		return s // the common case, with nothing to build
	}
	var b strings.Builder
	b.WriteString(s[:start])
	for i := 0; i < len(host); {
		r, size := utf8.DecodeRuneInString(host[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, host[i])
		case r >= utf8.RuneSelf:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteByte(host[i])
		}
		i += size
	}
	b.WriteString(s[end:])
	return b.String()
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// withoutUserInfo is raw with its user information redacted, on the text
// as written (net/url would re-encode the rest, and showing a shown URL
// must change nothing): a password becomes xxxxx after the user name, a
// user name that comes alone becomes xxxxx. The user information is what
// comes before the last @ of the authority, as net/url reads it.
func withoutUserInfo(raw string) string {
	start, end, ok := authority(raw)
	if !ok {
		return raw
	}
	at := strings.LastIndex(raw[start:end], "@")
	if at < 0 {
		return raw
	}
	shown := redacted
	if name, _, hasPassword := strings.Cut(raw[start:start+at], ":"); hasPassword {
		shown = name + ":" + redacted
	}
	return raw[:start] + shown + raw[start+at:]
}

// authority is where s's authority is, s[start:end]: what follows the
// scheme's "://" (or a leading "//") up to the first / ? or #, as net/url
// reads it; ok is false when s has none. A "://" after the first / ? or #
// is in the path, the query or the fragment: a scheme-relative URL
// (//user:token@host/?next=https://…) has its authority at its start.
func authority(s string) (start, end int, ok bool) {
	start = strings.Index(s, "://")
	switch {
	case start >= 0 && !strings.ContainsAny(s[:start], "/?#"):
		start += len("://")
	case strings.HasPrefix(s, "//"):
		start = len("//")
	default:
		return 0, 0, false
	}
	end = strings.IndexAny(s[start:], "/?#")
	if end < 0 {
		return start, len(s), true
	}
	return start, start + end, true
}

// redactParts redacts s's path segments that are tokens, its query's
// values and its fragment, on the text as written (never re-encoded, so
// that what is shown is what the config says but for the secrets).
func redactParts(s string) string {
	if !strings.ContainsAny(s, "?#") && !hasTokenSegment(s) {
		return s // the common case, with nothing to build
	}
	s, frag, hasFrag := strings.Cut(s, "#")
	s, query, hasQuery := strings.Cut(s, "?")
	var b strings.Builder
	b.Grow(len(s) + len(query) + 8)
	// The path starts at the first / after the authority.
	start := 0
	if _, end, ok := authority(s); ok {
		start = end
	}
	if i := strings.IndexByte(s[start:], '/'); i >= 0 {
		start += i
		b.WriteString(s[:start])
		for i, seg := range strings.Split(s[start:], "/") {
			if i > 0 {
				b.WriteByte('/')
			}
			if looksLikeToken(seg) {
				seg = redacted
			}
			b.WriteString(seg)
		}
	} else {
		b.WriteString(s)
	}
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(redactQuery(query))
	}
	if hasFrag && frag != "" {
		b.WriteString("#" + redacted)
	} else if hasFrag {
		b.WriteByte('#')
	}
	return b.String()
}

// hasTokenSegment reports whether a piece of s between slashes looks
// like a token (the authority too, which no token looks like: it has a
// colon or dots between short labels, or is itself redacted).
func hasTokenSegment(s string) bool {
	for seg := range strings.SplitSeq(s, "/") {
		if looksLikeToken(seg) {
			return true
		}
	}
	return false
}

// redactQuery is a query with every value replaced, its names and
// separators (& and ;, which servers also split on) as written.
func redactQuery(q string) string {
	var b strings.Builder
	for q != "" {
		i := strings.IndexAny(q, "&;")
		part, sep := q, ""
		if i >= 0 {
			part, sep, q = q[:i], q[i:i+1], q[i+1:]
		} else {
			q = ""
		}
		name, value, hasValue := strings.Cut(part, "=")
		switch {
		case hasValue && value != "":
			part = name + "=" + redacted
		case !hasValue && looksLikeToken(name):
			part = redacted
		}
		b.WriteString(part + sep)
	}
	return b.String()
}

// looksLikeToken reports whether a path segment (or a bare query name)
// is plainly a credential: at least 16 characters of a token's alphabet
// (letters, digits, - _ . ~ + = and percent escapes) in which letters and
// digits alternate at least 6 times, as they do in a random string and
// not in a name (v1, pre_tool_call, policies2024, T0001).
func looksLikeToken(seg string) bool {
	if len(seg) < 16 {
		return false
	}
	turns, last := 0, byte(0) // last: 'a' after a letter, '0' after a digit
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		var class byte
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			class = 'a'
		case c >= '0' && c <= '9':
			class = '0'
		case strings.IndexByte("-_.~+=%", c) >= 0:
			continue
		default:
			return false
		}
		if last != 0 && class != last {
			turns++
		}
		last = class
	}
	return turns >= 6
}
