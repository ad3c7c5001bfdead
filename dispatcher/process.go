package dispatcher

import "github.com/hermes-hooks/hermes-hooks/internal/hookproc"

// Hook processes are started, bounded and cleaned up by internal/hookproc
// (own process group, timeout, output cap, bounded wait for held pipes,
// descendants killed when a hook fails); what is here is the part of its
// API a Go host may need, which an internal package cannot give it.

// DefaultOutputCap bounds what is kept of a hook's stdout and of its stderr.
const DefaultOutputCap = hookproc.DefaultOutputCap

// BecomeSubreaper makes this process the reaper of its hooks' orphaned
// descendants (PR_SET_CHILD_SUBREAPER, Linux only), so that a descendant
// that left its hook's process group is still killed when the hook fails
// and when the dispatcher exits (KillEscaped). The CLI calls it; a Go host
// that starts other children of its own should not, since their orphans
// would be reparented to it as well.
func BecomeSubreaper() error { return hookproc.BecomeSubreaper() }

// KillEscaped kills the escaped descendants of the hooks this process ran
// (see BecomeSubreaper) and reaps them — all but the helpers of hooks that
// succeeded (exit 0 in time), which outlive the dispatcher as they would
// outlive Hermes; the CLI calls it before it exits. It does nothing unless
// BecomeSubreaper was called. It returns how many it killed.
func KillEscaped() int { return hookproc.KillEscaped() }
