// Package server is `hermes-hooks serve`: a long-running dispatcher that
// answers hook firings over HTTP/JSON on a Unix socket (or a loopback TCP
// port) and picks up every change to its configuration without a restart.
//
// # Contract
//
// Endpoints:
//
//   - POST /v1/dispatch/{event}: the body is the event fields, one JSON
//     object (an empty body is an event without fields); the reply is the
//     outcome JSON, byte for byte the schema `hermes-hooks dispatch` prints
//     ([protocol.AppendOutcome], compact), or Hermes' directive shape with
//     ?format=hermes. For `hermes-hooks hook AGENT`: ?called_by=AGENT
//     skips the hooks that agent runs itself ([dispatcher.CalledBy]), and
//     ?project=DIR / ?config=FILE are refused with 409 when they are not
//     this server's (one server serves one project and config: a caller
//     elsewhere dispatches by itself). {event} may be a Hermes name, a
//     Claude Code name or an alias. Errors are JSON objects {"error": "...", ...}: 400 for a body
//     that is not a JSON object, 404 for an unknown event (with
//     "did_you_mean") or path, 405 for a wrong method (with an Allow
//     header), 413 for a body over Options.MaxBodyBytes, 503 (with
//     Retry-After) when Options.MaxConcurrent dispatches are in flight and
//     no slot frees up within Options.QueueWait, or when the server is
//     shutting down and cancelled the dispatch, 504 when the dispatch ran
//     past Options.RequestTimeout. A non-200 reply never carries an
//     outcome: a host must not read "nothing to do" into a dispatch that
//     did not complete, and applies its own failure policy instead.
//     A client that disconnects cancels its dispatch (its hooks are
//     killed): nobody is left to act on the outcome.
//   - GET /v1/hooks: exactly what `hermes-hooks list --json` prints for the
//     same config, allowlist and working directory (report.NewListing).
//   - GET /v1/stats: [report.Stats], every hook of the configuration in
//     service (in /v1/hooks' order) with its source, its consent state and
//     what it did since the server started: matched, ran, skipped (and
//     why, last), blocks, errors and timeouts (the last error: the exit
//     status or spawn error, never the hook's stderr), when it
//     last fired, and the p50/p99/max of its last runs' durations (a ring
//     of 256 per hook: memory is bounded). The counts are read from the
//     outcomes of answered dispatches (a cancelled or timed-out dispatch
//     counts nowhere: its hooks were killed for reasons not theirs); a
//     report is matched to its entry by declared event, command, matcher,
//     source and dialect. A hook the next config keeps, by the same
//     identity, keeps its counters across the reload.
//   - GET /metrics: the same in Prometheus' text format (0.0.4), from a
//     VictoriaMetrics/metrics set of the server's own (never the default
//     one): per-hook counters and a duration histogram (cumulative le
//     buckets) labelled by canonical event and command, made at scrape
//     time from the configuration in service, so the label sets are the
//     configured hooks and nothing a request names; dispatches per event,
//     per event and folded decision (a bounded label), a repository's
//     hooks skipped unapproved per event, the config generation, dispatches in flight, and the Go runtime's
//     and the process's metrics.
//   - GET /healthz: {"status":"ok", "generation": N, ...}; generation counts
//     the configurations loaded so far, so a client can tell a reload
//     happened.
//
// On TCP (a loopback port any web page in the user's browser can reach)
// a request is refused before anything runs when it carries an Origin
// header (403), names a Host other than the listener's address — its
// IP:PORT, or localhost:PORT on loopback; any IP literal with the port
// when listening on every interface — (403, DNS rebinding), or has a body
// type other than application/json (415; a POST must declare it, charset
// parameters allowed). Requests on a Unix socket are not checked: its mode
// (0600) is the access control.
//
// Hot reload: the server watches the directories (never the files: editors
// and the allowlist writer replace files by rename, which a file watch
// would lose) of the config file, every Claude settings file and project
// hooks file it reads or names, the allowlist, and every hook script. A
// burst of file events is debounced into one refresh. A changed config is
// applied only once its files have settled — each shows the same stat
// identity (size, mtime, ctime, device, inode) as at a look at least
// Options.Settle earlier, none was modified in the last Settle, none is
// open for writing (Linux), and the identity and content are the same
// after the read as before it — so a file rewritten in place is never
// applied half-written; until then a timer looks again every Settle (the
// reload only, not the rest of a refresh: look) and the last good config
// stays in service however long that takes (past
// Options.SettleLimit the log says so: loading what is there then could
// apply half a file). A call forwarded by `hook` is
// answered only while the files the config in service was read from are
// as they were then and the last reload did not fail (stale.go); else 409,
// and the caller dispatches by itself. It is loaded into a new
// dispatcher.Dispatcher that replaces the old one atomically: a request
// uses the dispatcher current when it started, so in-flight dispatches
// finish on the configuration they began with. A
// config that fails to load is logged (file, line, reason) and the last
// good one stays in service. Consent needs no reload: consent.Policy
// re-reads the allowlist and re-hashes changed scripts on every dispatch,
// so an approval, a revocation or a script edit counts from the next
// dispatch on; the watcher only logs what changed (a revoked hook, a
// script whose content no longer matches its approval). Per-session hook
// state lives in memory and survives reloads.
//
// Project-local hooks (.hermes/hooks.yaml) are loaded once, for the
// server's working directory (Options.Cwd). Unlike one-shot dispatch, the
// server does not switch hook sets by the cwd a request names: one server
// serves one project. Run one server per project when hosts work in
// several.
//
// Bounds: a request's head must arrive within Options.HeaderTimeout (2 s;
// else the connection is closed), its body within Options.BodyTimeout (else 408),
// read before a dispatch slot is taken; at most Options.MaxConns
// connections are open: at the cap, a new client is accepted and the
// connection that has waited longest without a request (silent since it
// connected, or idle between requests) is closed to make room for it, never
// before a client is there and never once a byte of its request is read; only
// when every connection is in a request is the new one held (one
// connection over the cap) until one ends, further clients waiting in the
// kernel's queue. Session state lives in a sessions.Memory with
// a byte budget and idle expiry. A Unix socket has a lock file beside it
// (PATH.lock, flock, held until the listener closes), so a second server
// refuses to start on the same path even when the socket file was deleted.
//
// Shutdown (Serve's context ends): the listener closes at once; in-flight
// dispatches may finish until Options.ShutdownTimeout is nearly spent, then
// they are cancelled, which kills every running hook's process group, and
// Serve returns within the timeout. The Unix socket file is removed, unless
// another server has replaced it since.
//
// The server prints nothing itself; everything goes to the slog.Logger in
// Options: one line per notable change (start, reload, consent, refusals,
// errors, a given-up worker) at info level or above, and one per request
// (event, decision, hooks matched, run, failed and timed out, status,
// duration) — at debug level, unless the dispatch blocked, failed or timed
// out, which is info (5xx: warn). `hermes-hooks serve` writes the log
// through a LogWriter, which never blocks: a line its destination does not
// take in time is dropped and counted (Options.LogDropped, reported as
// log_lines_dropped by /healthz and /v1/stats).
package server
