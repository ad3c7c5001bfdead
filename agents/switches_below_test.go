package agents

import (
	"bytes"
	"path"
	"reflect"
	"slices"
	"testing"
)

// TestSwitchFilesAt: Codex's project file listed for the root and each
// folder down to the working folder, nearer later (higher); a working
// folder outside the project, or one that climbs out, adds none.
func TestSwitchFilesAt(t *testing.T) {
	codex, _ := Lookup("codex")
	claude, _ := Lookup("claude")
	paths := func(files []SwitchFile) []string {
		var out []string
		for _, f := range files {
			p := f.Path
			if f.User {
				p = "~/" + p
			}
			out = append(out, p+"|"+f.Dir)
		}
		return out
	}
	root := []string{"~/.codex/config.toml|", ".codex/config.toml|"}
	tests := []struct {
		a             *Agent
		project, wd   string
		want          []string
		wantIfTrusted bool
	}{
		{codex, "/p", "/p", root, true},
		{codex, "/p", "/p/", root, true},
		{codex, "/p", "", root, true},
		{codex, "/p", "/elsewhere/sub", root, true},
		{codex, "/p", "/pp/sub", root, true},
		{codex, "/p", "/p/../etc", root, true},
		{codex, "/p", "relative/sub", root, true},
		{codex, "", "/p/sub", root, true},
		{codex, "/p", "/p/sub", append(root[:2:2], "sub/.codex/config.toml|sub"), true},
		{codex, "/p", "/p/sub/./dir/", append(root[:2:2], "sub/.codex/config.toml|sub", "sub/dir/.codex/config.toml|sub/dir"), true},
		{codex, "/p", "/p/a/../b", append(root[:2:2], "b/.codex/config.toml|b"), true},
		{codex, "/", "/a/b", append(root[:2:2], "a/.codex/config.toml|a", "a/b/.codex/config.toml|a/b"), true},
		// Claude Code reads the folder it starts in only (StartFolderOnly):
		// the project's files are that folder's, never the root's.
		{claude, "/p", "/p/sub", []string{"~/.claude/settings.json|", "sub/.claude/settings.json|sub", "sub/.claude/settings.local.json|sub"}, false},
		{claude, "/p", "/p", []string{"~/.claude/settings.json|", ".claude/settings.json|", ".claude/settings.local.json|"}, false},
	}
	for _, tc := range tests {
		files := tc.a.SwitchFilesAt(tc.project, tc.wd)
		if got := paths(files); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s at %q in %q: %q, want %q", tc.a.Name, tc.wd, tc.project, got, tc.want)
		}
		for _, f := range files[1:] {
			if f.IfTrusted != tc.wantIfTrusted || f.User {
				t.Errorf("%s at %q: %+v: a project's file, IfTrusted %v", tc.a.Name, tc.wd, f, tc.wantIfTrusted)
			}
		}
		// A folder's file is under the project, where its Path says.
		last := files[len(files)-1]
		if got, want := last.SwitchPath("/h", tc.project, func(string) string { return "" }), path.Join(tc.project, last.Path); tc.project != "" && got != want {
			t.Errorf("%s at %q: SwitchPath %q, want %q", tc.a.Name, tc.wd, got, want)
		}
	}
	// SwitchFiles itself is not changed by SwitchFilesAt (no aliasing).
	_ = codex.SwitchFilesAt("/p", "/p/a/b")
	if got := paths(codex.SwitchFiles()); !reflect.DeepEqual(got, root) {
		t.Errorf("SwitchFiles after SwitchFilesAt: %q", got)
	}
}

// TestSwitchesOfBelow: a nearer folder's layer outranks a farther one's
// and the root's, key by key, and the file named is the one that decides.
func TestSwitchesOfBelow(t *testing.T) {
	codex, _ := Lookup("codex")
	files := codex.SwitchFilesAt("/p", "/p/a/b")
	off, on := []byte("[features]\nhooks = false\n"), []byte("[features]\nhooks = true\n")
	aliasOn := []byte("[features]\ncodex_hooks = true\n")
	tests := []struct {
		name     string
		contents [][]byte // user, root, a, a/b
		wantOff  bool
		wantFile string
	}{
		{"none", [][]byte{nil, nil, nil, nil}, false, ""},
		{"deepest off", [][]byte{nil, nil, nil, off}, true, "a/b/.codex/config.toml"},
		{"middle off", [][]byte{nil, nil, off, nil}, true, "a/.codex/config.toml"},
		{"deeper on over middle off", [][]byte{nil, nil, off, on}, false, ""},
		{"deeper off over middle on", [][]byte{nil, on, on, off}, true, "a/b/.codex/config.toml"},
		{"middle on over root off", [][]byte{nil, off, on, nil}, false, ""},
		{"user off, deeper alias on", [][]byte{off, nil, nil, aliasOn}, true, ".codex/config.toml"},
	}
	for _, tc := range tests {
		got, isOff := codex.SwitchesOf(files, tc.contents)
		name := ""
		if isOff {
			name = files[got.File].Path
			if files[got.File].User {
				name = ".codex/config.toml"
			}
		}
		if isOff != tc.wantOff || name != tc.wantFile {
			t.Errorf("%s: off %v in %q, want off %v in %q", tc.name, isOff, name, tc.wantOff, tc.wantFile)
		}
		if isOff && !files[got.File].User && got.Fix == "" {
			t.Errorf("%s: no fix", tc.name)
		}
	}
}

