package permrule

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The host a WebFetch URL goes to, read the way the WHATWG URL standard
// (url.spec.whatwg.org, "basic URL parser" and "host parser") reads it —
// the parser Claude Code's fetch uses — not the way Go's net/url does. The
// two disagree exactly where a domain rule would be fooled: for
// https://evil.com\@good.com/ the standard's host is evil.com (a backslash
// ends the authority of a special URL) while net/url's is good.com; the
// standard percent-decodes the host (evil%2Ecom is evil.com) and maps the
// ideographic and fullwidth full stops (U+3002, U+FF0E, U+FF61) to "." and
// fullwidth letters to ASCII (IDNA), so evil。com is evil.com.
//
// Only what is needed for a host is done: leading and trailing spaces and
// controls trimmed, tabs and newlines removed, the scheme, the slashes and
// backslashes after it, the authority up to / \ ? #, the userinfo before
// the last @, the port, then the host: percent-decoding, the IDNA mappings
// above and lowercasing, the forbidden code points, and the IPv4 forms
// (0x7f.1 is 127.0.0.1). A host whose IDNA mapping needs the Unicode tables
// (any other non-ASCII character), a scheme that is not special, and
// anything the standard would reject come back as doubt: the caller runs
// the hook.

// urlHost returns the lowercased ASCII host of raw, without its port, or a
// doubt saying why the host cannot be told.
func urlHost(raw string) (host, doubt string) {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	i := 0
	for i < len(s) && schemeChar(s[i], i == 0) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ':' {
		return "", "the URL has no scheme"
	}
	switch scheme := strings.ToLower(s[:i]); scheme {
	case "http", "https", "ws", "wss", "ftp":
	default:
		return "", "the URL's scheme " + strconv.Quote(scheme) + " is not one whose host can be read here"
	}
	rest := strings.TrimLeft(s[i+1:], `/\`)
	if end := strings.IndexAny(rest, `/\?#`); end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	hostPart, port := rest, ""
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", "the URL's IPv6 host is not closed"
		}
		hostPart, port = rest[:end+1], rest[end+1:]
		if port != "" && port[0] != ':' {
			return "", "the URL's host is followed by text that is not a port"
		}
	} else if c := strings.IndexByte(rest, ':'); c >= 0 {
		hostPart, port = rest[:c], rest[c:]
	}
	if port != "" {
		if n, err := strconv.ParseUint(port[1:], 10, 32); port != ":" && (err != nil || n > 65535) {
			return "", "the URL's port " + strconv.Quote(port[1:]) + " is not a port"
		}
	}
	if hostPart == "" {
		return "", "the URL has no host"
	}
	if hostPart[0] == '[' {
		return strings.ToLower(hostPart), ""
	}
	return domainHost(hostPart)
}

func schemeChar(c byte, first bool) bool {
	alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	return alpha || !first && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')
}

// domainHost is the standard's host parser for a special URL's host that
// is not an IPv6 literal.
func domainHost(h string) (string, string) {
	decoded := percentDecode(h)
	if !utf8.ValidString(decoded) {
		return "", "the URL's host is not valid UTF-8 once percent-decoded"
	}
	mapped, ok := idnaASCII(decoded)
	if !ok {
		return "", "the URL's host " + strconv.Quote(decoded) + " has characters whose IDNA mapping is not known here"
	}
	for i := 0; i < len(mapped); i++ {
		if c := mapped[i]; c <= 0x20 || c == 0x7f || strings.IndexByte(`#%/:<>?@[\]^|`, c) >= 0 {
			return "", "the URL's host " + strconv.Quote(mapped) + " holds a character no host may"
		}
	}
	labels := strings.Split(strings.TrimSuffix(mapped, "."), ".")
	for _, l := range labels {
		if l == "" {
			return "", "the URL's host " + strconv.Quote(mapped) + " has an empty label"
		}
	}
	if last := labels[len(labels)-1]; endsInNumber(last) {
		ip, ok := ipv4(labels)
		if !ok {
			return "", "the URL's host " + strconv.Quote(mapped) + " ends in a number but is not an IPv4 address"
		}
		return ip, ""
	}
	return mapped, ""
}

// percentDecode decodes %XX; a % not followed by two hex digits stays (and
// is then a forbidden code point).
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// idnaASCII applies the IDNA (UTS #46) mappings that lead to ASCII and need
// no tables: the full stops U+3002, U+FF0E and U+FF61 become ".", the
// fullwidth forms U+FF01–U+FF5E their ASCII letters, and ASCII is
// lowercased. Any other non-ASCII character is not known: ok is false.
func idnaASCII(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x3002 || r == 0xFF0E || r == 0xFF61:
			r = '.'
		case r >= 0xFF01 && r <= 0xFF5E:
			r -= 0xFEE0
		case r >= utf8.RuneSelf:
			return "", false
		}
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// endsInNumber: the last label is all digits, or parses as an IPv4 number
// (0x1f), so the host is read as an IPv4 address.
func endsInNumber(last string) bool {
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

// ipv4Number parses one part of an IPv4 address: 0x hex, 0 octal, or
// decimal.
func ipv4Number(s string) (uint64, bool) {
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" || strings.ContainsAny(s, "+-_") {
		return 0, false
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}

// ipv4 is the standard's IPv4 parser: up to four parts, the last filling
// the bytes left.
func ipv4(parts []string) (string, bool) {
	if len(parts) > 4 {
		return "", false
	}
	var addr uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return "", false
			}
			addr = addr<<8 | n
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return "", false
		}
		addr = addr<<(8*(5-len(parts))) | n
	}
	return strconv.FormatUint(addr>>24&255, 10) + "." + strconv.FormatUint(addr>>16&255, 10) + "." +
		strconv.FormatUint(addr>>8&255, 10) + "." + strconv.FormatUint(addr&255, 10), true
}
