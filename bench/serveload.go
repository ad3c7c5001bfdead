//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

var (
	serveBench   = flag.Bool("serve", true, "also load-test `hermes-hooks serve` over its Unix socket")
	serveTotal   = flag.Int("serve-n", 2000, "dispatches per load case (serve)")
	serveClients = flag.Int("serve-clients", 16, "concurrent clients (serve)")
)

// serveLoad starts `hermes-hooks serve` on a Unix socket and measures it
// from the outside, as a host sees it: 2000 dispatches from 16 concurrent
// clients for a firing that matches no hook and for one that runs nop_hook
// (zero errors expected; p50/p99 latency and throughput), then the round
// trip of one no-match dispatch over the socket against a one-shot
// `hermes-hooks dispatch` process doing the same, interleaved round by
// round.
func (e *env) serveLoad() error {
	if !*serveBench {
		return nil
	}
	began := time.Now()
	home := filepath.Join(e.work, "serve-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	cfg := "hooks:\n  pre_tool_call:\n    - command: " + e.nop + "\n      matcher: terminal\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o644); err != nil {
		return err
	}
	envv := append(os.Environ(), "HERMES_HOME="+home, "HERMES_ACCEPT_HOOKS=", "HERMES_SAFE_MODE=")
	approve := exec.Command(e.bin, "approve", "--all")
	approve.Env = envv
	if out, err := approve.CombinedOutput(); err != nil {
		return fmt.Errorf("approve: %v: %s", err, out)
	}

	sock := filepath.Join(e.work, "serve.sock")
	tr := unixTransport(sock)
	tr.MaxIdleConnsPerHost = *serveClients
	client := &http.Client{Transport: tr}
	srv, err := startServe(e.bin, envv, e.work, sock, filepath.Join(e.work, "serve.log"), client)
	if err != nil {
		return err
	}
	defer srv.kill()

	fmt.Printf("\n6. Server: `hermes-hooks serve` over a Unix socket, %d dispatches from %d concurrent clients (load average %s)\n",
		*serveTotal, *serveClients, loadAvg())
	fmt.Printf("   %-28s %7s %9s %9s %14s\n", "firing", "errors", "p50 ms", "p99 ms", "dispatches/s")
	payload := `{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"s1"}`
	cases := []struct {
		name, event, want string
	}{
		{"no matching hook", "post_llm_call", `"hooks":[]`},
		{"one nop_hook", "pre_tool_call", `"ran":true,"exit_code":0`},
	}
	var failed int64
	for _, c := range cases {
		lat, errs, wall, firstErr := loadCase(client, c.event, payload, c.want)
		failed += errs
		fmt.Printf("   %-28s %7d %9.3f %9.3f %14.0f\n", c.name, errs, pct(lat, 50), pct(lat, 99),
			float64(len(lat))/wall.Seconds())
		if firstErr != "" {
			fmt.Printf("   first error: %s\n", firstErr)
		}
	}

	// Round trip of one no-match dispatch, one client at a time: the
	// socket against a process start per event.
	const viaSocket, oneShots = 200, 20
	var sockMs, shotMs []float64
	for r := 0; r < *rounds; r++ {
		start := time.Now()
		for i := 0; i < viaSocket; i++ {
			if _, err := post(client, "post_llm_call", payload, `"hooks":[]`); err != nil {
				return fmt.Errorf("serve round trip: %w", err)
			}
		}
		sockMs = append(sockMs, float64(time.Since(start).Microseconds())/1000/viaSocket)
		start = time.Now()
		for i := 0; i < oneShots; i++ {
			cmd := exec.Command(e.bin, "dispatch", "post_llm_call")
			cmd.Env, cmd.Dir = envv, e.work
			cmd.Stdin = strings.NewReader(payload)
			out, err := cmd.Output()
			if err != nil || !bytes.Contains(out, []byte(`"hooks":[]`)) {
				return fmt.Errorf("one-shot dispatch: %v: %s", err, out)
			}
		}
		shotMs = append(shotMs, float64(time.Since(start).Microseconds())/1000/oneShots)
	}
	ms, mo := median(sockMs), median(shotMs)
	fmt.Printf("   round trip, one client, no matching hook: serve %.3f ms, one-shot `dispatch` %.2f ms  (rounds: %s | %s)\n",
		ms, mo, fmtSamples(sockMs), fmtSamples(shotMs))
	fmt.Printf("   → one-shot / serve = %.0f×  (expected ≫ 10×: %s)\n", mo/ms, verdict(mo/ms >= 10))

	if err := srv.stop(); err != nil {
		return err
	}
	fmt.Printf("   (section took %.1fs, serve's SIGTERM shutdown included)\n", time.Since(began).Seconds())
	if failed > 0 {
		return fmt.Errorf("serve load: %d failed dispatches; serve's log ends:\n%s", failed, tailFile(srv.log))
	}
	return nil
}

