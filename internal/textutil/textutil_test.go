package textutil

import "testing"

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"hello", 5, "hello"},
		{"hello!", 5, "he..."},
		// Code points, not bytes: é and 日 count one each and are never split.
		{"héllo", 5, "héllo"},
		{"日本語のテキスト", 6, "日本語..."},
	} {
		if got := Truncate(tc.in, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestCutRunes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 0, ""},
		{"abc", 3, "abc"},
		{"abc", 9, "abc"},
		{"héllo", 2, "hé"},
		{"日本語", 1, "日"},
	} {
		if got := CutRunes(tc.in, tc.n); got != tc.want {
			t.Errorf("CutRunes(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
