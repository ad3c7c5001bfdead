package consent

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

var fixedNow = time.Date(2026, 7, 1, 12, 0, 0, 123456789, time.UTC)

func newTestStore(t *testing.T) *Store {
	t.Helper()
	s := NewStore(filepath.Join(t.TempDir(), "home"))
	s.Now = func() time.Time { return fixedNow }
	return s
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func mustLoad(t *testing.T, s *Store) *File {
	t.Helper()
	f, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if f.Invalid != nil {
		t.Fatalf("allowlist invalid: %v\n%s", f.Invalid, readFile(t, s.Path()))
	}
	return f
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// The written bytes are what Python's json.dumps(indent=2, sort_keys=True,
// ensure_ascii=False) plus a newline produces, with Hermes' entry shape and
// our sha field.
func TestStore_FileFormatGolden(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.Approve("pre_tool_call", rooted("/nonexistent/hook.sh")); err != nil {
		t.Fatal(err)
	}
	want := `{
  "approvals": [
    {
      "approved_at": "2026-07-01T12:00:00.123456Z",
      "command": "/nonexistent/hook.sh",
      "event": "pre_tool_call",
      "files_at_approval": [
        {
          "path": "/nonexistent/hook.sh",
          "sha256": null
        }
      ],
      "script_mtime_at_approval": null,
      "script_sha256_at_approval": null
    }
  ]
}
`
	want = withRooted(want, "/nonexistent/hook.sh")
	if got := readFile(t, s.Path()); got != want {
		t.Errorf("file content:\n%s\nwant:\n%s", got, want)
	}
	if skipModesOnWindows(t) {
		return
	}
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(s.Home())
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("home mode %v, want 0700", di.Mode().Perm())
	}
}

func TestStore_ApproveRecordsScriptMtimeAndHash(t *testing.T) {
	s := newTestStore(t)
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\necho hi\n", 0o755)
	mtime := time.Date(2026, 6, 30, 8, 0, 0, 500000999, time.UTC)
	if err := os.Chtimes(script, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	res, err := s.Approve("post_tool_call", viaInterpreter(script)+" --quiet")
	if err != nil {
		t.Fatal(err)
	}
	if res.Existed || res.Backup != "" {
		t.Errorf("result %+v", res)
	}
	e, ok := mustLoad(t, s).Lookup("post_tool_call", viaInterpreter(script)+" --quiet")
	if !ok {
		t.Fatal("entry missing")
	}
	// 500000999 ns: Python's float mtime rounds to .500001, and so do we
	// (issue 13: truncating made Hermes' doctor see drift).
	if want := "2026-06-30T08:00:00.500001Z"; e.ScriptMtimeAtApproval != want {
		t.Errorf("mtime %q, want %q", e.ScriptMtimeAtApproval, want)
	}
	if want := sha256Hex("#!/bin/sh\necho hi\n"); e.ScriptSHA256AtApproval != want {
		t.Errorf("sha %q, want %q", e.ScriptSHA256AtApproval, want)
	}
	if e.ApprovedAt != "2026-07-01T12:00:00.123456Z" {
		t.Errorf("approved_at %q", e.ApprovedAt)
	}
}

// Keys we do not know survive a rewrite, at the top level and in entries,
// and nested values are re-indented and sorted like json.dumps does.
func TestStore_PreservesUnknownKeys(t *testing.T) {
	s := newTestStore(t)
	writeFile(t, s.Path(), `{"zeta": {"b": 1.50, "a": [true, null, "x"]}, "approvals": [
  {"command": "c1", "event": "e1", "note": "hand <written> & kept", "n": 12345678901234567890},
  {"event": "e2", "command": "c2"},
  "not an entry"
], "alpha": "ünïcödé"}`, 0o600)
	if _, err := s.Approve("e3", rooted("/nonexistent/c3")); err != nil {
		t.Fatal(err)
	}
	want := `{
  "alpha": "ünïcödé",
  "approvals": [
    {
      "command": "c1",
      "event": "e1",
      "n": 12345678901234567890,
      "note": "hand <written> & kept"
    },
    {
      "command": "c2",
      "event": "e2"
    },
    "not an entry",
    {
      "approved_at": "2026-07-01T12:00:00.123456Z",
      "command": "/nonexistent/c3",
      "event": "e3",
      "files_at_approval": [
        {
          "path": "/nonexistent/c3",
          "sha256": null
        }
      ],
      "script_mtime_at_approval": null,
      "script_sha256_at_approval": null
    }
  ],
  "zeta": {
    "a": [
      true,
      null,
      "x"
    ],
    "b": 1.5
  }
}
`
	want = withRooted(want, "/nonexistent/c3")
	if got := readFile(t, s.Path()); got != want {
		t.Errorf("file content:\n%s\nwant:\n%s", got, want)
	}
}

// Hand-written entries with only event and command are approvals (Hermes'
// "manual allowlisting").
func TestStore_MinimalEntryIsValid(t *testing.T) {
	s := newTestStore(t)
	writeFile(t, s.Path(), `{"approvals": [{"event": "pre_tool_call", "command": "/x/hook.sh"}]}`, 0o600)
	f := mustLoad(t, s)
	if _, ok := f.Lookup("pre_tool_call", "/x/hook.sh"); !ok {
		t.Fatal("minimal entry not recognised")
	}
	if _, ok := f.Lookup("post_tool_call", "/x/hook.sh"); ok {
		t.Fatal("matched another event")
	}
	v := (&Policy{Store: s}).Decide(Request{Event: "pre_tool_call", Command: "/x/hook.sh"})
	if !v.Run || v.Drift != DriftUnknown {
		t.Errorf("verdict %+v", v)
	}
}

func TestStore_ReadTolerance(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		entries       int
		invalid       bool
	}{
		{"bom", "\uFEFF" + `{"approvals": [{"event": "e", "command": "c"}]}`, 1, false},
		{"non-list approvals", `{"approvals": {"event": "e", "command": "c"}}`, 0, false},
		{"missing approvals", `{"other": 1}`, 0, false},
		{"not an object", `[{"event": "e", "command": "c"}]`, 0, true},
		{"invalid json", `{"approvals": [`, 0, true},
		{"trailing data", `{"approvals": []} {}`, 0, true},
		{"empty", ``, 0, true},
		{"wrong types", `{"approvals": [{"event": 1, "command": "c"}, {"event": "e", "command": null}]}`, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t)
			writeFile(t, s.Path(), tc.content, 0o600)
			f, err := s.Load()
			if err != nil {
				t.Fatal(err)
			}
			if (f.Invalid != nil) != tc.invalid {
				t.Errorf("Invalid = %v, want invalid=%v", f.Invalid, tc.invalid)
			}
			if len(f.Approvals) != tc.entries {
				t.Errorf("%d entries, want %d", len(f.Approvals), tc.entries)
			}
			if tc.name == "wrong types" {
				if _, ok := f.Lookup("", "c"); ok {
					t.Error("entry with a non-string event matched")
				}
				if _, ok := f.Lookup("e", ""); ok {
					t.Error("entry with a null command matched")
				}
			}
		})
	}
	s := newTestStore(t)
	f, err := s.Load()
	if err != nil || f.Invalid != nil || len(f.Approvals) != 0 {
		t.Errorf("missing file: %v %v %d", err, f.Invalid, len(f.Approvals))
	}
}

