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
	// File is the project's hooks file (not a file it names, whose name
	// is the repository's): what Refusal names.
	File string
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
// The warning is about the project's hooks file (file), not the config
// being loaded: validate and doctor list it under that file.
func (cfg *Config) unloaded(where, project, file, what string, err error) {
	w := Warning{Path: where, Message: what + ": " + err.Error(), File: file}
	if ce := (*ConfigError)(nil); errors.As(err, &ce) && ce.Path == file {
		w.Line = ce.Line
	}
	cfg.Warnings = append(cfg.Warnings, w)
	cfg.Unloaded = append(cfg.Unloaded, Unloaded{Err: err, Project: project, File: file})
}

// Refusal is the refusal of ev while u cannot be loaded. A repository's
// reason is not in it: the reason goes to the model, and it quotes the
// repository's own text (a value it wrote, the name of a file it names),
// up to 4 KB of words nobody approved in a hook's block message. It names
// the project's hooks file and the line; the warning and validate say why.
// A managed file's or a bundle's reason is an administrator's or a signed
// publisher's, and is given whole (RefusalOn).
func (u Unloaded) Refusal(ev *protocol.Event) string {
	if u.Managed || u.Bundle || u.File == "" {
		return RefusalOn(ev, u.Err)
	}
	where := "a file it names does not load; "
	var ce *ConfigError
	if errors.As(u.Err, &ce) && ce.Path == u.File {
		where = ""
		if ce.Line > 0 {
			where = "line " + strconv.Itoa(ce.Line) + "; "
		}
	}
	return "hermes-hooks refuses " + ev.Refused() + " until " + boundEcho(u.File, maxWarningPathBytes) + " loads (" + where +
		"the reason quotes the repository's own text, so it is not given here: run 'hermes-hooks validate' in the project); fix it, then run 'hermes-hooks doctor'"
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
	if n := len(ce.More); n > 0 {
		return "hermes-hooks refuses " + ev.Refused() + " until " + boundEcho(ce.Path, maxWarningPathBytes) + " loads (" + why + ", and " +
			strconv.Itoa(n) + " more problem" + plural(n) + "); fix them ('hermes-hooks validate' lists them all), then run 'hermes-hooks doctor'"
	}
	return "hermes-hooks refuses " + ev.Refused() + " until " + boundEcho(ce.Path, maxWarningPathBytes) + " loads (" + why + "); fix it, then run 'hermes-hooks doctor'"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
