//go:build linux

package attacktest

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// statusKB reads a "Name:   N kB" line of /proc/PID/status (VmHWM: the
// peak resident size, so no sampling can miss the peak).
func statusKB(t *testing.T, pid int, name string) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == name+":" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", name, pid)
	return 0
}

// Many clients each sending a payload of the largest size allowed, built
// to decode into as many values as it can (an array of numbers: about 36
// times its size in memory), all at once: serve's peak memory stays
// bounded, whatever --max-conns allows, and everything it reserved is
// returned (a dispatch afterwards is answered).
func TestServePayloadFloodBoundedInMemory(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	sock := shortSock(t)
	const limit = 2 << 20
	s := e.serve(sock, "--max-body-bytes", strconv.Itoa(limit))
	pid := s.cmd.Process.Pid
	base := statusKB(t, pid, "VmHWM")
	body := `{"a":[` + strings.Repeat("0,", limit/2-8) + `0]}`
	const clients = 32
	var wg sync.WaitGroup
	codes := make([]int, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("unix", sock)
			if err != nil {
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /v1/dispatch/pre_tool_call HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				codes[i] = resp.StatusCode
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	peak := statusKB(t, pid, "VmHWM")
	// Two of the largest payloads decoded at once are about 150 MB.
	const boundKB = 600 << 10
	t.Logf("%d clients × %d KiB of numbers: peak RSS %d KiB (was %d KiB at rest; bound %d KiB); replies %v",
		clients, len(body)>>10, peak, base, boundKB, codes)
	if peak > boundKB {
		t.Fatalf("peak RSS %d KiB exceeds the bound %d KiB", peak, boundKB)
	}
	for i := 0; i < 3; i++ {
		if code, out := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`); code != 200 {
			t.Fatalf("a dispatch after the flood: %d %s", code, out)
		}
	}
}

// A local process opening 10,000 connections and sending nothing on them
// (or leaving them idle between requests) neither takes the server's file
// descriptors nor keeps others out: at the --max-conns cap the connection
// that waited longest without a request is closed to make room, so the
// accept queue keeps moving and another client is answered at once rather
// than after every hoarded connection's header timeout.
func TestServeTenThousandIdleConnections(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	sock := shortSock(t)
	const maxConns = 16
	s := e.serve(sock, "--max-conns", strconv.Itoa(maxConns))
	pid := s.cmd.Process.Pid
	s.client.CloseIdleConnections()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	refused := 0
	for range 10000 {
		c, err := net.Dial("unix", sock)
		if err != nil {
			refused++ // the kernel's accept queue is full: EAGAIN
			continue
		}
		conns = append(conns, c)
	}
	fds := len(mustReadDir(t, "/proc/"+strconv.Itoa(pid)+"/fd"))
	t.Logf("%d connections open, %d refused by the kernel; serve holds %d fds", len(conns), refused, fds)
	if fds > maxConns+32 {
		t.Fatalf("serve holds %d fds with --max-conns %d", fds, maxConns)
	}
	// Answered while every hoarded connection is still open (the dial
	// itself may meet a full accept queue for a moment: retried).
	// Each attempt is bounded, so the hang guard of waitFor applies.
	c := &http.Client{Transport: s.client.Transport, Timeout: 5 * time.Second}
	waitFor(t, "another client to be answered", func() bool {
		resp, err := c.Get("http://x/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	if code, out := s.dispatch("pre_tool_call", `{}`); code != 200 {
		t.Fatalf("dispatch: %d %s", code, out)
	}
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ents
}

// Clients that ask for a large reply (an unknown event's name is echoed in
// its 404; a URL may be as long as the header limit) and never read it:
// the server stops writing within a bound instead of holding the
// connection for ever, so --max-conns of them do not shut others out.
func TestServeUnreadRepliesDoNotHoldConnections(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	sock := shortSock(t)
	const maxConns = 4
	s := e.serve(sock, "--max-conns", strconv.Itoa(maxConns))
	s.client.CloseIdleConnections()
	name := strings.Repeat("x", 900<<10)
	for range maxConns {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// Never read: the reply fills the socket's buffers and the
		// server's write blocks.
		c.(*net.UnixConn).SetReadBuffer(4096)
		fmt.Fprintf(c, "POST /v1/dispatch/%s HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", name)
	}
	c := &http.Client{Transport: s.client.Transport, Timeout: 5 * time.Second}
	waitFor(t, "another client to be answered", func() bool {
		resp, err := c.Get("http://x/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}
