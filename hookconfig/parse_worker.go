package hookconfig

import (
	"fmt"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"
)

// parseWorker reads worker, workers and worker_idle (seconds). A bad value
// is a warning and the default, as for Hermes' own keys. worker: true makes
// the entry a worker (WorkerSpec).
func (cfg *Config) parseWorker(e *Entry, path string, n *yaml.Node) {
	var (
		worker bool
		ws     WorkerSpec
	)
	if w := pyyaml.MappingGet(n, "worker"); w != nil {
		b, ok := pyyaml.Bool(w)
		if !ok {
			cfg.warn(path, ".worker must be true or false (got "+pyyaml.Repr(w)+"); running it one-shot")
		}
		worker = b && ok
	}
	if w := pyyaml.MappingGet(n, "workers"); w != nil {
		v, ok := pyyaml.Int(w)
		switch {
		case !ok || w.Tag == "!!bool" || v < 1:
			cfg.warn(path, ".workers must be a whole number from 1 to "+fmt.Sprint(MaxWorkers)+" (got "+pyyaml.Repr(w)+"); using 1")
			v = 1
		case v > MaxWorkers:
			cfg.warn(path, fmt.Sprintf(".workers=%d exceeds max %d; clamping", v, MaxWorkers))
			v = MaxWorkers
		}
		ws.Workers = v
	}
	if t := pyyaml.MappingGet(n, "worker_idle"); t != nil {
		v, ok := pyyaml.Int(t)
		if !ok || t.Tag == "!!bool" || v < 1 {
			cfg.warn(path, ".worker_idle must be a whole number of seconds, at least 1 (got "+pyyaml.Repr(t)+"); using "+DefaultWorkerIdle.String())
		} else {
			ws.Idle = time.Duration(v) * time.Second
		}
	}
	switch {
	case worker:
		e.Spec = &ws
	case ws.Workers != 0 || ws.Idle != 0:
		cfg.warn(path, ".workers and .worker_idle apply to worker: true entries only; ignored")
	}
}
