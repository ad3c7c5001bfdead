// Package dispatcher turns "event X happened, with these fields" into one
// [protocol.Outcome]. Its exported API is what a Go host embeds: load a
// [hookconfig.Config] (hookconfig.Load), build a [Dispatcher] with [New]
// and a [Gate] ([ConsentGate] over a [consent.Policy]), then
// [Dispatcher.Dispatch] every event; see the package Example.
//
// One dispatch: select the entries whose matcher and Claude `if` rule fit
// (a repository's unapproved entries are passed over first), ask the gate
// for each, run the approved ones — as processes or kept-alive workers
// (internal/hookproc), or http posts — read each reply in its entry's
// dialect (package protocol's, or the entry's Codec's), fold them in
// config order, keep session state and async replies, and hand a Record
// to the Recorder. Reading configs is package hookconfig's job; what
// people read about one (list, doctor) is package report's.
//
// Contract:
//
//   - Dispatch never runs a hook the Gate refuses; there is no default that
//     runs everything (AllowAll exists for tests and must be chosen).
//   - What cannot be evaluated on a gating event blocks it with a reason:
//     a fail_closed guard that cannot run or be confirmed approved, an `if`
//     rule that cannot be evaluated, a matcher out of backtracking time, a
//     repository's hooks file that cannot be loaded while the repository
//     has an approval.
//   - A hook failing is a result inside the Outcome, never a Go error; Dispatch
//     returns an error only when it could not dispatch at all (unknown event)
//     or its context ended while hooks ran (a [CancelledError]: the outcome
//     lacks what the killed hooks would have said, and is no answer).
//   - Every hook process runs in its own process group with its own timeout;
//     on timeout or context cancellation the whole group is killed, and the
//     wait for its output is bounded even when a grandchild holds the pipes.
//     Output is captured up to a cap; the rest is drained and dropped.
//   - Replies are folded in config order ([protocol.Fold]), whatever order the
//     hooks finished in.
//   - A firing that matches no hook starts no process and does not allocate.
//   - The package prints nothing; warnings go to the Warn callback.
package dispatcher
