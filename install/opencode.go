package install

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// OpenCode loads JavaScript and TypeScript plugins only: every .js/.ts
// file in a project's .opencode/plugins/ and in ~/.config/opencode/plugins/
// (https://opencode.ai/docs/plugins/). Install writes one file there, a
// shim that runs `hermes-hooks hook claude PreToolUse|PostToolUse` around
// each tool call; its first line marks it as ours, and a file of that name
// without the mark is never overwritten nor removed.

// OpenCodePluginFile is the plugin's path under the project (or the home
// directory with OpenCodeUserDir in front).
const OpenCodePluginFile = ".opencode/plugins/hermes-hooks.js"

// OpenCodeUserFile is the plugin's path under the home directory.
const OpenCodeUserFile = ".config/opencode/plugins/hermes-hooks.js"

// OpenCodePath is the plugin's path under root: the project's, or with
// user the home directory's.
func OpenCodePath(root string, user bool) string {
	if user {
		return filepath.Join(root, filepath.FromSlash(OpenCodeUserFile))
	}
	return filepath.Join(root, filepath.FromSlash(OpenCodePluginFile))
}

//go:embed opencode_plugin.js
var openCodeShim string

// openCodeMark is the shim's first line, by which uninstall knows it.
const openCodeMark = "// hermes-hooks: written by `hermes-hooks install opencode`"

// openCodeBin is the placeholder the binary's path replaces (a JS string
// literal, quotes included).
const openCodeBin = `"__HERMES_HOOKS_BIN__"`

// openCodeDigest starts the shim's second line: the SHA-256 of the lines
// after it, by which uninstall tells the file install wrote from one the
// user edited since (which it keeps as a copy).
const openCodeDigest = "// hermes-hooks digest: sha256:"

// OpenCodePlugin is the shim with exe filled in: the absolute path of
// hermes-hooks, or its name, looked up on PATH.
func OpenCodePlugin(exe string) []byte {
	lit, _ := json.Marshal(exe) // a JSON string is a JS string literal
	first, rest, _ := strings.Cut(strings.Replace(openCodeShim, openCodeBin, string(lit), 1), "\n")
	sum := sha256.Sum256([]byte(rest))
	return []byte(first + "\n" + openCodeDigest + hex.EncodeToString(sum[:]) +
		" of the lines below: edited, this file is kept as a copy when install replaces it or uninstall removes it\n" + rest)
}

// openCodeBinLine is the shim's line naming the binary (compiled at
// first use, not at every start of the binary).
var openCodeBinLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^const BIN = (".*");$`) })

// pristineOpenCode says data is a shim exactly as install wrote it: its
// digest holds, or (written before there was one) it is the shim for the
// binary path it names.
func pristineOpenCode(data []byte) bool {
	_, rest, _ := bytes.Cut(data, []byte("\n"))
	if second, body, ok := bytes.Cut(rest, []byte("\n")); ok && bytes.HasPrefix(second, []byte(openCodeDigest)) {
		want, _, _ := bytes.Cut(second[len(openCodeDigest):], []byte(" "))
		sum := sha256.Sum256(body)
		return string(want) == hex.EncodeToString(sum[:])
	}
	m := openCodeBinLine().FindSubmatch(data)
	return m != nil && string(data) == strings.Replace(openCodeShim, openCodeBin, string(m[1]), 1)
}

// IsOwnOpenCodePlugin says data is a shim install wrote (for any path).
func IsOwnOpenCodePlugin(data []byte) bool {
	return bytes.HasPrefix(data, []byte(openCodeMark))
}

// MakeOpenCode plans writing (or, with uninstall, removing) the shim at
// path. A file there that is not ours is an error for install and left in
// place by uninstall (an error too: the user asked for it gone). Our shim,
// edited since, is kept as a copy before it is replaced or removed.
func MakeOpenCode(path, exe string, uninstall bool) (*PluginPlan, error) {
	old, err := readBounded(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if old != nil && !IsOwnOpenCodePlugin(old) {
		return nil, fmt.Errorf("%s is not one hermes-hooks wrote (its first line is not %q); not touched", path, openCodeMark)
	}
	fw := ownedFile(path, old, OpenCodePlugin(exe), pristineOpenCode, uninstall)
	return &PluginPlan{Dir: filepath.Dir(path), Files: []FileWrite{fw}, Changed: fw.Changed}, nil
}
