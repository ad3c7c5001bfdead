package hookconfig

import (
	"errors"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Unloaded is a project hook source that could not be loaded.
type Unloaded struct {
	// Err says which file and why (a *ConfigError, with the line when
	// known).
	Err error
	// Project is the root of the project whose hooks were lost.
	Project string
}

// unloaded records a project source that could not be loaded, with the
// warning it has always had.
func (cfg *Config) unloaded(where, project, what string, err error) {
	cfg.warn(where, what+": "+err.Error())
	cfg.Unloaded = append(cfg.Unloaded, Unloaded{Err: err, Project: project})
}

// RefusalFor is the outcome that refuses ev because the config could not
// be loaded (err), when a failing fail_closed guard blocks ev (it gates
// tool calls, or the catalog says so: pre_gateway_dispatch drops the
// message): whether the config held such a guard is unknown, so it is
// taken to. ok is false for other events, which go on without hooks (the
// caller warns).
func RefusalFor(ev *protocol.Event, err error) (refused protocol.Outcome, ok bool) {
	if !ev.FailsClosed() {
		return protocol.Outcome{}, false
	}
	return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: RefusalOn(ev, err)}, true
}

// Refusal is the message that refuses tool calls while a config file
// cannot be loaded: which file, where, why, and what to do.
func Refusal(err error) string { return refusal("tool calls", err) }

// RefusalOn is Refusal for an event ev, naming what a block on it refuses
// (tool calls, gateway messages).
func RefusalOn(ev *protocol.Event, err error) string { return refusal(ev.Refused(), err) }

func refusal(what string, err error) string {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return "hermes-hooks refuses " + what + " until its config loads: " + err.Error() + "; run 'hermes-hooks doctor' to see every problem"
	}
	why := ce.Err.Error()
	if ce.Line > 0 {
		why = "line " + strconv.Itoa(ce.Line) + ": " + why
	}
	return "hermes-hooks refuses " + what + " until " + ce.Path + " loads (" + why + "); fix it, then run 'hermes-hooks doctor'"
}
