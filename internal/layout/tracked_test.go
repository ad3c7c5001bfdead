package layout

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestNoBuiltProgramTracked: no file git tracks is a compiled program. A
// `go build` in cmd/hermes-hooks leaves the binary beside the sources,
// and one was committed once (25 MB in every clone's history from then
// on). Test fixtures are text; the programs tests need are built by them.
func TestNoBuiltProgramTracked(t *testing.T) {
	root := filepath.Join("..", "..")
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout, or no git)", err)
	}
	for _, name := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
		if magic := programMagic(filepath.Join(root, string(name))); magic != "" {
			t.Errorf("%s is a compiled program (%s) tracked by git: git rm --cached it, and ignore it in .gitignore", name, magic)
		}
	}
}

// programMagic names the executable format file starts with ("": none,
// or the file cannot be read: deleted in the working tree).
func programMagic(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(f, head); err != nil {
		return ""
	}
	for magic, name := range map[string]string{
		"\x7fELF":          "ELF",
		"MZ":               "PE",
		"\xcf\xfa\xed\xfe": "Mach-O",
		"\xfe\xed\xfa\xcf": "Mach-O",
	} {
		if bytes.HasPrefix(head, []byte(magic)) {
			return name
		}
	}
	return ""
}
