import { dispatch } from "hermes-hooks"; // npm install ./clients/node

// Rejects (HermesHooksError subclasses) on a missing binary, a server not
// answering, a bad outcome or the timeout: then the tool call must not run.
const outcome = await dispatch("pre_tool_call", {
  tool_name: "terminal", session_id: "s1", args: { command: "rm -rf /" },
}, { timeout: 30_000 });
console.log(outcome.blocked ? `blocked: ${outcome.message}` : "allowed");