// TestTrustedFolder: a folder's own [projects] table decides for its
// layer, over the root's; with none, the root's trust does; with none
// either, the main checkout's (repo /m: the project is a linked worktree
// of it; "": none).
func TestTrustedFolder(t *testing.T) {
	codex, _ := Lookup("codex")
	gemini, _ := Lookup("gemini")
	root := "[projects.\"/p\"]\ntrust_level = \"trusted\"\n"
	main := "[projects.\"/m\"]\ntrust_level = \"trusted\"\n"
	tests := []struct {
		a    *Agent
		data string
		dir  string
		want bool
		repo string
	}{
		{codex, root, "/p", true, ""},
		{codex, root, "/p/a", true, ""},
		{codex, root, "/p/a/", true, ""},
		{codex, "", "/p/a", false, ""},
		{codex, root + "[projects.\"/p/a\"]\ntrust_level = \"untrusted\"\n", "/p/a", false, ""},
		{codex, root + "[projects.\"/p/a\"]\ntrust_level = \"untrusted\"\n", "/p/a/b", true, ""},
		{codex, "[projects.\"/p/a\"]\ntrust_level = \"trusted\"\n", "/p/a", true, ""},
		{codex, "[projects.\"/p/a\"]\ntrust_level = \"trusted\"\n", "/p/a/b", false, ""},
		{codex, "[projects.\"/p/a\"]\ntrust_level = \"trusted\"\n", "/p", false, ""},
		{codex, "[projects.'/p/a']\ntrust_level = 'trusted' # mine\n", "/p/a", true, ""},
		// Another agent: the project's trust alone.
		{gemini, `{"/p": "TRUST_FOLDER"}`, "/p/a", true, ""},
		{gemini, `{"/m": "TRUST_FOLDER"}`, "/p/a", false, "/m"},
		// A linked worktree: the main checkout's entry, when neither the
		// folder nor the worktree's root has one.
		{codex, main, "/p", true, "/m"},
		{codex, main, "/p/a", true, "/m"},
		{codex, main, "/p", false, ""},
		{codex, main, "/p", false, "/other"},
		{codex, main + "[projects.\"/p\"]\ntrust_level = \"untrusted\"\n", "/p", false, "/m"},
		{codex, main + "[projects.\"/p\"]\ntrust_level = \"untrusted\"\n", "/p/a", false, "/m"},
		{codex, main + "[projects.\"/p/a\"]\ntrust_level = \"untrusted\"\n", "/p/a", false, "/m"},
		{codex, "[projects.\"/m\"]\ntrust_level = \"untrusted\"\n", "/p", false, "/m"},
		{codex, "[projects.\"/m\"]\ntrust_level = \"untrusted\"\n" + root, "/p/a", true, "/m"},
		// The main checkout's own folder below the worktree is not it.
		{codex, "[projects.\"/m/x\"]\ntrust_level = \"trusted\"\n", "/p", false, "/m"},
	}
	for _, tc := range tests {
		if got := tc.a.TrustedFolder([]byte(tc.data), "/p", tc.dir, tc.repo); got != tc.want {
			t.Errorf("%s %q, %s (repo %q): trusted %v, want %v", tc.a.Name, tc.data, tc.dir, tc.repo, got, tc.want)
		}
	}
}

