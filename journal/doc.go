// Package journal is hermes-hooks' decision journal: an append-only,
// hash-chained JSON Lines log of what every dispatch decided, with the
// readers and the verifier of that log. It implements dispatcher.Recorder
// and decides nothing: Replay fires recorded events again through a
// dispatch the caller builds, and only compares the outcomes.
//
// The contract:
//
//   - One line per dispatch that ran a hook, that a guard blocked, or in
//     which the consent gate kept a matching hook from running (see
//     dispatcher.Recorder): a JSON object (Entry) ending in
//     "\n". Each carries seq (1, 2, … across all files) and prev, the hex
//     SHA-256 of the previous line's bytes (without its newline); the first
//     record of a fresh journal chains from ZeroHash. Editing, deleting,
//     inserting or reordering a line breaks the chain at that point, and
//     Verify names the first such line (file:line). The newest line is
//     covered once a later line chains from it.
//   - Writers of several processes (one-shot dispatches, serve) append
//     whole lines under an exclusive lock on the sibling file PATH.lock:
//     read the last line's hash and seq under the lock, then append with a
//     single write. The lock wait is bounded (Options.LockWait): a stuck
//     writer costs a lost record, never a delayed decision. (A Background
//     writer's records wait in its queue instead, up to MaxPending, and
//     are appended once the lock is free.)
//   - A torn tail — the last line without its newline, or a last line that
//     is not JSON (a crash mid-write) — is reported by Verify as torn, not
//     as tampering. The next append repairs it by truncating the torn bytes
//     and chaining from the last intact line; that record says how many
//     bytes it dropped (Entry.Repaired), so the repair itself is on record.
//   - The head record (HeadPath: PATH.head) holds the newest record's seq
//     and hash and the first record of every file a rotation began; each
//     append rewrites it under the lock. Verify checks the chain's ends
//     against it: removing the oldest lines of a file, or the newest
//     records (with or without appending others), fails with file:line;
//     removing whole rotated files does not. A writer never moves a head
//     the journal no longer agrees with, so the loss stays on record.
//   - When the live file would grow past Options.MaxBytes it is rotated:
//     PATH-with-.1 before its extension (hook-journal.1.jsonl), older ones
//     shifted to .2, .3, …; the chain continues into the new file, and
//     Verify checks it across all of them, oldest first.
//   - Failing to write (disk full, a read-only home, the lock bound) never
//     changes or delays a decision beyond that bound: it is counted
//     (Writer.Failures) and reported once through Options.Warn. With
//     Options.Background (serve) a record that finds the journal busy is
//     queued for a goroutine instead, so no decision waits at all.
//   - Payloads are not kept by default, only the SHA-256 of the host's
//     fields as compact JSON with sorted keys (tool arguments can hold
//     secrets); Options.IncludePayload keeps them whole.
//   - Replay reads the journal and never writes it: only records with a
//     payload can be fired again; the others are counted as not
//     replayable.
package journal
