package bundle

import (
	"errors"
	"fmt"
	"testing"
)

// The upgrade rule is one: an offered bundle is held to the installed one
// of its name and signer (checkUpgrade) exactly as to the layer's mark of
// it (marks.check), the highest one ever installed there, since a mark is
// that bundle's serial and manifest digest. Every pair of serials, with
// the same or other content, is refused by both or by neither.
func TestUpgradeRuleIsOneRule(t *testing.T) {
	const signer = "RWQsomekey"
	man := func(serial Serial, content string) *Manifest {
		return &Manifest{Format: "hermes-hooks-bundle/1", Name: "corp", Serial: serial,
			Files: []File{{Path: "a.sh", SHA256: content}}}
	}
	serials := []Serial{0, 1, 2, 3, MaxSerial}
	for _, was := range serials {
		for _, is := range serials {
			for _, same := range []bool{true, false} {
				old, next := man(was, "aa"), man(is, "aa")
				if !same {
					next = man(is, "bb")
				}
				name := fmt.Sprintf("%s over %s, same content %v", is, was, same)
				upErr := checkUpgrade(old, next)
				if upErr != nil && !errors.Is(upErr, ErrDowngrade) {
					t.Fatalf("%s: %v, not ErrDowngrade", name, upErr)
				}
				m := &marks{path: "/layer/" + MarksFile, byID: map[[2]string]mark{}}
				m.raise(signer, old) // an unversioned bundle marks nothing
				markErr := m.check(signer, next)
				if markErr != nil && !errors.Is(markErr, ErrBelowMark) {
					t.Fatalf("%s: %v, not ErrBelowMark", name, markErr)
				}
				if (upErr == nil) != (markErr == nil) {
					t.Errorf("%s: over the installed bundle %v, over its mark %v", name, upErr, markErr)
				}
				want := was != 0 && (is == 0 || is < was || is == was && !same)
				if (upErr != nil) != want {
					t.Errorf("%s: refused %v, want %v (%v)", name, upErr != nil, want, upErr)
				}
			}
		}
	}
}
