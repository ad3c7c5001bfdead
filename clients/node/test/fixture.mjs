// The Node tests' home: a HERMES_HOME whose config registers the test hooks
// of clients/testdata/hooks (all approved but one) and a live
// `hermes-hooks serve` on its default socket — as the Python tests' fixture.
// The binary is $HERMES_HOOKS_BIN, else hermes-hooks on PATH.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, "..", "..", "..");
export const HOOKS = join(REPO, "clients", "testdata", "hooks");
export const SCHEMA = JSON.parse(readFileSync(join(REPO, "protocol", "outcome.schema.json"), "utf8"));
export const CASES = JSON.parse(readFileSync(join(REPO, "clients", "testdata", "cases.json"), "utf8"));

export function findBinary() {
  if (process.env.HERMES_HOOKS_BIN) return process.env.HERMES_HOOKS_BIN;
  try {
    execFileSync("hermes-hooks", ["version"], { stdio: "ignore" });
    return "hermes-hooks";
  } catch {
    return null;
  }
}

// The binary's version, as serve sends it (Hermes-Hooks-Version).
export function binaryVersion() {
  const bin = findBinary();
  return bin ? execFileSync(bin, ["version"], { encoding: "utf8" }).split(" ")[1] : "";
}

export async function setup() {
  const bin = findBinary();
  const tmp = mkdtempSync(join(tmpdir(), "hermes-hooks-nodetest-"));
  const home = join(tmp, "home");
  const project = join(tmp, "project");
  mkdirSync(home);
  mkdirSync(project);
  process.env.HERMES_HOME = home;
  delete process.env.HERMES_ACCEPT_HOOKS;
  delete process.env.HERMES_SAFE_MODE;
  const cli = (args, input = "") => execFileSync(bin, args, { cwd: project, input, encoding: "utf8" });
  const events = JSON.parse(cli(["events", "--json"])).filter((e) => e.hermes && !e.shell_unsupported).map((e) => e.name);
  const reply = join(HOOKS, "reply.sh");
  const lines = ["hooks:"];
  for (const ev of events) {
    lines.push(`  ${ev}:`, `    - command: ${reply}`);
    if (ev === "pre_llm_call") lines.push(`    - command: ${reply} 2`, `    - command: ${reply} 3`);
    // Its own timeout is the longest there is: only the client's timeout
    // may be what stops it in the tests.
    if (ev === "post_tool_call") lines.push(`    - command: ${join(HOOKS, "sleep.sh")}`, "      matcher: sleepy_tool", "      timeout: 300");
    if (ev === "on_session_start" || ev === "pre_tool_call") lines.push(`    - command: ${join(HOOKS, "claude.sh")}`, "      dialect: claude");
  }
  const config = join(home, "config.yaml");
  writeFileSync(config, lines.join("\n") + "\n");
  cli(["approve", "--all"]);
  lines.splice(lines.indexOf("  post_llm_call:") + 2, 0, `    - command: ${reply} 9`);
  writeFileSync(config, lines.join("\n") + "\n");
  // The project is a repository with a hook nobody approved: the outcome
  // counts it (unapproved) and tells once per session.
  mkdirSync(join(project, ".git"));
  mkdirSync(join(project, ".hermes"));
  writeFileSync(join(project, ".hermes", "hooks.yaml"), `hooks:\n  post_llm_call:\n    - command: ${reply} 8\n`);

  const socket = join(home, "hermes-hooks.sock");
  const server = spawn(bin, ["serve", "--listen", "unix://" + socket], { cwd: project, stdio: "ignore" });
  const deadline = Date.now() + 60_000; // a hang guard: it listens in milliseconds
  for (;;) {
    const up = await new Promise((res) => {
      const s = connect({ path: socket });
      s.on("connect", () => { s.destroy(); res(true); });
      s.on("error", () => res(false));
    });
    if (up) break;
    if (server.exitCode !== null) throw new Error("hermes-hooks serve exited at start");
    if (Date.now() > deadline) throw new Error("hermes-hooks serve did not listen within 60s");
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    bin, tmp, home, project, events, socket, cli,
    oneshot: (event, fields, ...flags) => JSON.parse(cli(["dispatch", event, ...flags], JSON.stringify(fields))),
    async close() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once("exit", r));
        server.kill("SIGTERM");
        await exited;
      }
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export function stripTiming(outcome) {
  return { ...outcome, hooks: outcome.hooks.map(({ elapsed_ms, ...rest }) => rest) };
}

export function withSession(fields, sid) {
  return { ...fields, session_id: sid };
}

// Whether pid is a live process — and, given the start time the process
// read from /proc (started), still the same one: a pid can be given to
// another process soon after its own ended. A zombie is dead for our
// purpose.
export function pidAlive(pid, started = "") {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === "EPERM";
  }
  let fields;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  } catch (e) {
    // Reaped between the kill above and this read: dead.
    return e.code !== "ENOENT" && e.code !== "ESRCH";
  }
  if (started && fields[19] !== started) return false;
  return fields[0] !== "Z";
}

// What pid is now, for a failure message.
export function describePid(pid) {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return `pid ${pid}: ${JSON.stringify(cmd)}, stat ${JSON.stringify(readFileSync(`/proc/${pid}/stat`, "utf8"))}`;
  } catch (e) {
    return `pid ${pid}: ${e.message}`;
  }
}
