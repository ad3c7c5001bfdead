package journal

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// OnAppend sees each line once the journal has it (the record of truth is
// written first), with its seq and prev, and the agent the route names;
// the journal's lock is free by then, so a callback that reads the journal
// (or takes its lock) cannot deadlock.
func TestOnAppendAfterTheRecord(t *testing.T) {
	for _, bg := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "j.jsonl")
		var mu sync.Mutex
		var seen []string
		w := New(Options{Path: path, Version: "t", Background: bg, OnAppend: func(line []byte) {
			data, _ := os.ReadFile(path)
			if !strings.Contains(string(data), string(line)+"\n") {
				t.Errorf("OnAppend before the journal had the line %s", line)
			}
			if lf, err := fsutil.OpenLockFile(path + ".lock"); err == nil {
				if err := fsutil.TryLock(lf); err != nil {
					t.Errorf("the journal's lock is held during OnAppend: %v", err)
				}
				lf.Close()
			}
			mu.Lock()
			seen = append(seen, string(line))
			mu.Unlock()
		}})
		ctx := WithRoute(context.Background(), Route{Agent: "claude"})
		w.Record(ctx, record("one"))
		w.Record(context.Background(), record("two"))
		w.Close()
		if len(seen) != 2 {
			t.Fatalf("background=%v: OnAppend saw %d lines", bg, len(seen))
		}
		var e Entry
		if err := json.Unmarshal([]byte(seen[0]), &e); err != nil || e.Seq != 1 || e.Agent != "claude" || e.Message != "one" {
			t.Errorf("first line %s: %+v %v", seen[0], e, err)
		}
		var e2 Entry
		if err := json.Unmarshal([]byte(seen[1]), &e2); err != nil || e2.Seq != 2 || e2.Agent != "" {
			t.Errorf("second line %s: %+v %v", seen[1], e, err)
		}
		if rep, err := Verify(path); err != nil || rep.Bad != nil || rep.Records != 2 {
			t.Errorf("verify: %+v %v", rep, err)
		}
	}
}
