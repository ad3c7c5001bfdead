// Package hookconfig reads every source of hook entries into one Config:
// the user's YAML config (Hermes' hooks: block and our keys), a project's
// .hermes/hooks.yaml, and the agents' own hook files — Claude Code
// settings and every other agent's hook file — read as each agent
// says in package agents (Agent.Source; an entry whose script speaks its
// agent's own protocol carries that agent's protocol.Codec). It validates
// as Hermes does (warnings with Hermes' wording, did-you-mean for events
// and keys), and compiles each entry's matcher (Hermes: Python
// re.fullmatch; Claude and a Codec's: names or a JavaScript regex, through
// internal/pattern) and Claude `if` rule.
//
// Contract:
//
//   - Load never panics, whatever the config holds. Every bad entry is
//     skipped or corrected with a Warning naming its file and key path
//     (hooks.pre_tool_call[2].timeout …); only an unreadable or
//     syntactically broken config is an error (a *ConfigError with its
//     line). A repository's file that cannot be loaded is a warning and an
//     Unloaded record, never an error: the dispatcher refuses gating events
//     while it may have held a guard.
//   - It runs nothing: no hook, no matcher of a repository it was not asked
//     for; it reads files, bounded (MaxConfigBytes, MaxProjectFileBytes,
//     MaxProjectEntries).
package hookconfig
