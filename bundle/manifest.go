// Package bundle is hermes-hooks' signed hook bundles (issue 36, item 3):
// one archive holding hooks (scripts), rules, a config fragment
// (config.yaml) and a manifest of every file's SHA-256 digest, size and
// mode; a minisign (ed25519) signature over the manifest; and the layout
// of an installed bundle, whose manifest consent compares the unpacked
// files with before a bundle hook runs.
//
// The manifest and the archive are parsed here without touching the file
// system (manifest.go, archive.go, sign.go are pure: bytes in, values or
// errors out, every size bounded); install.go writes and reads installed
// bundles. The signature covers the manifest and the manifest covers every
// file, so a verified archive holds exactly the files its signer packed.
package bundle

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format is the manifest's format tag; another one is refused.
const Format = "hermes-hooks-bundle/1"

// ConfigFile is the config fragment every bundle holds, relative to its
// files.
const ConfigFile = "config.yaml"

// Bounds. A bundle is a handful of scripts and a config: these are far
// above any real one and keep a hostile archive (a decompression bomb, a
// million entries) from exhausting memory or disk.
const (
	MaxManifestBytes = 1 << 20
	MaxSigBytes      = 4 << 10
	MaxFiles         = 1024
	MaxFileBytes     = 8 << 20
	MaxTotalBytes    = 64 << 20
	MaxPathBytes     = 255
	MaxPathDepth     = 16
	MaxNameBytes     = 64
)

// Mode is a file's mode as a bundle records it: plain or executable.
// Nothing else (setuid, group- or world-writable) survives a bundle.
const (
	ModeFile = 0o644
	ModeExec = 0o755
)

// File is one manifest row.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	Mode   string `json:"mode"`
}

// Exec reports whether the file is executable.
func (f File) Exec() bool { return f.Mode == "0755" }

// Manifest lists every file of a bundle, sorted by path. Serial is its
// version (0: unversioned, a manifest written before serials or packed
// without one); being in the manifest, it is covered by the signature.
type Manifest struct {
	Format string `json:"format"`
	Name   string `json:"name"`
	Serial Serial `json:"serial,omitempty"`
	Files  []File `json:"files"`
}

// Lookup finds a file by path.
func (m *Manifest) Lookup(path string) (File, bool) {
	i, ok := slices.BinarySearchFunc(m.Files, path, func(f File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return File{}, false
	}
	return m.Files[i], true
}

// Encode writes m as the canonical manifest bytes (what is signed).
func (m *Manifest) Encode() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		panic(err) // a Manifest is strings and numbers only
	}
	return b.Bytes()
}

// ParseManifest reads manifest bytes strictly: the format, a valid name,
// a serial that is absent or in 1..MaxSerial (serial.go),
// at least the config fragment, every path valid and listed once (also
// when compared case-insensitively: two paths that are one file on macOS
// or Windows are refused), sorted, each with a SHA-256 digest, a size in
// bounds and a mode of 0644 or 0755.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, fmt.Errorf("manifest: larger than %d bytes", MaxManifestBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("manifest: data after the manifest object")
	}
	if m.Format != Format {
		return nil, fmt.Errorf("manifest: format %q is not %q", m.Format, Format)
	}
	if err := CheckName(m.Name); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if len(m.Files) > MaxFiles {
		return nil, fmt.Errorf("manifest: %d files (at most %d)", len(m.Files), MaxFiles)
	}
	var total int64
	folded := make(map[string]string, len(m.Files))
	for i, f := range m.Files {
		if err := checkFile(f); err != nil {
			return nil, fmt.Errorf("manifest: %w", err)
		}
		if i > 0 && m.Files[i-1].Path >= f.Path {
			return nil, fmt.Errorf("manifest: %s: files are not sorted by path, or listed twice", f.Path)
		}
		k := strings.ToLower(f.Path)
		if other, dup := folded[k]; dup {
			return nil, fmt.Errorf("manifest: %s and %s differ only in case (one file on macOS and Windows)", other, f.Path)
		}
		folded[k] = f.Path
		total += f.Size
	}
	if total > MaxTotalBytes {
		return nil, fmt.Errorf("manifest: files total %d bytes (at most %d)", total, MaxTotalBytes)
	}
	if _, ok := m.Lookup(ConfigFile); !ok {
		return nil, fmt.Errorf("manifest: no %s (the bundle's config fragment)", ConfigFile)
	}
	// A path that is another's directory (a and a/b) cannot both be files.
	for _, f := range m.Files {
		for dir := parentOf(f.Path); dir != ""; dir = parentOf(dir) {
			if _, ok := m.Lookup(dir); ok {
				return nil, fmt.Errorf("manifest: %s is a file and the directory of %s", dir, f.Path)
			}
		}
	}
	return &m, nil
}

