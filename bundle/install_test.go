package bundle

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func signedPack(t *testing.T, name string, files map[string]string, sk minisign.PrivateKey) *Archive {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	a, err := Pack(dir, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	Sign(a, sk)
	return a
}

// A bundle of the same name signed by another key does not replace the
// installed one (its files would take the place of the admin's); the same
// key may upgrade it, and --replace says so on purpose.
func TestInstallReplace(t *testing.T) {
	pk, sk, _ := minisign.GenerateKey(rand.Reader)
	pk2, sk2, _ := minisign.GenerateKey(rand.Reader)
	root := t.TempDir()
	v1 := signedPack(t, "corp", map[string]string{"config.yaml": "hooks: {}\n", "a.sh": "v1"}, sk)
	dir, err := Install(root, v1, pk, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(FilesDir(dir), "a.sh")); string(got) != "v1" {
		t.Fatalf("a.sh = %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(FilesDir(dir), "a.sh")); fi.Mode().Perm()&0o222 != 0 {
		t.Fatalf("unpacked file is writable: %v", fi.Mode())
	}
	evil := signedPack(t, "corp", map[string]string{"config.yaml": "hooks: {}\n", "a.sh": "evil"}, sk2)
	if _, err := Install(root, evil, pk2, InstallOptions{}); !errors.Is(err, ErrOtherSigner) {
		t.Fatalf("other signer: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(FilesDir(dir), "a.sh")); string(got) != "v1" {
		t.Fatalf("a.sh replaced: %q", got)
	}
	v2 := signedPack(t, "corp", map[string]string{"config.yaml": "hooks: {}\n", "b.sh": "v2"}, sk)
	if _, err := Install(root, v2, pk, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(FilesDir(dir), "a.sh")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("v1's a.sh left behind: %v", err)
	}
	if _, err := Install(root, evil, pk2, InstallOptions{Replace: true}); err != nil {
		t.Fatalf("--replace: %v", err)
	}
	list, errs := List(root)
	if len(list) != 1 || len(errs) != 0 || list[0].Signer != KeyString(pk2) {
		t.Fatalf("list = %+v %v", list, errs)
	}
	if _, err := Remove(root, "corp", nil); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(root); len(list) != 0 {
		t.Fatalf("after remove: %+v", list)
	}
	if idx, _ := os.ReadFile(filepath.Join(root, IndexFile)); string(idx) != indexKeepsMarks {
		t.Fatalf("index after remove: %q", idx)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 3 { // .index, .lock, .serials
		t.Fatalf("left in root: %v", ents)
	}
}

// Install replaces a bundle of the same name and signer only as an
// upgrade (checkUpgrade): a rollback to an older, validly signed bundle is
// refused, and left as it was, unless AllowDowngrade.
func TestInstallUpgrade(t *testing.T) {
	pk, sk, _ := minisign.GenerateKey(rand.Reader)
	pk2, sk2, _ := minisign.GenerateKey(rand.Reader)
	packAt := func(serial Serial, content string, key minisign.PrivateKey) *Archive {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"config.yaml": "hooks: {}\n", "a.sh": content})
		a, err := Pack(dir, "corp", serial)
		if err != nil {
			t.Fatal(err)
		}
		Sign(a, key)
		return a
	}
	for _, tc := range []struct {
		name         string
		had, offered Serial
		same, other  bool // offered: the installed content; signed by another key
		opt          InstallOptions
		want         string // "" installs
	}{
		{name: "higher serial", had: 1, offered: 2},
		{name: "lower serial", had: 2, offered: 1, want: "serial 1 is lower than the installed serial 2"},
		{name: "lower serial allowed", had: 2, offered: 1, opt: InstallOptions{AllowDowngrade: true}},
		{name: "unversioned over versioned", had: 3, offered: 0, want: "unversioned (no serial) and the installed one has serial 3"},
		{name: "unversioned over versioned allowed", had: 3, offered: 0, opt: InstallOptions{AllowDowngrade: true}},
		{name: "versioned over unversioned", had: 0, offered: 1},
		{name: "unversioned over unversioned", had: 0, offered: 0},
		{name: "same serial other content", had: 2, offered: 2, want: "has the installed serial 2 but other content"},
		{name: "same serial other content allowed", had: 2, offered: 2, opt: InstallOptions{AllowDowngrade: true}},
		{name: "reinstall", had: 2, offered: 2, same: true},
		{name: "reinstall unversioned", had: 0, offered: 0, same: true},
		// Another signer's serials are their own: --replace is the decision.
		{name: "other signer lower serial", had: 5, offered: 1, other: true, want: "signed by another key"},
		{name: "other signer replaced", had: 5, offered: 1, other: true, opt: InstallOptions{Replace: true}},
		{name: "replace is no downgrade licence", had: 5, offered: 1, opt: InstallOptions{Replace: true}, want: "lower than the installed serial 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if _, err := Install(root, packAt(tc.had, "installed", sk), pk, InstallOptions{}); err != nil {
				t.Fatal(err)
			}
			content, key, pub := "offered", sk, pk
			if tc.same {
				content = "installed"
			}
			if tc.other {
				key, pub = sk2, pk2
			}
			_, err := Install(root, packAt(tc.offered, content, key), pub, tc.opt)
			got, _ := os.ReadFile(filepath.Join(FilesDir(filepath.Join(root, "corp")), "a.sh"))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "" && string(got) != content:
				t.Fatalf("installed a.sh = %q, want %q", got, content)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want %q", err, tc.want)
			case tc.want != "" && string(got) != "installed":
				t.Fatalf("refused, yet a.sh = %q", got)
			case tc.want != "" && !tc.other && !errors.Is(err, ErrDowngrade):
				t.Fatalf("err = %v, not ErrDowngrade", err)
			}
		})
	}
}
