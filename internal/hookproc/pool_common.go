package hookproc

import "time"

// Declared on every system (a Pool itself is Unix only), so that callers
// can name them everywhere.

// DefaultIdle is how long an idle worker is kept (PoolConfig.Idle).
const DefaultIdle = 10 * time.Minute

// WorkerEnv is set (to "1") in a worker's environment, so that a script can
// tell a worker start from a one-shot run.
const WorkerEnv = "HERMES_HOOK_WORKER"