// A corrupt file is moved aside, never silently overwritten, and the result
// says so.
func TestStore_CorruptFileIsBackedUp(t *testing.T) {
	const corrupt = `{"approvals": [{"event": "e", "command": "c"},` // truncated by hand
	for _, mutation := range []string{"approve", "revoke"} {
		t.Run(mutation, func(t *testing.T) {
			s := newTestStore(t)
			writeFile(t, s.Path(), corrupt, 0o600)
			var backup string
			if mutation == "approve" {
				res, err := s.Approve("e", "c")
				if err != nil {
					t.Fatal(err)
				}
				backup = res.Backup
			} else {
				res, err := s.RevokeDetail("c")
				if err != nil {
					t.Fatal(err)
				}
				backup = res.Backup
			}
			if backup == "" || !strings.HasPrefix(filepath.Base(backup), fileName+".corrupt-") {
				t.Fatalf("backup %q", backup)
			}
			if got := readFile(t, backup); got != corrupt {
				t.Errorf("backup content %q", got)
			}
			mustLoad(t, s)
			if msg := BackupNotice(s.Path(), backup); !strings.Contains(msg, backup) {
				t.Error(msg)
			}
		})
	}
	t.Run("two backups do not collide", func(t *testing.T) {
		s := newTestStore(t)
		var backups []string
		for range 2 {
			writeFile(t, s.Path(), "garbage", 0o600)
			res, err := s.Approve("e", "c")
			if err != nil {
				t.Fatal(err)
			}
			backups = append(backups, res.Backup)
		}
		if backups[0] == backups[1] {
			t.Fatalf("same backup name %q", backups[0])
		}
		for _, b := range backups {
			if readFile(t, b) != "garbage" {
				t.Errorf("backup %s lost", b)
			}
		}
	})
	t.Run("blank file needs no backup", func(t *testing.T) {
		s := newTestStore(t)
		writeFile(t, s.Path(), " \n", 0o600)
		res, err := s.Approve("e", "c")
		if err != nil || res.Backup != "" {
			t.Fatalf("%+v %v", res, err)
		}
	})
}

