const { execFileSync } = require("node:child_process");

// Fire a hook event and return the outcome (see "The outcome JSON").
// execFileSync throws when hermes-hooks exits non-zero (2: bad input, 1: bad config).
function dispatch(event, fields, binary = "hermes-hooks") {
  const stdout = execFileSync(binary, ["dispatch", event], {
    input: JSON.stringify(fields), encoding: "utf8", timeout: 330_000,
  });
  return JSON.parse(stdout);
}

const outcome = dispatch("pre_tool_call", {
  tool_name: "terminal", session_id: "s1", args: { command: "rm -rf /" },
});
console.log(outcome.decision === "block" ? `blocked: ${outcome.message}` : "allowed");
