package report

import (
	"fmt"
	"io"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// ManagedInfo is the managed layer (hookconfig.ManagedLayer) as list,
// doctor and validate print it, first: what an administrator set, which no
// user setting switches off.
type ManagedInfo struct {
	Files []string `json:"files"`
	Hooks int      `json:"hooks"`
	// AllowManagedHooksOnly: nothing but the managed hooks runs; Skipped
	// counts the others that were not loaded.
	AllowManagedHooksOnly bool     `json:"allow_managed_hooks_only"`
	Skipped               int      `json:"skipped,omitempty"`
	TrustedBundleKeys     []string `json:"trusted_bundle_keys,omitempty"`
	// Error says why a managed file was refused or did not parse: every
	// tool call is refused until it is fixed.
	Error string `json:"error,omitempty"`
}

// NewManagedInfo describes cfg's managed layer (nil when there is none).
func NewManagedInfo(cfg *hookconfig.Config) *ManagedInfo {
	m := &cfg.Managed
	if !m.Active() {
		return nil
	}
	info := &ManagedInfo{Files: m.Files, Hooks: m.Hooks, AllowManagedHooksOnly: m.AllowManagedHooksOnly,
		Skipped: m.Skipped, TrustedBundleKeys: m.TrustedBundleKeys}
	if m.Err != nil {
		info.Error = m.Err.Error()
	}
	return info
}

// PrintManaged prints the managed layer, when there is one, before
// anything else a verb prints about the config.
func PrintManaged(w io.Writer, cfg *hookconfig.Config) {
	info := NewManagedInfo(cfg)
	if info == nil {
		return
	}
	fmt.Fprintln(w, "Managed by your administrator (runs for every user; no user or repository setting switches it off):")
	for _, f := range info.Files {
		fmt.Fprintf(w, "  %s\n", show(f))
	}
	fmt.Fprintf(w, "  %s\n", Count(info.Hooks, "managed hook", "managed hooks"))
	if info.AllowManagedHooksOnly {
		fmt.Fprintf(w, "  allow_managed_hooks_only: only managed hooks run; the user's config, repositories' and agents' hook files and plugins are skipped (%s not loaded)\n",
			Count(info.Skipped, "hook", "hooks"))
	}
	if n := len(info.TrustedBundleKeys); n > 0 {
		fmt.Fprintf(w, "  trusted_bundle_keys: %s\n", Count(n, "key", "keys"))
	}
	if info.Error != "" {
		fmt.Fprintf(w, "  %s %s: every tool call is refused until it is fixed\n", CheckFail.Symbol(), show(bounded(info.Error)))
	}
	fmt.Fprintln(w)
}

// managedFirst moves the problems of the managed config files to the
// front, keeping each group's order: the layer is shown first.
func managedFirst(cfg *hookconfig.Config, ps []Problem) []Problem {
	if !cfg.Managed.Active() {
		return ps
	}
	out := make([]Problem, 0, len(ps))
	for _, managed := range []bool{true, false} {
		for _, p := range ps {
			if slices.Contains(cfg.Managed.Files, p.File) == managed {
				out = append(out, p)
			}
		}
	}
	return out
}
