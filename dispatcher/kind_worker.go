package dispatcher

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// workerKind is a command whose process is kept alive between events
// (hookconfig.WorkerSpec; worker*.go keeps the pools). It is approved as
// a command is; with Options.OneShotWorkers (a process that exits right
// after one dispatch) it runs one-shot, and its report says so.
type workerKind struct{ spec *hookconfig.WorkerSpec }

func workerKindOf(s hookconfig.Spec) hookKind {
	if w, ok := s.(*hookconfig.WorkerSpec); ok {
		return workerKind{w}
	}
	return nil
}

func (workerKind) fixed(*hookconfig.Entry) *cmdpin.Target { return nil }

func (workerKind) cannotRun() string { return "" }

func (workerKind) run(ctx context.Context, d *Dispatcher, ev *protocol.Event, h Invocation, payload []byte) ran {
	if d.opts.OneShotWorkers {
		r := d.runProcess(ctx, ev, h, payload, false)
		r.note = "worker entry run one-shot (no hermes-hooks serve kept it alive)"
		return r
	}
	return d.runProcess(ctx, ev, h, payload, true)
}
