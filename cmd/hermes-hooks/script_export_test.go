package main

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// await-lines PATH N: until PATH holds at least N whole lines (a
	// detached export flush wrote them). The bound is a hang guard only.
	scriptCmds["await-lines"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: await-lines PATH N")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("await-lines: %v", err)
		}
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
			if data, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && strings.Count(string(data), "\n") >= n {
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("%s did not reach %d lines", args[0], n)
			}
		}
	}
}
