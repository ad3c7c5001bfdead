// The client finds the server `hermes-hooks hook` finds, in the same order:
// options.server, else HERMES_HOOKS_SERVER (a socket path, unix://,
// token://, or "off"; tcp:// refused), else the user-level serve's socket
// ($HERMES_HOME/run/hermes-hooks.sock), else the per-project default — and
// states what a user-level serve needs to answer as the one-shot would
// (project, working directory). The same cases as
// clients/python/tests/test_user_serve.py: real serve processes, and real
// processes for the attacks' servers.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";

import { dispatch, dispatchHermes } from "../index.mjs";
import { HOOKS, binaryVersion, findBinary } from "./fixture.mjs";

const bin = findBinary();
const skip = bin ? false : "hermes-hooks not on PATH and HERMES_HOOKS_BIN unset (go test ./clients/ builds it)";
const BLOCK = { action: "block", message: "no" };
const CALL = { tool_name: "terminal", args: { command: "rm -rf /" }, task_id: "t", reply: BLOCK };
const SETTINGS = ["HERMES_ACCEPT_HOOKS", "HERMES_SAFE_MODE", "HERMES_HOOKS_MANAGED_CONFIG", "HERMES_HOOKS_SERVER"];
const NOBODY = 65534;
// The fakes say they are of the binary's version: only the check a case is
// about may refuse them.
const VERSION = binaryVersion();
// A hook that says where it runs: the one-shot runs it in its own working
// directory, and so must a user-level serve.
const WHERE = "#!/bin/sh\ncat >/dev/null\nprintf '{\"context\":\"%s\"}\\n' \"$(pwd -P)\"\n";