// An allowlist that cannot be read is not replaced: the approvals in it
// might be fine, and the caller warns instead.
func TestStore_UnreadableFileIsNotOverwritten(t *testing.T) {
	s := newTestStore(t)
	if err := os.MkdirAll(s.Path(), 0o700); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	_, err := s.Approve("e", "c")
	if err == nil || !strings.Contains(err.Error(), "read allowlist") {
		t.Fatalf("err = %v", err)
	}
	if fi, err := os.Stat(s.Path()); err != nil || !fi.IsDir() {
		t.Fatal("the unreadable path was replaced")
	}
	if _, err := s.Load(); err == nil {
		t.Error("Load of an unreadable file returned no error")
	}
}

func TestStore_PythonStringEscaping(t *testing.T) {
	s := newTestStore(t)
	cmd := "echo \"<a&b>\" \\ \n\t\x01\x7f é \u2028 😀 \xff"
	if _, err := s.Approve("e", cmd); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, s.Path())
	want := `"command": "echo \"<a&b>\" \\ \n\t\u0001` + "\x7f é \u2028 😀 \uFFFD" + `"`
	if !strings.Contains(got, want) {
		t.Errorf("file:\n%s\nwant substring:\n%s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not valid JSON")
	}
}

// Revoke on a fresh home creates the directory, the lock file and an empty
// allowlist, as Hermes does.
func TestJ97_RevokeUnknownOnFreshHome(t *testing.T) {
	s := newTestStore(t)
	n, err := s.Revoke("/never/approved.sh")
	if err != nil || n != 0 {
		t.Fatalf("Revoke = %d, %v", n, err)
	}
	if got := readFile(t, s.Path()); got != "{\n  \"approvals\": []\n}\n" {
		t.Errorf("file %q", got)
	}
	if _, err := os.Stat(s.LockPath()); err != nil {
		t.Errorf("lock file: %v", err)
	}
}

