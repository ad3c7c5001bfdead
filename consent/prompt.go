package consent

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
)

// Answer is the outcome of one consent prompt.
type Answer int

const (
	// AnswerNo: the user answered something other than y/yes.
	AnswerNo Answer = iota
	// AnswerYes: the user answered y or yes.
	AnswerYes
	// AnswerEOF: the input ended (Ctrl+D, closed pipe) before an answer.
	AnswerEOF
	// AnswerTimeout: no answer arrived within Prompter.Timeout.
	AnswerTimeout
)

func (a Answer) String() string {
	switch a {
	case AnswerYes:
		return "yes"
	case AnswerEOF:
		return "end of input"
	case AnswerTimeout:
		return "timeout"
	default:
		return "no"
	}
}

// Prompter asks the user at a terminal whether a hook may run. In and Out are
// injected so tests (and hosts with their own terminal handling) can drive
// it; IsTTY says whether In is an interactive terminal, and a Prompter that
// is not a TTY is never asked.
//
// The answer is read by a goroutine of the Prompter's own, never by the
// caller, so that a caller with a Timeout gets its decline on time even
// though a read from a terminal cannot be interrupted. Prompts are
// serialised: concurrent callers wait for each other, as there is only one
// terminal to answer on.
type Prompter struct {
	In    io.Reader
	Out   io.Writer
	IsTTY bool
	// Timeout bounds the wait for an answer; zero waits indefinitely.
	// A server should set it so that an unattended prompt cannot stall
	// event handling (Hermes #120356).
	Timeout time.Duration

	mu    sync.Mutex // serialises prompts
	once  sync.Once
	lines chan inputLine
	// asked counts prompts (under mu); waiting is the one waiting for its
	// answer (0: none), read by the reader goroutine.
	asked   uint64
	waiting atomic.Uint64
	// onLine, when set (by tests), is called by the reader goroutine after
	// it has read and time-stamped a line.
	onLine func()
}

// inputLine is a line read from In, with the prompt that was waiting when
// it was read (0: none). A sequence, not a time: Windows' clock advances in
// steps of up to 15.6 ms, so a late line and the next prompt could share
// an instant.
type inputLine struct {
	text   string
	prompt uint64
}

// Ask prints the consent prompt for (event, command) to Out and waits for
// the answer. Only "y" or "yes" (trimmed, any case) approve.
//
// A line that was typed while no prompt was waiting (for instance a late
// answer to a prompt that timed out) is discarded rather than taken as the
// answer to this prompt, the way security prompts flush type-ahead: an
// approval must answer the question it approves.
func (p *Prompter) Ask(event, command string) Answer {
	p.mu.Lock()
	defer p.mu.Unlock()

	p.asked++
	asked := p.asked
	p.waiting.Store(asked)
	defer p.waiting.Store(0)
	out := p.Out
	if out == nil {
		out = io.Discard
	}
	// Write errors are ignored: a prompt nobody sees gets no answer and
	// times out or hits EOF, which declines.
	_, _ = io.WriteString(out, promptText(event, command))
	p.once.Do(p.startReader)

	var timeout <-chan time.Time
	if p.Timeout > 0 {
		t := time.NewTimer(p.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				_, _ = io.WriteString(out, "\n")
				return AnswerEOF
			}
			if line.prompt != asked {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(line.text)) {
			case "y", "yes":
				return AnswerYes
			default:
				return AnswerNo
			}
		case <-timeout:
			_, _ = io.WriteString(out, "\n")
			return AnswerTimeout
		}
	}
}

// promptText is Hermes' prompt, with the command escaped for the terminal
// (termsafe): it is text of a config, a repository's too.
func promptText(event, command string) string {
	return fmt.Sprintf("\n"+
		"⚠ Hermes is about to register a shell hook that will run a\n"+
		"  command on your behalf.\n"+
		"\n"+
		"    Event:   %s\n"+
		"    Command: %s\n"+
		"\n"+
		"  Commands run with your full user credentials.  Only approve\n"+
		"  commands you trust.\n"+
		"Allow this hook to run? [y/N]: ", termsafe.Escape(event), termsafe.Escape(command))
}

// startReader starts the goroutine that owns In. It lives until In ends;
// one reader for the Prompter's lifetime means a read left pending by a
// timed-out prompt is reused by the next prompt instead of competing with a
// second reader for the same input.
func (p *Prompter) startReader() {
	p.lines = make(chan inputLine)
	in := p.In
	if in == nil {
		close(p.lines)
		return
	}
	onLine := p.onLine
	go func() {
		defer close(p.lines)
		r := bufio.NewReader(in)
		for {
			text, err := r.ReadString('\n')
			// Like Python's input(), a last line without a newline is
			// still an answer.
			if text != "" || err == nil {
				line := inputLine{text: text, prompt: p.waiting.Load()}
				if onLine != nil {
					onLine()
				}
				p.lines <- line
			}
			// A read error ends the input as EOF does: the prompt
			// declines either way.
			if err != nil {
				return
			}
		}
	}()
}
