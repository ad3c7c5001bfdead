package permrule

import (
	"math/rand"
	"os/exec"
	"strings"
	"testing"
)

// TestPrintfAsBash: each value printfValue makes is the one bash's
// printf -v makes, for random formats of %s with and without a
// precision and a width, %d, %x, %% and text, over random arguments (a
// fixed seed), run through a real bash. Skipped without bash.
func TestPrintfAsBash(t *testing.T) {
	bash := bashFor(t)
	rng := rand.New(rand.NewSource(5))
	pieces := []string{"a", " ", "%s", "%.2s", "%5.1s", "%-4.3s", "%.s", "%.0s", "%d", "%x", "%%", "%3s", "-"}
	argv := []string{"rmx", "é ab", "", "12", "-3", "rm -rf /", "abcdef"}
	made := 0
	for range 200 {
		var f strings.Builder
		for k := 1 + rng.Intn(4); k > 0; k-- {
			f.WriteString(pieces[rng.Intn(len(pieces))])
		}
		var args []string
		for k := rng.Intn(4); k > 0; k-- {
			args = append(args, argv[rng.Intn(len(argv))])
		}
		want, ok := printfValue(f.String(), args)
		if !ok {
			continue
		}
		made++
		cmd := exec.Command(bash, append([]string{"-c", `printf -v out "$0" "$@" && printf %s "$out"`, f.String()}, args...)...)
		cmd.Env = []string{"LC_ALL=C"}
		out, err := cmd.Output()
		if err != nil {
			continue // bash refuses it (a number it cannot read): nothing to compare
		}
		if string(out) != want {
			t.Errorf("printf -v out %q %q: bash makes %q, the analysis %q", f.String(), args, out, want)
		}
	}
	if made < 50 {
		t.Errorf("only %d of 200 formats were made here", made)
	}
}
