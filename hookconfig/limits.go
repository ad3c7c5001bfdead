package hookconfig

import "time"

// DefaultWorkerIdle is how long an idle worker is kept (worker_idle), and
// MaxWorkers bounds an entry's pool (workers: N).
const (
	DefaultWorkerIdle = 10 * time.Minute
	MaxWorkers        = 16
)

// maxWarningBytes bounds one warning as printed (and a refusal's reason):
// its Path, Key and File hold at most maxWarningPathBytes each, its
// Message the rest, whatever config-controlled text they quote.
const (
	maxWarningBytes     = 4096
	maxWarningPathBytes = 1024
	// maxWarningsPerFile bounds how many warnings one file gets.
	maxWarningsPerFile = 100
	// maxSearchesPerFile bounds the did-you-mean searches one file costs:
	// each compares a name with every known one.
	maxSearchesPerFile = 256
)

// maxAliasedEntries bounds the entries one file's lists written as aliases
// (pre_tool_call: *guards) bring in all: one written list of N entries
// aliased under M events is N×M entries, and a user's own file has no
// entry cap. A file past it does not load.
const maxAliasedEntries = 10_000
