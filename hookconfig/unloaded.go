package hookconfig

import (
	"errors"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Unloaded is a project hook source that could not be loaded.
type Unloaded struct {
	// Err says which file and why (a *ConfigError, with its line if known).
	Err error
	// Project is the root of the project whose hooks were lost.
	Project string
	// Bundle: the source is an installed bundle's config. It was installed
	// on purpose, so its loss refuses what a failing guard refuses
	// whatever the allowlist holds.
	Bundle bool
	// bundleDir is that bundle's directory (or the bundles directory
	// that could not be listed): whether it is the managed layer's.
	bundleDir string
	// Managed: a managed config file (ManagedLayer) was refused or did not
	// parse. Its guards apply to everyone, so every gating event is
	// refused, whatever the consent gate says.
	Managed bool
}

// unloaded records a project source that could not be loaded, and warns.
func (cfg *Config) unloaded(where, project, what string, err error) {
	cfg.warn(where, what+": "+err.Error())
	cfg.Unloaded = append(cfg.Unloaded, Unloaded{Err: err, Project: project})
}

// RefusalFor is the outcome that refuses ev because the config could not
// be loaded (err), when a failing fail_closed guard blocks ev (one may be
// configured); ok is false for other events, which go on without hooks.
func RefusalFor(ev *protocol.Event, err error) (refused protocol.Outcome, ok bool) {
	if !ev.FailsClosed() {
		return protocol.Outcome{}, false
	}
	return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: RefusalOn(ev, err)}, true
}

// Refusal is the message that refuses tool calls while a config file
// cannot be loaded: which file, where, why, and what to do; RefusalOn
// names what a block on ev refuses instead (ev.Refused: gateway messages).
func Refusal(err error) string { return RefusalOn(nil, err) }
func RefusalOn(ev *protocol.Event, err error) string {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return "hermes-hooks refuses " + ev.Refused() + " until its config loads: " + boundEcho(err.Error(), maxWarningBytes) + "; run 'hermes-hooks doctor' to see every problem"
	}
	// The reason goes to the model: a repository must not fill its
	// context with a megabyte of its own text (boundWarnings).
	why := boundEcho(ce.Err.Error(), maxWarningBytes)
	if ce.Line > 0 {
		why = "line " + strconv.Itoa(ce.Line) + ": " + why
	}
	return "hermes-hooks refuses " + ev.Refused() + " until " + boundEcho(ce.Path, maxWarningPathBytes) + " loads (" + why + "); fix it, then run 'hermes-hooks doctor'"
}
