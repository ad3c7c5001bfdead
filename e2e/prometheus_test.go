//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// promBound bounds every wait on serve or Prometheus (start, a scrape,
// a query's answer): it only catches a hang. With a 1 s scrape interval
// a sample appears within seconds.
const promBound = 2 * time.Minute

// The hooks whose decisions Prometheus is to see, in the user's config
// (HOOKS is the scripts' directory): a guard that refuses rm -r, a
// Claude-dialect hook that allows read_file, a hook that fails on
// web_search, and a guard nobody approved. The project adds a
// repository hook nobody approved.
const (
	promConfig = `hooks:
  pre_tool_call:
    - command: HOOKS/guard.sh
      matcher: terminal
    - command: HOOKS/allow.sh
      dialect: claude
    - command: HOOKS/fail.sh
      matcher: web_search
    - command: HOOKS/unapproved-guard.sh
      matcher: terminal
`
	promRepoHooks = "hooks:\n  pre_tool_call:\n    - command: ./.hermes/repo-guard.sh\n"
	promGuard     = `#!/bin/sh
case "$(cat)" in *'rm -r'*) echo '{"action": "block", "message": "no recursive rm"}' ;; esac
exit 0
`
	promAllow = `case "$(cat)" in *read_file*|*'"Read"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' ;; *) echo '{}' ;; esac
`
	promFail       = "#!/bin/sh\ncat >/dev/null\necho 'e2e: failing on purpose' >&2\nexit 3\n"
	promUnapproved = "#!/bin/sh\ncat >/dev/null\ntouch \"$0.ran\"\necho '{}'\n"
)

// promFiring is one dispatch the test fires and the decision it must get.
type promFiring struct {
	fields, decision string
	n                int
}

var promFirings = []promFiring{
	{`{"tool_name":"terminal","args":{"command":"rm -rf /tmp/e2e-nothing"}}`, "block", 3},
	{`{"tool_name":"read_file","args":{"path":"README.md"}}`, "allow", 2},
	{`{"tool_name":"web_search","args":{"query":"x"}}`, "none", 1},
	{`{"tool_name":"terminal","args":{"command":"ls"}}`, "none", 2},
}

