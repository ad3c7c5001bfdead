package consent

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Approve, edit the script: the content hash no longer matches and the hook
// does not run, with a reason naming both digests and the way out; after
// re-approval it runs again.
func TestDrift_HashChangeBlocksUntilReapproved(t *testing.T) {
	s := newTestStore(t)
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\necho '{}'\n", 0o755)
	h := Request{Event: "pre_tool_call", Command: script}
	if _, err := s.Approve(h.Event, h.Command); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	p := &Policy{Store: s, Accept: true, Warn: func(m string) { warnings = append(warnings, m) }}
	if v := closeVerdict(t, p.Decide(h)); !v.Run || v.Drift != DriftNone || v.Reason != reasonAllowlisted {
		t.Fatalf("before edit: %+v", v)
	}

	oldSum, newSum := sha256Hex("#!/bin/sh\necho '{}'\n"), sha256Hex("#!/bin/sh\nrm -rf ~\n")
	writeFile(t, script, "#!/bin/sh\nrm -rf ~\n", 0o755)
	e, _ := mustLoad(t, s).Lookup(h.Event, h.Command)
	if d := checkDrift(e, script); d.Kind != DriftHash || d.Was != oldSum || d.Now != newSum {
		t.Fatalf("checkDrift = %+v", d)
	}
	// Accept does not re-approve a changed script: the point of the hash
	// is that edits are not trusted silently.
	v := closeVerdict(t, p.Decide(h))
	want := "script changed since approval (sha256 " + oldSum[:12] + "… → " + newSum[:12] + "…); re-approve with: hermes-hooks approve '" + script + "' --event pre_tool_call"
	if v.Run || v.Drift != DriftHash || !v.Approved || v.Reason != want {
		t.Fatalf("after edit: %+v\nwant reason %q", v, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], want) {
		t.Errorf("warnings %q", warnings)
	}
	closeVerdict(t, p.Decide(h))
	if len(warnings) != 1 {
		t.Errorf("warning repeated: %q", warnings)
	}

	if _, err := s.Approve(h.Event, h.Command); err != nil {
		t.Fatal(err)
	}
	if v := closeVerdict(t, p.Decide(h)); !v.Run || v.Drift != DriftNone {
		t.Fatalf("after re-approval: %+v", v)
	}
}

// A recorded hash whose script has disappeared cannot be confirmed, so the
// hook does not run.
func TestDrift_HashRecordedScriptGone(t *testing.T) {
	s := newTestStore(t)
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	if _, err := s.Approve("e", script); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	e, _ := mustLoad(t, s).Lookup("e", script)
	d := checkDrift(e, script)
	if d.Kind != DriftHash || d.Now != "" || !strings.Contains(d.Message(), "→ unreadable") {
		t.Fatalf("%+v %q", d, d.Message())
	}
}

// A legacy entry (Hermes-written or by hand) with only an mtime, older than
// the script: warn, but run.
func TestDrift_MtimeOnlyLegacyEntryWarnsAndRuns(t *testing.T) {
	s := newTestStore(t)
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	now := time.Date(2026, 7, 2, 9, 30, 0, 250000000, time.UTC)
	if err := os.Chtimes(script, now, now); err != nil {
		t.Fatal(err)
	}
	command, _ := json.Marshal(viaInterpreter(script))
	writeFile(t, s.Path(), `{"approvals": [{"event": "pre_tool_call", "command": `+string(command)+`,
		"approved_at": "2000-01-01T00:00:00Z", "script_mtime_at_approval": "2000-01-01T00:00:00Z"}]}`, 0o600)
	var warned []string
	p := &Policy{Store: s, Warn: func(m string) { warned = append(warned, m) }}
	v := closeVerdict(t, p.Decide(Request{Event: "pre_tool_call", Command: viaInterpreter(script)}))
	msg := "script modified since approval (was 2000-01-01T00:00:00Z, now 2026-07-02T09:30:00.250000Z)"
	if !v.Run || v.Drift != DriftMtime || !strings.HasSuffix(v.Warning, msg) {
		t.Fatalf("verdict %+v, want warning ending %q", v, msg)
	}
	if len(warned) != 1 || warned[0] != v.Warning {
		t.Errorf("warned %q", warned)
	}
}

