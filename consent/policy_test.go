package consent

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// J100: hooks_auto_accept accepts only boolean true or a truthy string.
func TestJ100_AutoAcceptValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value any
		flag  bool
		want  bool
	}{
		{"true", true, false, true},
		{"false", false, false, false},
		{`"false"`, "false", false, false},
		{`"no"`, "no", false, false},
		{`"true"`, "true", false, true},
		{`"  TRUE  "`, "  TRUE  ", false, true},
		{`"yes"`, "yes", false, true},
		{`"on"`, "on", false, true},
		{`"1"`, "1", false, true},
		{"missing", nil, false, false},
		{"null", nil, false, false},
		{"int 1", 1, false, false},
		{`"false" + accept flag`, "false", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := effectiveAccept(tc.flag, "", tc.value); got != tc.want {
				t.Errorf("effectiveAccept(%v, %#v) = %v, want %v", tc.flag, tc.value, got, tc.want)
			}
			if !tc.flag && AutoAccept(tc.value) != tc.want {
				t.Errorf("AutoAccept(%#v) = %v", tc.value, !tc.want)
			}
		})
	}
}

func TestSafeModeAndEnvAccept(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want bool
	}{
		{"1", true}, {"true", true}, {"TRUE", true}, {" yes ", true}, {"On", true},
		{"", false}, {"0", false}, {"false", false}, {"no", false}, {"off", false}, {"2", false}, {"y", false},
	} {
		if SafeMode(tc.env) != tc.want || EnvAccept(tc.env) != tc.want {
			t.Errorf("%q: SafeMode=%v EnvAccept=%v, want %v", tc.env, SafeMode(tc.env), EnvAccept(tc.env), tc.want)
		}
	}
}

func TestDecide_SafeModeRunsNothing(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.Approve("e", "c"); err != nil {
		t.Fatal(err)
	}
	p := &Policy{Store: s, SafeMode: true, Accept: true, Prompter: &Prompter{IsTTY: true}}
	for _, cmd := range []string{"c", "unapproved"} {
		if v := p.Decide(Request{Event: "e", Command: cmd}); v.Run || v.Reason != "safe mode (HERMES_SAFE_MODE)" {
			t.Errorf("%s: %+v", cmd, v)
		}
	}
	if _, ok, _ := s.Lookup("e", "unapproved"); ok {
		t.Error("safe mode recorded an approval")
	}
}

func newTTY(in io.Reader, out io.Writer) *Prompter {
	return &Prompter{In: in, Out: out, IsTTY: true}
}

// J88: at a TTY, "y" approves, records and runs.
func TestJ88_PromptYesApproves(t *testing.T) {
	s := newTestStore(t)
	var out strings.Builder
	p := &Policy{Store: s, Prompter: newTTY(strings.NewReader("y\n"), &out)}
	v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"})
	if !v.Run || !v.Approved || v.Reason != reasonPrompted {
		t.Fatalf("%+v", v)
	}
	e, ok, err := s.Lookup("pre_tool_call", "/x/hook.sh")
	if err != nil || !ok || e.Event != "pre_tool_call" || e.Command != "/x/hook.sh" {
		t.Fatalf("entry %+v %v %v", e, ok, err)
	}
	if out.String() != promptText("pre_tool_call", "/x/hook.sh") {
		t.Errorf("prompt output %q", out.String())
	}
	// Approved now: no second prompt.
	if v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"}); !v.Run || v.Reason != reasonAllowlisted {
		t.Errorf("second decide %+v", v)
	}
	if strings.Count(out.String(), "Allow this hook") != 1 {
		t.Error("prompted twice")
	}
}

