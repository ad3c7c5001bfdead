package agents

import (
	"path"
	"strconv"
	"strings"

	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestTrustedFolderScansOnce: Codex's config.toml is read through once per
// question: TrustedFolder read it up to three times for a folder with no
// table of its own (its own, the root's, the main checkout's), and doctor
// asked it for each folder down to where it runs, per installed file (a
// 4 MiB file, 100 folders deep: 6.5 s). Not parallel: codexTrustScans
// counts every scan.
func TestTrustedFolderScansOnce(t *testing.T) {
	codex, _ := Lookup("codex")
	data := []byte("[projects.\"/p\"]\ntrust_level = \"trusted\"\n[projects.\"/p/a\"]\ntrust_level = \"untrusted\"\n")
	for _, dir := range []string{"/p", "/p/a", "/p/b", "/q"} {
		before := codexTrustScans.Load()
		codex.TrustedFolder(data, "/p", dir, "/main")
		if n := codexTrustScans.Load() - before; n != 1 {
			t.Errorf("TrustedFolder(%q): %d scans of the file, want 1", dir, n)
		}
	}
}

// TestFolderTrustScansOnce: doctor's question for the root and each of
// 100 folders below it reads the file once.
func TestFolderTrustScansOnce(t *testing.T) {
	codex, _ := Lookup("codex")
	data := []byte("[projects.\"/p\"]\ntrust_level = \"trusted\"\n")
	before := codexTrustScans.Load()
	ft := codex.FolderTrust(data)
	dir := "/p"
	for i := range 101 {
		if !ft.Trusted("/p", dir, "") {
			t.Fatalf("%s under the trusted /p: untrusted", dir)
		}
		dir += "/d" + strconv.Itoa(i)
	}
	if n := codexTrustScans.Load() - before; n != 1 {
		t.Errorf("101 folders: %d scans of the file, want 1", n)
	}
	if (FolderTrust{}).Trusted("/p", "/p", "") {
		t.Error("the zero FolderTrust trusts /p")
	}
}

// scanTrustLevel is the per-folder scan FolderTrust replaced, kept as the
// oracle its answers must match.
func scanTrustLevel(data []byte, dir string) (level string, found bool) {
	table := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = ""
			if m := codexHeader().FindStringSubmatch(line); m != nil {
				table = unquoteTOML(m[1])
			}
			continue
		}
		if table == "" || path.Clean(table) != dir {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "trust_level" {
			v, _, _ = strings.Cut(strings.TrimSpace(v), "#")
			level, found = unquoteTOML(strings.TrimSpace(v)), true
		}
	}
	return level, found
}

// oracleTrustedFolder is TrustedFolder as it was: the first of dir's,
// the root's and the main checkout's tables that sets a level.
func oracleTrustedFolder(data []byte, project, dir, repo string) bool {
	for _, d := range []string{dir, project, repo} {
		if d == "" {
			continue
		}
		if level, found := scanTrustLevel(pyjson.SkipBOM(data), path.Clean(d)); found {
			return level == "trusted"
		}
	}
	return false
}

var folderTrustSeeds = []string{
	"[projects.\"/p\"]\ntrust_level = \"trusted\"\n",
	"\ufeff[projects.\"/p\"]\ntrust_level = \"trusted\"\n",
	"[projects.\"/p\"]\ntrust_level = \"trusted\"\n[projects.\"/p\"]\ntrust_level = \"untrusted\"\n",
	"[projects.\"/p/\"]\ntrust_level = \"untrusted\"\n[projects.'/p']\ntrust_level = 'trusted' # mine\n",
	"[projects.\"/p\"]\ntrust_level = trusted\n",
	"[projects.\"/p\"]\ntrust_level = \"trusted\"\n[other]\ntrust_level = \"untrusted\"\n",
	"[projects.\"\"]\ntrust_level = \"trusted\"\n",
	"[projects.\"/p/a\"]\ntrust_level = \"untrusted\"\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n",
	"[projects.\"/p/./a/\"]\r\ntrust_level = \"trusted\"\r\n",
	"[projects.\"/main\"]\ntrust_level = \"trusted\"\n",
	"[projects.\"/main\"]\ntrust_level = \"trusted\"\n[projects.\"/p\"]\ntrust_level = \"untrusted\"\n",
	"[ projects . \"/p\" ] # c\n  trust_level=\"trusted\"  \n[projects.\"/p\\u0000\"]\ntrust_level = \"untrusted\"\n",
}

// TestFolderTrustMatchesScan: one read answers as the per-folder scans did
// (last table wins, a BOM skipped, a folder's own table over the root's,
// the root's over the main checkout's).
func TestFolderTrustMatchesScan(t *testing.T) {
	codex, _ := Lookup("codex")
	for _, data := range folderTrustSeeds {
		for _, dir := range []string{"/p", "/p/", "/p/a", "/p/a/b", "/q"} {
			for _, repo := range []string{"", "/main"} {
				want := oracleTrustedFolder([]byte(data), "/p", dir, repo)
				if got := codex.FolderTrust([]byte(data)).Trusted("/p", dir, repo); got != want {
					t.Errorf("%q, %s, %q: FolderTrust %v, scan %v", data, dir, repo, got, want)
				}
				if got := codex.TrustedFolder([]byte(data), "/p", dir, repo); got != want {
					t.Errorf("%q, %s, %q: TrustedFolder %v, scan %v", data, dir, repo, got, want)
				}
			}
		}
	}
}

// FuzzFolderTrust: for any file, FolderTrust answers as the scans did.
func FuzzFolderTrust(f *testing.F) {
	for _, s := range folderTrustSeeds {
		f.Add(s, "/p", "/p/a", "/main")
	}
	codex, _ := Lookup("codex")
	f.Fuzz(func(t *testing.T, data, project, dir, repo string) {
		want := oracleTrustedFolder([]byte(data), project, dir, repo)
		if got := codex.FolderTrust([]byte(data)).Trusted(project, dir, repo); got != want {
			t.Errorf("%q, %q, %q, %q: FolderTrust %v, scan %v", data, project, dir, repo, got, want)
		}
	})
}
