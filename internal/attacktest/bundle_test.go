//go:build linux

package attacktest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Signed hook bundles (issue 36, item 3), attacked through the real binary:
// what a hostile archive, a local process or a repository could do with a
// bundle.

// bundleEnv is an env whose managed layer is its own (an empty managed
// config, root's as the layer requires: these tests run as root, else the
// layer is refused and they skip), with a key pair.
func bundleEnv(t *testing.T) *env {
	e := newEnv(t)
	if os.Geteuid() != 0 {
		t.Skip("a managed config of the test's own must be root's")
	}
	e.write("managed/config.yaml", "hooks: {}\n", 0o644)
	must(t, os.Chmod(e.path("managed"), 0o755))
	e.vars = append(e.vars, "HERMES_HOOKS_MANAGED_CONFIG="+e.path("managed/config.yaml"))
	e.run("", "bundle", "keygen", "-o", e.path("k"))
	return e
}

type rawEntry struct {
	name string
	typ  byte
	data string
	link string
	size int64 // header size when the content is not all there (0: len(data))
}

// rawBundle writes a tar.gz of raw entries, however hostile.
func (e *env) rawBundle(name string, ents ...rawEntry) string {
	e.t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, r := range ents {
		typ := r.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: r.name, Typeflag: typ, Mode: 0o755, Linkname: r.link, Size: int64(len(r.data))}
		if r.size != 0 {
			hdr.Size = r.size
		}
		if typ != tar.TypeReg {
			hdr.Size = 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			e.t.Fatal(err)
		}
		_, _ = tw.Write([]byte(r.data))
	}
	_ = tw.Flush()
	_ = zw.Close()
	p := e.path(name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// manifestOf is a manifest for bundle name listing files (path → content).
func manifestOf(name string, files map[string]string) string {
	type row struct {
		Path   string `json:"path"`
		SHA256 string `json:"sha256"`
		Size   int    `json:"size"`
		Mode   string `json:"mode"`
	}
	var rows []row
	for _, p := range []string{"../escape.sh", "config.yaml", "hooks/guard.sh"} {
		if c, ok := files[p]; ok {
			sum := sha256.Sum256([]byte(c))
			rows = append(rows, row{p, hex.EncodeToString(sum[:]), len(c), "0755"})
		}
	}
	data, _ := json.Marshal(map[string]any{"format": "hermes-hooks-bundle/1", "name": name, "files": rows})
	return string(data)
}

const bundleCfg = "hooks:\n  pre_tool_call:\n    - command: ./hooks/guard.sh\n      fail_closed: true\n"

// Hostile archives never install, never get signed, and write nothing
// anywhere: not outside the bundles directory (zip-slip, links), not even
// inside it.
func TestBundleHostileArchivesAreRefused(t *testing.T) {
	e := bundleEnv(t)
	guard := "#!/bin/sh\necho '{}'\n"
	two := map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": guard}
	man := rawEntry{name: "manifest.json", data: manifestOf("corp", two)}
	cfg := rawEntry{name: "files/config.yaml", data: bundleCfg}
	g := rawEntry{name: "files/hooks/guard.sh", data: guard}
	cases := []struct {
		name string
		ents []rawEntry
		want string
	}{
		{"zip-slip entry", []rawEntry{man, cfg, g, {name: "files/../../../../escape.sh", data: "evil"}}, "path"},
		{"zip-slip in the manifest", []rawEntry{{name: "manifest.json", data: manifestOf("corp", map[string]string{"config.yaml": bundleCfg, "../escape.sh": "evil"})}, cfg, {name: "files/../escape.sh", data: "evil"}}, "'..'"},
		{"name escaping the bundles directory", []rawEntry{{name: "manifest.json", data: manifestOf("../../escape", two)}, cfg, g}, "bundle name"},
		{"symlink entry", []rawEntry{man, cfg, {name: "files/hooks/guard.sh", typ: tar.TypeSymlink, link: "/etc/passwd"}}, "not a regular file"},
		{"hard link entry", []rawEntry{man, cfg, {name: "files/hooks/guard.sh", typ: tar.TypeLink, link: "/etc/passwd"}}, "not a regular file"},
		{"decompression bomb", []rawEntry{man, cfg, {name: "files/hooks/guard.sh", size: 1 << 40, data: strings.Repeat("\x00", 1<<20)}}, "bytes (at most"},
		{"manifest lists a file the archive lacks", []rawEntry{man, cfg}, "listed in the manifest but not in the archive"},
		{"archive holds a file the manifest lacks", []rawEntry{man, cfg, g, {name: "files/hooks/extra.sh", data: "evil"}}, "in the archive but not in the manifest"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := e.rawBundle(strings.ReplaceAll(tc.name, " ", "-")+".tar.gz", tc.ents...)
			for _, args := range [][]string{
				{"bundle", "install", p, "--pub", e.path("k.pub")},
				{"bundle", "sign", p, "--key", e.path("k.key"), "-o", e.path("signed.tar.gz")},
			} {
				out, err := e.cmd("", args...).CombinedOutput()
				if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(string(out), tc.want) {
					t.Fatalf("%v: err=%v, want %q in:\n%s", args[:2], err, tc.want, out)
				}
			}
			for _, p := range []string{"escape.sh", "home/escape.sh", "home/bundles", "signed.tar.gz", "../escape.sh", "../../escape.sh", "home/escape"} {
				if _, err := os.Lstat(e.path(p)); err == nil {
					t.Fatalf("%s was written", p)
				}
			}
		})
	}
}