// TestPrometheus: a real Prometheus (Debian's package) scrapes
// `hermes-hooks serve --listen tcp://127.0.0.1:PORT` every second; the test
// fires decisions of each kind (blocked, allowed, a failing hook, a
// skipped unapproved guard, a repository's unapproved hook) and reads the
// counts back from Prometheus' query API. Then every query of
// docs/grafana-dashboard.json is run by Prometheus (its PromQL must parse
// and find data), the dashboard's variables' label values are asked for,
// and promtool lints the scrape: no complaint may name a hermes_hooks_
// family.
func TestPrometheus(t *testing.T) {
	begin := time.Now()
	prometheus, promtool := prometheusBinaries(t)
	root := tempDir(t)
	hooks, project := filepath.Join(root, "hooks"), filepath.Join(root, "project")
	home, hermesHome := filepath.Join(root, "home"), filepath.Join(root, "hermes-home")
	for _, d := range []string{hooks, project, home, hermesHome, filepath.Join(root, "bin"), filepath.Join(project, ".hermes")} {
		mustMkdir(t, d)
	}
	bin := buildHermesHooks(t, filepath.Join(root, "bin"))
	for name, body := range map[string]string{"guard.sh": promGuard, "allow.sh": promAllow, "fail.sh": promFail, "unapproved-guard.sh": promUnapproved} {
		mustWrite(t, filepath.Join(hooks, name), body, 0o755)
	}
	mustWrite(t, filepath.Join(hermesHome, "config.yaml"), strings.ReplaceAll(promConfig, "HOOKS", hooks), 0o644)
	mustWrite(t, filepath.Join(project, ".hermes", "hooks.yaml"), promRepoHooks, 0o644)
	mustWrite(t, filepath.Join(project, ".hermes", "repo-guard.sh"), promUnapproved, 0o755)
	env := append(cleanEnv(), "HOME="+home, "HERMES_HOME="+hermesHome)
	for _, h := range []string{"guard.sh", "allow.sh", "fail.sh"} {
		runIn(t, project, env, bin, "approve", filepath.Join(hooks, h), "--event", "pre_tool_call")
	}

	serveAddr := startServe(t, bin, project, env)
	prom := startPrometheus(t, prometheus, root, serveAddr)
	waitQuery(t, prom, `up{job="hermes-hooks"}`, 1)
	t.Logf("Prometheus scrapes %s (%s since start)", serveAddr, time.Since(begin).Round(time.Millisecond))

	total := 0
	for _, f := range promFirings {
		for range f.n {
			if got := dispatch(t, serveAddr, f.fields); got != f.decision {
				t.Fatalf("dispatch %s: decision %q, want %q", f.fields, got, f.decision)
			}
			total++
		}
	}
	// Every answer above was counted before it was sent: once a scrape
	// has all the decisions, it has every hook's counts too.
	waitQuery(t, prom, `sum(hermes_hooks_decisions_total)`, float64(total))
	for _, c := range []struct {
		query string
		want  float64
	}{
		{`sum(hermes_hooks_decisions_total{decision="block"})`, 3},
		{`sum(hermes_hooks_decisions_total{decision="allow"})`, 2},
		{`sum(hermes_hooks_decisions_total{decision="none"})`, 3},
		{`sum(hermes_hooks_dispatches_total{event="pre_tool_call"})`, float64(total)},
		{`sum(hermes_hooks_hook_blocks_total{command=~".*/guard.sh"})`, 3},
		{`sum(hermes_hooks_hook_runs_total{command=~".*/guard.sh"})`, 5},
		{`sum(hermes_hooks_hook_duration_seconds_count{command=~".*/guard.sh"})`, 5},
		{`sum(hermes_hooks_hook_errors_total{command=~".*/fail.sh"})`, 1},
		{`sum(hermes_hooks_hook_skipped_total{command=~".*/unapproved-guard.sh"})`, 5},
		{`sum(hermes_hooks_unapproved_skipped_total{event="pre_tool_call"})`, float64(total)},
	} {
		if got, ok := queryScalar(t, prom, c.query); !ok || got != c.want {
			t.Errorf("%s = %v (found %v), want %v", c.query, got, ok, c.want)
		}
	}
	if p95, ok := queryScalar(t, prom, `histogram_quantile(0.95, sum by (le) (hermes_hooks_hook_duration_seconds_bucket{command=~".*/guard.sh"}))`); !ok || !(p95 > 0 && p95 <= 600) {
		t.Errorf("p95 of guard.sh's runs: %v (found %v)", p95, ok)
	}
	for _, f := range []string{filepath.Join(hooks, "unapproved-guard.sh.ran"), filepath.Join(project, ".hermes", "repo-guard.sh.ran")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("an unapproved hook ran: %s exists", f)
		}
	}
	checkDashboardQueries(t, prom, serveAddr)
	lintScrape(t, promtool, serveAddr)
	t.Logf("TestPrometheus: %s wall", time.Since(begin).Round(time.Millisecond))
}

// prometheusBinaries finds prometheus and promtool: $HERMES_E2E_PROMETHEUS
// (the prometheus binary, promtool beside it), else on PATH, else Debian's
// prometheus package unpacked in the user cache directory — fetched with
// `apt-get download` and unpacked with dpkg-deb -x rather than installed:
// the package's install starts a system Prometheus service on port 9090
// and adds a user, neither of which a test may do. Without them the test
// skips with the reason.
func prometheusBinaries(t *testing.T) (prometheus, promtool string) {
	t.Helper()
	if p := os.Getenv("HERMES_E2E_PROMETHEUS"); p != "" {
		return p, filepath.Join(filepath.Dir(p), "promtool")
	}
	if p, err := exec.LookPath("prometheus"); err == nil {
		if tool, err := exec.LookPath("promtool"); err == nil {
			return p, tool
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("skipped: no prometheus on PATH and no cache directory to unpack Debian's package in (%v); set HERMES_E2E_PROMETHEUS=/path/to/prometheus", err)
	}
	dir := filepath.Join(cache, "hermes-hooks-e2e", "prometheus-deb")
	prometheus, promtool = filepath.Join(dir, "usr", "bin", "prometheus"), filepath.Join(dir, "usr", "bin", "promtool")
	if os.Getenv("HERMES_E2E_UPDATE") == "" && exec.Command(prometheus, "--version").Run() == nil {
		return prometheus, promtool
	}
	for _, tool := range []string{"apt-get", "dpkg-deb"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipped: no prometheus on PATH and no %s to fetch Debian's package (set HERMES_E2E_PROMETHEUS=/path/to/prometheus)", tool)
		}
	}
	start := time.Now()
	deb, err := downloadDeb(t, "prometheus")
	if err != nil {
		t.Skipf("skipped: Debian's prometheus package cannot be fetched: %v", err)
	}
	// Unpacked beside the cache slot, then renamed into it: a run killed
	// half-way leaves no half a Prometheus behind.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "prometheus-deb-*")
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	if out, err := exec.Command("dpkg-deb", "-x", deb, tmp).CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		t.Skipf("skipped: dpkg-deb -x %s: %v\n%s", deb, err, out)
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(prometheus, "--version").CombinedOutput(); err != nil {
		t.Skipf("skipped: Debian's prometheus unpacked in %s does not run: %v\n%s", dir, err, out)
	}
	t.Logf("fetched and unpacked Debian's prometheus into %s in %s", dir, time.Since(start).Round(time.Millisecond))
	return prometheus, promtool
}

