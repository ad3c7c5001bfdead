// Attack tests: a server that is not this user's is never asked; the same
// cases as clients/python/tests/test_trust.py. Each fake serve (a real
// process, as another user when the tests run as root) answers "no
// objection" to everything where the real config's guard blocks: the
// client must not send it the call, and dispatches one-shot instead with a
// warning (what `hermes-hooks hook` does), so the guard still blocks.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, beforeEach, describe, test } from "node:test";

import { dispatchHermes } from "../index.mjs";
import { binaryVersion, findBinary, setup } from "./fixture.mjs";

const skip = findBinary() ? false : "hermes-hooks not on PATH and HERMES_HOOKS_BIN unset (go test ./clients/ builds it)";
const BLOCK = { action: "block", message: "no" };
const CALL = { tool_name: "terminal", args: { command: "rm -rf /" }, task_id: "t", reply: BLOCK };
const NOBODY = 65534;
// The fakes say they are of the binary's version: only the check a case is
// about may refuse them.
const VERSION = binaryVersion();

// The fake serve: listens at argv[1] (a socket path, chmod argv[2]) or on
// a loopback port ("tcp"), records each request's bytes in argv[3], says
// "ok PORT" on stdout once listening.
const FAKE = `
const net = require("node:net"), fs = require("node:fs");
const [where, mode, log, version] = process.argv.slice(1);
const srv = net.createServer((c) => {
  let data = Buffer.alloc(0);
  c.on("data", (d) => {
    data = Buffer.concat([data, d]);
    if (!data.includes("\\r\\n\\r\\n")) return;
    fs.appendFileSync(log, data);
    c.end("HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nHermes-Hooks-Inputs: checked\\r\\nHermes-Hooks-Version: " + version + "\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\n{}");
  });
  c.on("error", () => {});
});
const ready = () => {
  if (where !== "tcp") fs.chmodSync(where, parseInt(mode, 8));
  process.stdout.write("ok " + (where === "tcp" ? srv.address().port : 0) + "\\n");
};
if (where === "tcp") srv.listen(0, "127.0.0.1", ready); else srv.listen(where, ready);
`;

async function fakeServe(where, log, { mode = 0o600, uid } = {}) {
  const opts = { stdio: ["ignore", "pipe", "inherit"] };
  if (uid !== undefined) Object.assign(opts, { uid, gid: uid });
  const child = spawn(process.execPath, ["-e", FAKE, where, mode.toString(8), log, VERSION], opts);
  const port = await new Promise((res, rej) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^ok (\d+)\n/.exec(out);
      if (m) res(Number(m[1]));
    });
    child.on("exit", (code) => rej(new Error(`the fake serve exited (${code}) before listening`)));
  });
  return {
    port,
    asked() { try { return readFileSync(log, "utf8"); } catch { return ""; } },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await gone;
    },
  };
}

async function warningsDuring(fn) {
  const seen = [];
  const on = (w) => seen.push(w.message);
  process.on("warning", on);
  try {
    const value = await fn();
    await new Promise((r) => setImmediate(r));
    return { value, warnings: seen };
  } finally {
    process.off("warning", on);
  }
}

describe("a server not provably this user's is not asked", { skip }, () => {
  let h, dir, sock, log, fakes;
  before(async () => { h = await setup(); });
  after(async () => { await h?.close(); });
  beforeEach(() => {
    // Another user may enter dir and bind in it; each case then sets the
    // modes it is about. The fake's record is where it can write it.
    dir = mkdtempSync(join(tmpdir(), "hermes-hooks-trust-"));
    chmodSync(dir, 0o777);
    const logs = mkdtempSync(join(tmpdir(), "hermes-hooks-trust-log-"));
    chmodSync(logs, 0o777);
    sock = join(dir, "hermes-hooks.sock");
    log = join(logs, "asked.log");
    fakes = [dir, logs];
  });
  afterEach(async () => {
    for (const f of fakes) {
      if (typeof f === "string") rmSync(f, { recursive: true, force: true });
      else await f.close();
    }
  });
  const fake = async (where, opts) => { const f = await fakeServe(where, log, opts); fakes.unshift(f); return f; };

  async function assertNotAsked(server, why, f) {
    const { value, warnings } = await warningsDuring(() => dispatchHermes("pre_tool_call", CALL, { server, cwd: h.project }));
    assert.deepEqual(value, BLOCK);
    assert.ok(warnings.some((w) => why.test(w) && /dispatching one-shot instead/.test(w)), `warnings: ${JSON.stringify(warnings)}`);
    assert.equal(f.asked(), "", "the call was sent to a server that is not this user's");
  }

  test("control: the same fake, private to this user, is asked", async () => {
    chmodSync(dir, 0o700);
    const f = await fake(sock);
    assert.deepEqual(await dispatchHermes("pre_tool_call", CALL, { server: "unix://" + sock, cwd: h.project }), {});
    assert.match(f.asked(), /POST \/v1\/dispatch\/pre_tool_call/);
  });

  test("a socket open to others", async () => {
    chmodSync(dir, 0o700);
    const f = await fake(sock, { mode: 0o666 });
    await assertNotAsked("unix://" + sock, /socket .* has mode 0666, open to other users/, f);
  });

  test("a socket in a directory others can write", async () => {
    const f = await fake(sock);
    await assertNotAsked("unix://" + sock, /directory .* has mode 0777: others can write it/, f);
  });

  test("the default socket open to others", async () => {
    chmodSync(dir, 0o700);
    const f = await fake(join(dir, "hermes-hooks.sock"), { mode: 0o660 });
    const saved = process.env.HERMES_HOME;
    process.env.HERMES_HOME = dir;
    try {
      const { warnings } = await warningsDuring(() => dispatchHermes("pre_tool_call", CALL, { cwd: h.project }));
      assert.ok(warnings.some((w) => /mode 0660, open to other users/.test(w)), JSON.stringify(warnings));
    } finally {
      process.env.HERMES_HOME = saved;
    }
    assert.equal(f.asked(), "");
  });

  test("a socket of another user", async (t) => {
    if (process.getuid?.() !== 0) {
      // Not a skip (go test ./clients counts them as failures): only root
      // can start another user's process; the root runs cover this case.
      t.diagnostic(`uid ${process.getuid?.()}: another user's process cannot be started here`);
      return;
    }
    const f = await fake(sock, { uid: NOBODY });
    chmodSync(dir, 0o700);
    await assertNotAsked("unix://" + sock, /the socket .* is owned by uid 65534, not by you/, f);
  });

  test("a socket whose directory others could swap", async () => {
    // The socket and its directory pass the file rules, but dir (0777,
    // not sticky) lets anyone rename that directory away and put theirs
    // in its place between the check and the connect; Node cannot ask
    // the kernel who listens, so such a path is not trusted at all.
    const sub = join(dir, "run");
    mkdirSync(sub, { mode: 0o700 });
    const f = await fake(join(sub, "hermes-hooks.sock"));
    await assertNotAsked("unix://" + join(sub, "hermes-hooks.sock"), /above the socket, has mode 0777: others could swap/, f);
  });

  test("a symlink to a socket", async () => {
    chmodSync(dir, 0o700);
    const f = await fake(join(dir, "real.sock"));
    symlinkSync(join(dir, "real.sock"), sock);
    await assertNotAsked("unix://" + sock, /is not a socket/, f);
  });

  test("a tcp:// or http:// server is never sent a call", async () => {
    const f = await fake("tcp");
    for (const scheme of ["tcp", "http"]) {
      await assertNotAsked(`${scheme}://127.0.0.1:${f.port}`, /cannot prove which user runs it/, f);
    }
  });
});
