package hookconfig

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseWorkerKeys(t *testing.T) {
	for _, tc := range []struct {
		extra   []string
		worker  bool
		workers int
		idle    time.Duration
		warning string
	}{
		{[]string{"worker: true"}, true, 0, 0, ""},
		{[]string{"worker: yes", "workers: 3", "worker_idle: 30"}, true, 3, 30 * time.Second, ""},
		{[]string{"worker: 'true'"}, false, 0, 0, ".worker must be true or false"},
		{[]string{"worker: true", "workers: 0"}, true, 1, 0, ".workers must be a whole number from 1 to 16"},
		{[]string{"worker: true", "workers: 99"}, true, MaxWorkers, 0, ".workers=99 exceeds max 16; clamping"},
		{[]string{"worker: true", "worker_idle: soon"}, true, 0, 0, ".worker_idle must be a whole number of seconds"},
		{[]string{"workers: 2"}, false, 0, 0, "apply to worker: true entries only"},
	} {
		cfg, err := ParseConfig([]byte(hookYAML("pre_tool_call", "./x.sh", tc.extra...)), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		e := cfg.Entries[0]
		var warns []string
		for _, w := range cfg.Warnings {
			warns = append(warns, w.String())
		}
		joined := strings.Join(warns, "\n")
		var ws WorkerSpec // the ignored values of an entry that is no worker are not kept
		if w := e.Worker(); w != nil {
			ws = *w
		}
		if (e.Worker() != nil) != tc.worker || ws.Workers != tc.workers || ws.Idle != tc.idle ||
			(tc.warning == "") != (len(warns) == 0) || !strings.Contains(joined, tc.warning) {
			t.Errorf("%v: worker=%v workers=%d idle=%v warnings=%q", tc.extra, e.Worker() != nil, ws.Workers, ws.Idle, joined)
		}
	}
}

// hookYAML is a config of one entry for event.
func hookYAML(event, command string, extra ...string) string {
	y := "hooks:\n  " + event + ":\n    - command: " + strconv.Quote(command) + "\n"
	for _, e := range extra {
		y += "      " + e + "\n"
	}
	return y
}
