package bundle

import (
	"crypto/rand"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"
)

// A remove does not forget the serial: the layer's mark of a name and
// signer is the highest serial ever installed, and install holds an offered
// bundle to it as to the installed one.
func TestMarksOutliveRemove(t *testing.T) {
	pk, sk, _ := minisign.GenerateKey(rand.Reader)
	pk2, sk2, _ := minisign.GenerateKey(rand.Reader)
	packAt := func(name string, serial Serial, content string, key minisign.PrivateKey) *Archive {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"config.yaml": "hooks: {}\n", "a.sh": content})
		a, err := Pack(dir, name, serial)
		if err != nil {
			t.Fatal(err)
		}
		Sign(a, key)
		return a
	}
	for _, tc := range []struct {
		name        string
		had         []Serial // installed one after the other (AllowDowngrade), then removed
		offered     Serial
		same, other bool // offered: the content of had's last; signed by another key
		rename      string
		opt         InstallOptions
		noMarks     bool   // no marks file and an index without its line before the remove: a layer from before marks
		deleted     bool   // the marks file deleted before the remove
		want        string // "" installs
	}{
		{name: "lower serial", had: []Serial{2}, offered: 1, want: "serial 1 is lower than serial 2 of it"},
		{name: "unversioned", had: []Serial{2}, offered: 0, want: "unversioned (no serial) and serial 2 of it"},
		{name: "same serial other content", had: []Serial{2}, offered: 2, want: "has serial 2 but other content"},
		{name: "same bundle again", had: []Serial{2}, offered: 2, same: true},
		{name: "higher serial", had: []Serial{2}, offered: 3},
		{name: "lower serial on purpose", had: []Serial{2}, offered: 1, opt: InstallOptions{AllowDowngrade: true}},
		{name: "a deliberate downgrade lowers no mark", had: []Serial{3, 1}, offered: 2, want: "serial 2 is lower than serial 3 of it"},
		{name: "unversioned leaves no mark", had: []Serial{0}, offered: 0},
		{name: "another signer counts its own", had: []Serial{5}, offered: 1, other: true},
		{name: "another name is another bundle", had: []Serial{5}, offered: 1, rename: "corp2"},
		{name: "a layer from before marks", had: []Serial{2}, offered: 1, noMarks: true, want: "serial 1 is lower than serial 2 of it"},
		{name: "marks deleted", had: []Serial{2}, offered: 3, deleted: true, want: "missing, though"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			var last string
			for i, s := range tc.had {
				last = "had" + string(rune('0'+i))
				if _, err := Install(root, packAt("corp", s, last, sk), pk, InstallOptions{AllowDowngrade: true}); err != nil {
					t.Fatal(err)
				}
			}
			if tc.noMarks || tc.deleted {
				if err := os.Remove(filepath.Join(root, MarksFile)); err != nil {
					t.Fatal(err)
				}
			}
			if tc.noMarks {
				idx := filepath.Join(root, IndexFile)
				data, err := os.ReadFile(idx)
				if err != nil || !strings.HasPrefix(string(data), indexKeepsMarks) {
					t.Fatalf("index %q: %v", data, err)
				}
				if err := os.WriteFile(idx, data[len(indexKeepsMarks):], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Remove(root, "corp", nil); err != nil {
				t.Fatal(err)
			}
			content, key, pub, name := "offered", sk, pk, "corp"
			if tc.same {
				content = last
			}
			if tc.other {
				key, pub = sk2, pk2
			}
			if tc.rename != "" {
				name = tc.rename
			}
			_, err := Install(root, packAt(name, tc.offered, content, key), pub, tc.opt)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrBelowMark) && !errors.Is(err, ErrMarksUnreadable)):
				t.Fatalf("err = %v, want ErrBelowMark or ErrMarksUnreadable with %q", err, tc.want)
			case tc.want != "":
				if _, err := os.Lstat(filepath.Join(root, "corp")); err == nil {
					t.Fatal("refused, yet corp is installed")
				}
			}
		})
	}
}

