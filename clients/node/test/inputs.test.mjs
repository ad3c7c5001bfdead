// A server answers only when it would dispatch as the one-shot does: the
// caller's HERMES_ACCEPT_HOOKS, HERMES_SAFE_MODE and
// HERMES_HOOKS_MANAGED_CONFIG are stated to it (query inputs=1, as
// `hermes-hooks hook` does), and a serve started with another environment
// answers 409; the call then goes one-shot. The same cases as
// clients/python/tests/test_inputs.py, against a real serve.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";

import { dispatch, dispatchHermes } from "../index.mjs";
import { HOOKS, findBinary } from "./fixture.mjs";

const bin = findBinary();
const skip = bin ? false : "hermes-hooks not on PATH and HERMES_HOOKS_BIN unset (go test ./clients/ builds it)";
const BLOCK = { action: "block", message: "no" };
const CALL = { tool_name: "terminal", args: { command: "rm -rf /" }, task_id: "t", reply: BLOCK };
const SETTINGS = ["HERMES_ACCEPT_HOOKS", "HERMES_SAFE_MODE", "HERMES_HOOKS_MANAGED_CONFIG"];

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

describe("the caller's environment is stated to serve", { skip }, () => {
  let tmp, home, project, serve, saved;
  beforeEach(async () => {
    tmp = mkdtempSync(join(tmpdir(), "hermes-hooks-inputs-"));
    home = join(tmp, "home");
    project = join(tmp, "project");
    mkdirSync(home, { mode: 0o700 });
    mkdirSync(project);
    // A guard nobody approved: it runs only where hooks are accepted.
    writeFileSync(join(home, "config.yaml"), `hooks:\n  pre_tool_call:\n    - command: ${join(HOOKS, "reply.sh")}\n`);
    const sock = join(home, "hermes-hooks.sock");
    const env = { ...process.env, HERMES_HOME: home };
    for (const k of SETTINGS) delete env[k];
    serve = spawn(bin, ["serve", "--listen", "unix://" + sock], { cwd: project, env, stdio: "ignore" });
    const deadline = Date.now() + 60_000; // a hang guard: it listens in milliseconds
    while (!(await new Promise((res) => {
      const s = connect({ path: sock });
      s.on("connect", () => { s.destroy(); res(true); });
      s.on("error", () => res(false));
    }))) {
      if (serve.exitCode !== null || Date.now() > deadline) throw new Error("hermes-hooks serve did not listen");
      await new Promise((r) => setTimeout(r, 20));
    }
    saved = Object.fromEntries(["HERMES_HOME", ...SETTINGS].map((k) => [k, process.env[k]]));
    for (const k of SETTINGS) delete process.env[k];
    process.env.HERMES_HOME = home;
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    const gone = new Promise((r) => serve.once("exit", r));
    serve.kill("SIGTERM");
    await gone;
    rmSync(tmp, { recursive: true, force: true });
  });

  test("the same environment is served", async () => {
    const out = await dispatch("pre_tool_call", { ...CALL, session_id: "same" }, { cwd: project });
    assert.equal(out.via, "server");
    assert.equal(out.decision, "none");
  });

  test("an accepting caller is not served by a serve that does not accept", async () => {
    // The accepting process approves the guard as it runs it: the client
    // asks first.
    process.env.HERMES_ACCEPT_HOOKS = "1";
    const { value, warnings } = await warningsDuring(() => dispatchHermes("pre_tool_call", CALL, { cwd: project }));
    assert.deepEqual(value, BLOCK);
    assert.ok(warnings.some((w) => /HTTP 409/.test(w)), JSON.stringify(warnings));
    const oneshot = execFileSync(bin, ["dispatch", "pre_tool_call", "--format", "hermes"], { cwd: project, input: JSON.stringify(CALL), encoding: "utf8" });
    assert.deepEqual(JSON.parse(oneshot), BLOCK);
  });

  for (const [name, k, v] of [["safe mode", "HERMES_SAFE_MODE", "yes"], ["a managed config", "HERMES_HOOKS_MANAGED_CONFIG", "managed.yaml"]]) {
    test(`${name} of the caller`, async () => {
      if (k.endsWith("CONFIG")) writeFileSync(join(tmp, v), "hooks: {}\n");
      process.env[k] = k.endsWith("CONFIG") ? join(tmp, v) : v;
      const { value, warnings } = await warningsDuring(() => dispatch("pre_tool_call", { ...CALL, session_id: k }, { cwd: project }));
      assert.equal(value.via, "oneshot");
      assert.ok(warnings.some((w) => /HTTP 409/.test(w)), JSON.stringify(warnings));
    });
  }

  test("the home directory of the caller", async () => {
    // "~/" in the config and a Claude if rule's "~/" follow the home.
    const saved = process.env.HOME;
    process.env.HOME = join(tmp, "otherhome");
    try {
      const { value, warnings } = await warningsDuring(() => dispatch("pre_tool_call", { ...CALL, session_id: "home" }, { cwd: project }));
      assert.equal(value.via, "oneshot");
      assert.ok(warnings.some((w) => /HTTP 409.*home directory/.test(w)), JSON.stringify(warnings));
    } finally {
      process.env.HOME = saved;
    }
  });

  test("the HERMES_HOME of the caller", async () => {
    // Sent to this serve with its config, but the approvals are those of
    // the caller's HERMES_HOME (restored by afterEach).
    process.env.HERMES_HOME = join(tmp, "otherhermes");
    mkdirSync(process.env.HERMES_HOME, { mode: 0o700 });
    const { value, warnings } = await warningsDuring(() => dispatch("pre_tool_call", { ...CALL, session_id: "hermes-home" },
      { cwd: project, server: join(home, "hermes-hooks.sock"), config: join(home, "config.yaml") }));
    assert.equal(value.via, "oneshot");
    assert.ok(warnings.some((w) => /HTTP 409.*HERMES_HOME/.test(w)), JSON.stringify(warnings));
  });

  // Only from the config the one-shot would read now: a serve that has
  // not loaded the config on disk yet, or whose last reload failed,
  // answers 409, and the call goes one-shot.
  const GUARD = "hooks:\n  pre_tool_call:\n    - matcher: terminal\n" +
    "      rule: 'args.command matches \"rm\\\\s+-rf\"'\n      decision: block\n      message: no rm -rf\n      fail_closed: true\n";
  const healthz = () => new Promise((res, rej) => {
    const req = request({ socketPath: join(home, "hermes-hooks.sock"), path: "/healthz", timeout: 30_000 }, (r) => {
      let body = "";
      r.on("data", (c) => (body += c));
      r.on("end", () => res(JSON.parse(body)));
    });
    req.on("error", rej);
    req.end();
  });

  test("a config held open for writing", async () => {
    // Open for writing by another process (here, this one): serve waits
    // for the writer (Linux), and the one-shot reads no such file either:
    // it refuses the call.
    const held = openSync(join(home, "config.yaml"), "a");
    try {
      writeFileSync(join(home, "config.yaml"), GUARD);
      const { value, warnings } = await warningsDuring(() => dispatch("pre_tool_call", { ...CALL, session_id: "held" }, { cwd: project }));
      assert.equal(value.decision, "block", JSON.stringify([value.via, value.message, warnings]));
      if (value.via === "server") {
        assert.equal(value.message, "no rm -rf");
        assert.ok((await healthz()).generation > 1, "served by the config before the guard");
      } else {
        assert.match(value.message, /stays open for writing/);
        assert.ok(warnings.some((w) => /HTTP 409/.test(w)), JSON.stringify(warnings));
      }
    } finally {
      closeSync(held);
    }
  });

  test("a broken config", async () => {
    writeFileSync(join(home, "config.yaml"), GUARD + "      decision: allow\n");
    const deadline = Date.now() + 60_000; // a hang guard
    while (!("reload_error" in (await healthz()))) {
      if (Date.now() > deadline) throw new Error("serve never reported the broken config");
      await new Promise((r) => setTimeout(r, 20));
    }
    const { value, warnings } = await warningsDuring(() => dispatch("pre_tool_call", { ...CALL, session_id: "broken" }, { cwd: project }));
    assert.equal(value.via, "oneshot");
    assert.equal(value.decision, "block");
    assert.match(value.message, /refuses tool calls until/);
    assert.ok(warnings.some((w) => /HTTP 409/.test(w)), JSON.stringify(warnings));
  });
});
