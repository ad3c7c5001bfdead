// hermes-hook.mjs: write a hook once; run it one-shot or as a hermes-hooks
// worker (Node, no dependencies).
//
//   import { serve, Exit } from "hermes-hook"; // npm install ./agent-hooks/lib/node
//   serve(async (payload) => {
//     if ((payload.tool_input?.command ?? "").includes("rm -rf"))
//       return { action: "block", message: "no rm -rf" };
//     return null; // no opinion
//   });
//
// One-shot (a plain hook entry): one JSON payload on stdin, the reply on
// stdout. As a worker (`worker: true`, started with HERMES_HOOK_WORKER=1): one
// payload per line in, one reply per line out, until stdin closes, so start-up
// work is paid once. Each worker request carries an id
// ("hermes_hooks_request_id") that its reply must echo; serve does that, and
// the handler sees the payload without it. A handler returns the reply (null
// or {} for no opinion) or throws new Exit(code, stderr) for a reply by exit
// status (Claude's exit 2).
import { createInterface } from "node:readline";

// The key of a worker request's id, in the payload and in the reply.
export const REQUEST_ID = "hermes_hooks_request_id";

export class Exit extends Error {
  constructor(code, stderr = "") {
    super(stderr);
    this.code = code;
    this.stderr = stderr;
  }
}

async function reply(handler, payload) {
  try {
    return (await handler(payload)) ?? {};
  } catch (e) {
    if (e instanceof Exit) return { exit: e.code, stderr: e.stderr };
    throw e;
  }
}

export async function serve(handler) {
  if (process.env.HERMES_HOOK_WORKER !== "1") {
    let raw = "";
    for await (const chunk of process.stdin) raw += chunk;
    const out = await reply(handler, raw.trim() ? JSON.parse(raw) : {});
    if ("exit" in out) {
      process.stderr.write(out.stderr ?? "");
      process.exitCode = out.exit;
      return;
    }
    process.stdout.write(JSON.stringify(out) + "\n");
    return;
  }
  // One request at a time: the dispatcher sends the next line only after
  // this reply.
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    let out;
    let rid = null;
    try {
      const payload = JSON.parse(line);
      if (payload !== null && typeof payload === "object" && !Array.isArray(payload)) {
        rid = payload[REQUEST_ID] ?? null;
        delete payload[REQUEST_ID];
      }
      out = await reply(handler, payload);
    } catch (e) {
      out = { exit: 1, stderr: `${e.name}: ${e.message}` };
    }
    if (out !== null && typeof out === "object" && !Array.isArray(out)) {
      // The reply answers this request, and says so.
      out = { ...out, [REQUEST_ID]: rid };
    }
    process.stdout.write(JSON.stringify(out) + "\n");
  }
}
