package bundle

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
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
	a, err := Pack(dir, name)
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
	dir, err := Install(root, v1, pk, false)
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
	if _, err := Install(root, evil, pk2, false); !errors.Is(err, ErrOtherSigner) {
		t.Fatalf("other signer: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(FilesDir(dir), "a.sh")); string(got) != "v1" {
		t.Fatalf("a.sh replaced: %q", got)
	}
	v2 := signedPack(t, "corp", map[string]string{"config.yaml": "hooks: {}\n", "b.sh": "v2"}, sk)
	if _, err := Install(root, v2, pk, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(FilesDir(dir), "a.sh")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("v1's a.sh left behind: %v", err)
	}
	if _, err := Install(root, evil, pk2, true); err != nil {
		t.Fatalf("--replace: %v", err)
	}
	list, errs := List(root)
	if len(list) != 1 || len(errs) != 0 || list[0].Signer != KeyString(pk2) {
		t.Fatalf("list = %+v %v", list, errs)
	}
	if err := Remove(root, "corp"); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(root); len(list) != 0 {
		t.Fatalf("after remove: %+v", list)
	}
	if idx, _ := os.ReadFile(filepath.Join(root, IndexFile)); len(idx) != 0 {
		t.Fatalf("index after remove: %q", idx)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 2 {
		t.Fatalf("left in root: %v", ents)
	}
}
