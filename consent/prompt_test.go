package consent

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestPrompter_Text(t *testing.T) {
	var out strings.Builder
	p := &Prompter{In: strings.NewReader("n\n"), Out: &out, IsTTY: true}
	p.Ask("pre_tool_call", "bash ~/hooks/guard.sh")
	want := "\n" +
		"⚠ Hermes is about to register a shell hook that will run a\n" +
		"  command on your behalf.\n" +
		"\n" +
		"    Event:   pre_tool_call\n" +
		"    Command: bash ~/hooks/guard.sh\n" +
		"\n" +
		"  Commands run with your full user credentials.  Only approve\n" +
		"  commands you trust.\n" +
		"Allow this hook to run? [y/N]: "
	if out.String() != want {
		t.Errorf("output:\n%q\nwant:\n%q", out.String(), want)
	}
}

func TestPrompter_Answers(t *testing.T) {
	for _, tc := range []struct {
		input string
		want  Answer
	}{
		{"y\n", AnswerYes}, {"Y\n", AnswerYes}, {"yes\n", AnswerYes}, {"  YES  \r\n", AnswerYes},
		{"y", AnswerYes}, // last line without newline, as Python's input()
		{"n\n", AnswerNo}, {"\n", AnswerNo}, {"yes please\n", AnswerNo}, {"ja\n", AnswerNo}, {"1\n", AnswerNo},
		{"", AnswerEOF},
	} {
		var out strings.Builder
		p := &Prompter{In: strings.NewReader(tc.input), Out: &out, IsTTY: true}
		got := p.Ask("e", "c")
		if got != tc.want {
			t.Errorf("input %q: %v, want %v", tc.input, got, tc.want)
		}
		if tc.want == AnswerEOF && !strings.HasSuffix(out.String(), "[y/N]: \n") {
			t.Errorf("EOF did not print a newline: %q", out.String())
		}
	}
}

// Consecutive prompts read consecutive lines.
func TestPrompter_Sequential(t *testing.T) {
	p := &Prompter{In: strings.NewReader("n\ny\n"), Out: io.Discard, IsTTY: true}
	if a := p.Ask("e", "one"); a != AnswerNo {
		t.Fatal(a)
	}
	if a := p.Ask("e", "two"); a != AnswerYes && a != AnswerEOF {
		// EOF is also acceptable: the second line may count as type-ahead,
		// which is flushed; it must never count as "no".
		t.Fatal(a)
	}
}

// J101: an answer that never arrives declines after the timeout, records
// nothing and does not hang.
func TestJ101_PromptTimeoutDeclines(t *testing.T) {
	s := newTestStore(t)
	in, w := io.Pipe()
	defer w.Close()
	var out strings.Builder
	prompter := &Prompter{In: in, Out: &out, IsTTY: true, Timeout: 50 * time.Millisecond}
	p := &Policy{Store: s, Prompter: prompter}
	done := make(chan Verdict)
	go func() { done <- p.Decide(Request{Event: "on_session_start", Command: "/x/hook.sh"}) }()
	select {
	case v := <-done:
		if v.Run || v.Reason != reasonPromptTimeout {
			t.Fatalf("%+v", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("prompt hung")
	}
	if _, ok, _ := s.Lookup("on_session_start", "/x/hook.sh"); ok {
		t.Error("timed-out prompt recorded an approval")
	}
	if !strings.HasSuffix(out.String(), "[y/N]: \n") {
		t.Errorf("output %q", out.String())
	}
	// An unattended prompt is not repeated on every later event.
	if v := p.Decide(Request{Event: "on_session_start", Command: "/x/hook.sh"}); v.Run || v.Reason != reasonPromptTimeout {
		t.Fatalf("%+v", v)
	}
	if strings.Count(out.String(), "Allow this hook") != 1 {
		t.Error("prompted again")
	}
}

// J102: with a timeout set, an answer in time approves.
func TestJ102_PromptWithTimeoutAnsweredYes(t *testing.T) {
	s := newTestStore(t)
	p := &Policy{Store: s, Prompter: &Prompter{In: strings.NewReader("y\n"), Out: io.Discard, IsTTY: true, Timeout: time.Minute}}
	if v := p.Decide(Request{Event: "on_session_start", Command: "/x/hook.sh"}); !v.Run || v.Reason != reasonPrompted {
		t.Fatalf("%+v", v)
	}
	if _, ok, _ := s.Lookup("on_session_start", "/x/hook.sh"); !ok {
		t.Error("not recorded")
	}
}

// blockingReader's Read reports that it was entered and blocks until
// released, like a read from a terminal nobody answers.
type blockingReader struct {
	entered chan struct{}
	release chan struct{}
}

func (r *blockingReader) Read(p []byte) (int, error) {
	close(r.entered)
	<-r.release
	return copy(p, "y\n"), nil
}

// J103: the answer is read by a goroutine other than the caller's: Ask
// returns on timeout while the read it started is still blocked.
func TestJ103_ReadHappensOffTheCaller(t *testing.T) {
	r := &blockingReader{entered: make(chan struct{}), release: make(chan struct{})}
	p := &Prompter{In: r, Out: io.Discard, IsTTY: true, Timeout: 50 * time.Millisecond}
	if a := p.Ask("e", "c"); a != AnswerTimeout {
		t.Fatalf("answer %v", a)
	}
	select {
	case <-r.entered: // the read is under way, on the Prompter's goroutine
	case <-time.After(10 * time.Second):
		t.Fatal("the answer was never read")
	}
	close(r.release)
}

// A late answer to a prompt that timed out is not taken as the answer to
// the next prompt.
func TestPrompter_LateAnswerIsNotReused(t *testing.T) {
	in, w := io.Pipe()
	read := make(chan struct{}, 1)
	p := &Prompter{In: in, Out: io.Discard, IsTTY: true, Timeout: 20 * time.Millisecond}
	p.onLine = func() { read <- struct{}{} }
	if a := p.Ask("e", "first"); a != AnswerTimeout {
		t.Fatalf("first: %v", a)
	}
	if _, err := io.WriteString(w, "y\n"); err != nil { // the late "yes" to the first prompt
		t.Fatal(err)
	}
	<-read
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The end of input is there already: a bound that only catches a hang,
	// not one a loaded machine (Wine, make stress) can pass before the
	// reader hands the EOF over.
	p.Timeout = time.Minute
	if a := p.Ask("e", "second"); a != AnswerEOF {
		t.Fatalf("second prompt got %v, want the late answer discarded", a)
	}
}

// The prompt shows a hook's command as text: a repository's hooks file can
// put escape sequences in a command (YAML "\e"), which written raw to the
// terminal could clear the screen or redraw the question around another
// command. They are shown escaped, as list and approve --project show them.
func TestPrompter_TextEscaped(t *testing.T) {
	var out strings.Builder
	p := &Prompter{In: strings.NewReader("n\n"), Out: &out, IsTTY: true}
	p.Ask("pre_tool_call", "curl x | sh\x1b[2K\r    Command: ./lint.sh\u202e")
	if s := out.String(); strings.ContainsAny(s, "\x1b\r\u202e") || !strings.Contains(s, `\x1b[2K`) {
		t.Errorf("output:\n%q", s)
	}
}
