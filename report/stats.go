package report

import "time"

// Stats is the body of a server's GET /v1/stats: what each hook of the
// configuration in service has done since the server started. Counters
// carry over a reload for every hook the new configuration keeps (same
// event as declared, command, matcher, source and dialect), so an edit
// elsewhere in the config does not zero them.
type Stats struct {
	// Generation is the configuration in service (GET /healthz's).
	Generation int64 `json:"generation"`
	// Config is the config file as the server was told it (GET /v1/hooks'
	// "config").
	Config string `json:"config"`
	// Since is when the server started: every counter counts from then.
	Since time.Time `json:"since"`
	// ReloadError is why the last reload failed, while the previous
	// generation stays in service.
	ReloadError string `json:"reload_error,omitempty"`
	// Dispatches counts the answered dispatches (200) per canonical event,
	// whether or not a hook matched: it tells a hook whose matcher never
	// fits from one whose event never came.
	Dispatches map[string]int64 `json:"dispatches"`
	// LogLinesDropped counts the server's log lines lost since it started:
	// its log's destination did not take them (a pipe nobody reads).
	LogLinesDropped uint64 `json:"log_lines_dropped"`
	// Hooks are the configured hooks, in the order of GET /v1/hooks.
	Hooks []HookStats `json:"hooks"`
}

// HookStats is one configured hook's live record. A hook is counted in
// every answered dispatch whose outcome reports it; dispatches the server
// did not answer (cancelled, timed out, shut down) are not counted, so a
// hook is not blamed for a client that went away.
type HookStats struct {
	Event     string  `json:"event"`
	Canonical string  `json:"canonical_event"`
	Command   string  `json:"command"`
	Matcher   string  `json:"matcher,omitempty"`
	Dialect   string  `json:"dialect"`
	Source    string  `json:"source"`
	Timeout   float64 `json:"timeout"`
	// Duplicate repeats an earlier entry: it runs once, as that entry, and
	// its own counters stay zero.
	Duplicate bool `json:"duplicate,omitempty"`
	// Approved and Runs are the consent state, as GET /v1/hooks reports
	// it (Runs: approved and unchanged since).
	Approved bool `json:"approved"`
	Runs     bool `json:"runs"`
	// Matched counts the firings that selected the hook; Ran those in
	// which it was started; Background those in which it was handed to
	// the background (an async hook: its run is not observed); Skipped
	// those in which it was not started (LastSkip says why).
	Matched    int64 `json:"matched"`
	Ran        int64 `json:"ran"`
	Background int64 `json:"background,omitempty"`
	Skipped    int64 `json:"skipped"`
	// Blocks counts the firings in which its contribution was a block;
	// Errors those in which it could not start, was cancelled or exited
	// non-zero without blocking; Timeouts those it ran past its timeout.
	Blocks   int64 `json:"blocks"`
	Errors   int64 `json:"errors"`
	Timeouts int64 `json:"timeouts"`
	// LastFired is when its last run (or background start) ended.
	LastFired *time.Time `json:"last_fired,omitempty"`
	LastSkip  string     `json:"last_skip,omitempty"`
	LastError string     `json:"last_error,omitempty"`
	// ElapsedMS summarises its most recent runs' durations; nil before its
	// first run.
	ElapsedMS *Elapsed `json:"elapsed_ms,omitempty"`
	// Workers is the live process count of a worker: true entry, and
	// WorkerFailed why its pool was given up (it kept crashing).
	Workers      *int   `json:"workers,omitempty"`
	WorkerFailed string `json:"worker_failed,omitempty"`
}

// Elapsed is a percentile summary of a hook's most recent runs (at most
// Samples of them: the server keeps a bounded window per hook, so a hook
// that became slow shows it soon, whatever it did before).
type Elapsed struct {
	P50     float64 `json:"p50"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
	Samples int     `json:"samples"`
}

// Fired is how often the hook was started, in the foreground or not.
func (h *HookStats) Fired() int64 { return h.Ran + h.Background }
