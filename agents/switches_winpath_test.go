package agents

import (
	"reflect"
	"testing"
)

// TestFoldersBelowWindows: on Windows doctor gives foldersBelow the
// folders as filepath.ToSlash leaves them, "C:/…" with a volume, which
// path.IsAbs calls relative: every nested .codex/config.toml was missed
// there. The function is pure, so the Windows forms run on any OS.
func TestFoldersBelowWindows(t *testing.T) {
	tests := []struct {
		project, wd string
		want        []string
	}{
		{"C:/repo", "C:/repo/a/b", []string{"a", "a/b"}},
		{"C:/repo", "C:/repo/a/", []string{"a"}},
		{"c:/repo", "c:/repo/a", []string{"a"}},
		{"C:/", "C:/a", []string{"a"}},
		{"C:/repo", "C:/repo", nil},
		{"C:/repo", "C:/repo/../etc", nil},
		{"C:/repo", "D:/repo/a", nil},
		{"C:/repo", "C:/repox/a", nil},
		// UNC shares: already absolute to path.IsAbs.
		{"//srv/share/repo", "//srv/share/repo/a", []string{"a"}},
		// A drive-relative or relative form is not absolute.
		{"C:repo", "C:repo/a", nil},
		{"repo", "repo/a", nil},
		{"C:/repo", "repo/a", nil},
		{":/repo", ":/repo/a", nil},
		{"1:/repo", "1:/repo/a", nil},
	}
	for _, tc := range tests {
		if got := foldersBelow(tc.project, tc.wd); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("foldersBelow(%q, %q) = %q, want %q", tc.project, tc.wd, got, tc.want)
		}
	}
	codex, _ := Lookup("codex")
	files := codex.SwitchFilesAt("C:/repo", "C:/repo/sub")
	if last := files[len(files)-1]; last.Path != "sub/.codex/config.toml" || last.Dir != "sub" {
		t.Errorf("SwitchFilesAt on Windows paths: %+v, want sub's layer last", files)
	}
}
