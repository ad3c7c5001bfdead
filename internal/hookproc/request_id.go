package hookproc

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Request ids. Every worker request carries an id, a JSON integer under
// WorkerRequestID appended to the payload object, and the reply must carry
// the same value under the same key at its top level (in the envelope
// too). Without them a line written late — a second reply to an earlier
// request, a debug print — was taken for the reply to the next request (a
// `rm -rf /` came back with another request's "no opinion"). A reply with
// another id, or none, kills the worker and fails the request, as any
// other broken reply does. The id is taken out of the reply (WithoutMember)
// before it is parsed, so what is parsed and recorded is what a one-shot
// run prints. This file only frames; the caller's decode function (the
// dispatcher's) checks the id and reads the reply.

// WorkerRequestID is the key of a worker request's id in its payload and in
// its reply. Namespaced, so that it collides with no field Hermes, Claude
// Code or the other agents send or read.
const WorkerRequestID = "hermes_hooks_request_id"

// WithRequestID returns the payload object with the id appended as its
// last member, in the payload's own separators (Python's ", " and ": "
// for Hermes payloads, none for the compact ones). ok is false when the
// payload is not a JSON object.
//
// A member of the payload already named WorkerRequestID (a host field of
// that name, which a Claude-dialect payload carries at its top level) is
// taken out first: beside ours it would make a duplicate key, and a
// worker whose JSON reader keeps the first of two would echo the host's
// value, so its every reply would be refused as another request's.
func WithRequestID(payload []byte, id uint64, spaced bool) (line []byte, ok bool) {
	p := bytes.TrimRight(payload, " \t\r\n")
	if len(p) < 2 || p[0] != '{' || p[len(p)-1] != '}' {
		return nil, false
	}
	if mayHoldKey(p) {
		if q, ok := WithoutMember(p, WorkerRequestID); ok {
			p = q
		}
	}
	sep, colon := ",", ":"
	if spaced {
		sep, colon = ", ", ": "
	}
	body := bytes.TrimSpace(p[1 : len(p)-1])
	line = make([]byte, 0, len(p)+len(WorkerRequestID)+32)
	line = append(line, p[:len(p)-1]...)
	if len(body) > 0 {
		line = append(line, sep...)
	}
	line = append(line, '"')
	line = append(line, WorkerRequestID...)
	line = append(line, '"')
	line = append(line, colon...)
	line = strconv.AppendUint(line, id, 10)
	return append(line, '}', '\n'), true
}

// mayHoldKey reports whether the payload may hold a member named
// WorkerRequestID: its name spelt out, or any escape (a key may spell it
// with \u escapes). Most payloads have neither, and skip the scan.
func mayHoldKey(p []byte) bool {
	return bytes.Contains(p, []byte(WorkerRequestID)) || bytes.IndexByte(p, '\\') >= 0
}

// member is one top-level member of a JSON object's text: [start, end)
// spans its key through its value.
type member struct {
	start, end int
	key        string
}

// objectMembers lists the top-level members of the JSON object text obj,
// or reports false when obj is not one (as far as this scan can tell: it
// is used on text the JSON decoder already accepted).
func objectMembers(obj []byte) ([]member, bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	var out []member
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return out, true
	}
	for i < len(obj) {
		start := i
		end, ok := skipString(obj, i)
		if !ok {
			return nil, false
		}
		var key string
		if json.Unmarshal(obj[start:end], &key) != nil {
			key = "" // an odd escape: not a key we look for
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return nil, false
		}
		if i, ok = skipValue(obj, skipSpace(obj, i+1)); !ok {
			return nil, false
		}
		out = append(out, member{start: start, end: i, key: key})
		i = skipSpace(obj, i)
		switch {
		case i < len(obj) && obj[i] == '}':
			return out, true
		case i < len(obj) && obj[i] == ',':
			i = skipSpace(obj, i+1)
		default:
			return nil, false
		}
	}
	return nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i].
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return i, false
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	if b[i] == '"' {
		return skipString(b, i)
	}
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, ok := skipString(b, i)
			if !ok {
				return end, false
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i, true
			}
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return i, true
			}
		}
	}
	return i, depth == 0
}

// WithoutMember returns the JSON object text obj without its top-level
// members named key; everything else stays byte for byte (a removed
// member's separator goes with it). ok is false when obj cannot be scanned
// as an object.
func WithoutMember(obj []byte, key string) ([]byte, bool) {
	ms, ok := objectMembers(obj)
	if !ok {
		return nil, false
	}
	if len(ms) == 0 {
		return obj, true
	}
	out := make([]byte, 0, len(obj))
	out = append(out, obj[:ms[0].start]...) // the opening brace
	kept := false
	for j, m := range ms {
		if m.key == key {
			continue
		}
		if kept {
			// The separator that came before this member.
			out = append(out, obj[ms[j-1].end:m.start]...)
		}
		out = append(out, obj[m.start:m.end]...)
		kept = true
	}
	return append(out, obj[ms[len(ms)-1].end:]...), true
}
