// Package dispatcher turns "event X happened, with these fields" into one
// [protocol.Outcome] by running the configured hook processes. Its exported
// API is what a Go host embeds: [Load] a [Config], build a [Dispatcher] with
// [New] and a [Gate] ([ConsentGate] over a [consent.Policy]), then
// [Dispatcher.Dispatch] every event; see the package Example. What people
// read about a config (list, doctor) is package report's job.
//
// It owns config loading and validation (the YAML hooks: block of a Hermes
// config, and the agents' own hook files as hook sources: Claude Code
// settings, Codex hooks.json, Copilot hook files, Cursor hooks.json — whose
// entries the agent that declared them runs itself, Entry.RunBy), matchers,
// parallel dispatch, session state and async hooks; the hook processes
// themselves are started and kept by internal/hookproc.
//
// Contract:
//
//   - Load never panics, whatever the config holds. Every bad entry is
//     skipped or corrected with a Warning naming its path
//     (hooks.pre_tool_call[2].timeout …); only an unreadable or syntactically
//     broken file is an error.
//   - Dispatch never runs a hook the Gate refuses; there is no default that
//     runs everything (AllowAll exists for tests and must be chosen).
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
