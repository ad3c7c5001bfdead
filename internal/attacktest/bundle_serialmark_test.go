//go:build linux

package attacktest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// The remove-then-install rollback: the serial check compared only with
// the bundle installed at that moment, so `bundle remove corp` followed by
// `bundle install corp-v1.tar.gz` (a script that "reinstalls", or a user
// talked into it) put the older, validly signed guard with its hole back,
// no --allow-downgrade asked. Each layer now keeps the highest serial it
// ever installed per signer and bundle name (bundles/.serials), which a
// remove does not lower.

const (
	fixedGuard = "#!/bin/sh\necho '{\"decision\": \"block\", \"message\": \"fixed guard\"}'\n"
	holedGuard = "#!/bin/sh\necho '{}'\n" // the guard before its fix: lets everything through
)

// serialEnv is a bundleEnv with the layer's install, remove and mark path,
// and the four bundles of corp by key k: v1 (holed), v2 (fixed), v0
// (unversioned, holed) and v2b (serial 2, holed).
type serialEnv struct {
	*env
	where           []string
	bundles, mark   string
	v0, v1, v2, v2b string
}

func newSerialEnv(t *testing.T, layer string) *serialEnv {
	e := &serialEnv{env: bundleEnv(t), bundles: "home/bundles"}
	if layer == "managed" {
		e.where, e.bundles = []string{"--managed"}, "managed/bundles"
	}
	e.mark = e.path(e.bundles + "/.serials")
	files := func(guard string) map[string]string {
		return map[string]string{"config.yaml": bundleCfg, "hooks/guard.sh": guard}
	}
	e.v1 = e.packSerial("v1", "corp", "1", e.path("k"), files(holedGuard))
	e.v2 = e.packSerial("v2", "corp", "2", e.path("k"), files(fixedGuard))
	e.v0 = e.packSerial("v0", "corp", "", e.path("k"), files(holedGuard))
	e.v2b = e.packSerial("v2b", "corp", "2", e.path("k"), files(holedGuard))
	return e
}

// install runs bundle install in the layer, under a hang guard (a mark
// that is a FIFO must not block it); it returns stdout and stderr together.
func (e *serialEnv) install(file string, extra ...string) (string, error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	args := append(append([]string{"bundle", "install", file, "--pub", e.path("k.pub")}, e.where...), extra...)
	c := exec.CommandContext(ctx, binary, args...)
	c.Dir, c.Env = e.dir, e.vars
	out, err := c.CombinedOutput()
	if ctx.Err() != nil {
		e.t.Fatalf("bundle install %s hung until the guard killed it:\n%s", file, out)
	}
	return string(out), err
}

func (e *serialEnv) mustInstall(file string, extra ...string) string {
	e.t.Helper()
	out, err := e.install(file, extra...)
	if err != nil {
		e.t.Fatalf("installing %s %v: %v\n%s", file, extra, err, out)
	}
	return out
}

func (e *serialEnv) remove() {
	e.t.Helper()
	e.run("", append([]string{"bundle", "remove", "corp"}, e.where...)...)
}

// refused checks that installing file fails naming want, and that no
// bundle corp is installed after it.
func (e *serialEnv) refused(what, file, want string, extra ...string) string {
	e.t.Helper()
	out, err := e.install(file, extra...)
	if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(out, want) {
		e.t.Errorf("%s: err=%v, want %q in:\n%s", what, err, want, out)
	}
	if _, err := os.Lstat(e.path(e.bundles + "/corp")); err == nil {
		e.t.Errorf("%s: bundle corp is installed after the refusal", what)
	}
	return out
}