func TestJ96_RevokeApprovedCommand(t *testing.T) {
	s := newTestStore(t)
	for _, ev := range []string{"pre_tool_call", "post_tool_call"} {
		if _, err := s.Approve(ev, "/x/hook.sh"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Approve("pre_tool_call", "/x/other.sh"); err != nil {
		t.Fatal(err)
	}
	n, err := s.Revoke("/x/hook.sh")
	if err != nil || n != 2 {
		t.Fatalf("Revoke = %d, %v; want 2 (all events)", n, err)
	}
	f := mustLoad(t, s)
	if len(f.Approvals) != 1 || f.Approvals[0].Command != "/x/other.sh" {
		t.Errorf("left %+v", f.Approvals)
	}
	if n, _ := s.Revoke("/x/hook.sh"); n != 0 {
		t.Errorf("second revoke removed %d", n)
	}
}

func TestJ95_ApprovalRecordsMtimeEndingInZ(t *testing.T) {
	s := newTestStore(t)
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	res, err := s.Approve("pre_tool_call", script)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := mustLoad(t, s).Lookup("pre_tool_call", script)
	if !strings.HasSuffix(e.ScriptMtimeAtApproval, "Z") || e.ScriptMtimeAtApproval != res.Entry.ScriptMtimeAtApproval {
		t.Errorf("mtime %q", e.ScriptMtimeAtApproval)
	}
}

func TestJ98_TildeCommandRecordsMtime(t *testing.T) {
	home := t.TempDir()
	setHome(t, home)
	writeFile(t, filepath.Join(home, "hook.sh"), "#!/bin/sh\n", 0o755)
	s := newTestStore(t)
	if _, err := s.Approve("pre_tool_call", "~/hook.sh"); err != nil {
		t.Fatal(err)
	}
	e, ok := mustLoad(t, s).Lookup("pre_tool_call", "~/hook.sh")
	if !ok || e.ScriptMtimeAtApproval == "" || e.ScriptSHA256AtApproval != sha256Hex("#!/bin/sh\n") {
		t.Errorf("entry %+v", e)
	}
}

func TestJ99_ReapproveAfterTouchKeepsOneEntry(t *testing.T) {
	s := newTestStore(t)
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	if _, err := s.Approve("pre_tool_call", script); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(script, later, later); err != nil {
		t.Fatal(err)
	}
	res, err := s.Approve("pre_tool_call", script)
	if err != nil || !res.Existed {
		t.Fatalf("%+v %v", res, err)
	}
	f := mustLoad(t, s)
	if len(f.Approvals) != 1 {
		t.Fatalf("%d entries", len(f.Approvals))
	}
	if f.Approvals[0].ScriptMtimeAtApproval != formatTimestamp(pyMtime(later)) {
		t.Errorf("mtime not refreshed: %q", f.Approvals[0].ScriptMtimeAtApproval)
	}
}

func TestM137to140_ApproveExistedAndExactMatching(t *testing.T) {
	s := newTestStore(t)
	steps := []struct {
		event, command string
		existed        bool
		total          int
	}{
		{"pre_tool_call", "/x/hook.sh", false, 1},    // 137: new pair
		{"pre_tool_call", "/x/hook.sh", true, 1},     // 138: same pair again
		{"post_tool_call", "/x/hook.sh", false, 2},   // 139: same script, other event
		{"post_tool_call", "/x/hook.sh ", false, 3},  // 140: trailing space is another command
		{"post_tool_call", "/x/hook.sh ", true, 3},   // and it is matched exactly too
		{"Post_tool_call", "/x/hook.sh ", false, 4},  // events match exactly, case included
		{"pre_tool_call", " /x/hook.sh", false, 5},   // leading space as well
		{"pre_tool_call", "/x/hook.sh", true, 5},     // the original is still there
		{"pre_tool_call", "/x//hook.sh", false, 6},   // no path normalisation
		{"pre_tool_call", "/x/hook.sh\t", false, 7},  // any whitespace counts
		{"pre_tool_call", "/x/hook.sh\t", true, 7},   // ...exactly
		{"pre_tool_call", "/X/hook.sh", false, 8},    // nor case folding
		{"pre_tool_call", "/X/hook.sh", true, 8},     // ...exactly
		{"post_tool_call", "/x/hook.sh", true, 8},    // 139's entry unchanged
		{"post_tool_call", "/x/hook.sh ", true, 8},   // 140's entry unchanged
		{"on_session_start", "/x/hook.sh", false, 9}, // a third event
	}
	for i, st := range steps {
		res, err := s.Approve(st.event, st.command)
		if err != nil {
			t.Fatal(err)
		}
		f := mustLoad(t, s)
		if res.Existed != st.existed || len(f.Approvals) != st.total {
			t.Fatalf("step %d (%q, %q): existed=%v total=%d, want %v %d",
				i, st.event, st.command, res.Existed, len(f.Approvals), st.existed, st.total)
		}
		e := f.Approvals[len(f.Approvals)-1]
		if e.Event != st.event || e.Command != st.command || e.ApprovedAt == "" {
			t.Fatalf("step %d: last entry %+v", i, e)
		}
		if _, ok := e.obj[keyScriptMtime]; !ok {
			t.Fatalf("step %d: script_mtime_at_approval missing", i)
		}
	}
}

// G63: 32 goroutines approving at once lose nothing.
func TestG63_ConcurrentApprovalsInProcess(t *testing.T) {
	s := newTestStore(t)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			if _, err := s.Approve("pre_tool_call", fmt.Sprintf("/bin/hook-%d.sh", i)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	f := mustLoad(t, s)
	for i := range 32 {
		if _, ok := f.Lookup("pre_tool_call", fmt.Sprintf("/bin/hook-%d.sh", i)); !ok {
			t.Errorf("hook-%d lost", i)
		}
	}
	if len(f.Approvals) != 32 {
		t.Errorf("%d entries", len(f.Approvals))
	}
}

// G65: a failed write yields an error that wraps the OS error, and the
// warning the caller prints names the file, the error and re-prompting.
func TestG65_PersistFailureWarning(t *testing.T) {
	s := newTestStore(t)
	s.createTemp = func(dir, pattern string) (*os.File, error) {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.ENOSPC}
	}
	_, err := s.Approve("pre_tool_call", "/x/hook.sh")
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want ENOSPC wrapped", err)
	}
	msg := PersistWarning(s.Path(), err)
	for _, want := range []string{"Failed to persist", "shell-hooks-allowlist.json", s.Path(), "no space", "re-prompt"} {
		if !strings.Contains(strings.ToLower(msg), strings.ToLower(want)) {
			t.Errorf("warning %q lacks %q", msg, want)
		}
	}
	if !strings.HasPrefix(msg, "Failed to persist shell hook allowlist to "+s.Path()+": ") {
		t.Errorf("warning %q", msg)
	}
	if _, err := os.Stat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Error("a failed write left an allowlist behind")
	}
}

