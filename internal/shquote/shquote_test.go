package shquote

import (
	"os/exec"
	"testing"
)

// TestQuoteRoundTrip: sh reads every quoted word back unchanged.
func TestQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"plain", "", "a b", "it's", `"$HOME"`, "`x`", "a\nb", "~x", "*", "a=b", "'''"} {
		for _, q := range []string{Quote(s), IfNeeded(s)} {
			out, err := exec.Command("sh", "-c", "printf %s "+q).Output()
			if err != nil || string(out) != s {
				t.Errorf("sh read %q back as %q (%v)", q, out, err)
			}
		}
	}
}
