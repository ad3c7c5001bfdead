//go:build !unix

package dispatcher

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
)

// keepsWorkers: no worker pool on this system (Windows: the pool's
// process and pipe handling is Unix's), so New runs worker entries
// one-shot — the payload, then EOF — and their reports say so, as a
// one-shot dispatch's do.
const keepsWorkers = false

// workers: none on this system; worker entries run one-shot.
type workers struct{}

// Workers reports nothing: worker entries run one-shot here.
func (d *Dispatcher) Workers() []WorkerStatus { return nil }

// StopWorkers has no worker to stop here.
func (d *Dispatcher) StopWorkers() {}

func (d *Dispatcher) stopWorkers(*hookconfig.Entry) {}

// StopChangedWorkers has no worker to stop here.
func (d *Dispatcher) StopChangedWorkers() []WorkerStatus { return nil }

func (d *Dispatcher) runWorker(ctx context.Context, _ Invocation, spec hookproc.Spec) hookproc.Result {
	return hookproc.Run(ctx, spec)
}