// A fake serve that answers "no objection" to everything: listens at a
// socket path (chmod mode) or on a loopback port ("tcp"), records what it
// reads, says "ok PORT" once listening.
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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("the server hook would use is the one used", { skip }, () => {
  let tmp, home, project, sub, runDir, userSock, env, saved, procs, logs;
  beforeEach(() => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), "hermes-hooks-user-")));
    home = join(tmp, "home");
    project = join(tmp, "project");
    sub = join(project, "sub");
    mkdirSync(home, { mode: 0o700 });
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(sub);
    writeFileSync(join(tmp, "where.sh"), WHERE, { mode: 0o755 });
    writeFileSync(join(home, "config.yaml"), `hooks:\n  pre_tool_call:\n    - command: ${join(HOOKS, "reply.sh")}\n` +
      `  pre_llm_call:\n    - command: ${join(tmp, "where.sh")}\n`);
    env = { ...process.env, HERMES_HOME: home };
    for (const k of SETTINGS) delete env[k];
    execFileSync(bin, ["approve", "--all"], { cwd: project, env, stdio: "ignore" });
    runDir = join(home, "run");
    userSock = join(runDir, "hermes-hooks.sock");
    logs = mkdtempSync(join(tmpdir(), "hermes-hooks-user-log-"));
    chmodSync(logs, 0o777);
    procs = [];
    saved = Object.fromEntries(["HERMES_HOME", ...SETTINGS].map((k) => [k, process.env[k]]));
    for (const k of SETTINGS) delete process.env[k];
    process.env.HERMES_HOME = home;
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    for (const p of procs) {
      if (p.exitCode !== null || p.signalCode !== null) continue;
      const gone = new Promise((r) => p.once("exit", r));
      p.kill("SIGTERM");
      await gone;
    }
    rmSync(tmp, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  });

  async function serve(args = [], at = userSock) {
    const p = spawn(bin, ["serve", "--user", ...args], { cwd: tmp, env, stdio: "ignore" });
    procs.push(p);
    const deadline = Date.now() + 60_000; // a hang guard: it listens in milliseconds
    for (;;) {
      const up = at.endsWith(".endpoint") ? existsSync(at) : await new Promise((res) => {
        const s = connect({ path: at });
        s.on("connect", () => { s.destroy(); res(true); });
        s.on("error", () => res(false));
      });
      if (up) return p;
      if (p.exitCode !== null || Date.now() > deadline) throw new Error(`hermes-hooks serve did not listen at ${at}`);
      await sleep(20);
    }
  }

  async function fake(where, { mode = 0o600, uid } = {}) {
    const log = join(logs, `asked-${procs.length}.log`);
    const opts = { stdio: ["ignore", "pipe", "inherit"] };
    if (uid !== undefined) Object.assign(opts, { uid, gid: uid });
    const child = spawn(process.execPath, ["-e", FAKE, where, mode.toString(8), log, VERSION], opts);
    procs.push(child);
    const port = await new Promise((res, rej) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /^ok (\d+)\n/.exec(out);
        if (m) res(Number(m[1]));
      });
      child.on("exit", (code) => rej(new Error(`the fake serve exited (${code}) before listening`)));
    });
    return { port, asked() { try { return readFileSync(log, "utf8"); } catch { return ""; } } };
  }

  const oneshot = (event, fields) => JSON.parse(execFileSync(bin, ["dispatch", event], { cwd: sub, env, input: JSON.stringify(fields), encoding: "utf8" }));
  const strip = (o) => ({ ...o, hooks: o.hooks.map(({ elapsed_ms, ...rest }) => rest) });

  test("serve --user is found by itself and runs the hooks where the one-shot does", async () => {
    await serve();
    const fields = { cwd: project, session_id: "user", reply: BLOCK, tool_name: "terminal", args: {} };
    const { value, warnings } = await warningsDuring(async () => [
      await dispatch("pre_tool_call", fields, { cwd: sub }),
      await dispatch("pre_llm_call", { ...fields, session_id: "where" }, { cwd: sub }),
    ]);
    const [out, where] = value;
    assert.deepEqual(warnings, []);
    assert.equal(out.via, "server");
    assert.deepEqual(strip(out.toJSON()), strip(oneshot("pre_tool_call", { ...fields, session_id: "user2" })));
    assert.equal(where.via, "server");
    assert.equal(where.context, sub);
    assert.equal(oneshot("pre_llm_call", { ...fields, session_id: "where2" }).context, sub);
  });

  test("HERMES_HOOKS_SERVER names the server", async () => {
    await serve();
    for (const [value, via] of [[userSock, "server"], ["unix://" + userSock, "server"], ["off", "oneshot"]]) {
      process.env.HERMES_HOOKS_SERVER = value;
      const { value: out, warnings } = await warningsDuring(() => dispatch("pre_tool_call", CALL, { cwd: project }));
      assert.equal(out.via, via, value);
      assert.deepEqual(warnings, [], value);
    }
    process.env.HERMES_HOOKS_SERVER = "tcp://127.0.0.1:9";
    const { value: out, warnings } = await warningsDuring(() => dispatch("pre_tool_call", CALL, { cwd: project }));
    assert.equal(out.via, "oneshot");
    assert.ok(warnings.some((w) => /cannot prove which user runs it/.test(w)), JSON.stringify(warnings));
  });

  test("a token:// endpoint", async () => {
    mkdirSync(runDir, { mode: 0o700 });
    const ep = join(runDir, "hermes-hooks.endpoint");
    await serve(["--listen", "token://" + ep], ep);
    for (const how of [{ server: "token://" + ep }, { env: "token://" + ep }]) {
      if (how.env) process.env.HERMES_HOOKS_SERVER = how.env;
      const { value, warnings } = await warningsDuring(async () => [
        await dispatch("pre_tool_call", CALL, { server: how.server, cwd: project }),
        await dispatchHermes("pre_tool_call", CALL, { server: how.server, cwd: project }),
      ]);
      assert.deepEqual(warnings, [], JSON.stringify(how));
      assert.equal(value[0].via, "server");
      assert.ok(value[0].blocked);
      assert.deepEqual(value[1], BLOCK);
    }
  });

  test("a payload's cwd that is no directory: the one-shot's project is stated", async () => {
    await serve();
    const out = await dispatch("pre_tool_call", { ...CALL, cwd: join(tmp, "gone") }, { cwd: project });
    assert.equal(out.via, "server");
    assert.ok(out.blocked);
  });

  async function assertNotAsked(why, f, options = {}) {
    const { value, warnings } = await warningsDuring(() => dispatchHermes("pre_tool_call", CALL, { cwd: project, ...options }));
    assert.deepEqual(value, BLOCK);
    assert.ok(warnings.some((w) => why.test(w) && /dispatching one-shot instead/.test(w)), `warnings: ${JSON.stringify(warnings)}`);
    assert.doesNotMatch(f.asked(), /POST/, "the call was sent to a server that is not provably this user's");
  }

  test("the user socket of another user", async (t) => {
    if (process.getuid?.() !== 0) {
      // Not a skip (go test ./clients counts them as failures): only root
      // can start another user's process; the root runs cover this case.
      t.diagnostic(`uid ${process.getuid?.()}: another user's process cannot be started here`);
      return;
    }
    // Another user's process binds there: it must reach the directory.
    chmodSync(tmp, 0o711);
    chmodSync(home, 0o711);
    mkdirSync(runDir);
    chmodSync(runDir, 0o777);
    const f = await fake(userSock, { uid: NOBODY });
    chmodSync(runDir, 0o700);
    await assertNotAsked(/the socket .* is owned by uid 65534, not by you/, f);
  });

  test("the user socket in a group-writable directory", async () => {
    mkdirSync(runDir, { mode: 0o700 });
    const f = await fake(userSock);
    chmodSync(runDir, 0o770);
    await assertNotAsked(/directory .*run has mode 0770: others can write it/, f);
  });

  const writeEndpoint = (path, port, mode) => {
    writeFileSync(path, `hermes-hooks endpoint 1\n127.0.0.1:${port}\n${"ab".repeat(32)}\n`);
    chmodSync(path, mode);
  };

  test("a token endpoint file readable by others", async () => {
    mkdirSync(runDir, { mode: 0o700 });
    const f = await fake("tcp");
    const ep = join(runDir, "hermes-hooks.endpoint");
    writeEndpoint(ep, f.port, 0o644);
    await assertNotAsked(/the endpoint file .* has mode 0644, open to other users/, f, { server: "token://" + ep });
    assert.equal(f.asked(), "");
  });

  test("a token endpoint whose listener cannot prove the key", async () => {
    // The file is private, but what listens on its port did not write it
    // (a server that died, its port taken): the health check fails, and
    // the call is never sent.
    mkdirSync(runDir, { mode: 0o700 });
    const f = await fake("tcp");
    const ep = join(runDir, "hermes-hooks.endpoint");
    writeEndpoint(ep, f.port, 0o600);
    process.env.HERMES_HOOKS_SERVER = "token://" + ep;
    await assertNotAsked(/does not prove it holds the endpoint's key/, f);
  });

  test("the user socket comes first", async () => {
    mkdirSync(runDir, { mode: 0o700 });
    const f = await fake(userSock, { mode: 0o666 });
    const other = await fake(join(home, "hermes-hooks.sock"));
    await assertNotAsked(/the socket .*run\/hermes-hooks.sock has mode 0666/, f);
    assert.equal(other.asked(), "");
  });
});
