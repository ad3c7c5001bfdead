package suggest

import (
	"math"
	"strings"
	"testing"
)

// ratio must be difflib.SequenceMatcher(None, a, b).ratio(). The expected
// values are worked out by hand from difflib's algorithm (longest matching
// block, earliest in a then in b, recurse left and right; ratio = 2·M/T).
func TestDifflibRatioByHand(t *testing.T) {
	cases := []struct {
		a, b string
		m, t int // matches, total length
	}{
		// Python docs: SequenceMatcher(None, "abcd", "bcde").ratio() == 0.75
		{"abcd", "bcde", 3, 8},
		// "tide" vs "diet": first 't' of a matches b[3]; nothing left of it
		// in b or right of it in b → M=1. Reversed: 'd'→b[2], then "iet" vs
		// "e" → M=2. ratio is not symmetric.
		{"tide", "diet", 1, 8},
		{"diet", "tide", 2, 8},
		// " abcd" inside "abcd abcd": block " abcd" (a=0, b=4, size 5).
		{" abcd", "abcd abcd", 5, 14},
		// Python docs get_matching_blocks example: "ab" and "cd".
		{"qabxcd", "abycdf", 4, 12},
		// Characters, not bytes: é is one element.
		{"héllo", "hello", 4, 10},
		{"pre_tool_call", "pre_tools_call", 13, 27},
		// Tie between "ab" and "cd" (both size 2): the earliest in a wins,
		// then "xcd" vs "cd" on the right → M=4.
		{"abxcd", "abcd", 4, 9},
		{"", "", 0, 0},
		{"a", "", 0, 1},
		{"", "abc", 0, 3},
		{"same", "same", 4, 8},
		// 'b'(0,0); right "ac" vs "dcadc": 'a'(1,3); right "c" vs "dc":
		// 'c'(2,5) → M=3. Reversed: 'b'(0,0); right "dcadc" vs "ac": the
		// earliest single match is 'c'(2,2); left "d"/"a" and right
		// "adc"/"" add nothing → M=2.
		{"bac", "bdcadc", 3, 9},
		{"bdcadc", "bac", 2, 9},
	}
	for _, tc := range cases {
		want := 1.0
		if tc.t > 0 {
			want = 2 * float64(tc.m) / float64(tc.t)
		}
		got := ratio([]rune(tc.a), []rune(tc.b))
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("ratio(%q, %q) = %v, want %v", tc.a, tc.b, got, want)
		}
	}
	if got := ratio([]rune("abcd"), []rune("bcde")); got != 0.75 {
		t.Errorf("ratio(abcd, bcde) = %v, want exactly 0.75", got)
	}
}

func TestClosestCutoffAndTies(t *testing.T) {
	// 2·2/6 = 0.667 ≥ 0.6 for both; difflib keeps the lexically greatest.
	if got := Closest("abc", []string{"abd", "xbc"}); got != "xbc" {
		t.Errorf("tie: Closest = %q, want xbc (get_close_matches picks the largest (score, word))", got)
	}
	if got := Closest("abc", []string{"xbc", "abd"}); got != "xbc" {
		t.Errorf("tie, other order: Closest = %q, want xbc", got)
	}
	// 0.6 exactly is enough: "abcde" vs "abxyz" → 2·2/10 = 0.4; "abcde" vs
	// "abcxy" → 2·3/10 = 0.6.
	if got := Closest("abcde", []string{"abcxy"}); got != "abcxy" {
		t.Errorf("ratio 0.6 must pass the cutoff, got %q", got)
	}
	if got := Closest("abcde", []string{"abxyz"}); got != "" {
		t.Errorf("ratio 0.4 must not pass the cutoff, got %q", got)
	}
	// The higher score wins regardless of order.
	if got := Closest("pre_tool_cal", []string{"pre_tool_call", "pre_tool_ca"}); got != "pre_tool_call" {
		t.Errorf("best score: got %q", got)
	}
	// get_close_matches compares SequenceMatcher(None, candidate, word):
	// the candidate is sequence a, and the ratio is not symmetric (see
	// TestDifflibRatioByHand: bac/bdcadc = 6/9, bdcadc/bac = 4/9), so
	// get_close_matches("bdcadc", ["bac"]) == ["bac"] while
	// get_close_matches("bac", ["bdcadc"]) == [].
	if got := Closest("bdcadc", []string{"bac"}); got != "bac" {
		t.Errorf("Closest(bdcadc, [bac]) = %q, want bac (candidate is difflib's a)", got)
	}
	if got := Closest("bac", []string{"bdcadc"}); got != "" {
		t.Errorf("Closest(bac, [bdcadc]) = %q, want \"\"", got)
	}
	// A word far longer than any candidate is passed over unscored (its
	// ratio cannot reach the cutoff): the 500 KB event name of serve's
	// attack test took 14 s to score.
	if got := Closest("pre_tool_call"+strings.Repeat("a", 500<<10), []string{"pre_tool_call"}); got != "" {
		t.Errorf("a 500 KB word: got %q", got)
	}
	if got := Closest("x", nil); got != "" {
		t.Errorf("no candidates: got %q", got)
	}
}
