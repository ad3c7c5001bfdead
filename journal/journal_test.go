package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func record(msg string) *dispatcher.Record {
	code := 2
	ev, _ := protocol.Lookup("pre_tool_call")
	o := protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: msg, Hooks: []protocol.HookReport{{
		Command: "./guard.sh", Dialect: protocol.Hermes, Source: "/c.yaml", Ran: true, ExitCode: &code, ElapsedMS: 1.5,
		Contribution: &protocol.Contribution{Decision: protocol.DecisionBlock, Message: msg},
	}}}
	return &dispatcher.Record{Time: time.Unix(1700000000, 0), Elapsed: time.Millisecond, Event: ev,
		Fields: map[string]any{"tool_name": "terminal", "session_id": "s1", "args": map[string]any{"command": "rm -rf /"}},
		Cwd:    "/w", Outcome: &o, Scripts: []dispatcher.Script{{Path: "/w/guard.sh", SHA256: strings.Repeat("ab", 32)}}}
}

// newWriter is New, closed when the test ends: a Writer keeps the journal,
// its head record and its lock file open, and Windows removes no file (nor
// the test's directory) while it is open.
func newWriter(t testing.TB, opts Options) *Writer {
	w := New(opts)
	t.Cleanup(func() { w.Close() })
	return w
}

