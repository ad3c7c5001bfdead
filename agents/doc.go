// Package agents translates between the hook protocols of the agents people
// run — Claude Code, Codex CLI, GitHub Copilot CLI, Cursor — and
// hermes-hooks' canonical events, so that one set of hooks serves every
// agent through `hermes-hooks hook AGENT`.
//
// Each agent is a table row ([Agent]): its event names mapped onto the
// catalog's events ([protocol.Lookup]), how its stdin payload becomes the
// host fields [dispatcher.Dispatcher.Dispatch] takes ([Agent.Decode]), and
// how one folded [protocol.Outcome] becomes the exit code, stdout and
// stderr that agent reads ([Agent.Encode]).
//
// The same tables serve the other direction: another agent's hook file is
// read as a hook source through its event table ([Agent.Canonical],
// [Source]), and when its scripts speak the agent's own protocol (Cursor,
// Gemini CLI, Windsurf, Cline …) its entries carry the agent's
// [protocol.Codec] ([Source].Codec): hooks written for that agent run
// under any agent, fed what the agent would send them and read as it
// reads them, only for the firings their event stands for
// ([protocol.EventRules]: Cursor's beforeShellExecution is shell commands
// only).
//
// # Contract
//
//   - The package is pure, like protocol: no files, processes, clock or
//     environment. Decode, Encode and the codecs are deterministic
//     and fuzzed.
//   - An event the agent sends that has no canonical twin decodes to a
//     [Call] with a nil Event: the caller answers [Quiet] (exit 0, nothing
//     printed) so that an agent never breaks because hermes-hooks is
//     installed.
//   - Encode never asks the agent for more than the outcome says: no
//     decision is an empty reply, exit 0.
//   - A hook's dialect (how its script talks) and the agent (who fired the
//     event) are independent: a Hermes-dialect script runs under Claude
//     Code, a Claude script under Cursor.
package agents