// J89: "n" declines, records nothing, and is remembered for this process.
func TestJ89_PromptNoDeclines(t *testing.T) {
	s := newTestStore(t)
	var out strings.Builder
	p := &Policy{Store: s, Prompter: newTTY(strings.NewReader("n\n"), &out)}
	h := Request{Event: "pre_tool_call", Command: "/x/hook.sh"}
	if v := p.Decide(h); v.Run || v.Approved || v.Reason != reasonDeclined {
		t.Fatalf("%+v", v)
	}
	if _, err := os.Stat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Error("declining wrote an allowlist")
	}
	if v := p.Decide(h); v.Run || v.Reason != reasonDeclined {
		t.Fatalf("second decide %+v", v)
	}
	if strings.Count(out.String(), "Allow this hook") != 1 {
		t.Error("asked again after a decline")
	}
}

// J90: an approval from an earlier run means no prompt in a new process.
func TestJ90_ApprovedEarlierNoPrompt(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.Approve("pre_tool_call", "/x/hook.sh"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	p := &Policy{Store: NewStore(s.Home()), Prompter: newTTY(strings.NewReader(""), &out)}
	if v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"}); !v.Run {
		t.Fatalf("%+v", v)
	}
	if out.Len() != 0 {
		t.Errorf("prompted: %q", out.String())
	}
}

// J91: without a TTY and without an opt-in, the hook is skipped with
// Hermes' warning — its opening words; then what to run, not Hermes' offer
// of a TTY prompt that an agent's hook call never has.
func TestJ91_NonTTYNoOptInSkips(t *testing.T) {
	s := newTestStore(t)
	var warned []string
	var out strings.Builder
	p := &Policy{Store: s, Prompter: &Prompter{In: strings.NewReader("y\n"), Out: &out}, Warn: func(m string) { warned = append(warned, m) }}
	v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"})
	hermes := "shell hook for pre_tool_call (/x/hook.sh) not allowlisted — skipped."
	if v.Run || !strings.HasPrefix(v.Reason, hermes) || !strings.Contains(v.Reason, " run: hermes-hooks approve '/x/hook.sh' --event pre_tool_call") ||
		strings.Contains(v.Reason, "TTY") {
		t.Fatalf("%+v", v)
	}
	if len(warned) != 1 || warned[0] != v.Reason {
		t.Errorf("warned %q", warned)
	}
	if out.Len() != 0 {
		t.Error("a non-TTY prompter was asked")
	}
	if _, ok, _ := s.Lookup("pre_tool_call", "/x/hook.sh"); ok {
		t.Error("recorded")
	}
	p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"})
	if len(warned) != 1 {
		t.Errorf("warning repeated for an unchanged allowlist: %q", warned)
	}
}

// J92–J94: each accept channel approves, persists and runs without a TTY.
func TestJ92to94_AcceptChannelsPersist(t *testing.T) {
	for _, tc := range []struct {
		name   string
		accept bool
	}{
		{"J92 accept flag", effectiveAccept(true, "", nil)},
		{"J93 HERMES_ACCEPT_HOOKS=1", effectiveAccept(false, "1", nil)},
		{"J94 hooks_auto_accept: true", effectiveAccept(false, "", true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t)
			p := &Policy{Store: s, Accept: tc.accept}
			v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"})
			if !v.Run || !v.Approved || v.Reason != reasonAccepted {
				t.Fatalf("%+v", v)
			}
			if _, ok, err := s.Lookup("pre_tool_call", "/x/hook.sh"); !ok || err != nil {
				t.Fatal("approval not persisted")
			}
		})
	}
}

