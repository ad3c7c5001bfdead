//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOpenTelemetryCollector sends hermes-hooks' decisions to a real
// OpenTelemetry Collector (the OTLP receiver of go.opentelemetry.io/
// collector v0.165.0, built by this test from e2e/otelcol, a module of its
// own, with a small exporter that writes what it receives as OTLP/JSON):
// every record of one-shot hook calls (OTLP/protobuf, through the detached
// flush) and of serve (OTLP/JSON) arrives with its attributes; with the
// collector stopped mid-run, no decision is delayed, the local journal is
// complete, and serve counts what it dropped.
func TestOpenTelemetryCollector(t *testing.T) {
	col := buildCollector(t)
	dir := tempDir(t)
	bin := buildHermesHooks(t, dir)
	home := filepath.Join(dir, "home")
	out := filepath.Join(dir, "received.jsonl")
	port := freePort(t)
	c := startCollector(t, col, dir, port, out)

	guard := filepath.Join(dir, "guard.sh")
	must(t, os.WriteFile(guard, []byte("#!/bin/sh\necho '{\"decision\": \"block\", \"message\": \"no rm -rf\"}'\n"), 0o755))
	must(t, os.MkdirAll(home, 0o700))
	must(t, os.WriteFile(filepath.Join(home, "config.yaml"), []byte(fmt.Sprintf(
		"hooks:\n  pre_tool_call:\n    - command: %s\nexport:\n  otlp: true\n", guard)), 0o600))
	env := append(os.Environ(), "HERMES_HOME="+home, "HOME="+dir, "HERMES_SAFE_MODE=", "HERMES_ACCEPT_HOOKS=",
		"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:"+port)
	run := func(stdin string, args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("hermes-hooks %v: %v", args, err)
		}
		return string(b)
	}
	run("", "approve", guard)

	// One-shot hook calls: OTLP/protobuf, sent by the detached flush.
	const oneShot = 5
	for i := range oneShot {
		start := time.Now()
		reply := run(fmt.Sprintf(`{"session_id":"one-%d","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":%q}`, i, dir),
			"hook", "claude", "PreToolUse")
		if !strings.Contains(reply, `"permissionDecision":"deny"`) {
			t.Fatalf("hook %d: %s", i, reply)
		}
		t.Logf("hook call %d answered in %v", i, time.Since(start))
	}
	recs := awaitRecords(t, out, oneShot)
	for i := range oneShot {
		r, ok := recs["one-"+strconv.Itoa(i)]
		if !ok {
			t.Fatalf("session one-%d never reached the collector", i)
		}
		checkRecord(t, r, "claude", "Bash")
	}

	// serve: OTLP/JSON, sent by its own queue.
	env = append(env, "OTEL_EXPORTER_OTLP_PROTOCOL=http/json")
	sock := filepath.Join(shortTemp(t), "s.sock")
	srv := exec.Command(bin, "serve", "--listen", "unix://"+sock)
	srv.Dir, srv.Env = dir, env
	srvLog, _ := os.Create(filepath.Join(dir, "serve.log"))
	srv.Stderr = srvLog
	must(t, srv.Start())
	defer func() { srv.Process.Kill(); srv.Wait() }()
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	await(t, "serve", func() bool {
		resp, err := client.Get("http://x/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	dispatch := func(session string) time.Duration {
		start := time.Now()
		resp, err := client.Post("http://x/v1/dispatch/pre_tool_call", "application/json",
			strings.NewReader(fmt.Sprintf(`{"tool_name":"terminal","session_id":%q}`, session)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), `"decision":"block"`) {
			t.Fatalf("serve: %s", b)
		}
		return time.Since(start)
	}
	const served = 5
	for i := range served {
		dispatch("serve-" + strconv.Itoa(i))
	}
	recs = awaitRecords(t, out, oneShot+served)
	for i := range served {
		r, ok := recs["serve-"+strconv.Itoa(i)]
		if !ok {
			t.Fatalf("session serve-%d never reached the collector", i)
		}
		checkRecord(t, r, "", "terminal")
	}

	// The collector stops mid-run: decisions go on undelayed, the journal
	// has every one, and serve counts the drops once its retries give up.
	c.Process.Kill()
	c.Wait()
	const down = 10
	var slowest time.Duration
	for i := range down {
		slowest = max(slowest, dispatch("down-"+strconv.Itoa(i)))
	}
	t.Logf("slowest decision with the collector down: %v", slowest)
	if slowest > 10*time.Second {
		t.Errorf("a decision took %v with the collector down", slowest)
	}
	data, err := os.ReadFile(filepath.Join(home, "hook-journal.jsonl"))
	must(t, err)
	if n := strings.Count(string(data), "\n"); n != oneShot+served+down {
		t.Errorf("journal has %d records, want %d", n, oneShot+served+down)
	}
	verify := exec.Command(bin, "log", "verify")
	verify.Dir, verify.Env = dir, env
	if b, err := verify.CombinedOutput(); err != nil {
		t.Errorf("log verify: %v\n%s", err, b)
	}
	await(t, "the drops counted", func() bool {
		resp, err := client.Get("http://x/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), `hermes_hooks_export_dropped_total{sink="otlp"} `+strconv.Itoa(down)+"\n")
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// await polls cond; the bound only catches a hang.
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 2 minutes for %s", what)
		}
	}
}

func shortTemp(t *testing.T) string {
	d, err := os.MkdirTemp("", "hhe2e")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// buildCollector builds e2e/otelcol into the cache directory (once per
// source change); without the module proxy the test skips.
func buildCollector(t *testing.T) string {
	cache, err := os.UserCacheDir()
	must(t, err)
	dir := filepath.Join(cache, "hermes-hooks-e2e", "otelcol")
	must(t, os.MkdirAll(dir, 0o755))
	bin := filepath.Join(dir, "otelcol-e2e")
	src, err := filepath.Abs("otelcol")
	must(t, err)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		if s := string(b); strings.Contains(s, "proxy") || strings.Contains(s, "dial tcp") || strings.Contains(s, "no such host") {
			t.Skipf("skipped: the Collector cannot be built without the module proxy:\n%s", clip(s, 2000))
		}
		t.Fatalf("building the Collector: %v\n%s", err, b)
	}
	return bin
}

func startCollector(t *testing.T, bin, dir, port, out string) *exec.Cmd {
	cfg := filepath.Join(dir, "otelcol.yaml")
	must(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%s
exporters:
  jsonfile:
    path: %s
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [jsonfile]
`, port, out)), 0o600))
	c := exec.Command(bin, "--config", "file:"+cfg)
	log, _ := os.Create(filepath.Join(dir, "otelcol.log"))
	c.Stdout, c.Stderr = log, log
	must(t, c.Start())
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	await(t, "the Collector", func() bool {
		resp, err := http.Post("http://127.0.0.1:"+port+"/v1/logs", "application/json", strings.NewReader(`{}`))
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	return c
}

// otlpRecord is one log record as the Collector wrote it, its attributes
// flattened.
type otlpRecord struct {
	severity int
	body     string
	attrs    map[string]string
	resource map[string]string
}

// awaitRecords waits until the Collector's file holds n records and
// returns them by session.id.
func awaitRecords(t *testing.T, path string, n int) map[string]otlpRecord {
	t.Helper()
	var recs map[string]otlpRecord
	await(t, fmt.Sprintf("%d records at the Collector", n), func() bool {
		recs = readRecords(t, path)
		return len(recs) >= n
	})
	return recs
}

func readRecords(t *testing.T, path string) map[string]otlpRecord {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	type kv struct {
		Key   string         `json:"key"`
		Value map[string]any `json:"value"`
	}
	flat := func(kvs []kv) map[string]string {
		m := map[string]string{}
		for _, a := range kvs {
			for _, v := range a.Value {
				m[a.Key] = fmt.Sprint(v)
			}
		}
		return m
	}
	out := map[string]otlpRecord{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var doc struct {
			ResourceLogs []struct {
				Resource  struct{ Attributes []kv } `json:"resource"`
				ScopeLogs []struct {
					LogRecords []struct {
						SeverityNumber int            `json:"severityNumber"`
						Body           map[string]any `json:"body"`
						Attributes     []kv           `json:"attributes"`
					} `json:"logRecords"`
				} `json:"scopeLogs"`
			} `json:"resourceLogs"`
		}
		if json.Unmarshal(sc.Bytes(), &doc) != nil {
			continue // a line the Collector is still writing
		}
		for _, rl := range doc.ResourceLogs {
			res := flat(rl.Resource.Attributes)
			for _, sl := range rl.ScopeLogs {
				for _, lr := range sl.LogRecords {
					a := flat(lr.Attributes)
					out[a["session.id"]] = otlpRecord{severity: lr.SeverityNumber, body: fmt.Sprint(lr.Body["stringValue"]), attrs: a, resource: res}
				}
			}
		}
	}
	return out
}

func checkRecord(t *testing.T, r otlpRecord, agent, tool string) {
	t.Helper()
	want := map[string]string{
		"hermes_hooks.event": "pre_tool_call", "hermes_hooks.decision": "block", "hermes_hooks.reason": "no rm -rf",
		"gen_ai.tool.name": tool, "gen_ai.agent.name": agent,
	}
	for k, v := range want {
		if r.attrs[k] != v {
			t.Errorf("%s: attribute %s = %q, want %q (%v)", r.attrs["session.id"], k, r.attrs[k], v, r.attrs)
		}
	}
	for _, k := range []string{"hermes_hooks.hook.sha256", "hermes_hooks.hook.command", "hermes_hooks.journal.seq", "hermes_hooks.journal.prev", "hermes_hooks.payload.sha256", "hermes_hooks.hooks.timed_out"} {
		if r.attrs[k] == "" {
			t.Errorf("%s: no %s", r.attrs["session.id"], k)
		}
	}
	if r.severity != 13 || !strings.HasPrefix(r.body, "block pre_tool_call") || r.resource["service.name"] != "hermes-hooks" {
		t.Errorf("record %+v", r)
	}
}