// benchServer is a `hermes-hooks serve` the bench started on a Unix
// socket, its stderr in a log file.
type benchServer struct {
	cmd     *exec.Cmd
	log     string
	exited  chan struct{} // closed when it is gone; waitErr is then set
	waitErr error
}

// unixTransport dials the server's socket whatever the URL's host.
func unixTransport(sock string) *http.Transport {
	return &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}
}

// startServe starts serve on sock and waits until client gets an answer
// from it; on failure the server is gone and the error ends with its log.
func startServe(bin string, env []string, dir, sock, logPath string, client *http.Client) (*benchServer, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child has its own descriptor
	cmd := exec.Command(bin, "serve", "--listen", "unix://"+sock)
	cmd.Env, cmd.Dir, cmd.Stderr = env, dir, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &benchServer{cmd: cmd, log: logPath, exited: make(chan struct{})}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	if err := waitReady(client, s.exited); err != nil {
		s.kill()
		return nil, fmt.Errorf("%w; serve's log:\n%s", err, tailFile(logPath))
	}
	return s, nil
}

// kill ends the server if it still runs.
func (s *benchServer) kill() {
	select {
	case <-s.exited:
	default:
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// stop ends the server with SIGTERM and checks it exits cleanly and soon.
func (s *benchServer) stop() error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			return fmt.Errorf("serve exited badly after SIGTERM: %v", s.waitErr)
		}
		return nil
	case <-time.After(15 * time.Second):
		return errors.New("serve did not exit within 15 s of SIGTERM")
	}
}

// waitReady polls /healthz until the server answers.
func waitReady(client *http.Client, exited <-chan struct{}) error {
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		select {
		case <-exited:
			return errors.New("serve exited at start")
		default:
		}
		if resp, err := client.Get("http://serve/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("serve did not answer /healthz within 30 s")
}

// post sends one dispatch and checks the reply holds want.
func post(client *http.Client, event, payload, want string) (time.Duration, error) {
	start := time.Now()
	resp, err := client.Post("http://serve/v1/dispatch/"+event, "application/json", strings.NewReader(payload))
	if err != nil {
		return 0, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(want)) {
		return 0, fmt.Errorf("HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(body))
	}
	return took, nil
}

// loadCase runs serveTotal dispatches from serveClients goroutines and
// returns every latency (ms), the error count and the wall time.
func loadCase(client *http.Client, event, payload, want string) ([]float64, int64, time.Duration, string) {
	var next, errs atomic.Int64
	var mu sync.Mutex
	var lat []float64
	var firstErr string
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < *serveClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]float64, 0, *serveTotal / *serveClients + 1)
			for next.Add(1) <= int64(*serveTotal) {
				d, err := post(client, event, payload, want)
				if err != nil {
					if errs.Add(1) == 1 {
						mu.Lock()
						firstErr = err.Error()
						mu.Unlock()
					}
					continue
				}
				mine = append(mine, float64(d.Microseconds())/1000)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return lat, errs.Load(), time.Since(start), firstErr
}

// pct is the p-th percentile (nearest rank) of xs.
func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// tailFile is the end of a file (the work directory, logs included, is
// removed when the bench ends).
func tailFile(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 4096 {
		b = b[len(b)-4096:]
	}
	return string(b)
}
