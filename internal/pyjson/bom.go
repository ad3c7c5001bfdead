package pyjson

import "bytes"

// bom is the UTF-8 byte order mark (U+FEFF), which some editors (Windows
// Notepad, VS Code's "UTF-8 with BOM") put first in a file they save.
var bom = []byte("\xef\xbb\xbf")

// SkipBOM returns data past one leading UTF-8 byte order mark: the one
// place every reader of an agent's own files (its settings, hooks.json,
// config.toml) goes through before Go's JSON or TOML parser, which refuse
// the mark while the agents skip it (Claude Code and Codex: make e2e,
// e2e/doctor_switch_test.go). Calling such a file unreadable would hide
// hooks the agent runs. Only one is skipped, as Node's readers strip one
// and JSON.parse then refuses a second: a second mark, or one anywhere
// else, is left for the parser to refuse.
func SkipBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, bom)
}
