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
