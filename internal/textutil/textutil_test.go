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

// CutBytes keeps at most n bytes and never splits a character.
func TestCutBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"}, {"abc", 2, "ab"}, {"abc", 0, ""},
		{"aé", 2, "a"}, {"aé", 3, "aé"}, {"€x", 1, ""}, {"€x", 3, "€"},
	} {
		if got := CutBytes(c.s, c.n); got != c.want {
			t.Errorf("CutBytes(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// CutBytesSaying cuts as CutBytes does and says how long s was, only
// when it cut.
func TestCutBytesSaying(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"}, {"", 0, ""}, {"abcd", 3, "abc… (4 bytes)"}, {"abc", 0, "… (3 bytes)"},
		{"a€b", 2, "a… (5 bytes)"}, {"a€b", 4, "a€… (5 bytes)"}, {"a€", 4, "a€"},
	} {
		if got := CutBytesSaying(c.s, c.n); got != c.want {
			t.Errorf("CutBytesSaying(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestJoinNonEmpty(t *testing.T) {
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{nil, ""},
		{[]string{"", ""}, ""},
		{[]string{"a", ""}, "a"},
		{[]string{"", "b"}, "b"},
		{[]string{"a", "", "b"}, "a; b"},
	} {
		if got := JoinNonEmpty("; ", tc.parts...); got != tc.want {
			t.Errorf("JoinNonEmpty(%q) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}
