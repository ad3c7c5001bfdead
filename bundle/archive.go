package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The archive is a gzip-compressed tar holding, in this order:
// manifest.json, manifest.json.minisig (once signed), and every file of the
// manifest under files/. Nothing else: no directories, links or devices.
const (
	entryManifest = "manifest.json"
	entrySig      = "manifest.json.minisig"
	filesPrefix   = "files/"
)

// MaxArchiveBytes bounds the compressed archive read from disk.
const MaxArchiveBytes = MaxTotalBytes + MaxManifestBytes + 1<<20

// Archive is a bundle as read from its file: the manifest bytes as they
// were signed, the signature (nil when unsigned) and every file's content.
type Archive struct {
	ManifestBytes []byte
	Manifest      *Manifest
	Signature     []byte
	Files         map[string][]byte
}

// Read parses an archive and checks it against its own manifest: every
// manifest file present once with its size and digest, and no entry the
// manifest does not list. The signature is not checked (Verify does).
// Decompression is bounded (MaxTotalBytes plus the manifest and
// signature), so a bomb stops at the bound.
func Read(r io.Reader) (*Archive, error) {
	zr, err := gzip.NewReader(io.LimitReader(r, MaxArchiveBytes+1))
	if err != nil {
		return nil, fmt.Errorf("bundle: not a gzip-compressed tar: %w", err)
	}
	// The tar stream itself (headers, padding) is counted too.
	budget := &limited{r: zr, left: MaxTotalBytes + MaxManifestBytes + MaxSigBytes + (MaxFiles+2)*2048}
	tr := tar.NewReader(budget)
	a := &Archive{Files: map[string][]byte{}}
	for i := 0; ; i++ {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("bundle: %w", budget.why(err))
		}
		if i > MaxFiles+2 {
			return nil, fmt.Errorf("bundle: more than %d entries", MaxFiles+2)
		}
		if err := a.entry(tr, hdr, budget); err != nil {
			return nil, err
		}
	}
	if a.Manifest == nil {
		return nil, errors.New("bundle: no manifest.json")
	}
	for _, f := range a.Manifest.Files {
		if _, ok := a.Files[f.Path]; !ok {
			return nil, fmt.Errorf("bundle: %s is listed in the manifest but not in the archive", f.Path)
		}
	}
	return a, nil
}

// entry reads one tar entry into a.
func (a *Archive) entry(tr *tar.Reader, hdr *tar.Header, budget *limited) error {
	name := hdr.Name
	if hdr.Typeflag != tar.TypeReg {
		return fmt.Errorf("bundle: %s: not a regular file (tar type %q): a bundle holds no links, directories or devices", name, hdr.Typeflag)
	}
	max := int64(MaxFileBytes)
	switch name {
	case entryManifest:
		max = MaxManifestBytes
	case entrySig:
		max = MaxSigBytes
	}
	if hdr.Size < 0 || hdr.Size > max {
		return fmt.Errorf("bundle: %s: %d bytes (at most %d)", name, hdr.Size, max)
	}
	if rest, ok := strings.CutPrefix(name, filesPrefix); ok {
		// Judged on its header, before one byte of it is decompressed.
		if err := a.expect(rest, hdr.Size); err != nil {
			return err
		}
	}
	data, err := io.ReadAll(io.LimitReader(tr, max+1))
	if err != nil {
		return fmt.Errorf("bundle: %s: %w", name, budget.why(err))
	}
	switch {
	case name == entryManifest:
		if a.Manifest != nil || len(a.Files) > 0 || a.Signature != nil {
			return errors.New("bundle: manifest.json must come first, once")
		}
		m, err := ParseManifest(data)
		if err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
		a.ManifestBytes, a.Manifest = data, m
	case name == entrySig:
		if a.Manifest == nil || a.Signature != nil || len(a.Files) > 0 {
			return errors.New("bundle: manifest.json.minisig must follow manifest.json, once")
		}
		a.Signature = data
	case strings.HasPrefix(name, filesPrefix):
		return a.file(strings.TrimPrefix(name, filesPrefix), data)
	default:
		return fmt.Errorf("bundle: %s: unexpected entry (only manifest.json, its signature and files/…)", name)
	}
	return nil
}

// expect checks a file entry's header against the manifest.
func (a *Archive) expect(path string, size int64) error {
	if a.Manifest == nil {
		return errors.New("bundle: manifest.json must come first")
	}
	if err := CheckPath(path); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	f, ok := a.Manifest.Lookup(path)
	if !ok {
		return fmt.Errorf("bundle: %s is in the archive but not in the manifest", path)
	}
	if _, dup := a.Files[path]; dup {
		return fmt.Errorf("bundle: %s appears twice", path)
	}
	if size != f.Size {
		return fmt.Errorf("bundle: %s: %d bytes, the manifest says %d", path, size, f.Size)
	}
	return nil
}

// file checks one file's content against its manifest row (its header
// passed expect).
func (a *Archive) file(path string, data []byte) error {
	f, _ := a.Manifest.Lookup(path)
	if int64(len(data)) != f.Size {
		return fmt.Errorf("bundle: %s: %d bytes, the manifest says %d", path, len(data), f.Size)
	}
	if sum := Digest(data); sum != f.SHA256 {
		return fmt.Errorf("bundle: %s: sha256 %s, the manifest says %s (tampered?)", path, sum, f.SHA256)
	}
	a.Files[path] = data
	return nil
}

// Digest is the hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Write writes a as an archive: the manifest bytes as they are (a
// signature covers them byte for byte), the signature if any, the files in
// manifest order.
func (a *Archive) Write(w io.Writer) error {
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	put := func(name string, data []byte, mode int64) error {
		hdr := &tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: mode, Size: int64(len(data)), Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	if err := put(entryManifest, a.ManifestBytes, ModeFile); err != nil {
		return err
	}
	if a.Signature != nil {
		if err := put(entrySig, a.Signature, ModeFile); err != nil {
			return err
		}
	}
	for _, f := range a.Manifest.Files {
		mode := int64(ModeFile)
		if f.Exec() {
			mode = ModeExec
		}
		if err := put(filesPrefix+f.Path, a.Files[f.Path], mode); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// Bytes is Write into memory.
func (a *Archive) Bytes() ([]byte, error) {
	var b bytes.Buffer
	err := a.Write(&b)
	return b.Bytes(), err
}

// errTooBig is the decompression bound.
var errTooBig = errors.New("decompresses to more than the bundle bound (a decompression bomb?)")

// limited is a reader that fails past its budget.
type limited struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.over = true
		return 0, errTooBig
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// why names the bound when it was what stopped the read.
func (l *limited) why(err error) error {
	if l.over {
		return errTooBig
	}
	return err
}
