//go:build unix

package server

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A forwarded call (inputs=1) is answered only from the config on disk
// now (stale.go); the others keep the config in service.

const (
	rmrfRule = "hooks:\n  pre_tool_call:\n    - matcher: terminal\n" +
		"      rule: 'args.command matches \"rm\\\\s+-rf\"'\n      decision: block\n      message: no rm -rf\n"
	forwarded = "?inputs=1"
)

// noWatch: refreshes run only when a test asks (Refresh) or a settle
// retry fires, so what a call sees between them is deterministic.
func noWatch(o *Options) { o.Debounce, o.SettleLimit = time.Hour, time.Hour }

func decision(t *testing.T, r reply) string {
	t.Helper()
	if r.status != http.StatusOK {
		return "HTTP " + http.StatusText(r.status) + ": " + string(r.body)
	}
	d, _ := r.json(t)["decision"].(string)
	return d
}

// Every file the config in service was read from counts, not only the
// config: a rule file it includes, a project hooks file that appears, a
// file only touched.
func TestStaleConfigRefusesForwardedCalls(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, noWatch)
	rules := filepath.Join(f.home, "rules.yaml")
	writeAtomic(t, rules, rmrfRule, 0o644)
	f.writeConfig("rules: [rules.yaml]\n")
	f.srv.Refresh()
	waitFor(t, "the rule file loaded", func() bool { return decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)) == "block" })

	// The rule file edited: refused until serve has read it; a caller
	// with no inputs (no dispatch of its own) keeps the config in service.
	writeAtomic(t, rules, "hooks: {}\n", 0o644)
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict || !strings.Contains(string(r.body), rules+" changed since") {
		t.Fatalf("rule file edited: %d %s", r.status, r.body)
	}
	if d := decision(t, f.dispatch("pre_tool_call", rmrf)); d != "block" {
		t.Fatalf("no inputs: %s", d)
	}
	f.srv.Refresh() // waits to settle, then a retry loads it
	waitFor(t, "the edit loaded", func() bool { return decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)) == "none" })

	// Touched, the same bytes: refused until a refresh has looked.
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(rules, later, later); err != nil {
		t.Fatal(err)
	}
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict {
		t.Fatalf("rule file touched: %d %s", r.status, r.body)
	}
	gen := f.srv.Generation()
	f.srv.Refresh()
	if d := decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)); d != "none" || f.srv.Generation() != gen {
		t.Fatalf("after a refresh of a touched file: %s, generation %d (was %d)", d, f.srv.Generation(), gen)
	}

	// A project hooks file that was missing now exists.
	if err := os.Mkdir(filepath.Join(f.dir, ".hermes"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeAtomic(t, filepath.Join(f.dir, ".hermes", "hooks.yaml"), rmrfRule, 0o644)
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict || !strings.Contains(string(r.body), "hooks.yaml changed since") {
		t.Fatalf("project hooks file created: %d %s", r.status, r.body)
	}
}

// A broken config refuses forwarded calls (the one-shot refuses every
// tool call then); restored to the bytes in service, serve answers again
// and reports no reload error.
func TestStaleBrokenThenRestored(t *testing.T) {
	f := start(t, rmrfRule, nil, noWatch)
	f.writeConfig(rmrfRule + "    - rule: 'true'\n      decision: block\n      decision: allow\n")
	f.srv.Refresh()
	waitFor(t, "the failed reload", func() bool { return f.srv.reloadErr.Load() != nil })
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict || !strings.Contains(string(r.body), "does not load") {
		t.Fatalf("broken config: %d %s", r.status, r.body)
	}
	if d := decision(t, f.dispatch("pre_tool_call", rmrf)); d != "block" {
		t.Fatalf("no inputs: %s", d)
	}
	f.writeConfig(rmrfRule)
	f.srv.Refresh()
	waitFor(t, "serve to answer again", func() bool { return decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)) == "block" })
	if h := f.do("GET", "/healthz", nil).json(t); h["reload_error"] != nil || h["generation"] != 1.0 {
		t.Errorf("healthz after the restore: %v", h)
	}
}

// A writer that keeps the config open may be half-way through it: serve
// keeps the last good config for as long as it stays open (past
// SettleLimit the log says so), refuses forwarded calls meanwhile, and
// loads the file once it is closed. (Loading past the bound what was
// there applied half-written configs: TestReloadPastTheSettleBound….)
func TestSettleLimitKeepsTheLastGoodWhileHeld(t *testing.T) {
	needsWriterProbe(t)
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.SettleLimit = 300 * time.Millisecond })
	release := holdOpen(t, f.config)
	if err := os.WriteFile(f.config, []byte(rmrfRule), 0o644); err != nil {
		t.Fatal(err)
	}
	f.waitLog("the config files keep changing or stay open for writing")
	if g := f.srv.Generation(); g != 1 {
		t.Fatalf("a config still open for writing was loaded: generation %d", g)
	}
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict {
		t.Fatalf("a forwarded call while the config is held: %d %s", r.status, r.body)
	}
	if d := decision(t, f.dispatch("pre_tool_call", rmrf)); d != "none" {
		t.Fatalf("a call without inputs while the config is held: %s, want the last good config's none", d)
	}
	release()
	// No Refresh: the settle timer's next look loads it.
	f.waitGeneration(2)
	if d := decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)); d != "block" {
		t.Fatalf("after the holder closed the file: %s", d)
	}
}