// downloadDeb fetches a Debian package's .deb into a temporary directory
// (apt-get download: no install, no root needed). As root with package
// lists too old to have it, it runs apt-get update once and tries again.
func downloadDeb(t *testing.T, pkg string) (string, error) {
	dir := t.TempDir()
	try := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), npmTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "apt-get", "download", "-q", pkg)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("apt-get download %s: %v\n%s", pkg, err, clip(string(out), 2000))
		}
		return nil
	}
	err := try()
	if err != nil && os.Geteuid() == 0 {
		if out, uerr := exec.Command("apt-get", "update", "-q").CombinedOutput(); uerr != nil {
			return "", fmt.Errorf("%v; apt-get update: %v\n%s", err, uerr, clip(string(out), 2000))
		}
		err = try()
	}
	if err != nil {
		return "", err
	}
	debs, _ := filepath.Glob(filepath.Join(dir, pkg+"_*.deb"))
	if len(debs) != 1 {
		return "", fmt.Errorf("apt-get download %s left %v in %s", pkg, debs, dir)
	}
	return debs[0], nil
}

// runIn runs a command to completion; a failure fails the test.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// startProcess starts cmd in a process group of its own, its output in
// the returned buffer, and stops the group when the test ends (logging
// the output if the test failed).
func startProcess(t *testing.T, what string, cmd *exec.Cmd) *proctest.Buffer {
	t.Helper()
	out := &proctest.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", what, err)
	}
	t.Cleanup(func() {
		_ = signalGroup(cmd, syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(promBound):
			_ = signalGroup(cmd, syscall.SIGKILL)
			<-done
			t.Errorf("%s did not stop on SIGTERM", what)
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", what, clip(out.String(), 20000))
		}
	})
	return out
}

// startServe starts `hermes-hooks serve` on a loopback port the kernel
// picks and returns host:port, read from its listening line.
func startServe(t *testing.T, bin, project string, env []string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--listen", "tcp://127.0.0.1:0", "--log-format", "json")
	cmd.Dir, cmd.Env = project, env
	log := startProcess(t, "hermes-hooks serve", cmd)
	addrRe := regexp.MustCompile(`"msg":"listening","addr":"tcp://(127\.0\.0\.1:\d+)"`)
	var addr string
	poll(t, "serve's listening line", func() bool {
		if m := addrRe.FindStringSubmatch(log.String()); m != nil {
			addr = m[1]
		}
		return addr != ""
	})
	return addr
}

// startPrometheus starts Prometheus on a free loopback port, scraping
// serveAddr every second, its storage in root, and returns its base URL
// once it is ready.
func startPrometheus(t *testing.T, bin, root, serveAddr string) string {
	t.Helper()
	dir := filepath.Join(root, "prometheus")
	mustMkdir(t, filepath.Join(dir, "data"))
	cfg := filepath.Join(dir, "prometheus.yml")
	mustWrite(t, cfg, `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: hermes-hooks
    metrics_path: /metrics
    static_configs:
      - targets: ["`+serveAddr+`"]
`, 0o644)
	port := freePort(t)
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+port, "--web.console.templates="+dir, "--web.console.libraries="+dir)
	cmd.Dir, cmd.Env = dir, append(cleanEnv(), "HOME="+dir)
	startProcess(t, "prometheus", cmd)
	base := "http://127.0.0.1:" + port
	poll(t, "Prometheus ready", func() bool {
		resp, err := http.Get(base + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return base
}

// freePort is a loopback port nothing listens on now (the kernel's pick).
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// poll checks cond every 100 ms until it holds; promBound catches a hang.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(promBound)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("waited %s for %s", promBound, what)
		}
		<-tick.C
	}
}

// dispatch POSTs a pre_tool_call to serve and returns the decision.
func dispatch(t *testing.T, addr, fields string) string {
	t.Helper()
	resp, err := http.Post("http://"+addr+"/v1/dispatch/pre_tool_call", "application/json", strings.NewReader(fields))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var o struct{ Decision string }
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &o) != nil {
		t.Fatalf("dispatch %s: %d %s", fields, resp.StatusCode, body)
	}
	return o.Decision
}
