// Package pattern runs the regular expressions of hook matchers with the
// meaning their agents give them: Python's re for Hermes matchers, and
// JavaScript's RegExp for Claude Code's (and the agents that read matchers
// as Claude Code does).
//
// Contract:
//
//   - CompilePython(p) matches as Python 3.11+ re.fullmatch(p, s) does;
//     CompileJS(p) as new RegExp(p).test(s) does (no flags, not in Unicode
//     mode, with the web-compatibility grammar of ECMAScript Annex B). What
//     the dialect itself would reject is an error, whatever Go's engines
//     would make of it; the error text is the dialect's own wording where
//     it has one, and callers show it to people.
//   - Go's RE2 (linear time, no allocation) answers wherever it provably
//     means what the dialect means: on every input, or on plain input
//     (printable ASCII, which every tool name is). Everything else runs on
//     the backtracking engine github.com/dlclark/regexp2, given the pattern
//     rewritten so that regexp2 reads it as the dialect does.
//   - A backtracking match is bounded twice: by MatchTimeout, and by the
//     Budget of the dispatch it belongs to (DispatchBudget across all its
//     matches). A match that runs out of time answers done=false: the
//     caller cannot tell whether the pattern matches and must not guess.
//   - Match does not allocate (inputs up to 1024 runes): a firing that
//     matches no hook must not allocate.
//   - A Regex is safe for concurrent use; a Budget belongs to one dispatch.
//
// Not modelled: JavaScript's UTF-16 code units for characters outside the
// BMP; Python's fixed-width look-behind requirement; \N{name}, a scoped
// (?a:…) flag, and (?a) together with constructs RE2 lacks (errors here).
//
// The package imports only the standard library and regexp2.
package pattern