// When the approval cannot be saved the hook still runs this time, the user
// is told they will be asked again, and the store is not retried on every
// event.
func TestG65_AcceptWithPersistFailure(t *testing.T) {
	s := newTestStore(t)
	var attempts int
	s.createTemp = func(dir, pattern string) (*os.File, error) {
		attempts++
		return nil, &os.PathError{Op: "open", Path: dir, Err: syscall.ENOSPC}
	}
	var warned []string
	p := &Policy{Store: s, Accept: true, Warn: func(m string) { warned = append(warned, m) }}
	h := Request{Event: "pre_tool_call", Command: "/x/hook.sh"}
	v := p.Decide(h)
	if !v.Run || !strings.HasPrefix(v.Warning, "Failed to persist shell hook allowlist to "+s.Path()) || !strings.Contains(v.Warning, "re-prompt") {
		t.Fatalf("%+v", v)
	}
	if len(warned) != 1 || warned[0] != v.Warning {
		t.Errorf("warned %q", warned)
	}
	if v := p.Decide(h); !v.Run || v.Reason != reasonThisRun {
		t.Fatalf("second decide %+v", v)
	}
	if attempts != 1 {
		t.Errorf("%d write attempts, want 1", attempts)
	}
}

// G64 (adapted): Hermes' issue was a self-deadlock between two locks. Here,
// while a prompt is pending (the policy's prompt lock is held), approvals
// through the store and decisions about approved hooks proceed.
func TestG64_ApproveWhilePromptPending(t *testing.T) {
	s := newTestStore(t)
	in, answer := io.Pipe()
	defer answer.Close()
	out := newSignalWriter("Allow this hook to run?")
	p := &Policy{Store: s, Prompter: newTTY(in, out)}

	pending := make(chan Verdict)
	go func() { pending <- p.Decide(Request{Event: "pre_tool_call", Command: "/x/asked.sh"}) }()
	<-out.seen // the prompt is on screen and waiting

	done := make(chan error)
	go func() {
		if _, err := s.Approve("pre_tool_call", "/x/other.sh"); err != nil {
			done <- err
			return
		}
		if v := p.Decide(Request{Event: "pre_tool_call", Command: "/x/other.sh"}); !v.Run {
			done <- fmt.Errorf("approved hook did not run: %+v", v)
			return
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // a hang guard: blocked, it would wait for the answer forever
		t.Fatal("approval blocked behind a pending prompt")
	}
	if _, err := io.WriteString(answer, "no\n"); err != nil {
		t.Fatal(err)
	}
	if v := <-pending; v.Run {
		t.Errorf("declined hook runs: %+v", v)
	}
}

// Another process's approve or revoke is seen by the very next Decide.
func TestDecide_SeesOtherProcessChanges(t *testing.T) {
	s := newTestStore(t)
	p := &Policy{Store: s}
	h := Request{Event: "pre_tool_call", Command: "/x/hook.sh"}
	if v := p.Decide(h); v.Run {
		t.Fatal("runs before approval")
	}
	run := func(action string) {
		t.Helper()
		out, err := proctest.OutputRetrying(t, func() *exec.Cmd { return helperCmd(t, action, s.Home(), h.Event, h.Command) })
		if err != nil {
			t.Fatalf("%s: %v %s", action, err, out)
		}
	}
	run("approve")
	if v := p.Decide(h); !v.Run {
		t.Fatalf("approval by another process not seen: %+v", v)
	}
	run("revoke")
	if v := p.Decide(h); v.Run {
		t.Fatalf("revocation by another process not seen: %+v", v)
	}
}

// Decide re-reads the allowlist only when the file changed, and sees every
// change made between two calls.
func TestDecide_SnapshotReloadsOnlyOnChange(t *testing.T) {
	s := newTestStore(t)
	other := NewStore(s.Home())
	p := &Policy{Store: s}
	h := Request{Event: "e", Command: "/x/c.sh"}
	for i := range 50 {
		if _, err := other.Approve(h.Event, h.Command); err != nil {
			t.Fatal(err)
		}
		if v := p.Decide(h); !v.Run {
			t.Fatalf("iteration %d: approval not seen", i)
		}
		if _, err := other.Revoke(h.Command); err != nil {
			t.Fatal(err)
		}
		if v := p.Decide(h); v.Run {
			t.Fatalf("iteration %d: revocation not seen", i)
		}
	}
	before := p.snap.Load()
	for range 100 {
		p.Decide(h)
	}
	if p.snap.Load() != before {
		t.Error("allowlist re-read although unchanged")
	}
}

// Many goroutines deciding while the allowlist changes: no data race, and
// a hook that stays approved always runs.
func TestDecide_ConcurrentUse(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.Approve("e", "/x/stable.sh"); err != nil {
		t.Fatal(err)
	}
	p := &Policy{Store: s, Accept: true, Warn: func(string) {}}
	var churn sync.WaitGroup
	churn.Go(func() {
		for i := range 40 {
			if i%2 == 0 {
				_, _ = s.Approve("e", "/x/churn.sh")
			} else {
				_, _ = s.Revoke("/x/churn.sh")
			}
		}
	})
	var wg sync.WaitGroup
	var failed sync.Once
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				cmd := "/x/stable.sh"
				if i%3 == 0 {
					cmd = fmt.Sprintf("/x/new-%d-%d.sh", g, i%10)
				}
				if v := p.Decide(Request{Event: "e", Command: cmd}); !v.Run {
					failed.Do(func() { t.Errorf("%s did not run: %+v", cmd, v) })
				}
			}
		})
	}
	wg.Wait()
	churn.Wait()
	f := mustLoad(t, s)
	for g := range 8 {
		for i := 0; i < 200; i += 3 {
			if _, ok := f.Lookup("e", fmt.Sprintf("/x/new-%d-%d.sh", g, i%10)); !ok {
				t.Fatalf("accepted approval new-%d-%d lost", g, i%10)
			}
		}
	}
}