func readLines(t *testing.T, p string) []string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func mustVerify(t *testing.T, p string) Result {
	t.Helper()
	res, err := Verify(p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRecordFieldsAndChain(t *testing.T) {
	p := filepath.Join(t.TempDir(), "home", DefaultFile)
	w := newWriter(t, Options{Path: p, Version: "v-test"})
	for i := 0; i < 3; i++ {
		w.Record(context.Background(), record("no"))
	}
	ls := readLines(t, p)
	if len(ls) != 3 {
		t.Fatalf("%d lines", len(ls))
	}
	var e Entry
	if err := json.Unmarshal([]byte(ls[0]), &e); err != nil {
		t.Fatal(err)
	}
	if e.Seq != 1 || e.Prev != ZeroHash || e.Version != "v-test" || e.Event != "pre_tool_call" || e.Session != "s1" ||
		e.Tool != "terminal" || e.Cwd != "/w" || e.Decision != "block" || e.Message != "no" || e.Payload != nil ||
		len(e.PayloadSHA256) != 64 || len(e.Hooks) != 1 {
		t.Fatalf("entry %+v", e)
	}
	h := e.Hooks[0]
	if h.Command != "./guard.sh" || h.Source != "/c.yaml" || *h.ExitCode != 2 || h.Decision != "block" || h.SHA256 != strings.Repeat("ab", 32) || h.Script != "/w/guard.sh" {
		t.Fatalf("hook %+v", h)
	}
	if strings.Contains(ls[0], "rm -rf") {
		t.Fatal("the payload is kept without include_payload")
	}
	if res := mustVerify(t, p); res.Bad != nil || res.Torn != nil || res.Records != 3 || res.FirstSeq != 1 {
		t.Fatalf("verify %+v", res)
	}
	w2 := newWriter(t, Options{Path: p, IncludePayload: true})
	w2.Record(context.Background(), record("no"))
	if ls := readLines(t, p); !strings.Contains(ls[3], `"payload":{`) || !strings.Contains(ls[3], `"seq":4`) {
		t.Fatalf("include_payload line %s", ls[3])
	}
}

// tamper applies edit to a fresh five-record journal and returns what
// Verify says.
func tamper(t *testing.T, edit func(lines []string) []string) Result {
	t.Helper()
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	for i := 0; i < 5; i++ {
		w.Record(context.Background(), record("m"+string(rune('a'+i))))
	}
	ls := edit(readLines(t, p))
	if err := os.WriteFile(p, []byte(strings.Join(ls, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return mustVerify(t, p)
}

func TestVerifyFindsTampering(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func([]string) []string
		line   int
		reason string
	}{
		{"one byte", func(l []string) []string { l[2] = strings.Replace(l[2], `"mc"`, `"mC"`, 1); return l }, 3, "changed after it was written"},
		{"deleted", func(l []string) []string { return append(l[:2], l[3:]...) }, 3, "1 record(s) missing"},
		{"swapped", func(l []string) []string { l[1], l[2] = l[2], l[1]; return l }, 2, "seq 3 follows seq 1"},
		{"garbage", func(l []string) []string { l[1] = "{nope"; return l }, 2, "not a journal record"},
	} {
		res := tamper(t, tc.edit)
		if res.Bad == nil || res.Bad.Line != tc.line || !strings.Contains(res.Bad.Reason, tc.reason) {
			t.Errorf("%s: %+v", tc.name, res.Bad)
		}
	}
}

func TestTornTailIsRepaired(t *testing.T) {
	for _, torn := range []string{`{"seq":3,"prev":"ab`, "\x00\x00\x00\x00\n"} {
		p := filepath.Join(t.TempDir(), DefaultFile)
		w := newWriter(t, Options{Path: p})
		w.Record(context.Background(), record("a"))
		w.Record(context.Background(), record("b"))
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(torn)
		f.Close()
		res := mustVerify(t, p)
		if res.Bad != nil || res.Torn == nil || res.Torn.Line != 3 || !strings.Contains(res.Torn.Reason, "torn") {
			t.Fatalf("%q: verify %+v %+v", torn, res.Bad, res.Torn)
		}
		w.Record(context.Background(), record("c"))
		res = mustVerify(t, p)
		if res.Bad != nil || res.Torn != nil || res.Records != 3 {
			t.Fatalf("%q: after repair %+v %+v", torn, res.Bad, res.Torn)
		}
		var e Entry
		json.Unmarshal([]byte(readLines(t, p)[2]), &e)
		if e.Seq != 3 || e.Repaired != int64(len(torn)) {
			t.Fatalf("%q: repaired record %+v", torn, e)
		}
	}
}

func TestRotationKeepsTheChain(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, MaxBytes: 4096})
	for i := 0; i < 40; i++ {
		w.Record(context.Background(), record(strings.Repeat("x", 200)))
	}
	files, _ := Files(p)
	if len(files) < 3 || files[len(files)-1] != p || !strings.HasSuffix(files[0], ".jsonl") {
		t.Fatalf("files %v", files)
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Size() > 4096 {
			t.Fatalf("%s has %d bytes", f, st.Size())
		}
	}
	if res := mustVerify(t, p); res.Bad != nil || res.Torn != nil || res.Records != 40 {
		t.Fatalf("verify %+v %+v %d", res.Bad, res.Torn, res.Records)
	}
	// A byte edited in a rotated file is found there.
	data, _ := os.ReadFile(files[1])
	os.WriteFile(files[1], bytes.Replace(data, []byte("xxx"), []byte("xyx"), 1), 0o600)
	if res := mustVerify(t, p); res.Bad == nil || res.Bad.File != files[1] || res.Bad.Line != 1 {
		t.Fatalf("verify after edit %+v", res.Bad)
	}
}

func TestConcurrentWritersKeepOneChain(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Nothing here may fail for want of the lock: its wait is a
			// hang guard, eight writers on a loaded machine included.
			w := newWriter(t, Options{Path: p, MaxBytes: 64 << 10, LockWait: time.Minute})
			for i := 0; i < 50; i++ {
				w.Record(context.Background(), record("c"))
			}
			if w.Failures() != 0 {
				t.Errorf("%d failures", w.Failures())
			}
		}()
	}
	wg.Wait()
	if res := mustVerify(t, p); res.Bad != nil || res.Torn != nil || res.Records != 400 {
		t.Fatalf("verify %+v %+v %d", res.Bad, res.Torn, res.Records)
	}
}

func TestFailureIsCountedAndWarnedOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	var warns []string
	w := newWriter(t, Options{Path: filepath.Join(file, DefaultFile), Warn: func(s string) { warns = append(warns, s) }})
	for i := 0; i < 3; i++ {
		w.Record(context.Background(), record("x"))
	}
	if w.Failures() != 3 || len(warns) != 1 || !strings.Contains(warns[0], "decisions are unaffected") {
		t.Fatalf("failures %d, warnings %q", w.Failures(), warns)
	}
}

func TestLockWaitIsBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, LockWait: 50 * time.Millisecond})
	w.Record(context.Background(), record("a"))
	unlock, err := lockForTest(p + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	w.Record(context.Background(), record("b"))
	// The lock is never released: without the bound Record would wait
	// forever. (30 s is a hang guard, not the 50 ms.)
	if d := time.Since(start); d > 30*time.Second || w.Failures() != 1 {
		t.Fatalf("waited %v, failures %d", d, w.Failures())
	}
}
