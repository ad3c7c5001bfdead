// Package report turns a loaded configuration into what people read about
// it: the hooks with their consent and drift state ([Inspect]), the doctor's
// checks and smoke runs ([Doctor]), and the JSON shapes `list --json`,
// `doctor --json` and the server's GET /v1/hooks print ([HookInfo],
// [Listing]), the server's live record of each hook (GET /v1/stats:
// [Stats]) and `doctor --live`, which checks that record and the server's
// listing against the config on disk ([LiveDoctor]). Its wording follows
// Hermes' `hermes hooks list|doctor` lines.
//
// It is separate from package dispatcher so that dispatcher's exported API
// is what a host embeds; report only reads a [hookconfig.Config] and the
// allowlist, and runs a hook only through [dispatcher.Dispatcher.RunEntry],
// for the doctor's smoke test of a hook that dispatch would run anyway.
package report
