package install

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// OpenCodePlugin is the shim with exe filled in: the absolute path of
// hermes-hooks, or its name, looked up on PATH.
func OpenCodePlugin(exe string) []byte {
	lit, _ := json.Marshal(exe) // a JSON string is a JS string literal
	return []byte(strings.Replace(openCodeShim, openCodeBin, string(lit), 1))
}

// IsOwnOpenCodePlugin says data is a shim install wrote (for any path).
func IsOwnOpenCodePlugin(data []byte) bool {
	return bytes.HasPrefix(data, []byte(openCodeMark))
}

// MakeOpenCode plans writing (or, with uninstall, removing) the shim at
// path. A file there that is not ours is an error for install and left in
// place by uninstall (an error too: the user asked for it gone).
func MakeOpenCode(path, exe string, uninstall bool) (*PluginPlan, error) {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if old != nil && !IsOwnOpenCodePlugin(old) {
		return nil, fmt.Errorf("%s is not one hermes-hooks wrote (its first line is not %q); not touched", path, openCodeMark)
	}
	fw := FileWrite{Path: path, Old: old, New: OpenCodePlugin(exe)}
	if uninstall {
		fw.New, fw.Changed = nil, old != nil
	} else {
		fw.Changed = !bytes.Equal(old, fw.New)
	}
	return &PluginPlan{Dir: filepath.Dir(path), Files: []FileWrite{fw}, Changed: fw.Changed}, nil
}
