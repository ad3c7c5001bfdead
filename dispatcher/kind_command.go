package dispatcher

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// commandKind is a command (hookconfig.CommandSpec, or an entry a host
// built without a spec): a process started for each firing from what
// cmdpin resolved, the gate checked and pinned (hookFor, prepare).
type commandKind struct{}

func commandKindOf(s hookconfig.Spec) hookKind {
	if _, ok := s.(*hookconfig.CommandSpec); ok {
		return commandKind{}
	}
	return nil
}

func (commandKind) fixed(*hookconfig.Entry) *cmdpin.Target { return nil }

func (commandKind) cannotRun() string { return "" }

func (commandKind) run(ctx context.Context, d *Dispatcher, ev *protocol.Event, h Invocation, payload []byte) ran {
	return d.runProcess(ctx, ev, h, payload, false)
}

// runProcess starts what h.target names with the payload on its stdin —
// one-shot, or (pooled) by a worker of the entry's pool — after checking
// it can start, and with a CLAUDE_ENV_FILE for the events that give one.
func (d *Dispatcher) runProcess(ctx context.Context, ev *protocol.Event, h Invocation, payload []byte, pooled bool) ran {
	e := h.Entry
	spec, spawnErr := d.prepare(h)
	switch {
	case spawnErr != "":
	case pooled:
		// A worker is checked when it starts, not at every request
		// (the check reads the script: ~25 µs, a third of a request
		// to a live worker); a live worker's pool is keyed by the
		// approved digests, so its script has not changed since.
		spec.Verify = startCheck(&h.target, spec.Verify)
	default:
		spawnErr = cannotStart(&h.target)
	}
	out := ran{timeout: spec.Timeout}
	if spawnErr == "" && e.Dialect == protocol.Claude && runEvent(ev, e).EnvFile {
		var envFile string
		envFile, spec.Env = claudeEnvFile(spec.Env)
		if envFile != "" {
			out.after = func(rep *protocol.HookReport) { readEnvFile(envFile, rep) }
		}
	}
	if spawnErr == "" && d.opts.BeforeStart != nil {
		d.startOnce.Do(d.opts.BeforeStart)
	}
	switch {
	case spawnErr != "":
		out.res.SpawnError = spawnErr
	case pooled:
		spec.Stdin = payload
		out.res = d.runWorker(ctx, h, spec)
	default:
		spec.Stdin = payload
		out.res = hookproc.Run(ctx, spec)
	}
	if out.res.SpawnError != "" && spawnErr == "" {
		// The OS's word for a script that cannot start is "no such
		// file" whether the script, its #! interpreter or that
		// interpreter with a carriage return is missing: say which
		// (the file changed since the check above).
		if why := cannotStart(&h.target); why != "" {
			out.res.SpawnError = why
		}
	}
	return out
}