// Claude-dialect hooks name their script through $CLAUDE_PROJECT_DIR; the
// approval hashes the script the hook will really run.
func TestApproveHook_ExpandsVars(t *testing.T) {
	s := newTestStore(t)
	proj := t.TempDir()
	writeFile(t, proj+"/.claude/hooks/check.sh", "#!/bin/sh\n", 0o755)
	h := Request{Event: "PreToolUse", Command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`, Shell: true, Vars: withGitBash(t, map[string]string{"CLAUDE_PROJECT_DIR": proj})}
	res, err := s.ApproveHook(h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Entry.ScriptSHA256AtApproval != sha256Hex("#!/bin/sh\n") {
		t.Fatalf("entry %+v", res.Entry)
	}
	p := &Policy{Store: s}
	if v := closeVerdict(t, p.Decide(h)); !v.Run || v.Drift != DriftNone {
		t.Fatalf("%+v", v)
	}
	writeFile(t, proj+"/.claude/hooks/check.sh", "#!/bin/sh\nexit 2\n", 0o755)
	if v := closeVerdict(t, p.Decide(h)); v.Run || v.Drift != DriftHash {
		t.Fatalf("%+v", v)
	}
}

// signalWriter collects output and closes seen once it contains marker.
type signalWriter struct {
	mu     sync.Mutex
	buf    strings.Builder
	marker string
	seen   chan struct{}
	once   sync.Once
}

func newSignalWriter(marker string) *signalWriter {
	return &signalWriter{marker: marker, seen: make(chan struct{})}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.marker) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// BenchmarkDecide measures the per-event cost of the gate for an approved
// hook whose script and allowlist are unchanged: two stats, a tokenisation
// and map lookups, no reads.
func BenchmarkDecide(b *testing.B) {
	s := NewStore(b.TempDir())
	dir := b.TempDir()
	writeFile(b, dir+"/hook.sh", "#!/bin/sh\n", 0o755)
	h := Request{Event: "pre_tool_call", Command: "bash hook.sh --x", Dir: dir}
	if _, err := s.ApproveHook(h); err != nil {
		b.Fatal(err)
	}
	p := &Policy{Store: s}
	b.ReportAllocs()
	for b.Loop() {
		if !p.Decide(h).Run {
			b.Fatal("not run")
		}
	}
}