// TestRootMarkers: Codex finds the project's root by the user's
// project_root_markers (top level of config.toml): absent, .git; an empty
// list, none (the root is the folder it runs in); anything but a list of
// strings, Codex refuses to start, and doctor keeps .git.
func TestRootMarkers(t *testing.T) {
	codex, _ := Lookup("codex")
	claude, _ := Lookup("claude")
	git := []string{".git"}
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{"absent", "", git},
		{"other keys", "model = \"x\"\n[features]\nhooks = true\n", git},
		{"empty", "project_root_markers = []\n", []string{}},
		{"two", "project_root_markers = [\".hg\", \"package.json\"]\n", []string{".hg", "package.json"}},
		{"bom", "\xef\xbb\xbfproject_root_markers = ['.jj']\n", []string{".jj"}},
		{"in a table is not it", "[features]\nproject_root_markers = [\".hg\"]\n", git},
		{"not a list", "project_root_markers = \".hg\"\n", git},
		{"not strings", "project_root_markers = [1]\n", git},
		{"mixed", "project_root_markers = [\".hg\", 1]\n", git},
		{"not TOML", "project_root_markers = [\n", git},
		{"not TOML, no markers", "model = \n", git},
	} {
		got, ok := codex.RootMarkers([]byte(tc.data))
		if !ok || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%s: markers %q, %v, want %q", tc.name, got, ok, tc.want)
		}
	}
	if got, ok := claude.RootMarkers([]byte("project_root_markers = []\n")); ok {
		t.Errorf("claude: markers %q, want none (its root is the project)", got)
	}
}

// TestRunRootMarkers: the markers by which hook AGENT tells Codex's own
// hook files from the others are doctor's, except where Codex refuses to
// start (no TOML, markers not a list of strings): a session that started
// before took a root no one knows, and only the folder it starts in
// (the empty list) is surely read, so that a file it may read runs twice
// at worst, never by nobody.
func TestRunRootMarkers(t *testing.T) {
	codex, _ := Lookup("codex")
	claude, _ := Lookup("claude")
	git := []string{".git"}
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{"absent", "", git},
		{"other keys", "model = \"x\"\n[features]\nhooks = true\n", git},
		{"empty", "project_root_markers = []\n", []string{}},
		{"two", "project_root_markers = [\".hg\", \"package.json\"]\n", []string{".hg", "package.json"}},
		{"not a list", "project_root_markers = \".hg\"\n", []string{}},
		{"not strings", "project_root_markers = [1]\n", []string{}},
		{"not TOML", "project_root_markers = [\n", []string{}},
		{"not TOML, no markers", "model = \n", []string{}},
	} {
		got, ok := codex.RunRootMarkers([]byte(tc.data))
		if !ok || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%s: markers %q, %v, want %q", tc.name, got, ok, tc.want)
		}
	}
	if got, ok := codex.RunRootMarkers(nil); !ok || !slices.Equal(got, git) {
		t.Errorf("no file: markers %q, %v, want .git", got, ok)
	}
	if got, ok := claude.RunRootMarkers([]byte("project_root_markers = [\n")); ok {
		t.Errorf("claude: markers %q, want none (its root is the project)", got)
	}
}

// FuzzRootMarkers: no config, however malformed, panics the reader; it
// gives .git unless the file names project_root_markers, and never a
// marker the file does not hold.
func FuzzRootMarkers(f *testing.F) {
	f.Add([]byte("project_root_markers = [\".hg\", 'x']\n"))
	f.Add([]byte("project_root_markers = []\n"))
	f.Add([]byte("project_root_markers = [[1], {a = 1}]\n"))
	codex, _ := Lookup("codex")
	f.Fuzz(func(t *testing.T, data []byte) {
		markers, ok := codex.RootMarkers(data)
		if !ok {
			t.Fatal("codex has root markers")
		}
		if !bytes.Contains(data, []byte("project_root_markers")) && !slices.Equal(markers, []string{".git"}) {
			t.Fatalf("%q: markers %q without the key", data, markers)
		}
		if bytes.ContainsAny(data, "\\\r") {
			return // escapes and line ends spell a marker otherwise
		}
		for _, m := range markers {
			if m != ".git" && !bytes.Contains(data, []byte(m)) {
				t.Fatalf("%q: marker %q not in the file", data, m)
			}
		}
	})
}

// FuzzTrustedFolder: a worktree's fallback to its main checkout never
// trusts a file that never says "trusted".
func FuzzTrustedFolder(f *testing.F) {
	f.Add([]byte("[projects.\"/m\"]\ntrust_level = \"trusted\"\n"), "/p", "/p/a", "/m")
	f.Fuzz(func(t *testing.T, data []byte, project, dir, repo string) {
		codex, _ := Lookup("codex")
		if codex.TrustedFolder(data, project, dir, repo) && !bytes.Contains(data, []byte("trusted")) {
			t.Fatalf("%q trusts %q (%q, %q)", data, dir, project, repo)
		}
	})
}
