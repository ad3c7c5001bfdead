// Package consent decides whether a configured hook may run, and owns the
// allowlist file that records the user's approvals.
//
// # Contract
//
// Nothing runs unless its exact (event, command) pair is in the allowlist at
// $HERMES_HOME/shell-hooks-allowlist.json, or an accept channel
// (--accept-hooks, HERMES_ACCEPT_HOOKS, hooks_auto_accept) or a "yes" at the
// TTY prompt approves it, in which case the approval is written to the file
// before the hook runs. HERMES_SAFE_MODE runs nothing. [Policy.Decide] applies
// these rules in that order and is the single gate the dispatcher calls.
//
// The file is shared with the Hermes agent, so its shape is Hermes' own:
//
//	{"approvals": [{"approved_at": "...", "command": "...", "event": "...",
//	                "script_mtime_at_approval": "..." | null}, ...]}
//
// plus fields of ours per entry: "script_sha256_at_approval", the hex
// SHA-256 of the hook's script when it was approved (null when the script
// could not be read); "files_at_approval", every file the command runs with
// its digest; and, for a hook that starts no local file (an http hook),
// "spec_sha256_at_approval", the digest of what it sends where (URL,
// headers, allowedEnvVars), so that a header added later needs a new
// approval. Keys this package does not know, at the top level and in
// entries, survive every rewrite, and entries written by hand with only
// "event" and "command" are valid approvals. The file is written the way
// Python's json.dumps(indent=2, sort_keys=True, ensure_ascii=False) writes it,
// with a trailing newline and mode 0600.
//
// Every change to the file ([Store.Approve], [Store.Revoke]) takes an exclusive
// flock on the sibling ".lock" file, re-reads the file, changes it and
// replaces it atomically through a uniquely named temporary file, so
// concurrent writers in any number of processes, Hermes included, never lose
// an approval and a reader never sees a half-written file. A file that exists
// but is not a valid allowlist is treated as empty; the next change moves it
// aside to a ".corrupt-<timestamp>" backup instead of overwriting it. A
// dispatch that records an approval waits for that lock a bounded time (a
// stuck holder costs a warning, not a stalled dispatch); the CLI waits.
//
// Where Hermes only warns when a script's modification time moved after
// approval, this package also compares content: when the recorded SHA-256 no
// longer matches the script, the hook does not run until it is approved again.
// An mtime-only entry (written by Hermes or by hand) still runs, with a
// warning, when the script is newer than its approval.
//
// A repository's hooks are approved in "project_approvals", apart from
// Hermes' list, keyed by the checkout's project root and source file. An
// approval of a hook in a git repository also records the repository
// (package repoid), the source file relative to the worktree with its
// digest, and each file inside the worktree as a relative path, so that it
// holds in every clone and worktree of that repository whose hooks file
// and files have the approved content (portable.go). An approval by text
// only stays with its checkout.
//
// This package knows events only as names; it does not validate them.
package consent
