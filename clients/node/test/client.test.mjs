// The Node client against the real binary and a real server; the same
// checks as clients/python/tests/test_client.py.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import {
  BadOutcomeError, BinaryNotFoundError, DispatchError, DispatchTimeoutError, Outcome, dispatch, dispatchHermes,
} from "../index.mjs";
import { CASES, SCHEMA, describePid, findBinary, pidAlive, setup, stripTiming, withSession } from "./fixture.mjs";

const skip = findBinary() ? false : "hermes-hooks not on PATH and HERMES_HOOKS_BIN unset (go test ./clients/ builds it)";

// Collects the process warnings emitted while fn runs.
async function warningsDuring(fn) {
  const seen = [];
  const on = (w) => seen.push(w);
  process.on("warning", on);
  try {
    const value = await fn();
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    return { value, warnings: seen };
  } finally {
    process.off("warning", on);
  }
}

describe("hermes-hooks Node client", { skip }, () => {
  let h;
  before(async () => { h = await setup(); });
  after(async () => { await h?.close(); });

  test("every outcome field round-trips", async () => {
    const seen = new Set();
    for (const [i, { event, fields }] of CASES.entries()) {
      const raw = h.oneshot(event, withSession(fields, `rt-${i}`));
      assert.deepEqual(new Outcome(raw).toJSON(), raw);
      const out = await dispatch(event, withSession(fields, `rt-client-${i}`), { server: false, cwd: h.project });
      assert.deepEqual(stripTiming(out.toJSON()), stripTiming(raw), `${event} #${i}`);
      for (const [k, v] of Object.entries(raw)) if (k !== "hooks") assert.deepEqual(out[k], v, k);
      Object.keys(raw).forEach((k) => seen.add(k));
    }
    assert.deepEqual([...seen].sort(), Object.keys(SCHEMA.properties).sort());
  });

  test("every schema member is read and written back", () => {
    const report = {
      event: "pre_tool_call", command: "x.sh", dialect: "hermes", matcher: "terminal", source: "/c.yaml", ran: true,
      skipped: "why", exit_code: null, elapsed_ms: 1.5, timed_out: false, error: "e", stdout_truncated: true,
      stderr_truncated: false, note: "n", foreign_refusal: true, shadow: false, would: "block: m", rejudged: true, contribution: { decision: "block" },
    };
    assert.deepEqual(Object.keys(report).sort(), Object.keys(SCHEMA.$defs.report.properties).sort());
    const full = {
      event: "pre_tool_call", decision: "block", message: "m", rule_key: "k", args: { a: 1 }, context: "c", stop: true,
      stop_reason: "r", system_message: "s", result: "t", inject_system: "is", inject_user: "iu", metadata: { m: [1] },
      env: { FOO: "bar" }, hook_specific: { sessionTitle: "t" }, terminal_sequence: "\u0007", deferred: true, unapproved: 2, hooks: [report],
    };
    assert.deepEqual(Object.keys(full).sort(), Object.keys(SCHEMA.properties).sort());
    const o = new Outcome({ ...full, future_member: 1 });
    assert.deepEqual(o.toJSON(), { ...full, future_member: 1 });
    assert.equal(o.blocked, true);
    for (const bad of [[], { event: "x" }, { event: "x", decision: "maybe", stop: false, hooks: [] },
      { event: "x", decision: "none", stop: 0, hooks: [] }, { event: "x", decision: "none", stop: false, hooks: [{ command: "c" }] }]) {
      assert.throws(() => new Outcome(bad), BadOutcomeError);
    }
  });

  test("server and one-shot give identical outcomes", async () => {
    for (const [i, { event, fields }] of CASES.entries()) {
      const a = await dispatch(event, withSession(fields, `srv-${i}`), { cwd: h.project });
      const b = await dispatch(event, withSession(fields, `one-${i}`), { server: false, cwd: h.project });
      assert.deepEqual([a.via, b.via], ["server", "oneshot"]);
      assert.deepEqual(stripTiming(a.toJSON()), stripTiming(b.toJSON()), `${event} #${i}`);
      const wa = await dispatchHermes(event, withSession(fields, `srvw-${i}`), { cwd: h.project });
      const wb = await dispatchHermes(event, withSession(fields, `onew-${i}`), { server: false, cwd: h.project });
      assert.deepEqual(wa, wb);
      assert.deepEqual(wa, h.oneshot(event, withSession(fields, `clw-${i}`), "--format", "hermes"));
    }
  });

  test("a dead server falls back to one-shot with a warning", async () => {
    // A socket file nobody listens on (connection refused), and no file at all.
    const stale = join(h.tmp, "dead.sock");
    execFileSync("python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", stale]);
    const { event, fields } = CASES[0];
    const want = stripTiming(h.oneshot(event, withSession(fields, "dead-want")));
    for (const server of ["unix://" + stale, "unix://" + join(h.tmp, "missing.sock")]) {
      const { value: out, warnings } = await warningsDuring(() =>
        dispatch(event, withSession(fields, "dead"), { server, cwd: h.project }));
      assert.equal(out.via, "oneshot");
      assert.deepEqual(stripTiming(out.toJSON()), want);
      assert.equal(warnings.length, 1);
      assert.equal(warnings[0].name, "HermesHooksWarning");
      assert.match(warnings[0].message, /dispatching one-shot instead/);
    }
  });

  test("a server of another project falls back with a warning", async () => {
    const other = mkdtempSync(join(h.tmp, "other-"));
    const { value: out, warnings } = await warningsDuring(() =>
      dispatch("pre_tool_call", { tool_name: "terminal", args: { command: "ls" } }, { cwd: other }));
    assert.equal(out.via, "oneshot");
    assert.match(warnings[0].message, /HTTP 409/);
  });

  test("the timeout is respected and the hook is stopped", async () => {
    // The hook (an hour's sleep) must have started — written its pid —
    // before the client's timeout fires, and on a loaded machine starting
    // hermes-hooks and the hook can take more than a second. So the timeout
    // doubles until the hook started within it; every attempt must still
    // return at its timeout and stop its hook.
    // [pid, start time ("" without /proc)] the hook wrote, or null.
    const pidIn = (file) => {
      let fields;
      try {
        fields = readFileSync(file, "utf8").split(/\s+/).filter(Boolean);
      } catch {
        return null;
      }
      return fields.length ? [Number(fields[0]), fields[1] ?? ""] : null;
    };
    for (const [name, opts] of [["oneshot", { server: false }], ["server", {}]]) {
      const pidfiles = [];
      let started = false;
      for (const timeout of [1000, 2000, 4000, 8000, 16000, 32000]) {
        const pidfile = join(h.tmp, `sleep-${name}-${timeout}.pid`);
        pidfiles.push(pidfile);
        const start = Date.now();
        await assert.rejects(
          dispatch("post_tool_call", { tool_name: "sleepy_tool", sleep: 3600, pidfile, session_id: `t-${name}-${timeout}` },
            { ...opts, timeout, cwd: h.project }),
          DispatchTimeoutError);
        const took = Date.now() - start;
        // The upper bound is a hang guard: a client that waited for its
        // hook would take the hour.
        assert.ok(took >= 0.9 * timeout && took < timeout + 30_000, `${name}: returned after ${took} ms with a ${timeout} ms timeout`);
        if (pidIn(pidfile)) {
          started = true;
          break;
        }
      }
      assert.ok(started, `${name}: the hook never started within the client's timeout, even 32 s`);
      // Every hook that started — a late one of an attempt that gave up
      // before it too — is stopped.
      for (const [pid, begun] of pidfiles.map(pidIn).filter(Boolean)) {
        const deadline = Date.now() + 60_000;
        while (pidAlive(pid, begun) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.equal(pidAlive(pid, begun), false, `${name}: the sleeping hook outlived the timeout: ${describePid(pid)}`);
      }
    }
  });

  test("clear errors", async () => {
    await assert.rejects(dispatch("pre_tool_call", {}, { server: false, binary: "/nonexistent/hermes-hooks" }), BinaryNotFoundError);
    const fake = join(h.tmp, "fake-hermes-hooks");
    writeFileSync(fake, "#!/bin/sh\ncat >/dev/null\necho 'not json'\n");
    chmodSync(fake, 0o755);
    await assert.rejects(dispatch("pre_tool_call", {}, { server: false, binary: fake }), BadOutcomeError);
    for (const server of [false, undefined]) {
      await assert.rejects(dispatch("pre_tools_call", {}, { server, cwd: h.project }), DispatchError);
    }
  });
  test("a very long timeout is a long one", async () => {
    // Past setTimeout's 32-bit milliseconds Node fires the timer at once
    // (TimeoutOverflowWarning): every call timed out, refused.
    const call = { tool_name: "terminal", args: { command: "x" }, task_id: "t", reply: { action: "block", message: "long" } };
    for (const timeout of [31_536_000_000, 1e12, Infinity]) {
      for (const server of [false, undefined]) {
        const wire = await dispatchHermes("pre_tool_call", call, { timeout, server, cwd: h.project });
        assert.deepEqual(wire, { action: "block", message: "long" }, `timeout ${timeout}, server ${server}`);
      }
    }
  });
  test("a payload larger than the server takes goes one-shot", async () => {
    // serve takes 8 MiB, the one-shot 64: a tool call between the two is
    // checked one-shot, as \`hook\` does, not refused because a server runs.
    const call = { tool_name: "write_file", args: { path: "/x", content: "a".repeat(9 << 20) }, task_id: "t",
      reply: { action: "block", message: "big" } };
    // One it takes goes to it (past 64 KiB: after its 100 Continue).
    const taken = await dispatch("pre_tool_call", { ...call, args: { path: "/x", content: "a".repeat(1 << 20) }, session_id: "big" }, { cwd: h.project });
    assert.deepEqual([taken.via, taken.decision, taken.message], ["server", "block", "big"]);
    const seen = [];
    const on = (w) => seen.push(w.message);
    process.on("warning", on);
    try {
      assert.deepEqual(await dispatchHermes("pre_tool_call", call, { cwd: h.project }), { action: "block", message: "big" });
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", on);
    }
    assert.ok(seen.some((w) => /HTTP 413/.test(w)), JSON.stringify(seen));
  });
});
