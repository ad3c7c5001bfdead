package pyjson

import "bytes"

// bom is the UTF-8 byte order mark (U+FEFF), which some editors (Windows
// Notepad, VS Code's "UTF-8 with BOM") put first in a file they save.
var bom = []byte("\xef\xbb\xbf")

// SkipBOM returns data past one leading UTF-8 byte order mark, before Go's
// JSON or TOML parser, which refuse the mark. An agent's own files (its
// settings, hooks.json, config.toml) are read through agents.Agent.SkipBOM,
// which calls this for an agent that skips the mark (Claude Code, Codex,
// Qwen Code: make e2e) and not for one that does not (Gemini CLI, Copilot
// CLI): calling such a file unreadable would hide hooks the agent runs,
// reading it would prove hooks the agent never runs. Only one is skipped, as Node's readers strip one
// and JSON.parse then refuses a second: a second mark, or one anywhere
// else, is left for the parser to refuse.
func SkipBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, bom)
}
