package cli

import (
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// unreadGuard is the first entry of cfg on ev that would refuse a call
// whose fields cannot be read, where keep (nil: any) lets it: a
// fail_closed entry that a dispatch of ev would ask or refuse in its
// name. That leaves out what a dispatch never lets decide: an entry in
// mode: shadow (it only records what it would have done), and under
// HERMES_SAFE_MODE all but the managed layer's and the user's own entry
// that cannot be read (which runs nothing and only blocks, safe mode or
// not: dispatcher's consentGate.Check); and a repository's entry
// nobody approved, which a dispatch skips (no repository can make every
// call refused unapproved) unless an accept channel approves it there.
// A repository's approved entry counts, changed since or not (changed, a
// dispatch refuses in its name too), and so does one whose approval
// cannot be told (the allowlist unreadable: a dispatch refuses then).
func (a *App) unreadGuard(cfg *hookconfig.Config, ev *protocol.Event, keep func(*hookconfig.Entry) bool) *hookconfig.Entry {
	var (
		policy  *consent.Policy
		allow   *consent.File
		unknown bool
	)
	for _, e := range cfg.Entries {
		if e.Event != ev || !e.FailClosed || e.Shadow || keep != nil && !keep(e) {
			continue
		}
		if policy == nil {
			store, err := a.Store()
			if err != nil {
				return e // no allowlist to tell approvals by: as a dispatch, refused
			}
			policy = a.Policy(cfg, store)
			allow, err = store.Load()
			unknown = err != nil || allow.Invalid != nil
		}
		if policy.SafeMode && !e.Scope.Managed && !e.ManagedBundle && (e.NeedsApproval() || e.CannotRun() == "") {
			continue // but the user's entry that cannot be read: it blocks in safe mode too
		}
		if e.Scope.Global() || e.Scope.Bundle != "" || e.Scope.Managed || policy.Accept || unknown ||
			consent.Inspect(dispatcher.ConsentRequest(e, Cwd(), nil), allow).Approved {
			return e
		}
	}
	return nil
}

// unreadRefusal is why a dispatch of ev would be refused when the call's
// fields cannot be read ("" and nil: it would not), in the order a
// dispatch finds it: a managed file that cannot be read (any of its
// guards may be asked), a source that cannot be loaded (unreadUnloaded),
// then the first fail_closed entry that would decide (unreadGuard, keep
// as there): guard is that entry, for the caller to name in its own
// words, and why is "" then.
func (a *App) unreadRefusal(cfg *hookconfig.Config, ev *protocol.Event, keep func(*hookconfig.Entry) bool) (why string, guard *hookconfig.Entry) {
	if cfg.Managed.Err != nil {
		return hookconfig.RefusalOn(ev, cfg.Managed.Err), nil
	}
	if why := a.unreadUnloaded(cfg, ev); why != "" {
		return why, nil
	}
	return "", a.unreadGuard(cfg, ev, keep)
}

// unreadUnloaded is the refusal a dispatch of ev would give for cfg's
// sources that cannot be loaded (dispatcher.UnloadedRefusal: a
// repository's hooks file that may have held a guard, a managed layer's
// or a bundle's), "" for none: a call whose fields cannot be read is
// refused wherever a readable one would be, or breaking a file would
// let every unreadable call past its guards.
func (a *App) unreadUnloaded(cfg *hookconfig.Config, ev *protocol.Event) string {
	if len(cfg.Unloaded) == 0 {
		return ""
	}
	var gate dispatcher.Gate // none (no allowlist to read): any project's hooks may run
	if store, err := a.Store(); err == nil {
		gate = dispatcher.ConsentGate(a.Policy(cfg, store))
	}
	return dispatcher.UnloadedRefusal(cfg, gate, ev)
}
