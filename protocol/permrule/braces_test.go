package permrule

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBracesBoundedPerWord: a word of thousands of brace expressions — in
// a command's words, in what a word reads, in an array — is refused at
// once. Each word expand.BracesSeq makes copies the word's parts at every
// brace level, so 2,000 {a,b} in one word took 18 s and a 64 KiB one
// minutes, past any bound (the stop of a rule's commands() included); the
// time here only catches such a hang on a loaded machine under -race.
func TestBracesBoundedPerWord(t *testing.T) {
	many := strings.Repeat("{a,b}", maxShellCommand/5-40)
	for _, line := range []string{
		"echo " + many,
		"rm -rf ~; echo " + many,
		"X=1; echo $X" + many,
		"a=(" + many + "); rm \"${a[@]}\"",
		"a=(-rf " + many + " /); rm \"${a[@]}\"",
		"a=([0]=rm " + many + "); ${a[@]} -rf /",
		"echo " + strings.Repeat("{a,", 3000) + strings.Repeat("}", 3000),
	} {
		start := time.Now()
		got, err := CommandsUntil(line, func() bool { return false })
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%.40q: took %s", line, d)
		}
		if err == nil && !slices.Contains(got, "rm -rf ~") {
			t.Errorf("%.40q: %d commands, no error; want it refused", line, len(got))
		}
	}
}

// A word of as many brace expressions as people write is expanded as
// bash does.
func TestBracesWithinTheBound(t *testing.T) {
	word := strings.Repeat("{a,b}", 10) // 1,024 words: the line's bound
	got, err := Commands("echo " + word)
	if err != nil || len(got) != 1 || strings.Count(got[0], " ") != 1024 {
		t.Fatalf("%d commands, error %v", len(got), err)
	}
	got, err = Commands("rm -{r,f} x; mkdir -p src/{a,{b,c}/{d,e}}")
	want := []string{"rm -r -f x", "mkdir -p src/a src/b/d src/b/e src/c/d src/c/e"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}
