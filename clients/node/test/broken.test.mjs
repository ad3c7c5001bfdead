// A serve of this user's that is broken: no answer it gives (or fails to
// give) may resolve as "no objection" where a guard stands. Each case is
// a server on a socket that passes every trust check; the call resolves to
// the one-shot's answer (the guard's block) or rejects, never {}. The same
// table as clients/python/tests/test_broken_serve.py.

import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { dispatchHermes } from "../index.mjs";
import { binaryVersion, findBinary, setup } from "./fixture.mjs";

const skip = findBinary() ? false : "hermes-hooks not on PATH and HERMES_HOOKS_BIN unset (go test ./clients/ builds it)";
const BLOCK = { action: "block", message: "no" };
const CALL = { tool_name: "terminal", args: { command: "rm -rf /" }, task_id: "t", reply: BLOCK };
const INPUTS = "Hermes-Hooks-Inputs: checked";
// Checked, and of the binary's own version: every case but the version's is
// about what the reply says.
const CHECKED = `${INPUTS}\r\nHermes-Hooks-Version: ${binaryVersion()}`;

function http(status, body, ...headers) {
  const b = Buffer.from(body);
  return Buffer.concat([Buffer.from([`HTTP/1.1 ${status}`, "Content-Type: application/json", ...headers,
    `Content-Length: ${b.length}`, "Connection: close", "", ""].join("\r\n")), b]);
}

// [name, what the server sends (null: nothing, ever), the one-shot answers]
const CASES = [
  ["409 another project", http("409 Conflict", '{"error": "elsewhere"}', CHECKED), true],
  ["413 too large", http("413 Request Entity Too Large", '{"error": "larger"}', CHECKED), true],
  ["no inputs header (an older serve)", http("200 OK", "{}"), true],
  // After an upgrade, a serve still running the old binary may decide
  // otherwise: \`hook\` does not use it, nor does the client.
  ["another version", http("200 OK", "{}", INPUTS, "Hermes-Hooks-Version: v0.0.0-not-this-one"), true],
  ["no version", http("200 OK", "{}", INPUTS), true],
  ["500", http("500 Internal Server Error", '{"error": "boom"}', CHECKED), false],
  ["503 busy", http("503 Service Unavailable", '{"error": "too many"}', CHECKED), false],
  ["400", http("400 Bad Request", '{"error": "bad"}', CHECKED), false],
  ["204 no content", http("204 No Content", "", CHECKED), false],
  ["200 not JSON", http("200 OK", "<html>ok</html>", CHECKED), false],
  ["200 a JSON list", http("200 OK", "[]", CHECKED), false],
  ["200 a JSON string", http("200 OK", '"allow"', CHECKED), false],
  ["200 null", http("200 OK", "null", CHECKED), false],
  ["200 cut short", Buffer.from(http("200 OK", "{}", CHECKED).toString().replace("Content-Length: 2", "Content-Length: 90")), false],
  ["200 bad chunking", Buffer.from(`HTTP/1.1 200 OK\r\n${CHECKED}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}`), false],
  ["not HTTP", Buffer.from("SSH-2.0-OpenSSH_9.6\r\n"), false],
  ["closed without a word", Buffer.alloc(0), false],
  ["a reply over 64 MiB", http("200 OK", "{" + " ".repeat(65 << 20) + "}", CHECKED), false],
  ["never answers", null, false],
];

describe("no broken answer of a serve is no objection", { skip }, () => {
  let h, dir;
  before(async () => {
    h = await setup();
    dir = mkdtempSync(join(tmpdir(), "hermes-hooks-broken-"));
    chmodSync(dir, 0o700);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await h?.close();
  });

  for (const [name, reply, oneshot] of CASES) {
    test(name, async () => {
      const sock = join(dir, "hermes-hooks.sock");
      let asked = false;
      const held = [];
      const srv = createServer((c) => {
        let data = "";
        c.on("error", () => {});
        c.on("data", (d) => {
          data += d;
          if (asked || !data.includes("\r\n\r\n")) return;
          asked = true;
          if (reply === null) held.push(c);
          else c.end(reply);
        });
      });
      await new Promise((r) => srv.listen(sock, r));
      chmodSync(sock, 0o600);
      try {
        const call = dispatchHermes("pre_tool_call", CALL, { server: "unix://" + sock, cwd: h.project, timeout: reply === null ? 2000 : 60_000 });
        if (oneshot) assert.deepEqual(await call, BLOCK);
        else await assert.rejects(call, (e) => e.name !== "AssertionError");
        assert.ok(asked, "the server was asked");
      } finally {
        held.forEach((c) => c.destroy());
        await new Promise((r) => srv.close(r));
      }
    });
  }
});