func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

func checkFile(f File) error {
	if err := CheckPath(f.Path); err != nil {
		return err
	}
	if len(f.SHA256) != 64 || strings.ToLower(f.SHA256) != f.SHA256 {
		return fmt.Errorf("%s: sha256 must be 64 lower-case hex digits", f.Path)
	}
	if _, err := hex.DecodeString(f.SHA256); err != nil {
		return fmt.Errorf("%s: sha256 must be 64 lower-case hex digits", f.Path)
	}
	if f.Size < 0 || f.Size > MaxFileBytes {
		return fmt.Errorf("%s: size %d out of bounds (0 to %d bytes)", f.Path, f.Size, MaxFileBytes)
	}
	if f.Mode != "0644" && f.Mode != "0755" {
		return fmt.Errorf("%s: mode %q (a bundle's files are 0644 or 0755)", f.Path, f.Mode)
	}
	return nil
}

// CheckName accepts a bundle name: what its directory is called, so
// lower-case letters, digits, '.', '_' and '-', starting with a letter or
// digit (never "." or "..", never hidden).
func CheckName(name string) error {
	if name == "" || len(name) > MaxNameBytes {
		return fmt.Errorf("bundle name %q: 1 to %d characters", name, MaxNameBytes)
	}
	for i, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-')
		if !ok {
			return fmt.Errorf("bundle name %q: lower-case letters, digits, '.', '_' and '-' only, starting with a letter or digit", name)
		}
	}
	if windowsMisread(name) {
		// Its installed folder is named so.
		return fmt.Errorf("bundle name %q: a name Windows reads as a device (con, aux, nul, com1 …) or without its trailing dot", name)
	}
	return nil
}

// windowsMisread reports a file name Windows does not keep as written: a
// device name (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9, in any case and
// with any extension) opens the device, and a trailing dot or space is
// dropped, so that two names of a manifest would be one file. A bundle is
// installed on any system.
func windowsMisread(name string) bool {
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return true
	}
	base, _, _ := strings.Cut(strings.ToLower(name), ".")
	base = strings.TrimRight(base, " ")
	switch base {
	case "con", "prn", "aux", "nul":
		return true
	}
	return len(base) == 4 && (strings.HasPrefix(base, "com") || strings.HasPrefix(base, "lpt")) && base[3] >= '1' && base[3] <= '9'
}

// CheckPath accepts a file path inside a bundle: relative, '/'-separated,
// no empty, "." or ".." component, no backslash, colon or control
// character (each means something else on some system), no component
// starting with '-' (read as an option), none Windows would misread
// (windowsMisread) and at most MaxPathDepth deep.
func CheckPath(p string) error {
	if p == "" || len(p) > MaxPathBytes {
		return fmt.Errorf("path %q: 1 to %d bytes", p, MaxPathBytes)
	}
	parts := strings.Split(p, "/")
	if len(parts) > MaxPathDepth {
		return fmt.Errorf("path %q: deeper than %d directories", p, MaxPathDepth)
	}
	for _, part := range parts {
		switch {
		case part == "" || part == "." || part == "..":
			return fmt.Errorf("path %q: absolute, or an empty, '.' or '..' component", p)
		case strings.ContainsAny(part, "\\:") || strings.ContainsFunc(part, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			return fmt.Errorf("path %q: backslash, colon or control character", p)
		case strings.HasPrefix(part, "-"):
			return fmt.Errorf("path %q: a component starts with '-'", p)
		case windowsMisread(part):
			return fmt.Errorf("path %q: a name Windows reads as a device (con, aux, nul, com1 …) or without its trailing dot or space", p)
		}
	}
	return nil
}