// What readMarks takes as marks, and what it holds unreadable: anything
// but a well-formed file is never read as "no marks".
func TestReadMarks(t *testing.T) {
	pk, _, _ := minisign.GenerateKey(rand.Reader)
	key := KeyString(pk)
	digest := strings.Repeat("ab", 32)
	entry := func(signer, name, serial, sum string) string {
		return `{"signer": "` + signer + `", "name": "` + name + `", "serial": ` + serial + `, "manifest_sha256": "` + sum + `"}`
	}
	good := entry(key, "corp", "2", digest)
	for _, tc := range []struct {
		name, data string
		marks      int // -1: unreadable
	}{
		{"one mark", `{"marks": [` + good + `]}`, 1},
		{"no marks", `{"marks": []}` + "\n", 0},
		{"empty file", ``, -1},
		{"cut short", `{"marks": [` + good[:40], -1},
		{"no marks key", `{}`, -1},
		{"null marks", `{"marks": null}`, -1},
		{"unknown key", `{"marks": [], "x": 1}`, -1},
		{"data after", `{"marks": []} {"marks": []}`, -1},
		{"serial 0", `{"marks": [` + entry(key, "corp", "0", digest) + `]}`, -1},
		{"serial as a string", `{"marks": [` + entry(key, "corp", `"2"`, digest) + `]}`, -1},
		{"serial twice", `{"marks": [` + strings.Replace(good, `"serial": 2`, `"serial": 2, "serial": 1`, 1) + `]}`, -1},
		{"negative serial", `{"marks": [` + entry(key, "corp", "-2", digest) + `]}`, -1},
		{"bad key", `{"marks": [` + entry("RWQnope", "corp", "2", digest) + `]}`, -1},
		{"bad name", `{"marks": [` + entry(key, "../corp", "2", digest) + `]}`, -1},
		{"bad digest", `{"marks": [` + entry(key, "corp", "2", "abc") + `]}`, -1},
		{"upper-case digest", `{"marks": [` + entry(key, "corp", "2", strings.ToUpper(digest)) + `]}`, -1},
		{"twice", `{"marks": [` + good + `, ` + entry(key, "corp", "3", digest) + `]}`, -1},
		{"too large", `{"marks": []}` + strings.Repeat(" ", maxMarksBytes), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, MarksFile), []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			m := readMarks(root)
			switch {
			case tc.marks < 0 && m.unreadable == nil:
				t.Fatalf("read as %d marks, want unreadable", len(m.byID))
			case tc.marks >= 0 && m.unreadable != nil:
				t.Fatalf("unreadable: %v", m.unreadable)
			case tc.marks >= 0 && len(m.byID) != tc.marks:
				t.Fatalf("%d marks, want %d", len(m.byID), tc.marks)
			}
		})
	}
}

// Whatever bytes the marks file holds, parse never panics, and marks it
// accepts are encoded back as the same marks.
func FuzzReadMarks(f *testing.F) {
	pk, _, _ := minisign.GenerateKey(rand.Reader)
	f.Add([]byte(`{"marks": [{"signer": "` + KeyString(pk) + `", "name": "corp", "serial": 2, "manifest_sha256": "` + strings.Repeat("0", 64) + `"}]}`))
	f.Add([]byte(`{"marks": []}`))
	f.Add([]byte(`{"marks": [{"serial": 1, "serial": 2}]}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := &marks{byID: map[[2]string]mark{}}
		if err := m.parse(data); err != nil {
			return
		}
		enc, err := m.encode()
		if err != nil {
			t.Fatal(err)
		}
		again := &marks{byID: map[[2]string]mark{}}
		if err := again.parse(enc); err != nil || !maps.Equal(again.byID, m.byID) {
			t.Fatalf("encoded marks read back as %v (%v), want %v", again.byID, err, m.byID)
		}
	})
}
