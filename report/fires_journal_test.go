package report

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// lastEvents reads the journal newest file first: the newest record of a
// check's project wins wherever it is, an older file is read when the
// newer ones hold none, and a file last written before every install is
// not read (nor any older one).
func TestLastEventsNewestFirst(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	rec := func(seq int, at time.Time, cwd string) string {
		return fmt.Sprintf(`{"seq":%d,"time":%q,"cwd":%q,"event":"pre_tool_call","decision":"none"}`+"\n", seq, at.Format(time.RFC3339Nano), cwd)
	}
	write := func(t *testing.T, p, body string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name         string
		old, mid     string // the rotated files .2 and .1
		live         string
		oldWrittenAt time.Time
		want         time.Time // zero: none
	}{
		{"newest in the live file", rec(1, t0.Add(1*time.Minute), "/p"), rec(2, t0.Add(2*time.Minute), "/q"), rec(3, t0.Add(3*time.Minute), "/p"),
			t0.Add(1 * time.Minute), t0.Add(3 * time.Minute)},
		{"only an older file has one", rec(1, t0.Add(1*time.Minute), "/p"), rec(2, t0.Add(2*time.Minute), "/q"), rec(3, t0.Add(3*time.Minute), "/q"),
			t0.Add(1 * time.Minute), t0.Add(1 * time.Minute)},
		{"a file written before the install is not read", rec(1, t0.Add(1*time.Minute), "/p"), rec(2, t0.Add(2*time.Minute), "/q"), rec(3, t0.Add(3*time.Minute), "/q"),
			t0.Add(-time.Minute), time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "decisions.jsonl")
			write(t, filepath.Join(dir, "decisions.2.jsonl"), tc.old, tc.oldWrittenAt)
			write(t, filepath.Join(dir, "decisions.1.jsonl"), tc.mid, t0.Add(2*time.Minute))
			write(t, path, tc.live, t0.Add(3*time.Minute))
			checks := []InstallCheck{{Title: "Claude Code", Scope: "project", Root: "/p", InstalledAt: t0}}
			lastEvents(checks, path)
			got := checks[0].LastEvent
			switch {
			case tc.want.IsZero() && got != nil:
				t.Errorf("LastEvent %v, want none", *got)
			case !tc.want.IsZero() && (got == nil || !got.Equal(tc.want)):
				t.Errorf("LastEvent %v, want %v", got, tc.want)
			}
		})
	}
}
