package hookconfig

import "time"

// DefaultWorkerIdle is how long an idle worker is kept (worker_idle), and
// MaxWorkers bounds an entry's pool (workers: N).
const (
	DefaultWorkerIdle = 10 * time.Minute
	MaxWorkers        = 16
)
