//go:build unix

package server

import (
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

const rmrf = `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`

// guardConfig is a config whose one pre_tool_call hook blocks `rm -rf`.
func guardConfig(f *fixture) string {
	f.t.Helper()
	guard := f.script("guard.sh", `payload=$(cat)
case "$payload" in
  *"rm -rf"*) echo '{"action":"block","message":"rm -rf is not allowed"}' ;;
  *) echo '{}' ;;
esac
`)
	if _, err := f.store.Approve("pre_tool_call", guard); err != nil {
		f.t.Fatal(err)
	}
	return "hooks:\n  pre_tool_call:\n    - command: " + guard + "\n      matcher: terminal\n"
}

// Hot reload never serves a half-written config. A goroutine rewrites the
// config in place (os.WriteFile: truncate, then write) with the same
// content — a guard that blocks `rm -rf /` — as fast as it can, while at
// least 300 dispatches of `rm -rf /` run: every one must be blocked. A reload that
// read the file between the truncation and the write would put a config
// with no hooks in service (the server before the settle check answered
// "none" to 83 of 286). Once the rewriting stops, a config without the
// guard is still picked up.
func TestReloadNeverAppliesAHalfWrittenConfig(t *testing.T) {
	reloadNeverHalfWritten(t, nil)
}

// The same past the settle bound (reached at once here; a busy machine
// reached the default 5 s within the rewriting loop): past it serve only
// says so in its log, and loads nothing while the files keep changing or
// stay open for writing. Loading what was there once the bound had passed
// applied an empty config read between a truncation and its write (36 of
// 300 dispatches of rm -rf / not blocked, in make test beside other
// builds).
func TestReloadPastTheSettleBoundNeverAppliesAHalfWrittenConfig(t *testing.T) {
	reloadNeverHalfWritten(t, func(o *Options) { o.SettleLimit = time.Nanosecond })
}

func reloadNeverHalfWritten(t *testing.T, tune func(*Options)) {
	f := start(t, "hooks: {}\n", nil, tune)
	config := guardConfig(f)
	f.writeConfig(config)
	f.waitGeneration(2)

	stop := make(chan struct{})
	var writes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := os.WriteFile(f.config, []byte(config), 0o644); err != nil {
				t.Error(err)
				return
			}
			writes.Add(1)
		}
	}()
	// At least 300 dispatches over at least three seconds: the watcher
	// refreshes at least once a second while events keep coming
	// (maxBurst), so several reloads are attempted while the file is being
	// rewritten.
	n, unblocked := 0, 0
	for begin := time.Now(); n < 300 || time.Since(begin) < 3*time.Second; n++ {
		r := f.dispatch("pre_tool_call", rmrf)
		if r.status != 200 || !strings.Contains(string(r.body), `"decision":"block"`) {
			if unblocked == 0 {
				t.Logf("first dispatch not blocked: %d %s", r.status, r.body)
			}
			unblocked++
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d dispatches during %d in-place rewrites: %d not blocked; generation %d", n, writes.Load(), unblocked, f.srv.Generation())
	if unblocked != 0 {
		t.Fatalf("%d of %d dispatches of rm -rf / were not blocked while the config was rewritten in place", unblocked, n)
	}

	// Reloads still happen: once the file is quiet, a config without the
	// guard (written in place too) is applied.
	if err := os.WriteFile(f.config, []byte("hooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the config without the guard", func() bool {
		return strings.Contains(string(f.dispatch("pre_tool_call", rmrf).body), `"decision":"none"`)
	})
}

// A write that begins after the files settled and ends after the read —
// the read sees the truncated file, the content afterwards is the same as
// before — is caught by the stat identity taken around the read: the empty
// config that was read is never applied, and the complete one is, later.
// (A content check alone is fooled: the bytes before and after the read
// are the same.)
func TestReloadRejectsAWriteDuringTheRead(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	config := guardConfig(f)
	f.writeConfig(config)
	f.waitGeneration(2)

	// The next read finds the file truncated by a writer that finishes
	// right after it, with the same bytes as the config it reloads.
	edited := config + "# edited\n"
	var interfered atomic.Bool
	f.srv.mu.Lock()
	realLoad := f.srv.load
	f.srv.load = func(path string, o hookconfig.LoadOptions) (*hookconfig.Config, error) {
		if !interfered.CompareAndSwap(false, true) {
			return realLoad(path, o)
		}
		if err := os.Truncate(f.config, 0); err != nil {
			t.Error(err)
		}
		cfg, err := realLoad(path, o)
		if err := os.WriteFile(f.config, []byte(edited), 0o644); err != nil {
			t.Error(err)
		}
		return cfg, err
	}
	f.srv.mu.Unlock()

	f.writeConfig(edited)
	f.waitGeneration(3)
	if !interfered.Load() {
		t.Fatal("the reload never read the config")
	}
	if h := f.do("GET", "/healthz", nil).json(t); h["hooks"] != 1.0 || h["generation"] != 3.0 {
		t.Errorf("healthz after the reload: %v", h)
	}
	if o := f.outcome("pre_tool_call", rmrf); o["decision"] != "block" {
		t.Errorf("the guard is not in service: %v", o)
	}
	if m := regexp.MustCompile(`msg="config reloaded" generation=\d+ \S+ hooks=0 `).FindString(f.logs.String()); m != "" {
		t.Errorf("a config read half-written was applied: %s", m)
	}
}

// A config whose modification time is in the future (`touch -d`, a
// tarball from a machine whose clock runs ahead) is still reloaded once it
// settles: a future time says nothing about when the file was written, so
// it must not postpone the reload until that time comes.
func TestReloadWithAModificationTimeInTheFuture(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	config := guardConfig(f)
	future := time.Now().Add(24 * time.Hour)
	if err := os.WriteFile(f.config, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f.config, future, future); err != nil {
		t.Fatal(err)
	}
	f.waitGeneration(2)
	if o := f.outcome("pre_tool_call", rmrf); o["decision"] != "block" {
		t.Errorf("the new config is not in service: %v", o)
	}
}

// A config edited to name a Claude settings file it did not name before
// (one that already exists) is reloaded with that file's hooks: the
// settle check then covers a set of files that grew during the reload,
// and must still come to rest.
func TestReloadSettlesWhenTheConfigNamesANewFile(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	block := f.script("block.sh", "cat >/dev/null\necho 'blocked by a Claude hook' >&2\nexit 2\n")
	if _, err := f.store.Approve("PreToolUse", block); err != nil {
		t.Fatal(err)
	}
	writeAtomic(t, f.home+"/settings.json",
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+block+`"}]}]}}`, 0o644)
	f.writeConfig("claude_settings:\n  - ./settings.json\nhooks: {}\n")
	waitFor(t, "the Claude settings hook", func() bool {
		return f.do("GET", "/healthz", nil).json(t)["hooks"] == 1.0
	})
	if o := f.outcome("pre_tool_call", `{"tool_name":"terminal"}`); o["decision"] != "block" {
		t.Errorf("the Claude settings hook did not run: %v", o)
	}
}
