//go:build unix

package server

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"aead.dev/minisign"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// A bundle installed while serve runs is served without a restart (its
// layer's index is one of the files a reload watches), and one removed
// stops being served.
func TestServeReloadsWhenABundleIsInstalled(t *testing.T) {
	// No managed config of the test's own: one it names must exist (and
	// be root's), and this test installs into the user layer.
	t.Setenv(hookconfig.ManagedConfigEnv, "")
	f := start(t, "hooks: {}\n", nil, nil)
	src := t.TempDir()
	for p, c := range map[string]string{
		"config.yaml":    "hooks:\n  pre_tool_call:\n    - command: ./hooks/guard.sh\n      matcher: terminal\n",
		"hooks/guard.sh": "#!/bin/sh\necho '{\"action\":\"block\",\"message\":\"bundle guard\"}'\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, p), []byte(c), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	a, err := bundle.Pack(src, "corp", 0)
	if err != nil {
		t.Fatal(err)
	}
	pk, sk, _ := minisign.GenerateKey(rand.Reader)
	bundle.Sign(a, sk)
	if _, err := bundle.Install(bundle.UserDir(f.home), a, pk, bundle.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	f.waitGeneration(2)
	if o := f.outcome("pre_tool_call", rmrf); o["decision"] != "block" || o["message"] != "bundle guard" {
		t.Fatalf("the installed bundle's guard is not served: %v", o)
	}
	if _, err := bundle.Remove(bundle.UserDir(f.home), "corp", nil); err != nil {
		t.Fatal(err)
	}
	f.waitGeneration(3)
	if o := f.outcome("pre_tool_call", rmrf); o["decision"] != "none" {
		t.Fatalf("a removed bundle's guard is still served: %v", o)
	}
}
