package cmdpin

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The program-file readers of jq, awk and sed on any words: they never
// panic, and every file they name is one of the words, or the value of
// one (--file=F, -fF): nothing is made up.
func FuzzProgramFiles(f *testing.F) {
	for _, s := range []string{"-n -f policy in.json", "--from-file -c p --args a", "-nrf p", "-- p", "--arg a b -f p",
		"-F: -f prog data", "--file=prog", "-vX=1 -fprog", "-E prog", "-nf prog in", "-e s/a/b/ -f x", "-i.bak -f s", "-f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, words string) {
		args := strings.Fields(words)
		for _, got := range [][]string{jqProgramFile(args), awkOpts.files(args), sedOpts.files(args)} {
			for _, p := range got {
				if !slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, p) || filepath.Clean(a) == p }) {
					t.Fatalf("%q from %q: no such word", p, args)
				}
			}
		}
	})
}
