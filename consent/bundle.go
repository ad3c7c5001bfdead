package consent

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A hook from an installed, verified bundle (Scope.Bundle) is approved by
// the bundle's signature — the admin's consent — not by the allowlist: it
// may run iff its config fragment and every file it runs still match the
// digests of the manifest that signature covered. Anything else is drift
// and never runs; the gate makes a gating event block on it, naming the
// file (dispatcher/gate.go). The allowlist and the accept channels play no
// part: `approve` cannot approve an edited bundle file, and a bundle hook
// needs no `approve`.

// reasonBundle is the reason a bundle hook runs.
const reasonBundle = "approved by the signature of bundle "

// decideBundle decides h, a bundle hook.
func (p *Policy) decideBundle(h *Request) Verdict {
	t := h.target()
	pins := cmdpin.Pin(t, &p.hashes)
	name, d, err := bundleCheck(h, t, pins)
	switch {
	case err != nil:
		pins.Close()
		msg := fmt.Sprintf("bundle hook for %s (%s) not run: %v", h.Event, h.Command, err)
		p.warn(msg)
		return Verdict{Reason: msg, Drift: DriftUnknown}
	case d.Kind == DriftHash:
		pins.Close()
		msg := fmt.Sprintf("bundle %s: %s; reinstall the bundle (hermes-hooks bundle install) to run it again", name, d.Why)
		p.warn(fmt.Sprintf("bundle hook for %s (%s) not run: %s", h.Event, h.Command, msg))
		return Verdict{Reason: msg, Approved: true, Drift: DriftHash}
	}
	return Verdict{Run: true, Approved: true, Drift: DriftNone, Reason: reasonBundle + name, Pins: pins, TextOnlyAck: true}
}

// untrustedSigner is a bundle's drift when the managed layer lists
// trusted_bundle_keys and none of them signed it: like an edited file, it
// never runs and a gating event blocks on it.
func untrustedSigner(inst *bundle.Installed, trusted []string) Drift {
	if len(trusted) == 0 || bundle.KeyListed(trusted, inst.Key) {
		return Drift{Kind: DriftNone}
	}
	return Drift{Kind: DriftHash, File: filepath.Join(inst.Dir, bundle.InstalledSigner),
		Why: "signed by " + inst.Signer + ", which is not one of the managed config's trusted_bundle_keys"}
}

// bundleCheck compares h's config fragment and the files it runs (t, hashed
// in pins) with the installed bundle's manifest. err: the bundle cannot be
// read, or the hook runs something no bundle approval can cover (a file
// outside the bundle, or files that cannot be told).
func bundleCheck(h *Request, t *cmdpin.Target, pins *cmdpin.Pins) (string, Drift, error) {
	dir := h.Scope.Bundle
	inst, err := bundle.ReadInstalled(dir)
	if err != nil {
		// Unreadable, or its signature no longer verifies: tampered with
		// like an edited file, it never runs and a gating event blocks.
		return filepath.Base(dir), Drift{Kind: DriftHash, File: filepath.Join(dir, bundle.InstalledManifest),
			Why: "installed bundle " + dir + " cannot be read or verified (" + err.Error() + "); reinstall it"}, nil
	}
	if d := untrustedSigner(inst, h.BundleKeys); d.Kind == DriftHash {
		return inst.Name, d, nil
	}
	files := bundle.FilesDir(dir)
	relOf := func(p string) (string, bool) {
		rel, err := filepath.Rel(files, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	// The fragment holds the hook's command text, arguments and options:
	// it is covered like a script.
	if rel, ok := relOf(h.Scope.Source); !ok {
		return inst.Name, Drift{}, fmt.Errorf("its config %s is not a file of bundle %s", h.Scope.Source, inst.Name)
	} else if data, err := fsutil.ReadRegular(h.Scope.Source, files, bundle.MaxFileBytes); err != nil {
		return inst.Name, Drift{Kind: DriftHash, File: h.Scope.Source, Why: h.Scope.Source + " cannot be read (" + err.Error() + ")"}, nil
	} else if d := fileDrift(inst.Manifest, rel, h.Scope.Source, bundle.Digest(data)); d.Kind == DriftHash {
		return inst.Name, d, nil
	}
	if t.Opaque != "" && t.Spec != "" {
		// Decided in-process or by a URL (a rule, an opa or http entry):
		// its whole definition (Spec) is text of the fragment, which the
		// manifest has just covered.
		return inst.Name, Drift{}, nil
	}
	if t.Opaque != "" {
		return inst.Name, Drift{}, fmt.Errorf("what it runs cannot be told (%s), so bundle %s's signature cannot cover it", t.Opaque, inst.Name)
	}
	sums := pins.Sums()
	for i, f := range t.Files {
		rel, ok := relOf(f)
		if !ok {
			return inst.Name, Drift{}, fmt.Errorf("it runs %s, which is not a file of bundle %s, so the bundle's signature does not cover it", f, inst.Name)
		}
		now := ""
		if i < len(sums) && pins.HashErr(i) == nil {
			now = sums[i]
		}
		if d := fileDrift(inst.Manifest, rel, f, now); d.Kind == DriftHash {
			return inst.Name, d, nil
		}
	}
	return inst.Name, Drift{Kind: DriftNone}, nil
}

// fileDrift compares one file's digest now ("" unreadable or gone) with
// the manifest's.
func fileDrift(m *bundle.Manifest, rel, path, now string) Drift {
	f, ok := m.Lookup(rel)
	switch {
	case !ok:
		return Drift{Kind: DriftHash, File: path, Now: now, Why: path + " is not in the bundle's manifest (added after install)"}
	case now == "":
		return Drift{Kind: DriftHash, File: path, Was: f.SHA256, Why: path + " is gone or cannot be read since the bundle was installed"}
	case !strings.EqualFold(now, f.SHA256):
		return Drift{Kind: DriftHash, File: path, Was: f.SHA256, Now: now, Why: path + " changed since the bundle was installed (sha256 " + now + ", the signed manifest says " + f.SHA256 + ")"}
	}
	return Drift{Kind: DriftNone}
}

// inspectBundle is Inspect for a bundle hook.
func inspectBundle(h *Request) Status {
	t := h.target()
	st := Status{Target: *t}
	pins := cmdpin.Pin(t, &defaultHashes)
	defer pins.Close()
	name, d, err := bundleCheck(h, t, pins)
	if err != nil {
		st.Drift = Drift{Kind: DriftHash, Why: err.Error()}
		return st
	}
	// What list and doctor show where an approval's time would be.
	st.Approval = Entry{Event: h.Event, Command: h.Command, ApprovedAt: "by the signature of bundle " + name, Scope: h.Scope}
	st.Approved, st.Drift = true, d
	return st
}