// Drift compares instants, not strings (Hermes #107513).
func TestDrift_MtimeComparedAsTimes(t *testing.T) {
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	exact := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(script, exact, exact); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		recorded string
		want     DriftKind
	}{
		{"2026-07-01T12:00:00Z", DriftNone},
		{"2026-07-01T12:00:00.000000Z", DriftNone},
		{"2026-07-01T12:00:00+00:00", DriftNone},
		{"2026-07-01T14:00:00+02:00", DriftNone},
		{"2026-07-01T11:59:59.999999Z", DriftMtime},
		{"2026-07-01T12:00:00.000001Z", DriftUnknown}, // script older than approval
		{"not a time", DriftUnknown},
		{"", DriftUnknown},
	} {
		e := Entry{Event: "e", Command: script, ScriptMtimeAtApproval: tc.recorded}
		if d := checkDrift(e, script); d.Kind != tc.want {
			t.Errorf("recorded %q: %v (%+v), want %v", tc.recorded, d.Kind, d, tc.want)
		}
	}
	e := Entry{Event: "e", Command: "x", ScriptMtimeAtApproval: "2000-01-01T00:00:00Z"}
	if d := checkDrift(e, filepath.Join(t.TempDir(), "missing.sh")); d.Kind != DriftUnknown {
		t.Errorf("missing script: %v", d.Kind)
	}
}

// With a hash recorded, a touch without a content change is not drift.
func TestDrift_TouchWithSameContentIsUnchanged(t *testing.T) {
	script := filepath.Join(t.TempDir(), "hook.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	e := Entry{ScriptMtimeAtApproval: "2000-01-01T00:00:00Z", ScriptSHA256AtApproval: strings.ToUpper(sha256Hex("#!/bin/sh\n"))}
	if d := checkDrift(e, script); d.Kind != DriftNone {
		t.Errorf("%+v", d)
	}
}

// script_mtime_at_approval is written exactly as Python writes it: the
// float mtime rounded (ties to even) to the microsecond, not truncated.
// Python's own datetime.fromtimestamp is the oracle, on real files with
// sub-microsecond mtimes (issue 13, item 1).
func TestPyMtime_MatchesPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	dir := t.TempDir()
	var paths []string
	base := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC).Unix()
	for i := 0; i < 400; i++ {
		// Nanoseconds across the whole range, ties (x500 ns) included.
		ns := int64(i)*2_499_997 + int64(i%7)*500
		sec := base + int64(i)*3_601
		if i%5 == 0 {
			ns = int64(i%1000)*1000 + 500 // exact ties
		}
		p := filepath.Join(dir, fmt.Sprintf("f%03d", i))
		writeFile(t, p, "x", 0o644)
		mt := time.Unix(sec, ns%1_000_000_000)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	script := `import sys, os, datetime
for p in sys.argv[1:]:
    print(datetime.datetime.fromtimestamp(os.path.getmtime(p), datetime.timezone.utc).isoformat().replace("+00:00", "Z"))`
	out, err := exec.Command(python, append([]string{"-c", script}, paths...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(out)), "\n")
	differ := 0
	for i, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		got := formatTimestamp(pyMtime(fi.ModTime()))
		if got != want[i] {
			t.Errorf("%s (mtime %d ns): got %s, Python %s", p, fi.ModTime().UnixNano(), got, want[i])
		}
		if formatTimestamp(fi.ModTime()) != want[i] {
			differ++
		}
	}
	t.Logf("%d of %d mtimes differ from Python when truncated", differ, len(paths))
}