func TestBundleRemoveDoesNotForgetTheSerial(t *testing.T) {
	for _, layer := range []string{"user", "managed"} {
		t.Run(layer, func(t *testing.T) {
			e := newSerialEnv(t, layer)
			e.mustInstall(e.v2)
			e.remove()
			// The archive's file name is no part of the identity: a
			// copy named as a newer one is the same signed bundle.
			renamedFile := e.path("corp-serial-3.tar.gz")
			data, err := os.ReadFile(e.v1)
			must(t, err)
			must(t, os.WriteFile(renamedFile, data, 0o644))
			for _, tc := range []struct{ what, file, want string }{
				{"an older serial after remove", e.v1, "serial 1 is lower than serial 2"},
				{"the older bundle under another file name", renamedFile, "serial 1 is lower than serial 2"},
				{"an unversioned bundle after remove", e.v0, "unversioned (no serial)"},
				{"other content under serial 2 after remove", e.v2b, "serial 2 but other content"},
			} {
				out := e.refused(tc.what, tc.file, tc.want)
				if !strings.Contains(out, e.mark) || !strings.Contains(out, "--allow-downgrade") {
					t.Errorf("%s: the refusal names neither the mark %s nor --allow-downgrade:\n%s", tc.what, e.mark, out)
				}
			}
			// Renaming the bundle itself (its signed manifest's name, so
			// no mark of corp would apply) breaks the signature.
			e.refused("the older bundle renamed in its manifest", e.renameManifest(e.v1, "corq"), "does not verify")
			if _, err := os.Lstat(e.path(e.bundles + "/corq")); err == nil {
				t.Errorf("the renamed bundle corq was installed")
			}

			// --allow-downgrade rolls back on purpose, and says the mark
			// stays: after another remove the older one is refused again.
			out := e.mustInstall(e.v1, "--allow-downgrade")
			if !strings.Contains(out, "stays 2") || !strings.Contains(out, e.mark) {
				t.Errorf("--allow-downgrade below the mark did not say the mark stays 2 in %s:\n%s", e.mark, out)
			}
			e.remove()
			e.refused("the older serial after a deliberate downgrade and a remove", e.v1, "serial 1 is lower than serial 2")
			e.mustInstall(e.v2)
			if got := e.dispatch(); !strings.Contains(got, `"message":"fixed guard"`) {
				t.Fatalf("the fixed guard does not run after reinstalling serial 2:\n%s", got)
			}
			fi, err := os.Lstat(e.mark)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Fatalf("the mark %s: %v (want a regular file of mode 0600)", e.mark, fi)
			}
		})
	}
}

// A mark that cannot be read (damaged, emptied, made a FIFO, a directory
// or a symbolic link, or deleted from a layer that kept marks) is never
// read as "nothing installed yet": every
// install into the layer is refused with a warning naming it, until
// --allow-downgrade, which moves it aside (named) and starts again from the
// bundles installed now.
func TestBundleUnreadableSerialMarkFailsSafe(t *testing.T) {
	for _, tc := range []struct {
		what  string
		spoil func(e *serialEnv)
		gone  bool // no file left to move aside
	}{
		// Deleted while the layer's .index says marks were kept: not a
		// fresh layer (that has no .index, or one from before marks).
		{what: "deleted", spoil: func(e *serialEnv) { e.clearMark() }, gone: true},
		{what: "cut short", spoil: func(e *serialEnv) { e.writeMark(`{"marks": [{"signer": "RW`) }},
		{what: "emptied", spoil: func(e *serialEnv) { e.writeMark("") }},
		{what: "a serial of 0", spoil: func(e *serialEnv) { e.writeMark(strings.Replace(e.readMark(), `"serial": 2`, `"serial": 0`, 1)) }},
		{what: "a FIFO", spoil: func(e *serialEnv) { e.clearMark(); must(e.t, syscall.Mkfifo(e.mark, 0o600)) }},
		{what: "a directory", spoil: func(e *serialEnv) { e.clearMark(); must(e.t, os.Mkdir(e.mark, 0o700)) }},
		{what: "a symbolic link", spoil: func(e *serialEnv) {
			e.write("elsewhere.json", `{"marks": []}`, 0o600)
			e.clearMark()
			must(e.t, os.Symlink(e.path("elsewhere.json"), e.mark))
		}},
	} {
		t.Run(tc.what, func(t *testing.T) {
			e := newSerialEnv(t, "user")
			e.mustInstall(e.v2)
			e.remove()
			tc.spoil(e)
			// Even the very bundle of the lost mark: nothing says what
			// was installed here.
			out := e.refused("serial 2 over an unreadable mark", e.v2, "cannot be read")
			if !strings.Contains(out, "warning") || !strings.Contains(out, e.mark) {
				t.Errorf("no warning naming %s:\n%s", e.mark, out)
			}
			out = e.mustInstall(e.v1, "--allow-downgrade")
			if !tc.gone && !strings.Contains(out, e.mark+".corrupt") {
				t.Errorf("--allow-downgrade did not name where the unreadable mark went:\n%s", out)
			}
			e.remove()
			e.refused("the unversioned bundle after the fresh start", e.v0, "unversioned (no serial)")
		})
	}
}

