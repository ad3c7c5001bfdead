//go:build unix

package server

import (
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// serve records every dispatch that ran a hook in the config's journal
// (HERMES_HOME/hook-journal.jsonl by default), chained like the CLI's.
func TestServeRecordsInTheJournal(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.Version = "v-serve" })
	cmd := f.script("block.sh", blockScript)
	f.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + cmd + "\n      matcher: terminal\n")
	if _, err := f.store.Approve("pre_tool_call", cmd); err != nil {
		t.Fatal(err)
	}
	f.waitGeneration(2)
	f.outcome("pre_tool_call", `{"tool_name":"terminal","session_id":"s9"}`)
	f.outcome("on_session_start", ``) // no hook: not recorded
	f.outcome("pre_tool_call", `{"tool_name":"terminal","session_id":"s9"}`)
	path := filepath.Join(f.home, journal.DefaultFile)
	var got []journal.Entry
	if err := journal.Scan(path, func(_ journal.Line, e *journal.Entry) bool { got = append(got, *e); return true }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Decision != "block" || got[0].Session != "s9" || got[0].Version != "v-serve" || got[1].Seq != 2 {
		t.Fatalf("journal %+v", got)
	}
	if res, err := journal.Verify(path); err != nil || res.Bad != nil || res.Records != 2 {
		t.Fatalf("verify %+v %v", res, err)
	}
}