// G68: every save uses its own temporary file, named like Hermes', and none
// is left behind.
func TestG68_DistinctTempFiles(t *testing.T) {
	s := newTestStore(t)
	var names []string
	s.createTemp = func(dir, pattern string) (*os.File, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err == nil {
			names = append(names, f.Name())
		}
		return f, err
	}
	for i := range 2 {
		if _, err := s.Approve("e", fmt.Sprint("c", i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(names) != 2 || names[0] == names[1] {
		t.Fatalf("temp names %q", names)
	}
	for _, n := range names {
		if ok, _ := filepath.Match(".shell-hooks-allowlist_*.tmp", filepath.Base(n)); !ok || filepath.Dir(n) != s.Home() {
			t.Errorf("temp name %q", n)
		}
		if _, err := os.Stat(n); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("temp %s left behind", n)
		}
	}
}

// A writer killed between creating and renaming its temporary file leaves
// it behind; the next writer removes such leftovers once they are old
// enough to be certainly abandoned.
func TestStore_RemovesStaleTempFiles(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.Approve("e", "c"); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(s.Home(), ".shell-hooks-allowlist_stale.tmp")
	fresh := filepath.Join(s.Home(), ".shell-hooks-allowlist_fresh.tmp")
	writeFile(t, stale, "{", 0o600)
	writeFile(t, fresh, "{", 0o600)
	old := time.Now().Add(-2 * staleTempAge)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revoke("c"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Error("stale temp file kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("young temp file removed")
	}
}

func helperCmd(t *testing.T, action, home, event, command string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// Under -race a process sleeps a second at exit (to let late races
	// report) unless told otherwise; helpers have nothing to wait for.
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0",
		helperEnv+"="+action, "CONSENT_HOME="+home, "CONSENT_EVENT="+event, "CONSENT_COMMAND="+command)
	cmd.Stderr = os.Stderr
	return cmd
}

// 64 separate processes approve distinct commands at once; none is lost,
// and a reader running meanwhile never sees anything but valid JSON.
func TestG63_SixtyFourProcessesApproveAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 64 processes")
	}
	const n = 64
	s := newTestStore(t)
	cmds := make([]*exec.Cmd, n)
	gates := make([]interface{ Close() error }, n)
	for i := range n {
		var err error
		cmds[i], err = proctest.StartRetrying(t, func() (*exec.Cmd, error) {
			cmd := helperCmd(t, "approve", s.Home(), "pre_tool_call", fmt.Sprintf("/bin/hook-%d.sh", i))
			cmd.Env = append(cmd.Env, "CONSENT_BARRIER=1")
			w, err := cmd.StdinPipe()
			gates[i] = w
			return cmd, err
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	stop := make(chan struct{})
	var reads, invalid atomic.Int64
	var firstBad atomic.Value
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Read as consent reads it (on Windows, sharing deletion:
			// a reader must not stop a writer's rename, nor be refused
			// while one happens).
			data, err := fsutil.ReadFile(s.Path())
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			reads.Add(1)
			if err != nil || !json.Valid(data) || parseFile(data).Invalid != nil {
				invalid.Add(1)
				firstBad.CompareAndSwap(nil, fmt.Sprintf("%v: %q", err, data))
			}
		}
	}()

	// Release every helper at once.
	for _, g := range gates {
		_ = g.Close()
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("helper %d: %v", i, err)
		}
	}
	close(stop)
	<-readerDone

	if invalid.Load() != 0 {
		t.Errorf("%d of %d reads saw invalid content, first: %v", invalid.Load(), reads.Load(), firstBad.Load())
	}
	f := mustLoad(t, s)
	if len(f.Approvals) != n {
		t.Errorf("%d entries, want %d", len(f.Approvals), n)
	}
	for i := range n {
		if _, ok := f.Lookup("pre_tool_call", fmt.Sprintf("/bin/hook-%d.sh", i)); !ok {
			t.Errorf("hook-%d lost", i)
		}
	}
	t.Logf("reader saw %d complete versions of the file", reads.Load())
}

// A writer killed with SIGKILL at random moments never leaves a broken
// allowlist: after each kill the file parses and holds exactly the
// approvals of the last completed save, or of the one that completed its
// rename just before the kill.
func TestStore_SIGKILLDuringSaves(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes")
	}
	s := newTestStore(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	unreported := 0 // kills after a rename but before the helper reported it
	for rep := range 20 {
		var out io.ReadCloser
		cmd, err := proctest.StartRetrying(t, func() (*exec.Cmd, error) {
			cmd := helperCmd(t, "loop", s.Home(), "", "")
			var err error
			out, err = cmd.StdoutPipe()
			return cmd, err
		})
		if err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		last := -1
		// Kill after a random number of completed saves; the kill itself
		// lands at whatever point of the next save the helper has reached.
		for range 1 + rng.IntN(12) {
			if !lines.Scan() {
				break
			}
			last, _ = strconv.Atoi(lines.Text())
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for lines.Scan() { // saves reported before the kill
			last, _ = strconv.Atoi(lines.Text())
		}
		_ = cmd.Wait()

		if last < 0 {
			t.Fatalf("rep %d: the helper reported no save", rep)
		}
		f := mustLoad(t, s)
		got := len(f.Approvals)
		if got != last+1 && got != last+2 {
			t.Fatalf("rep %d: %d entries after last reported save %d", rep, got, last)
		}
		if got == last+2 {
			unreported++
		}
		for i, e := range f.Approvals {
			if e.Command != loopCommand(i) {
				t.Fatalf("rep %d: entry %d is %q", rep, i, e.Command)
			}
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(s.Home(), tempPattern))
	t.Logf("%d entries after 20 kills; %d kills between a rename and its report; %d stray temporary files",
		len(mustLoad(t, s).Approvals), unreported, len(leftovers))
	// Leftovers are harmless to correctness; the next writer removes them
	// once they are old enough.
	old := time.Now().Add(-2 * staleTempAge)
	for _, name := range leftovers {
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Revoke("nothing"); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(s.Home(), tempPattern)); len(left) != 0 {
		t.Errorf("stray temporary files not cleaned: %q", left)
	}
}

func TestTimestamps(t *testing.T) {
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC), "2026-07-01T12:00:00Z"},
		{time.Date(2026, 7, 1, 12, 0, 0, 123456000, time.UTC), "2026-07-01T12:00:00.123456Z"},
		{time.Date(2026, 7, 1, 12, 0, 0, 123456999, time.UTC), "2026-07-01T12:00:00.123456Z"},
		{time.Date(2026, 7, 1, 12, 0, 0, 999, time.UTC), "2026-07-01T12:00:00Z"},
		{time.Date(2026, 7, 1, 12, 0, 0, 1000, time.UTC), "2026-07-01T12:00:00.000001Z"},
		{time.Date(2026, 7, 1, 14, 0, 0, 500000000, time.FixedZone("CEST", 2*3600)), "2026-07-01T12:00:00.500000Z"},
	} {
		if got := formatTimestamp(tc.in); got != tc.want {
			t.Errorf("formatTimestamp(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	want := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{
		"2026-07-01T12:00:00Z", "2026-07-01T12:00:00.000000Z", "2026-07-01T12:00:00+00:00",
		"2026-07-01T14:00:00+02:00", "2026-07-01 12:00:00", "2026-07-01T12:00:00", "2026-07-01T12:00Z",
	} {
		got, err := parseTimestamp(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseTimestamp(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "yesterday", "2026-13-01T00:00:00Z", "12:00"} {
		if _, err := parseTimestamp(s); err == nil {
			t.Errorf("parseTimestamp(%q) accepted", s)
		}
	}
}

// An approval by text only records whether it was given knowingly
// (Request.AckTextOnly, approve --text-only), and reads it back; an
// approval of a command whose files are known records neither, whatever
// the request says (issue 31, item 3).
func TestStore_TextOnlyAcknowledgement(t *testing.T) {
	for _, tc := range []struct {
		name, command     string
		ack               bool
		wantText, wantAck bool
	}{
		{name: "opaque, acknowledged", command: "make -s guard", ack: true, wantText: true, wantAck: true},
		{name: "opaque, not acknowledged", command: "make -s guard2", wantText: true},
		{name: "pinned files: nothing to acknowledge", command: "/bin/sh /nonexistent/g.sh", ack: true},
	} {
		env := []string{"PATH=/usr/bin:/bin"}
		if runtime.GOOS == "windows" {
			// No make or /bin/sh: cmd.exe's own syntax is opaque, and
			// cmd /c X pins X.
			env = []string{"PATH=" + os.Getenv("PATH")}
			tc.command = map[string]string{
				"make -s guard": "cmd /c guard & log", "make -s guard2": "cmd /c guard2 & log",
				"/bin/sh /nonexistent/g.sh": `cmd /c C:\nonexistent\g.cmd`,
			}[tc.command]
		}
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t)
			if _, err := s.ApproveHook(Request{Event: "pre_tool_call", Command: tc.command, Env: env, AckTextOnly: tc.ack}); err != nil {
				t.Fatal(err)
			}
			e, ok := mustLoad(t, s).Lookup("pre_tool_call", tc.command)
			if !ok {
				t.Fatal("entry missing")
			}
			if e.TextOnly != tc.wantText || e.TextOnlyAck != tc.wantAck {
				t.Errorf("TextOnly %v, TextOnlyAck %v; want %v, %v", e.TextOnly, e.TextOnlyAck, tc.wantText, tc.wantAck)
			}
			if got := strings.Contains(readFile(t, s.Path()), `"text_only_acknowledged": true`); got != tc.wantAck {
				t.Errorf("text_only_acknowledged written: %v, want %v", got, tc.wantAck)
			}
		})
	}
}