// The mark lives in the layer (HERMES_HOME, the managed directory), never
// in the checkout an install runs in: a repository's own bundles/.serials
// or .hermes/bundles/.serials, saying nothing was ever installed, changes
// nothing, and is not written.
func TestBundleSerialMarkIsNotTheRepository(t *testing.T) {
	e := newSerialEnv(t, "user")
	empty := `{"marks": []}` + "\n"
	e.write("repo/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	e.write("repo/bundles/.serials", empty, 0o644)
	e.write("repo/.hermes/bundles/.serials", empty, 0o644)
	e.write("repo/.hermes/hooks.yaml", "hooks: {}\n", 0o644)
	run := func(args ...string) (string, error) {
		c := exec.Command(binary, args...)
		c.Dir, c.Env = e.path("repo"), e.vars
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := run("bundle", "install", e.v2, "--pub", e.path("k.pub")); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if out, err := run("bundle", "remove", "corp"); err != nil {
		t.Fatalf("remove: %v\n%s", err, out)
	}
	out, err := run("bundle", "install", e.v1, "--pub", e.path("k.pub"))
	if err == nil || !strings.Contains(out, "serial 1 is lower than serial 2") {
		t.Fatalf("inside a repository holding empty marks, the older bundle installed after a remove: %v\n%s", err, out)
	}
	for _, p := range []string{"repo/bundles/.serials", "repo/.hermes/bundles/.serials"} {
		if got, _ := os.ReadFile(e.path(p)); string(got) != empty {
			t.Errorf("%s was written: %q", p, got)
		}
	}
}

func (e *serialEnv) readMark() string {
	e.t.Helper()
	data, err := os.ReadFile(e.mark)
	must(e.t, err)
	return string(data)
}

func (e *serialEnv) clearMark() { must(e.t, os.RemoveAll(e.mark)) }

func (e *serialEnv) writeMark(content string) {
	e.t.Helper()
	must(e.t, os.WriteFile(e.mark, []byte(content), 0o600))
}

// renameManifest rewrites the bundle name in a signed bundle's manifest,
// keeping its signature.
func (e *serialEnv) renameManifest(file, name string) string {
	e.t.Helper()
	data, err := os.ReadFile(file)
	must(e.t, err)
	zr, err := gzip.NewReader(bytes.NewReader(data))
	must(e.t, err)
	tr := tar.NewReader(zr)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	re := regexp.MustCompile(`"name": *"[^"]*"`)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		must(e.t, err)
		body, err := io.ReadAll(tr)
		must(e.t, err)
		if hdr.Name == "manifest.json" {
			body = re.ReplaceAll(body, []byte(`"name": "`+name+`"`))
			hdr.Size = int64(len(body))
		}
		must(e.t, tw.WriteHeader(hdr))
		_, err = tw.Write(body)
		must(e.t, err)
	}
	must(e.t, tw.Close())
	must(e.t, zw.Close())
	out := e.path(filepath.Base(file) + "-" + name + ".tar.gz")
	must(e.t, os.WriteFile(out, b.Bytes(), 0o644))
	return out
}
