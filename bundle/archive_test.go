package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"

	"aead.dev/minisign"
)

// entry is one raw tar entry of a crafted archive.
type entry struct {
	name string
	typ  byte
	data []byte
	link string
}

// craft builds a tar.gz from raw entries, however hostile.
func craft(t testing.TB, ents ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, e := range ents {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Linkname: e.link, Size: int64(len(e.data)), Format: tar.FormatPAX}
		if typ != tar.TypeReg {
			hdr.Size = 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write(e.data); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// manifestFor lists files (path → content) as a manifest's bytes.
func manifestFor(name string, files map[string]string) []byte {
	m := &Manifest{Format: Format, Name: name}
	for p, c := range files {
		m.Files = append(m.Files, File{Path: p, SHA256: Digest([]byte(c)), Size: int64(len(c)), Mode: "0644"})
	}
	sortFiles(m.Files)
	return m.Encode()
}

func sortFiles(fs []File) {
	for i := range fs {
		for j := i + 1; j < len(fs); j++ {
			if fs[j].Path < fs[i].Path {
				fs[i], fs[j] = fs[j], fs[i]
			}
		}
	}
}

var good = map[string]string{"config.yaml": "hooks: {}\n", "hooks/guard.sh": "#!/bin/sh\necho '{}'\n"}

func TestReadGood(t *testing.T) {
	data := craft(t, entry{name: "manifest.json", data: manifestFor("corp", good)},
		entry{name: "files/config.yaml", data: []byte(good["config.yaml"])},
		entry{name: "files/hooks/guard.sh", data: []byte(good["hooks/guard.sh"])})
	a, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if a.Manifest.Name != "corp" || len(a.Files) != 2 || string(a.Files["hooks/guard.sh"]) != good["hooks/guard.sh"] {
		t.Fatalf("read %+v", a)
	}
	// Written back, it reads the same.
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if b, err := Read(bytes.NewReader(out)); err != nil || !bytes.Equal(b.ManifestBytes, a.ManifestBytes) {
		t.Fatalf("round trip: %v", err)
	}
}

// Every way a hostile archive could reach outside its files, or hold what
// its manifest does not say, is refused with the reason.
func TestReadRefuses(t *testing.T) {
	man := manifestFor("corp", good)
	cfg := entry{name: "files/config.yaml", data: []byte(good["config.yaml"])}
	guard := entry{name: "files/hooks/guard.sh", data: []byte(good["hooks/guard.sh"])}
	m := entry{name: "manifest.json", data: man}
	slip := map[string]string{"config.yaml": "x", "../escape.sh": "evil"}
	for _, tc := range []struct {
		name string
		ents []entry
		want string
	}{
		{"zip-slip entry", []entry{m, cfg, guard, {name: "files/../../escape.sh", data: []byte("evil")}}, `path "../../escape.sh"`},
		{"absolute entry", []entry{m, cfg, guard, {name: "/etc/passwd", data: []byte("evil")}}, "unexpected entry"},
		{"zip-slip in the manifest", []entry{{name: "manifest.json", data: manifestFor("corp", slip)}}, `path "../escape.sh"`},
		{"symlink entry", []entry{m, cfg, {name: "files/hooks/guard.sh", typ: tar.TypeSymlink, link: "/etc/passwd"}}, "not a regular file"},
		{"hard link entry", []entry{m, cfg, {name: "files/hooks/guard.sh", typ: tar.TypeLink, link: "files/config.yaml"}}, "not a regular file"},
		{"device entry", []entry{m, cfg, {name: "files/hooks/guard.sh", typ: tar.TypeChar}}, "not a regular file"},
		{"directory entry", []entry{m, {name: "files/hooks/", typ: tar.TypeDir}, cfg, guard}, "not a regular file"},
		{"file not in the manifest", []entry{m, cfg, guard, {name: "files/extra.sh", data: []byte("x")}}, "in the archive but not in the manifest"},
		{"file missing from the archive", []entry{m, cfg}, "listed in the manifest but not in the archive"},
		{"one byte changed", []entry{m, cfg, {name: guard.name, data: []byte(strings.Replace(good["hooks/guard.sh"], "{}", "{ ", 1))}}, "tampered?"},
		{"size changed", []entry{m, cfg, {name: guard.name, data: append([]byte(good["hooks/guard.sh"]), '\n')}}, "the manifest says"},
		{"file twice", []entry{m, cfg, guard, guard}, "appears twice"},
		{"manifest not first", []entry{cfg, m, guard}, "manifest.json must come first"},
		{"two manifests", []entry{m, m, cfg, guard}, "once"},
		{"no manifest", []entry{cfg}, "manifest.json must come first"},
		{"empty archive", nil, "no manifest.json"},
		{"signature after files", []entry{m, cfg, {name: "manifest.json.minisig", data: []byte("x")}}, "must follow manifest.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(craft(t, tc.ents...)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// A decompression bomb is refused on its header, before it is inflated:
// an entry that claims gigabytes, or one the manifest does not list, costs
// no more than its header.
func TestReadBomb(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int64
		want string
	}{
		{"files/config.yaml", 4 << 30, "bytes (at most"},
		{"files/zeros", MaxFileBytes, "not in the manifest"},
		{"files/config.yaml", MaxFileBytes, "the manifest says"},
	} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		tw := tar.NewWriter(zw)
		man := manifestFor("corp", good)
		_ = tw.WriteHeader(&tar.Header{Name: "manifest.json", Typeflag: tar.TypeReg, Size: int64(len(man)), Mode: 0o644})
		_, _ = tw.Write(man)
		_ = tw.WriteHeader(&tar.Header{Name: tc.name, Typeflag: tar.TypeReg, Size: tc.size, Mode: 0o644})
		// The entry's content: 64 MiB of zeros, about 64 KiB compressed
		// (the writer is not closed: it would want the whole size).
		zeros := make([]byte, 1<<20)
		for range 64 {
			_, _ = tw.Write(zeros)
		}
		_ = zw.Close()
		counted := &countReader{r: bytes.NewReader(b.Bytes())}
		_, err := Read(counted)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s of %d bytes: err = %v, want %q", tc.name, tc.size, err, tc.want)
		}
		if counted.n > 64<<10 {
			t.Fatalf("%s: read %d compressed bytes before refusing", tc.name, counted.n)
		}
	}
}

// The decompression bound itself: a stream of valid entries whose total
// passes MaxTotalBytes is cut at the bound.
func TestReadBound(t *testing.T) {
	l := &limited{r: io.LimitReader(zeroReader{}, 1<<40), left: 10}
	buf := make([]byte, 64)
	n, err := io.ReadFull(l, buf)
	if n != 10 || !errors.Is(l.why(err), errTooBig) {
		t.Fatalf("n=%d err=%v", n, err)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestSignVerify(t *testing.T) {
	pk, sk, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	other, _, _ := minisign.GenerateKey(rand.Reader)
	data := craft(t, entry{name: "manifest.json", data: manifestFor("corp", good)},
		entry{name: "files/config.yaml", data: []byte(good["config.yaml"])},
		entry{name: "files/hooks/guard.sh", data: []byte(good["hooks/guard.sh"])})
	a, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(a, []PublicKey{pk}); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("unsigned: %v", err)
	}
	Sign(a, sk)
	out, _ := a.Bytes()
	a, err = Read(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if k, err := Verify(a, []PublicKey{other, pk}); err != nil || !k.Equal(pk) {
		t.Fatalf("verify: %v", err)
	}
	if _, err := Verify(a, []PublicKey{other}); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("other key: %v", err)
	}
	// One byte of the manifest changed (still a valid manifest): the
	// signature no longer holds.
	a.ManifestBytes = bytes.Replace(a.ManifestBytes, []byte(`"corp"`), []byte(`"corq"`), 1)
	if _, err := Verify(a, []PublicKey{pk}); err == nil {
		t.Fatal("changed manifest verified")
	}
}
