package protocol

import (
	"errors"
	"strconv"
	"strings"
	"unicode"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// DefaultBlockMessage is Hermes' message for a block without a usable one.
const DefaultBlockMessage = "Blocked by shell hook."

// ClaudeDefaultBlockReason is Claude Code's text for a deny without reason.
const ClaudeDefaultBlockReason = "Blocked by hook"

// ClaudeExit2NoStderr is the reason of a Claude-dialect exit-2 block whose
// hook wrote nothing on stderr: Claude Code's own words for it (spec §4.2),
// so that the agent shows what it would have shown running the hook.
const ClaudeExit2NoStderr = "No stderr output"

// Hermes cuts an exit-2 stderr to this many characters for the block message.
const hermesStderrCut = 400

// Reply is everything known about one finished (or failed) hook run.
type Reply struct {
	Dialect Dialect
	Event   *Event
	// Command is the configured command string (named in fail-closed
	// messages).
	Command string
	// ExitCode is the exit status; negative for death by signal. Ignored when
	// SpawnError or TimedOut is set.
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// SpawnError is the error text when the process could not start.
	SpawnError string
	// TimedOut is set when the hook was killed at its timeout; Timeout is the
	// configured timeout in seconds, for the message.
	TimedOut bool
	Timeout  float64
	// StdoutTruncated: the output cap cut Stdout (what is kept is the
	// cap's worth).
	StdoutTruncated bool
	// FailClosed turns failures into blocks (pre_tool_call only for the
	// Hermes dialect; any blocking event for the Claude dialect).
	FailClosed bool
	// HTTP is set when the reply came over HTTP (an http hook's post):
	// what its answer said of itself (NotAnHTTPReply).
	HTTP *HTTPAnswer
}

// ParseReply turns one hook run into its contribution (nil: none) and a note
// explaining a reply that contributed nothing or was partly ignored. It
// reads the Hermes and Claude dialects; an agent's own dialect is read by
// its Codec.
func ParseReply(r Reply) (*Contribution, string) {
	rd := ReadReply(r)
	return rd.Contribution, rd.Note
}

// Read is a hook run's reply as its dialect's parser read it.
type Read struct {
	Contribution *Contribution
	Note         string
	// Foreign is the refusal in words the dialect does not read where it
	// fails closed (another dialect's, a key in another case, its own on
	// an event that does not read it), "" when there is none: a
	// fail_closed guard refused for it, any other hook has it in Note.
	// Known from the parse, never from the note's text, which may echo
	// whatever the hook printed.
	Foreign string
}

// ReadReply is ParseReply with what the parser knows beside the note.
func ReadReply(r Reply) Read {
	var rd Read
	switch {
	case r.Event == nil:
		rd.Note = "unknown event"
	case r.Dialect == Claude:
		rd.Contribution, rd.Note, rd.Foreign = parseClaude(r)
	default:
		rd.Contribution, rd.Note, rd.Foreign = parseHermes(r)
	}
	return rd
}

// FailedClosed is the block of a fail_closed hook that failed for reason,
// worded alike for every dialect (other packages' dialects included).
func FailedClosed(command, reason string) *Contribution { return failedClosed(command, reason) }

// ExitText describes a non-zero exit status ("exited with status 3",
// "was killed by signal 9") for messages.
func ExitText(code int) string { return exitText(code) }

func failedClosed(command, reason string) *Contribution {
	msg := "hook " + command + " failed closed: " + reason
	return &Contribution{Decision: DecisionBlock, Message: toValidUTF8([]byte(msg))}
}

// failText is why a run that failed failed: an http hook's answer by its
// status (any non-2xx is its exit status 1), else the exit status.
func (r Reply) failText() string {
	if r.HTTP != nil && (r.HTTP.Status < 200 || r.HTTP.Status > 299) {
		return "its server answered HTTP " + strconv.Itoa(r.HTTP.Status)
	}
	return exitText(r.ExitCode)
}

// exitText describes a non-zero exit status for messages.
func exitText(code int) string {
	if code < 0 {
		return "was killed by signal " + strconv.Itoa(-code)
	}
	return "exited with status " + strconv.Itoa(code)
}

// unparseable is a fail_closed guard's reason when its stdout was not the
// JSON object its dialect reads.
const unparseable = "unparseable stdout (expected a JSON object)"

// ambiguousNote is in the note of every dialect's ambiguous reply
// (badReplyNote: a failed hook, shown to the user).
const ambiguousNote = "stdout is ambiguous: "

// AmbiguousNote is the note of an ambiguous reply on stdout, for the
// dialects of other packages.
func AmbiguousNote(amb, stdout string) string {
	return "hook " + ambiguousNote + amb + ": " + textutil.CutRunes(stdout, 200)
}

// ambiguous describes the error of a reply that names a member twice
// (pyjson.DecodeUnique: which of the two the hook meant cannot be known,
// so the reply is read as unreadable, never as its last value); "" for
// any other error.
func ambiguous(err error) string {
	var dup *pyjson.DuplicateError
	if errors.As(err, &dup) {
		return dup.Error()
	}
	return ""
}

// NotRun is why the hook gave no reply: it timed out, or could not start
// ("" when it ran to an end).
func (r Reply) NotRun() string {
	if r.TimedOut {
		return "timed out after " + strconv.FormatFloat(r.Timeout, 'f', -1, 64) + "s"
	}
	return r.SpawnError
}

// Ambiguous is ambiguous for the dialects of other packages.
func Ambiguous(err error) string { return ambiguous(err) }

// FailClosedFloor holds a fail_closed guard of an agent's own dialect (a
// Codec's reply, c and note) to what fail_closed means in every dialect,
// whatever that agent makes of a failed hook (Codex: a reply it rejects
// means the normal approval): on an event where the entry refuses, a run
// that did not refuse blocks when it could not start or finish, or when
// its reply is not one (badReplyNote, the wordings of every dialect's
// parser: unparseable, failing its agent's validation, ambiguous). What
// an exit status means is each dialect's own, and stays the codec's.
func FailClosedFloor(r Reply, refuses bool, c *Contribution, note string) (*Contribution, string) {
	if !r.FailClosed || !refuses || (c != nil && c.Decision == DecisionBlock) {
		return c, note
	}
	switch {
	case r.NotRun() != "":
		return failedClosed(r.Command, r.NotRun()), note
	case badReplyNote(note):
		return failedClosed(r.Command, "unreadable reply: "+note), note
	}
	return c, note
}

// AmbiguousReply refuses, on an event where the entry refuses (refuses),
// the run of a hook whose reply names a member twice and which did not
// refuse (c, note: its dialect's reading, which takes such a reply as
// unreadable), fail_closed or not. The agent, reading it itself, takes the
// last member ({"decision":"block","reason":"a","reason":"b"} blocks in
// Claude Code and in Hermes), and a guard that quotes its payload without
// escaping lets the payload add a member of its own: which one the guard
// meant cannot be known, and a gate it guards does not open on a guess.
func AmbiguousReply(r Reply, refuses bool, c *Contribution, note string) (*Contribution, string) {
	if !refuses || (c != nil && c.Decision == DecisionBlock) {
		return c, note
	}
	i := strings.Index(note, ambiguousNote)
	if i < 0 {
		return c, note
	}
	what, _, _ := strings.Cut(note[i+len(ambiguousNote):], ": ")
	return &Contribution{Decision: DecisionBlock, Message: "hook " + r.Command + ": its reply is ambiguous (" + what +
		"), so what it decided cannot be read"}, note
}

// CutReply refuses, on an event where the entry refuses (refuses), the
// run of a hook whose reply the output cap cut inside a JSON object and
// which did not refuse (c, note: its dialect's reading of what was kept).
// The cut is hermes-hooks' doing, not the hook's: the agent, reading the
// reply whole, would have honoured a refusal in it, and a hook that quotes
// its input (a command it refuses) lets that input push the reply past
// the cap. So whether fail_closed or not, what the guard decided cannot be
// read, and a gate it guards does not open on it.
func CutReply(r Reply, refuses bool, c *Contribution, note string) (*Contribution, string) {
	if !r.StdoutTruncated || !refuses || (c != nil && c.Decision == DecisionBlock) {
		return c, note
	}
	kept := strings.TrimLeftFunc(toValidUTF8(r.Stdout), unicode.IsSpace)
	if !strings.HasPrefix(kept, "{") {
		return c, note // text, which no dialect reads as a decision
	}
	if _, err := pyjson.DecodePayload(r.Stdout); err == nil {
		return c, note // the cut fell after the object
	}
	return &Contribution{Decision: DecisionBlock, Message: toValidUTF8([]byte("hook " + r.Command +
		": its reply passed the output cap (" + strconv.Itoa(len(r.Stdout)) + " bytes) and was cut, so what it decided cannot be read"))}, note
}