// While a changed config stays open for writing, serve looks at it again
// every Settle for as long as that lasts, and a forwarded call's 409 asks
// for a look too. Those looks only ask whether the files have settled: a
// full refresh on each — every hook inspected, the allowlist read
// (reviewHooks) — cost a 500-hook serve a third of a core for as long as
// any process kept a file of its config open. Here each review reads an
// allowlist that cannot be read and says so in the log: about a hundred
// looks pass before the settle bound is logged, and they must not review.
func TestSettleLooksDoNotReviewHooks(t *testing.T) {
	needsWriterProbe(t)
	const unreadable = "read allowlist"
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.Settle, o.SettleLimit = 5*time.Millisecond, 500*time.Millisecond })
	if err := os.Mkdir(f.store.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	f.waitLog(unreadable) // the refresh of the mkdir's file event
	release := holdOpen(t, f.config)
	before := strings.Count(f.logs.String(), unreadable)
	if err := os.WriteFile(f.config, []byte(rmrfRule), 0o644); err != nil {
		t.Fatal(err)
	}
	f.waitLog("the config files keep changing or stay open for writing")
	// The write's own file events refresh once or twice.
	if n := strings.Count(f.logs.String(), unreadable) - before; n > 5 {
		t.Fatalf("%d reviews of every hook while the config was held open, want those of its file events only", n)
	}
	release()
	f.waitGeneration(2)
}

// needsWriterProbe skips t where fsutil.BeingWritten cannot tell (no read
// leases: macOS, the BSDs, the portable build). There a writer that stays
// open past the settle period is not seen and serve loads what is on disk,
// as the one-shot reads it then: a forwarded call is still answered only
// from the config on disk (the stale check), never from an older one.
func needsWriterProbe(t *testing.T) {
	t.Helper()
	if !fsutil.SeesWriters {
		t.Skip("needs read leases (Linux, not the portable build): a writer that stays open past the settle period is not seen")
	}
}

// holdOpen keeps path open for writing in another process until release.
func holdOpen(t *testing.T, path string) (release func()) {
	t.Helper()
	holder := exec.Command("sh", "-c", `exec 3>>"$0"; echo held; exec sleep 600`, path)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	// Read before Wait runs: Wait closes the pipe.
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		holder.Process.Kill()
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { holder.Wait(); close(exited) }()
	var once sync.Once
	release = func() { once.Do(func() { holder.Process.Kill(); <-exited }) }
	t.Cleanup(release)
	return release
}

// A project hooks file found by the upward search from the server's
// directory (a repository's root above it), created after the load: the
// one-shot reads it, so serve must not answer.
func TestStaleProjectHooksAboveTheServer(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, belowRepoRoot(t))
	if d := decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)); d != "none" {
		t.Fatalf("before: %s", d)
	}
	hooks := filepath.Join(f.dir, ".hermes", "hooks.yaml")
	writeAtomic(t, hooks, rmrfRule, 0o644)
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict || !strings.Contains(string(r.body), hooks) {
		t.Fatalf("a project hooks file above the server, created: %d %s", r.status, r.body)
	}
	// And serve loads it: it is among the files a reload looks at.
	f.srv.Refresh()
	f.waitGeneration(2)
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusOK {
		t.Fatalf("after the reload: %d %s", r.status, r.body)
	}
	if pf := f.srv.cur.Load().cfg.ProjectFiles; len(pf) != 1 || pf[0] != hooks {
		t.Fatalf("project files loaded: %v", pf)
	}
}

// belowRepoRoot starts the server in sub/ of a repository whose root is
// the fixture's directory, with refreshes only on request (noWatch).
func belowRepoRoot(t *testing.T) func(*Options) {
	return func(o *Options) {
		noWatch(o)
		for _, d := range []string{".git", "sub", ".hermes"} {
			if err := os.Mkdir(filepath.Join(o.Cwd, d), 0o700); err != nil {
				t.Fatal(err)
			}
		}
		o.Cwd = filepath.Join(o.Cwd, "sub")
		o.ProjectDir = o.Cwd
	}
}

// Attack: a repository puts a FIFO where its root's project hooks file
// would be, above the server's directory (now among the files serve
// looks at). Nothing blocks on it: a refresh returns, a forwarded call is
// answered (409 until serve has looked, then from the config that skips
// the unreadable project file, as the one-shot does).
func TestStaleProjectHooksFIFOAboveTheServer(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, belowRepoRoot(t))
	fifo := filepath.Join(f.dir, ".hermes", "hooks.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict {
		t.Fatalf("a FIFO appeared: %d %s", r.status, r.body)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.srv.Refresh()
	}()
	select {
	case <-done:
	case <-time.After(deadline):
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("a refresh blocked on a FIFO above the server")
	}
	// A reload, not a look that takes the FIFO for the missing file it
	// replaced: the one-shot finds it (and skips it with a warning).
	f.waitGeneration(2)
	waitFor(t, "serve to answer past the FIFO", func() bool {
		return f.dispatch("pre_tool_call"+forwarded, rmrf).status == http.StatusOK
	})
	if pf := f.srv.cur.Load().cfg.ProjectFiles; len(pf) != 1 || pf[0] != fifo {
		t.Fatalf("project files loaded: %v", pf)
	}
}
