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
