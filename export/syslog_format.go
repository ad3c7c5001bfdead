package export

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Syslog identity of the messages: facility auth (4, "security/
// authorization messages"), and the structured data ID under the
// enterprise number RFC 5612 reserves for documentation (32473) until the
// project has its own.
const (
	syslogFacility = 4
	sdID           = "hermes_hooks@32473"
	syslogApp      = "hermes-hooks"
	syslogMsgID    = "decision"
)

// formatRFC5424 writes one record as an RFC 5424 message:
//
//	<PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] BOM summary journal-line
//
// Severity warning (4) for a refusal, notice (5) otherwise. The
// structured data carries the fields a SIEM filters on; the message ends
// with the journal line itself, whole.
func formatRFC5424(it *item, host, pid string, now time.Time) []byte {
	r := &it.rec
	sev := 5
	if r.blocked() {
		sev = 4
	}
	ts := r.Time
	if ts.IsZero() {
		ts = now
	}
	b := make([]byte, 0, 256+len(it.line))
	b = append(b, '<')
	b = strconv.AppendInt(b, int64(syslogFacility*8+sev), 10)
	b = append(b, ">1 "...)
	b = ts.UTC().AppendFormat(b, "2006-01-02T15:04:05.000000Z07:00")
	b = append(b, ' ')
	b = append(b, header(host, 255)...)
	b = append(b, ' ')
	b = append(b, syslogApp...)
	b = append(b, ' ')
	b = append(b, header(pid, 128)...)
	b = append(b, ' ')
	b = append(b, syslogMsgID...)
	b = append(b, ' ')
	if it.ok {
		b = append(b, '[')
		b = append(b, sdID...)
		for _, p := range [][2]string{
			{"event", r.Event}, {"decision", r.Decision}, {"delivered", r.Delivered}, {"session", r.Session},
			{"tool", r.Tool}, {"agent", r.Agent}, {"seq", strconv.FormatInt(r.Seq, 10)},
			{"rule", ruleOf(r)}, {"timed_out", timedOut(r)},
		} {
			if p[1] == "" {
				continue
			}
			b = append(b, ' ')
			b = append(b, p[0]...)
			b = append(b, `="`...)
			b = appendParam(b, cutText(p[1], maxParam))
			b = append(b, '"')
		}
		b = append(b, "] "...)
	} else {
		b = append(b, "- "...)
	}
	b = append(b, "\xef\xbb\xbf"...) // BOM: the message is UTF-8
	if it.ok {
		// A hook's message or a payload's value must not start a line of
		// its own in a log file (a forged entry), nor reach the terminal
		// of whoever reads the log: escaped as every string shown is.
		b = append(b, termsafe.Escape(strings.ToValidUTF8(r.summary(), "\uFFFD"))...)
		b = append(b, ' ')
	}
	// The journal writes no character a terminal acts on, but a line of an
	// older journal, or one a local process put in the spool, may hold
	// one raw: escaped as JSON, its value unchanged.
	return append(b, termsafe.EscapeJSON(it.line)...)
}

// maxParam and maxSummary bound a structured data value and the summary
// (a payload's tool name, a hook's message may be megabytes): a datagram
// is cut at its end (maxUDP, maxUnixgram), and what a SIEM filters on
// must come before that, whole, with the journal line after it.
const (
	maxParam   = 1024
	maxSummary = 2048
)

// cutText is s cut to at most max bytes, not inside a UTF-8 character,
// ending in "…" when cut.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return textutil.CutBytes(s, max) + "…"
}

func ruleOf(r *record) string {
	if h := r.decider(); h != nil {
		return h.Rule
	}
	return ""
}

// timedOut is how many of r's hooks timed out (a command killed at its
// timeout, a rule past its bound), "" for none: a fail-open guard that
// timed out decides nothing, so neither decision nor rule tells it.
func timedOut(r *record) string {
	n := 0
	for _, h := range r.Hooks {
		if h.TimedOut {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// header is a header field: printable US-ASCII without spaces, at most
// max octets, "-" (the NILVALUE) when empty.
func header(s string, max int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < max; i++ {
		if c := s[i]; c > 32 && c < 127 {
			b.WriteByte(c)
		}
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

// appendParam escapes a PARAM-VALUE: '"', '\' and ']' take a backslash;
// the value is made valid UTF-8.
func appendParam(b []byte, v string) []byte {
	v = strings.ToValidUTF8(v, "\uFFFD")
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\\' || c == ']':
			b = append(b, '\\', c)
		case c < 0x20 || c == 0x7f:
			b = appendControl(b, c)
		case c >= utf8.RuneSelf:
			// A C1 CSI or a bidi override: written as Escape shows it.
			_, size := utf8.DecodeRuneInString(v[i:])
			b = append(b, termsafe.Escape(v[i:i+size])...)
			i += size - 1
		default:
			b = append(b, c)
		}
	}
	return b
}

func appendControl(b []byte, c byte) []byte {
	switch c {
	case '\n':
		return append(b, `\n`...)
	case '\r':
		return append(b, `\r`...)
	case '\t':
		return append(b, `\t`...)
	}
	const hex = "0123456789abcdef"
	return append(b, '\\', 'x', hex[c>>4], hex[c&15])
}
