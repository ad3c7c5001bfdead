// Package proctest holds helpers for tests that watch real processes: which
// members of a process group are still alive, and a concurrency-safe buffer
// for a process's or a server's log output, and an HTTP peer that dies as it
// answers. It is imported by tests only.
package proctest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
)

// LiveGroupMembers lists the processes of process group pgid that are still
// alive, read from /proc ("pid:state" each). Zombies — dead, waiting for a
// parent to reap them — do not count: a killed hook's group is gone even if
// its reaper has not run yet. On systems without /proc it returns nil.
func LiveGroupMembers(pgid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name may hold spaces and parentheses; the fields
		// after its closing parenthesis are state, ppid, pgrp, ...
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			out = append(out, e.Name()+":"+f[0])
		}
	}
	return out
}

// Buffer is a bytes.Buffer safe for concurrent Write and String, for output
// written by other goroutines (an exec.Cmd's copier, a server's logger).
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
