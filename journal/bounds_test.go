package journal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A payload so large that its record would pass 16 MiB is kept as its
// SHA-256 only: every line an append reads back stays within MaxLine.
func TestLargePayloadIsOmitted(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, IncludePayload: true})
	r := record("no")
	r.Fields = map[string]any{"tool_name": "terminal", "args": map[string]any{"command": strings.Repeat("x", 20<<20)}}
	w.Record(context.Background(), r)
	w.Record(context.Background(), record("small"))
	if w.Failures() != 0 {
		t.Fatalf("%d failures", w.Failures())
	}
	ls := readLines(t, p)
	if len(ls) != 2 || len(ls[0]) > maxPayloadLine {
		t.Fatalf("%d lines, the first %d bytes", len(ls), len(ls[0]))
	}
	var e Entry
	if err := json.Unmarshal([]byte(ls[0]), &e); err != nil {
		t.Fatal(err)
	}
	if e.Payload != nil || e.PayloadOmitted < 20<<20 || len(e.PayloadSHA256) != 64 {
		t.Fatalf("payload %d keys, omitted %d, sha %q", len(e.Payload), e.PayloadOmitted, e.PayloadSHA256)
	}
	var small Entry
	if json.Unmarshal([]byte(ls[1]), &small); small.Payload == nil || small.PayloadOmitted != 0 {
		t.Fatalf("the small record lost its payload: %+v", small)
	}
	if res := mustVerify(t, p); res.Bad != nil || res.Records != 2 {
		t.Fatalf("verify %+v", res.Bad)
	}
}

// What sits at the journal's name and is no journal is never "repaired":
// a file without any record is truncated only when it starts as what a
// cut-short write leaves (a record's start, NULs). The old writer
// truncated any file without a newline to nothing.
func TestNoJournalIsNotTruncated(t *testing.T) {
	for name, content := range map[string]string{
		"no newline":           strings.Repeat("some notes, not a journal ", 2000),
		"a line, then no more": "a first line\nand a second without its newline",
		"json without newline": `{"name":"a config file"}`,
		"a line not a record":  strings.Repeat("x", 100) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), DefaultFile)
			if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			w := newWriter(t, Options{Path: p})
			w.Record(context.Background(), record("b"))
			if w.Failures() != 1 {
				t.Errorf("%d failures, want the record refused", w.Failures())
			}
			if data, _ := os.ReadFile(p); string(data) != content {
				t.Fatalf("the file was changed:\n%q", data)
			}
		})
	}
}

