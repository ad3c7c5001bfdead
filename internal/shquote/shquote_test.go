package shquote

import (
	"os/exec"
	"runtime"
	"testing"
)

// TestQuoteRoundTrip: sh reads every quoted word back unchanged.
func TestQuoteRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil && runtime.GOOS == "windows" {
		t.Skip("no sh on PATH (Git Bash's, where agents find one on Windows)")
	}
	for _, s := range []string{"plain", "", "a b", "it's", `"$HOME"`, "`x`", "a\nb", "~x", "*", "a=b", "'''"} {
		for _, q := range []string{Quote(s), IfNeeded(s)} {
			out, err := exec.Command("sh", "-c", "printf %s "+q).Output()
			if err != nil || string(out) != s {
				t.Errorf("sh read %q back as %q (%v)", q, out, err)
			}
		}
	}
}

// Expand fills $NAME and ${NAME} for the names value knows and keeps every
// other $ as written: consent reads a hook's paths and http hooks their
// headers by it, so both read a variable alike.
func TestExpand(t *testing.T) {
	known := func(name string) (string, bool) {
		if name == "A" || name == "B_1" {
			return "<" + name + ">", true
		}
		return "", false
	}
	for in, want := range map[string]string{
		"plain":          "plain",
		"$A/x":           "<A>/x",
		"${A}x":          "<A>x",
		"$B_1$A":         "<B_1><A>",
		"$$":             "$$",
		"a$$A":           "a$<A>",
		"$1 $* $":        "$1 $* $",
		"${A:-d} ${}":    "${A:-d} ${}",
		"${A":            "${A",
		"$AB ${C} $C":    "$AB ${C} $C",
		"x$A${A}$A$":     "x<A><A><A>$",
		"${A}}{$A{":      "<A>}{<A>{",
		"\u00e9$A\u00e9": "\u00e9<A>\u00e9",
	} {
		if got := Expand(in, known); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
	}
}
