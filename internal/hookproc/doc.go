// Package hookproc starts hook processes and keeps hook workers: it is the
// only code in hermes-hooks that starts a hook's process. It knows nothing of
// configs, consent or what a hook's reply means: its callers say what to run
// (a [Spec]: path, argv, environment, directory, stdin, timeout, output cap,
// extra descriptors, a last check before the start) and get back what
// happened (a [Result]: exit status or signal, output, timeout,
// cancellation, spawn error).
//
// Contract, for [Run] (one-shot) and for the workers of a [Pool]:
//
//   - Every process runs in its own process group and, on Linux, dies with
//     this process (parent-death signal). Once [BecomeSubreaper] was called
//     it sees HERMES_HOOKS_RUN, a run tag its descendants inherit.
//   - Spec.Verify runs immediately before the start; its error starts
//     nothing and is the spawn error. A start failure is worded as Hermes
//     words it ("command not found", "command not executable").
//   - Each run has its own timeout; at the timeout, or when the caller's
//     context ends, the whole process group is killed, the hook by its own
//     pid too (it may have moved into another group of its session), and
//     the result says TimedOut or Cancelled. A cancelled run waits for
//     nothing but the hook's exit, and for that briefly (cancelGrace): its
//     caller has given up. Run never returns a Go error.
//   - stdout and stderr are captured up to the cap (DefaultOutputCap); the
//     rest is drained and dropped, and the result says it was truncated.
//   - The wait is bounded: once the process has exited or been killed, a
//     descendant still holding its pipes (a backgrounded "sleep 3600 &")
//     delays the result by a short grace at most; what was already written
//     is kept, and the group is killed.
//   - A run that succeeds — exit 0, by itself, in time, its pipes closed —
//     keeps the helpers it detached (as in Hermes and Codex: a SessionStart
//     hook may start a background service). Any other end (another exit
//     status, a signal, a timeout, cancellation, a held pipe) kills its
//     whole tree: its process group and, once [BecomeSubreaper] was called
//     (Linux), the descendants that left the group (setsid), found by their
//     run tag, each with its whole subtree. [KillEscaped], at exit, kills every escaped descendant but
//     the helpers of successful runs. A worker's tree dies when the worker
//     ends.
//   - On Windows a Job Object stands for the process group: the hook is
//     created suspended, put in its own job (killed when its last handle
//     closes, so a tree never outlives a crashed dispatcher) and resumed;
//     "the whole tree" is the job. Spec.CmdLine gives cmd.exe its command
//     line verbatim. There is no Pool on Windows yet. On Unix systems other
//     than Linux there is no subreaper and no parent-death signal: a
//     descendant that calls setsid escapes.
//
// A [Pool] (Unix only) keeps up to Size worker processes of one command: one
// request line in, one reply line out, one request in flight per process;
// the caller frames the request and decodes the reply (see [Pool.Request]).
package hookproc
