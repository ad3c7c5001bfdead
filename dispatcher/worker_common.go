package dispatcher

// Worker entries (hookconfig.Entry.Worker) keep their hook process alive between
// events: the dispatcher writes one JSON payload per line to its stdin and
// reads one JSON reply per line from its stdout — the same replies a
// one-shot run prints, or the envelope {"exit": N, "stdout": "…",
// "stderr": "…"} for what a one-shot hook says with its exit status (a
// Claude-dialect exit 2). Each payload carries a request id (the member
// hookproc.WorkerRequestID, appended last) that the reply must echo at its
// top level; a reply with another id or none is not taken for the answer
// (see worker_id.go). One request is in flight per process; a pool of up to
// hookconfig.Entry.Workers processes serves parallel firings.
//
// The processes are a hookproc.Pool per entry, whose safety is the one-shot
// runner's: each request has the entry's timeout, after which the worker's
// process group and its escaped descendants are killed and the next request
// starts a fresh one; a worker that dies, prints a line that is not a JSON
// object or replies out of turn is restarted with backoff, and one that
// keeps crashing is marked failed (its requests fail, so fail_closed
// applies) instead of being restarted forever. A request that never reached
// a live worker (it had died while idle) is retried once on a fresh one.
// Idle workers stop after hookconfig.Entry.WorkerIdle; Dispatcher.Close stops them
// all. What is here: which entry a pool serves, the request id framing
// (worker_id.go), and consent. Consent is checked per request like any
// hook's: a worker runs the files the gate pinned when it started, and a
// request whose pinned files differ (the script changed and was approved
// again) stops the old workers first; a hook the gate no longer runs has
// its workers stopped, and StopChangedWorkers stops those whose files
// changed without waiting for a request.

// WorkerStatus is one worker entry's state, for /healthz and reports.
type WorkerStatus struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Live    int    `json:"live"`
	Failed  string `json:"failed,omitempty"`
}
