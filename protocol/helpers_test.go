package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// testCommand is the configured command string used by the reply tables; it
// has a space in it so that fail-closed messages prove the whole string is
// quoted, not just argv[0].
const testCommand = "/hooks/guard.sh --strict"

// ev resolves an event name for a table; an unknown name is a bug in the
// test itself.
func ev(name string) *Event {
	e, ok := Lookup(name)
	if !ok {
		panic("test uses unknown event " + name)
	}
	return e
}

// replyCase is one row of the reply-parsing tables (both dialects).
type replyCase struct {
	name       string
	event      string
	stdout     string
	stderr     string
	exit       int
	spawnErr   string
	timedOut   bool
	timeout    float64
	failClosed bool

	// want is the expected contribution (nil: none).
	want *Contribution
	// wantWire, when set, is the compact Hermes wire shape the contribution
	// renders to ("{}" for no contribution), as the Hermes reference writes
	// its expectations.
	wantWire string
	// noteHas, when set, must be a substring of the note; noteEmpty demands
	// an empty note.
	noteHas   string
	noteEmpty bool
}

func (tc replyCase) reply(d Dialect) Reply {
	return Reply{
		Dialect:    d,
		Event:      ev(tc.event),
		Command:    testCommand,
		ExitCode:   tc.exit,
		Stdout:     []byte(tc.stdout),
		Stderr:     []byte(tc.stderr),
		SpawnError: tc.spawnErr,
		TimedOut:   tc.timedOut,
		Timeout:    tc.timeout,
		FailClosed: tc.failClosed,
	}
}

// runReplyCase parses the case in dialect d and checks every expectation
// the case states, plus the invariants every reply must satisfy.
func runReplyCase(t *testing.T, d Dialect, tc replyCase) {
	t.Helper()
	r := tc.reply(d)
	got, note := ParseReply(r)
	if !reflect.DeepEqual(got, tc.want) {
		t.Errorf("ParseReply(%s, %s, exit=%d, stdout=%q, stderr=%q)\n got  %s\n want %s",
			d, tc.event, tc.exit, tc.stdout, tc.stderr, contribString(got), contribString(tc.want))
	}
	if tc.wantWire != "" {
		if w := wireString(got, r.Event); w != tc.wantWire {
			t.Errorf("Hermes wire shape = %s, want %s", w, tc.wantWire)
		}
	}
	if tc.noteHas != "" && !strings.Contains(note, tc.noteHas) {
		t.Errorf("note = %q, want it to contain %q", note, tc.noteHas)
	}
	if tc.noteEmpty && note != "" {
		t.Errorf("note = %q, want none", note)
	}
	checkContribution(t, got)
}

// checkContribution asserts the invariants of any contribution ParseReply
// returns: nil rather than empty, a block always carries a message, args
// only come with a rewrite.
func checkContribution(t testing.TB, c *Contribution) {
	t.Helper()
	if c == nil {
		return
	}
	if c.IsEmpty() {
		t.Errorf("ParseReply returned an empty non-nil contribution %s; want nil", contribString(c))
	}
	if c.Decision == DecisionBlock && c.Message == "" {
		t.Errorf("block without a message: %s", contribString(c))
	}
	switch c.Decision {
	case "", DecisionAllow, DecisionAsk, DecisionDefer, DecisionBlock:
	default:
		t.Errorf("unexpected decision %q", c.Decision)
	}
	if c.ReplaceArgs && c.Args == nil {
		t.Errorf("ReplaceArgs without Args: %s", contribString(c))
	}
	if !utf8.ValidString(c.Message) || !utf8.ValidString(c.Context) || !utf8.ValidString(c.SystemMessage) || !utf8.ValidString(c.StopReason) {
		t.Errorf("contribution carries invalid UTF-8: %s", contribString(c))
	}
}

func contribString(c *Contribution) string {
	if c == nil {
		return "<nil>"
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// wireString renders a contribution in the Hermes wire shape, "{}" when it
// contributes nothing.
func wireString(c *Contribution, e *Event) string {
	w, ok := c.HermesWire(e)
	if !ok {
		return "{}"
	}
	return string(pyjson.Encode(w, pyjson.Compact))
}

// topLevelKeys returns the keys of a JSON object in document order.
func topLevelKeys(t testing.TB, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %q (%v)", data, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("bad JSON %q: %v", data, err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("bad JSON %q: %v", data, err)
		}
	}
	return keys
}

// decodeObject decodes a JSON object with DecodeJSON (numbers as json.Number).
func decodeObject(t testing.TB, data []byte) map[string]any {
	t.Helper()
	v, err := pyjson.Decode(data)
	if err != nil {
		t.Fatalf("DecodeJSON(%q): %v", data, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("DecodeJSON(%q) = %T, want an object", data, v)
	}
	return m
}

func ptr[T any](v T) *T { return &v }
