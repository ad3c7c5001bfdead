package bundle

import (
	"errors"
	"fmt"
)

// InstallOptions are install's deliberate overrides; each refusal they
// lift stands unless its option is set.
type InstallOptions struct {
	// Replace lets a bundle signed by another key replace the installed
	// one of that name. Its serial is not compared with the installed
	// one's then (each signer counts its own), only with the layer's mark
	// of its own signer.
	Replace bool
	// AllowDowngrade lets a bundle of the installed one's signer replace
	// it though it is no upgrade (checkUpgrade), and a bundle below the
	// layer's mark install (marks.check): a rollback on purpose. It lowers
	// no mark.
	AllowDowngrade bool
	// Warn, when set, is told what install does that the caller should
	// show: a downgrade that stays below the layer's mark, an unreadable
	// marks file.
	Warn func(string)
}

func (o InstallOptions) warn(msg string) {
	if o.Warn != nil {
		o.Warn(msg)
	}
}

// admit decides, under root's lock, whether next (signed by signer) may
// be installed at dest: against the bundle installed there (its signer,
// checkUpgrade) and against the layer's marks, which it returns raised
// with every bundle installed now, for Install to raise with next and
// write. An unreadable marks file refuses unless opt.AllowDowngrade, which
// starts the marks again (said through opt.Warn).
func admit(root, dest string, next *Manifest, signer string, opt InstallOptions) (*marks, error) {
	if old, err := ReadInstalled(dest); err == nil {
		switch {
		case old.Signer != signer:
			if !opt.Replace {
				return nil, fmt.Errorf("%s: %w (installed: %s, this one: %s); remove it first or pass --replace", dest, ErrOtherSigner, old.Signer, signer)
			}
		case !opt.AllowDowngrade:
			if err := checkUpgrade(old.Manifest, next); err != nil {
				return nil, fmt.Errorf("%s: %w", dest, err)
			}
		}
	}
	m := readMarks(root)
	if m.unreadable != nil {
		if !opt.AllowDowngrade {
			opt.warn(fmt.Sprintf("%s cannot be read (%v); it is not taken as \"nothing was installed\"", m.path, m.unreadable))
			return nil, fmt.Errorf("%s: %w", dest, m.unreadableError())
		}
		opt.warn(m.restart())
	}
	m.raiseInstalled(root)
	if !opt.AllowDowngrade {
		if err := m.check(signer, next); err != nil {
			return nil, fmt.Errorf("%s: %w", dest, err)
		}
	} else if s := m.below(signer, next); s != 0 {
		opt.warn(fmt.Sprintf("bundle %s%s installed on purpose below serial %s, the highest of it by this signer installed in this layer: the mark stays %s in %s, so after a remove this one installs again only with --allow-downgrade",
			next.Name, serialSuffix(next.Serial), s, s, m.path))
	}
	return m, nil
}

// serialSuffix is " serial N", or " (unversioned)".
func serialSuffix(s Serial) string {
	if s.Unversioned() {
		return " (unversioned)"
	}
	return " serial " + s.String()
}

// ErrDowngrade refuses a bundle that is no upgrade of the installed one of
// its name and signer.
var ErrDowngrade = errors.New("not an upgrade of the installed bundle")

// notUpgrade is why an offered bundle is no upgrade of an earlier one of
// its name and signer (upgradeRule); isUpgrade when it is one.
type notUpgrade int

const (
	isUpgrade notUpgrade = iota
	// unversionedOverVersioned: the offered bundle has no serial, the
	// earlier one has.
	unversionedOverVersioned
	// lowerSerial: the offered serial is below the earlier one.
	lowerSerial
	// otherContent: the earlier serial, with other content.
	otherContent
)

// upgradeRule is the one rule install holds an offered bundle (next) to,
// against an earlier bundle of its name and signer given by its serial
// (was) and its manifest's Digest (wasDigest): the one installed now
// (checkUpgrade) and the highest one ever installed in the layer, its mark
// (marks.check), which outlives a remove. A signer's bundles are ordered by
// serial, so whoever can hand someone a bundle could hand them an older
// one, validly signed, whose guard has the hole a later one fixed:
//
//   - a lower serial is refused;
//   - an unversioned bundle over a versioned one is refused (it is older
//     than serials, or its signer left the serial out: either way nothing
//     says it is newer);
//   - the earlier serial with other content is refused: a serial names
//     one content, so one of the two is not what its serial says;
//   - the same content (a reinstall, how drift is repaired), a higher
//     serial, and anything over an unversioned bundle install. Two
//     unversioned bundles cannot be ordered: they replace each other as
//     before serials, the gap docs/bundles.md tells signers to close. (A
//     mark is never unversioned: an unversioned bundle marks nothing.)
//
// nextDigest is next's Digest when the refusal is otherContent, for its
// wording.
func upgradeRule(was Serial, wasDigest string, next *Manifest) (why notUpgrade, nextDigest string) {
	switch {
	case was.Unversioned():
		return isUpgrade, ""
	case next.Serial.Unversioned():
		return unversionedOverVersioned, ""
	case next.Serial < was:
		return lowerSerial, ""
	case next.Serial == was:
		if d := Digest(next.Encode()); d != wasDigest {
			return otherContent, d
		}
	}
	return isUpgrade, ""
}

// checkUpgrade decides whether the offered manifest (next) may replace the
// installed one (old) of the same name and signer: upgradeRule, worded as
// a refusal by the installed bundle (ErrDowngrade).
func checkUpgrade(old, next *Manifest) error {
	const how = "pass --allow-downgrade to install it on purpose"
	was := Digest(old.Encode())
	switch why, is := upgradeRule(old.Serial, was, next); why {
	case unversionedOverVersioned:
		return fmt.Errorf("bundle %s is unversioned (no serial) and the installed one has serial %s: %w; %s",
			next.Name, old.Serial, ErrDowngrade, how)
	case lowerSerial:
		return fmt.Errorf("bundle %s serial %s is lower than the installed serial %s: %w (a downgrade); %s",
			next.Name, next.Serial, old.Serial, ErrDowngrade, how)
	case otherContent:
		return fmt.Errorf("bundle %s has the installed serial %s but other content (manifest sha256 %.12s…, installed %.12s…): %w: a serial names one content, so a new one needs a higher serial; %s",
			next.Name, next.Serial, is, was, ErrDowngrade, how)
	}
	return nil
}