// packSigned packs dir's files as bundle name signed by key (a prefix).
func (e *env) packSigned(name, key string, files map[string]string) string {
	e.t.Helper()
	src := e.path("src-" + name + "-" + filepath.Base(key))
	for p, c := range files {
		e.write(filepath.Join(filepath.Base(src), p), c, 0o755)
	}
	out := src + ".tar.gz"
	e.run("", "bundle", "pack", src, "--name", name, "-o", out)
	e.run("", "bundle", "sign", out, "--key", key+".key")
	return out
}

// Another signer's bundle of the same name cannot replace an installed
// bundle's files (its guard stays the admin's), and no bundle reaches
// another's directory.
func TestBundleCannotReplaceAnothersFiles(t *testing.T) {
	e := bundleEnv(t)
	e.run("", "bundle", "keygen", "-o", e.path("other"))
	guard := "#!/bin/sh\necho '{\"decision\": \"block\", \"message\": \"admin guard\"}'\n"
	admin := e.packSigned("corp", e.path("k"), map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": guard})
	e.run("", "bundle", "install", admin, "--pub", e.path("k.pub"))
	evil := e.packSigned("corp", e.path("other"), map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": "#!/bin/sh\necho '{}'\n"})
	out, err := e.cmd("", "bundle", "install", evil, "--pub", e.path("other.pub")).CombinedOutput()
	if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(string(out), "signed by another key") {
		t.Fatalf("replacement by another signer: %v\n%s", err, out)
	}
	if got := e.dispatch(); !strings.Contains(got, `"message":"admin guard"`) {
		t.Fatalf("the admin's guard no longer runs:\n%s", got)
	}
}

// A repository cannot borrow a bundle's signature: its own hook running the
// very script of an installed bundle is a repository hook, approved (or
// not) as one; and a local process that swaps an unpacked script for a
// symbolic link to another refuses the tool call.
func TestBundleSignatureApprovesOnlyTheBundle(t *testing.T) {
	e := bundleEnv(t)
	guard := "#!/bin/sh\necho '{\"decision\": \"block\", \"message\": \"bundle guard\"}'\n"
	cfg := "hooks:\n  post_tool_call:\n    - command: ./hooks/guard.sh\n"
	p := e.packSigned("corp", e.path("k"), map[string]string{"config.yaml": cfg, "hooks/guard.sh": guard})
	e.run("", "bundle", "install", p, "--pub", e.path("k.pub"))
	script := e.path("home/bundles/corp/files/hooks/guard.sh")
	if err := os.MkdirAll(e.path(".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".hermes/hooks.yaml", "hooks:\n  pre_tool_call:\n    - command: "+script+"\n", 0o644)
	out := e.dispatch()
	if strings.Contains(out, `"message":"bundle guard"`) || !strings.Contains(out, `"unapproved":1`) {
		t.Fatalf("a repository's hook ran on the bundle's signature:\n%s", out)
	}

	// The bundle's own hook on its own event, then swapped for a link.
	post := `{"tool_name":"terminal","args":{"command":"ls"}}`
	if got := e.run(post, "dispatch", "post_tool_call"); !strings.Contains(got, `"ran":true`) {
		t.Fatalf("bundle hook did not run:\n%s", got)
	}
	e.write("other.sh", "#!/bin/sh\necho '{}'\n", 0o755)
	if err := os.Chmod(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.path("other.sh"), script); err != nil {
		t.Fatal(err)
	}
	got := e.run(post, "dispatch", "post_tool_call")
	if !strings.Contains(got, `"ran":false`) || !strings.Contains(got, "guard.sh changed since the bundle was installed") {
		t.Fatalf("a swapped bundle script ran or was not named:\n%s", got)
	}
}
