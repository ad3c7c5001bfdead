// hermes-hooks: written by `hermes-hooks install opencode`; `hermes-hooks uninstall opencode` removes it.
// An OpenCode plugin that runs hermes-hooks' Claude Code PreToolUse and
// PostToolUse hooks around every tool call. Generated: a copy you edited is
// kept beside it when install replaces it or uninstall removes it.
import { spawnSync } from "node:child_process";

const BIN = "__HERMES_HOOKS_BIN__";
// A hang guard: the hooks hermes-hooks runs have their own timeouts.
const TIMEOUT_MS = 120000;
// OpenCode's tool and argument names, and Claude Code's, which the hooks expect.
const TOOLS = { bash: "Bash", edit: "Edit", write: "Write", read: "Read", grep: "Grep", glob: "Glob", webfetch: "WebFetch" };
const ARGS = { filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" };
const BACK = Object.fromEntries(Object.entries(ARGS).map(([k, v]) => [v, k]));

// rename gives obj's keys the names of names. Where obj has both a key and
// one already spelt as its new name, the renamed one wins: the tool reads
// only its own name, so a file_path beside filePath is a decoy the guards
// must not judge in place of the path the tool opens (and the reverse for
// a hook's updatedInput). A key alone keeps its value (an MCP tool's own
// file_path).
function rename(obj, names) {
  const out = {};
  for (const [k, v] of Object.entries(obj ?? {})) if (names[k] === undefined) out[k] = v;
  for (const [k, v] of Object.entries(obj ?? {})) if (names[k] !== undefined) out[names[k]] = v;
  return out;
}

// run runs `hermes-hooks hook claude EVENT` on payload and returns its
// reply ({block: reason} for exit 2); it throws when there is no reply to
// go by: a guard that cannot be evaluated must not pass silently.
function run(event, payload, cwd) {
  const r = spawnSync(BIN, ["hook", "claude", event], {
    input: JSON.stringify(payload), cwd, encoding: "utf8", timeout: TIMEOUT_MS, maxBuffer: 16 << 20,
  });
  const why = (r.stderr ?? "").trim();
  // Its exit status first: one that dies before reading the call (EPIPE)
  // still says why on stderr.
  if (r.status === 2) return { block: why || "refused by a hermes-hooks hook" };
  if (r.status !== null && r.status !== 0) throw new Error(`hermes-hooks ${event} failed (${r.status}): ${why}`);
  if (r.error || r.status === null) throw new Error(`hermes-hooks: cannot run ${BIN}: ${r.error?.message ?? r.signal}`);
  const text = (r.stdout ?? "").trim();
  if (!text) return {};
  try {
    const reply = JSON.parse(text);
    if (reply && typeof reply === "object") return reply;
  } catch {}
  throw new Error(`hermes-hooks ${event}: unreadable reply: ${text.slice(0, 200)}`);
}

// apply_patch (Codex's envelope as patchText) has no Claude name: it goes as Hermes'
// patch tool (Edit to Claude-dialect guards), as Codex's does; a rewrite comes back.
const PATCH = "apply_patch";
const toolInput = (tool, args) => (tool === PATCH ? { mode: "patch", patch: args?.patchText } : rename(args, ARGS));
function fromToolInput(tool, input) {
  if (tool !== PATCH) return rename(input, BACK);
  if (typeof input.patch === "string") return { patchText: input.patch };
  throw new Error("hermes-hooks: a hook rewrote an apply_patch call into something that is not a patch");
}

export const HermesHooks = async (ctx) => {
  const cwd = ctx?.directory || process.cwd();
  const payload = (event, input, args) => ({
    session_id: input.sessionID, cwd, hook_event_name: event,
    tool_name: input.tool === PATCH ? "patch" : TOOLS[input.tool] ?? input.tool, tool_input: toolInput(input.tool, args),
  });
  return {
    "tool.execute.before": async (input, output) => {
      const r = run("PreToolUse", payload("PreToolUse", input, output.args), cwd);
      const h = r.hookSpecificOutput ?? {};
      if (r.block !== undefined) throw new Error(r.block);
      if (r.continue === false) throw new Error(r.stopReason || "stopped by a hermes-hooks hook");
      if (r.decision === "block") throw new Error(r.reason || "refused by a hermes-hooks hook");
      if (h.permissionDecision === "deny") throw new Error(h.permissionDecisionReason || "hermes-hooks: deny");
      // OpenCode cannot ask the user from here: "ask" refuses, saying so (an ask is no ban).
      if (h.permissionDecision === "ask") throw new Error(`${h.permissionDecisionReason || "A hook asks for a person's approval"} (hermes-hooks: OpenCode cannot ask from a plugin; this call is refused)`);
      if (h.updatedInput && typeof h.updatedInput === "object") {
        // The whole input, as in Claude Code: what a rewrite left out is gone.
        const args = fromToolInput(input.tool, h.updatedInput);
        for (const k of Object.keys(output.args)) delete output.args[k];
        Object.assign(output.args, args);
      }
    },
    // The call has run: a hook's objection or context, or the reason it
    // could not run, is appended to the output the model reads.
    "tool.execute.after": async (input, output) => {
      let note;
      try {
        const p = payload("PostToolUse", input, input.args);
        p.tool_response = { output: output.output, metadata: output.metadata };
        const r = run("PostToolUse", p, cwd);
        note = r.block ?? (r.decision === "block" ? r.reason : undefined) ?? r.hookSpecificOutput?.additionalContext;
      } catch (e) {
        note = e.message;
      }
      if (note) output.output = `${output.output ?? ""}\n\n[hermes-hooks] ${note}`;
    },
  };
};