// A line longer than any record is named by Verify without being read
// into memory, and passed over by Scan.
func TestVerifyNamesALineTooLong(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	w.Record(context.Background(), record("a"))
	w.Close()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":2,"prev":"` + strings.Repeat("0", 64) + `","x":"` + strings.Repeat("y", MaxLine) + "\"}\n")
	f.Close()
	res := mustVerify(t, p)
	if res.Bad == nil || res.Bad.Line != 2 || !strings.Contains(res.Bad.Reason, "longer than any journal record") {
		t.Fatalf("verify %+v", res.Bad)
	}
	n := 0
	if err := Scan(p, func(Line, *Entry) bool { n++; return true }); err != nil || n != 1 {
		t.Fatalf("scan: %d records, %v", n, err)
	}
}

// log -f keeps no line longer than MaxLine in memory: it passes it over,
// then follows the next line.
func TestFollowPassesOverALineTooLong(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan int, 10)
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, p, func(l Line) {
			if !l.TooLong {
				got <- len(l.Bytes)
			}
		}, nil)
	}()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("y", MaxLine+100) + "\n" + `{"seq":7}` + "\n")
	f.Close()
	select {
	case n := <-got:
		if n != len(`{"seq":7}`) {
			t.Fatalf("followed a line of %d bytes first", n)
		}
	case <-time.After(2 * time.Minute):
		// A hang guard only: passing over 64 MiB takes ten seconds under
		// the race detector on a quiet machine here, and took more than
		// twenty beside make stress.
		t.Fatal("follow hung")
	}
	cancel()
	<-done
}

// A record gives up at its context's deadline (a hook call's: the agent's
// own timeout, less a margin), however long LockWait is: an agent that
// stops waiting reads no answer. The old Writer waited out LockWait.
func TestRecordGivesUpAtTheDeadline(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, LockWait: time.Hour})
	w.Record(context.Background(), record("first")) // creates the lock file
	held, err := fsutil.OpenLockFile(p + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := fsutil.TryLock(held); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(50*time.Millisecond))
	defer cancel()
	done := make(chan struct{})
	go func() {
		w.Record(ctx, record("second"))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the record waited past its deadline for a held lock")
	}
	if w.Failures() != 1 {
		t.Fatalf("%d failures, want the record dropped and counted", w.Failures())
	}
}

// A last line longer than recordAt reads whole is hashed as it is read:
// the next writer (another process, here a fresh Writer) chains from it.
func TestAppendAfterALongRecord(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	r := record("no")
	r.Fields = map[string]any{"tool_name": "terminal", "args": map[string]any{"command": strings.Repeat("x", 3*smallLine)}}
	a := newWriter(t, Options{Path: p, IncludePayload: true})
	a.Record(context.Background(), r)
	a.Close()
	b := newWriter(t, Options{Path: p})
	b.Record(context.Background(), record("after"))
	if a.Failures()+b.Failures() != 0 {
		t.Fatalf("%d, %d failures", a.Failures(), b.Failures())
	}
	if ls := readLines(t, p); len(ls) != 2 || len(ls[0]) <= 3*smallLine {
		t.Fatalf("%d lines", len(ls))
	}
	if res := mustVerify(t, p); res.Bad != nil || res.Records != 2 {
		t.Fatalf("verify %+v", res.Bad)
	}
}

// A payload's megabyte tool name and session id (the model chose them),
// and a hook's megabyte message, are kept cut in the record, with their
// length: the journal keeps every record for ever (rotation deletes
// none), and without include_payload a record was still megabytes.
func TestRecordCutsMegabyteTexts(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	big := strings.Repeat("é", 1<<20)
	r := record(big)
	r.Fields = map[string]any{"tool_name": big, "session_id": big, "args": map[string]any{}}
	r.Outcome.StopReason = big
	r.Outcome.Hooks[0].Error = big
	w.Record(context.Background(), r)
	ls := readLines(t, p)
	if len(ls) != 1 || len(ls[0]) > 64<<10 {
		t.Fatalf("%d lines, the first %d bytes", len(ls), len(ls[0]))
	}
	var e Entry
	if err := json.Unmarshal([]byte(ls[0]), &e); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{e.Tool, e.Session, e.Message, e.StopReason, e.Hooks[0].Error} {
		if !strings.HasPrefix(s, "éé") || !strings.HasSuffix(s, "… (2097152 bytes)") || !utf8.ValidString(s) {
			t.Errorf("not cut with its length: %.40q…%q", s, s[max(0, len(s)-30):])
		}
	}
	if res := mustVerify(t, p); res.Bad != nil {
		t.Fatal(res.Bad)
	}
}

// Rotated files a local process planted by the thousand (it can write
// the journal's directory) are not shifted one by one under the lock,
// each rotation holding up the dispatch that makes it (50,000 took
// 0.6 s): past MaxRotated, the rotation is refused, the record lost and
// counted, and the head record is not grown by the attempt.
func TestRotationRefusesThousandsOfFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, DefaultFile)
	for n := 1; n <= MaxRotated+1; n++ {
		if err := os.WriteFile(rotatedName(p, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var warned []string
	w := newWriter(t, Options{Path: p, MaxBytes: 4096, Warn: func(s string) { warned = append(warned, s) }})
	for i := 0; i < 20 && w.Failures() == 0; i++ {
		w.Record(context.Background(), record("no"))
	}
	if w.Failures() == 0 {
		t.Fatal("every record was written")
	}
	if _, err := os.Lstat(rotatedName(p, MaxRotated+2)); err == nil {
		t.Errorf("the planted files were shifted")
	}
	head1, _ := os.ReadFile(HeadPath(p))
	w.Record(context.Background(), record("no"))
	head2, _ := os.ReadFile(HeadPath(p))
	if len(head2) > len(head1) {
		t.Errorf("a refused rotation grew the head record: %d → %d bytes", len(head1), len(head2))
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "rotated files") {
		t.Errorf("warnings: %q", warned)
	}
}

// A rule's text is kept to its first bytes, with its whole text's
// SHA-256: every firing records each rule it evaluated, and with the
// ready-made files one call's record was 58 KB of mostly rule text. A
// command hook keeps its command (up to maxText).
func TestRuleTextIsCutAndDigested(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	r := record("no")
	long := "rule: " + strings.Repeat(`args.command matches "x" || `, 200) + "false"
	cmd := "./guard.sh " + strings.Repeat("a", 1000)
	r.Outcome.Hooks = append(r.Outcome.Hooks, protocol.HookReport{Command: long, Dialect: protocol.Hermes, Source: "/c.yaml", Ran: true}, r.Outcome.Hooks[0])
	r.Outcome.Hooks[2].Command = cmd
	r.Scripts = append(r.Scripts, dispatcher.Script{Rule: "team/x"}, dispatcher.Script{})
	w.Record(context.Background(), r)
	ls := readLines(t, p)
	if len(ls) != 1 || len(ls[0]) > 2500 {
		t.Fatalf("%d lines, the first %d bytes", len(ls), len(ls[0]))
	}
	var e Entry
	if err := json.Unmarshal([]byte(ls[0]), &e); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(long))
	rh := e.Hooks[1]
	if rh.Rule != "team/x" || rh.RuleSHA256 != hex.EncodeToString(sum[:]) || !strings.HasPrefix(long, strings.TrimSuffix(rh.Command, "… ("+strconv.Itoa(len(long))+" bytes)")) ||
		!strings.HasSuffix(rh.Command, "… ("+strconv.Itoa(len(long))+" bytes)") || len(rh.Command) > maxRuleText+40 {
		t.Fatalf("rule %+v", rh)
	}
	if e.Hooks[0].RuleSHA256 != "" || e.Hooks[2].Command != cmd || e.Hooks[2].RuleSHA256 != "" {
		t.Fatalf("command hooks %+v %+v", e.Hooks[0], e.Hooks[2])
	}
}
