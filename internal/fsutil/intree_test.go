package fsutil

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestInTree(t *testing.T) {
	if lowerASCII("AZaz\u212a\u00c9") != "azaz\u212a\u00c9" {
		t.Errorf("lowerASCII changes more than A to Z")
	}
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/b/", "/a/b", true},
		{"/a/b/c", "/a/b/", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/a/b/../c", "/a/b", false}, // by name: /a/c
		{"/a/./b/c", "/a/b", true},
		{"/x", "/", true},
		{"/", "/", true},
		{"a/b", "a", true},
		{"a/b", "/a", false},
		{"/a/b", "a", false},
		{"", "/a", false},
		{"/a", "", false},
	} {
		p, dir := filepath.FromSlash(tc.p), filepath.FromSlash(tc.dir)
		if got := InTree(p, dir); got != tc.want {
			t.Errorf("InTree(%q, %q) = %v, want %v", p, dir, got, tc.want)
		}
	}
	if runtime.GOOS == "windows" {
		for _, tc := range []struct {
			p, dir string
			want   bool
		}{
			{`C:\Users\Me\proj\bin`, `c:\users\me\PROJ`, true},
			{`C:\x`, `C:\`, true},
			{`D:\proj`, `C:\proj`, false},
			// NTFS tells the Kelvin sign from a k; Unicode's folding would not.
			{"C:\\wor\u212a\\x", `C:\work`, false},
		} {
			if got := InTree(tc.p, tc.dir); got != tc.want {
				t.Errorf("InTree(%q, %q) = %v, want %v", tc.p, tc.dir, got, tc.want)
			}
		}
	}
}
