// hermes-hooks client for Node: fire a hook event, get its outcome.
//
// It asks a live `hermes-hooks serve` when there is one — the one
// `hermes-hooks hook` would ask, found in the same order (server.mjs:
// options.server, else HERMES_HOOKS_SERVER, else the user-level serve's
// socket $HERMES_HOME/run/hermes-hooks.sock, else the per-project
// $HERMES_HOME/hermes-hooks.sock, when a file is there) — and runs the
// one-shot `hermes-hooks dispatch EVENT` otherwise. A server that is not
// there (connection refused, stale socket file), that would dispatch
// otherwise (HTTP 409: another project, config or environment), or that is
// not provably this user's (trustedSocket; a token:// endpoint file's
// owner and mode, and the key proved both ways; a tcp:// address is never
// asked) is passed over with a process warning (HermesHooksWarning) and
// the event is dispatched one-shot — the answer is the same either way,
// as for `hermes-hooks hook`. One deadline (options.timeout, in
// milliseconds) covers the whole call. No dependencies.

import { spawn } from "node:child_process";
import { connect } from "node:net";
import { join, resolve } from "node:path";

import { AUTH_HEADER, ServerDown, binaryVersion, chooseServer, hermesHome, parseTarget, projectOf, readEndpoint, trustedSocket, workdir } from "./server.mjs";

export const DEFAULT_TIMEOUT = 330_000; // ms: above the longest hook timeout (300 s)
const CONNECT_TIMEOUT = 500;
const PROBE_TIMEOUT = 1_000; // a live server answers its health check at once (server.Forward)
const KILL_GRACE = 5_000;
const MAX_REPLY = 64 << 20;
// setTimeout's longest delay (a 32-bit signed count of ms, ~24.8 days):
// past it Node fires at once, so every call would time out. A longer
// timeout waits this long, as good as forever for a hook call.
const MAX_TIMEOUT = 2 ** 31 - 1;
// Bodies above this wait for 100 Continue (see post).
const EXPECT_OVER = 64 << 10;

export class HermesHooksError extends Error {
  constructor(message) { super(message); this.name = new.target.name; }
}
/** The hermes-hooks program is not on PATH (or not executable). */
export class BinaryNotFoundError extends HermesHooksError {}
/** The server took the request but gave no usable answer: the dispatch did not complete. */
export class ServerNotAnsweringError extends HermesHooksError {}
/** hermes-hooks answered something that is not an outcome. */
export class BadOutcomeError extends HermesHooksError {}
/** hermes-hooks refused the call: unknown event, bad fields, unreadable config. */
export class DispatchError extends HermesHooksError {}
/** No outcome within the timeout. */
export class DispatchTimeoutError extends HermesHooksError {}

const DECISIONS = new Set(["none", "allow", "ask", "block"]);
const OUTCOME_TYPES = {
  event: "string", decision: "string", stop: "boolean", hooks: "array",
  message: "string", rule_key: "string", args: "object", context: "string",
  stop_reason: "string", system_message: "string", result: "string",
  inject_system: "string", inject_user: "string", metadata: "object", env: "object",
  hook_specific: "object", terminal_sequence: "string", deferred: "boolean", unapproved: "integer",
};
const OUTCOME_REQUIRED = ["event", "decision", "stop", "hooks"];
const REPORT_TYPES = {
  event: "string", command: "string", dialect: "string", ran: "boolean",
  exit_code: "integer|null", elapsed_ms: "number", timed_out: "boolean", contribution: "object|null",
  matcher: "string", source: "string", skipped: "string", error: "string",
  stdout_truncated: "boolean", stderr_truncated: "boolean", note: "string", foreign_refusal: "boolean",
  shadow: "boolean", would: "string", rejudged: "boolean",
};
const REPORT_REQUIRED = ["event", "command", "dialect", "ran", "exit_code", "elapsed_ms", "timed_out", "contribution"];

function kindOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (Number.isInteger(v)) return "integer";
  return typeof v;
}

function check(obj, types, required, what) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    throw new BadOutcomeError(`${what} is ${kindOf(obj)}, not a JSON object`);
  }
  for (const [name, type] of Object.entries(types)) {
    if (!(name in obj)) {
      if (required.includes(name)) throw new BadOutcomeError(`${what}: missing "${name}"`);
      continue;
    }
    const k = kindOf(obj[name]);
    const ok = type.split("|").some((t) => t === k || (t === "number" && k === "integer"));
    if (!ok) throw new BadOutcomeError(`${what}: "${name}" is ${k}, not ${type}`);
  }
}

/** The outcome of one event firing (see protocol/outcome.schema.json). */
export class Outcome {
  constructor(obj, via) {
    check(obj, OUTCOME_TYPES, OUTCOME_REQUIRED, "outcome");
    if (!DECISIONS.has(obj.decision)) throw new BadOutcomeError(`outcome: unknown decision "${obj.decision}"`);
    obj.hooks.forEach((h) => check(h, REPORT_TYPES, REPORT_REQUIRED, "hook report"));
    Object.assign(this, structuredClone(obj));
    // How the answer was obtained ("server" or "oneshot"); not part of the JSON.
    Object.defineProperty(this, "via", { value: via, enumerable: false });
  }

  static fromJSON(obj, via) { return new Outcome(obj, via); }

  /** The action is refused (on pre_verify: the agent must keep going). */
  get blocked() { return this.decision === "block"; }

  /** The outcome JSON object again, exactly as read. */
  toJSON() { return structuredClone({ ...this }); }
}

export { hermesHome };

/** Where `hermes-hooks serve` listens by default. */
export function defaultSocket() {
  return join(hermesHome(), "hermes-hooks.sock");
}

/** Where `hermes-hooks serve --user` listens by default. */
export function userSocket() {
  return join(hermesHome(), "run", "hermes-hooks.sock");
}

function decode(body) {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (e) {
    const text = body.toString("utf8").trim().slice(0, 200);
    throw new BadOutcomeError(`hermes-hooks answered something that is not JSON (${e.message}): ${JSON.stringify(text)}`);
  }
}

function errorText(body) {
  try {
    const obj = JSON.parse(body.toString("utf8"));
    if (obj && typeof obj.error === "string") return obj.error;
  } catch { /* not JSON */ }
  return body.toString("utf8").trim().slice(0, 200);
}

// consent.isTruthy: how hermes-hooks reads HERMES_ACCEPT_HOOKS and
// HERMES_SAFE_MODE.
const truthy = (v) => ["1", "true", "yes", "on"].includes((v ?? "").trim().toLowerCase());
const SYSTEM_MANAGED = process.platform === "darwin"
  ? "/Library/Application Support/hermes-hooks/config.yaml" : "/etc/hermes-hooks/config.yaml";

// What of this process's environment decides which hooks the one-shot
// dispatch runs, stated as `hermes-hooks hook` states it (server package,
// inputs.go): a serve whose own differ answers 409, and the call is
// dispatched here. Unstated, a serve that does not accept hooks skipped the
// guard an accepting caller's one-shot runs (no objection where the
// one-shot blocks), or one without the caller's managed config its guards,
// or one of another home or HERMES_HOME the caller's "~/" paths and approvals.
function inputs(query) {
  query.set("inputs", "1");
  if (truthy(process.env.HERMES_ACCEPT_HOOKS)) query.set("env_accept_hooks", "1");
  if (truthy(process.env.HERMES_SAFE_MODE)) query.set("safe_mode", "1");
  const managed = process.env.HERMES_HOOKS_MANAGED_CONFIG;
  if (managed && resolve(managed) !== SYSTEM_MANAGED) query.set("managed_config", resolve(managed));
  // The home directory as Go reads it (os.UserHomeDir: "~/" in the config,
  // a Claude `if` rule's "~/"), and HERMES_HOME, whose allowlist the
  // one-shot reads approvals from.
  query.set("home", process.env[process.platform === "win32" ? "USERPROFILE" : "HOME"] ?? "");
  query.set("hermes_home", resolve(hermesHome()));
}

function parseHTTP(data, target) {
  const end = data.indexOf("\r\n\r\n");
  const head = end < 0 ? "" : data.subarray(0, end).toString("latin1");
  const m = /^HTTP\/\d\.\d (\d{3})/.exec(head);
  if (!m) throw new ServerNotAnsweringError(`hermes-hooks server ${target}: no HTTP reply (connection closed after ${data.length} bytes)`);
  let body = data.subarray(end + 4);
  const headers = {};
  for (const line of head.split("\r\n").slice(1)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  if ((headers["transfer-encoding"] || "").toLowerCase() === "chunked") {
    const parts = [];
    for (;;) {
      const eol = body.indexOf("\r\n");
      const n = parseInt(body.subarray(0, eol).toString("latin1"), 16);
      if (eol < 0 || Number.isNaN(n) || body.length < eol + 2 + n) {
        throw new ServerNotAnsweringError(`hermes-hooks server ${target}: reply cut short`);
      }
      if (n === 0) break;
      parts.push(body.subarray(eol + 2, eol + 2 + n));
      body = body.subarray(eol + 4 + n);
    }
    body = Buffer.concat(parts);
  } else if ("content-length" in headers) {
    const n = Number(headers["content-length"]);
    if (body.length < n) throw new ServerNotAnsweringError(`hermes-hooks server ${target}: reply cut short (${body.length} of ${n} bytes)`);
    body = body.subarray(0, n);
  }
  return { status: Number(m[1]), headers, body };
}

// One HTTP exchange with the server at address (net.connect's options):
// the request head (without its blank line) and body; resolves to the
// reply's {status, headers, body}. ServerDown when nothing listens.
function exchange(address, head, payload, deadline, target) {
  // A large body waits for the server's 100 Continue: a server that
  // refuses the call unread (409, 413) answers and closes, and a write
  // still going then fails (EPIPE) and Node drops the reply with it.
  const expect = payload.length > EXPECT_OVER;
  head += `${expect ? "Expect: 100-continue\r\n" : ""}\r\n`;
  return new Promise((resolvePromise, reject) => {
    const sock = connect(address);
    const chunks = [];
    let size = 0;
    let connected = false;
    let settled = false;
    const finish = (err, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(deadlineTimer);
      sock.destroy();
      if (err) reject(err); else resolvePromise(value);
    };
    const connectTimer = setTimeout(() => {
      if (!connected) finish(new ServerDown(`no connection within ${CONNECT_TIMEOUT} ms`));
    }, Math.max(1, Math.min(CONNECT_TIMEOUT, deadline - Date.now())));
    const deadlineTimer = setTimeout(() => {
      finish(new DispatchTimeoutError(`hermes-hooks server ${target}: no outcome within the timeout`));
    }, Math.max(1, deadline - Date.now()));
    sock.on("connect", () => {
      connected = true;
      clearTimeout(connectTimer);
      sock.write(expect ? Buffer.from(head, "latin1") : Buffer.concat([Buffer.from(head, "latin1"), payload]));
    });
    let awaiting = expect;
    sock.on("data", (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_REPLY) finish(new ServerNotAnsweringError(`hermes-hooks server ${target}: reply larger than ${MAX_REPLY} bytes`));
      if (!awaiting) return;
      const got = Buffer.concat(chunks);
      const end = got.indexOf("\r\n\r\n");
      if (end < 0) return;
      awaiting = false;
      if (/^HTTP\/\d\.\d 100 /.test(got.subarray(0, end).toString("latin1"))) {
        // Go on: the reply read at close is the final one.
        chunks.length = 0;
        chunks.push(got.subarray(end + 4));
        size = chunks[0].length;
        sock.write(payload);
      } // else the final reply: read at close
    });
    let broken = null;
    sock.on("error", (e) => {
      if (!connected) finish(new ServerDown(e.code === "ENOENT" || e.code === "ECONNREFUSED" ? e.code : e.message));
      // The server may answer before reading the whole request (413: a
      // body larger than it takes) and close: its reply is read at close.
      else if (e.code === "EPIPE" || e.code === "ECONNRESET") broken = e;
      else finish(new ServerNotAnsweringError(`hermes-hooks server ${target}: ${e.message}`));
    });
    sock.on("close", () => {
      if (settled) return;
      if (!connected) { finish(new ServerDown("connection closed")); return; }
      if (broken && size === 0) { finish(new ServerNotAnsweringError(`hermes-hooks server ${target}: ${broken.message}`)); return; }
      try {
        finish(null, parseHTTP(Buffer.concat(chunks), target));
      } catch (e) {
        finish(e);
      }
    });
  });
}

// One request to a token:// server, with the key proved, and its reply
// once the reply proves the key back.
async function tokenExchange(ep, head, payload, deadline, target) {
  const { nonce, header } = ep.auth();
  const reply = await exchange({ host: ep.host, port: ep.port }, `${head}Host: ${ep.addr}\r\n${AUTH_HEADER}: ${header}\r\n`, payload, deadline, target);
  ep.checkReply(nonce, reply.headers, reply.status);
  return reply;
}

// The health check `hook` makes before it sends a call (server.Forward):
// what listens at a token:// endpoint's port is sent nothing of the call
// until it proved the key (a port a dead server left can be anyone's).
async function probe(ep, deadline, target) {
  let status;
  try {
    ({ status } = await tokenExchange(ep, "GET /healthz HTTP/1.1\r\nConnection: close\r\n", Buffer.alloc(0),
      Math.min(deadline, Date.now() + PROBE_TIMEOUT), target));
  } catch (e) {
    throw e instanceof ServerDown ? e : new ServerDown(`not ready: ${e.message}`);
  }
  if (status !== 200) throw new ServerDown(`not ready: health check: HTTP ${status}`);
}

// What the server needs to dispatch exactly as the one-shot would
// (`hook`'s forwardQuery): a server that would not (another project,
// config or environment) answers 409, and the one-shot answers.
function dispatchQuery(fields, opts, hermes) {
  const wd = workdir(opts.cwd);
  // The one-shot resolves a relative --config, and HERMES_HOME, against
  // its own working directory.
  const config = opts.config || join(hermesHome(), "config.yaml");
  const query = new URLSearchParams({ project: projectOf(fields, opts.cwd, wd), wd, config: resolve(opts.cwd || ".", config) });
  inputs(query);
  if (hermes) query.set("format", "hermes");
  return query;
}

async function post(target, event, fields, payload, opts, hermes, deadline) {
  let reply;
  const head = `POST /v1/dispatch/${encodeURIComponent(event)}?${dispatchQuery(fields, opts, hermes)} HTTP/1.1\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n`;
  try {
    const { kind, path } = parseTarget(target);
    if (kind === "unix") {
      reply = await exchange({ path: trustedSocket(path) }, head + "Host: hermes-hooks\r\n", payload, deadline, target);
    } else {
      const ep = readEndpoint(path);
      await probe(ep, deadline, target);
      reply = await tokenExchange(ep, head, payload, deadline, target);
    }
  } catch (e) {
    // A directory gone or unreadable mid-check: not trusted, not fatal.
    if (e instanceof HermesHooksError || e instanceof ServerDown) throw e;
    throw new ServerDown(e.message);
  }
  const { status, headers, body } = reply;
  if (status === 200) {
    // It ignored the inputs stated: it may dispatch otherwise.
    if (!headers["hermes-hooks-inputs"]) throw new ServerDown("the server does not check the caller's accept channels, safe mode and managed config (an older hermes-hooks serve?)");
    // One of another version may decide otherwise than the one-shot (a
    // serve left running across an upgrade): as for `hook`.
    const binary = opts.binary || "hermes-hooks";
    const mine = await binaryVersion(binary, deadline);
    const theirs = headers["hermes-hooks-version"] ?? "";
    if (mine !== null && theirs !== mine) {
      throw new ServerDown(`the server is hermes-hooks ${JSON.stringify(theirs)}, the one-shot ${binary} ${JSON.stringify(mine)} (restart the server after an upgrade)`);
    }
    return body;
  }
  const detail = errorText(body);
  // Another project, config or environment (or a project a user-level
  // serve refuses); or a body larger than serve takes (8 MiB) that the
  // one-shot takes (64 MiB): the one-shot answers, as for `hook`.
  if (status === 409 || status === 413) throw new ServerDown(`HTTP ${status}: ${detail}`);
  const Err = status >= 500 ? ServerNotAnsweringError : DispatchError;
  throw new Err(`hermes-hooks server ${target}: HTTP ${status}: ${detail}`);
}

function oneshot(event, payload, opts, hermes, deadline) {
  const binary = opts.binary || "hermes-hooks";
  const argv = [];
  if (opts.config) argv.push("--config", opts.config);
  argv.push("dispatch", event);
  if (hermes) argv.push("--format", "hermes");
  return new Promise((resolvePromise, reject) => {
    let child;
    try {
      child = spawn(binary, argv, { cwd: opts.cwd, stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      reject(new BinaryNotFoundError(`cannot run hermes-hooks ${JSON.stringify(binary)}: ${e.message}`));
      return;
    }
    const out = [];
    const err = [];
    let settled = false;
    const finish = (e, v) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) reject(e); else resolvePromise(v);
    };
    const timer = setTimeout(() => {
      // SIGTERM: dispatch kills its hooks' process groups and exits;
      // SIGKILL later if it does not, without making the caller wait.
      child.kill("SIGTERM");
      setTimeout(() => { if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL"); }, KILL_GRACE).unref();
      finish(new DispatchTimeoutError(`hermes-hooks dispatch ${event}: no outcome within ${opts.timeout} ms (its hooks are being stopped)`));
    }, Math.max(1, deadline - Date.now()));
    child.on("error", (e) => {
      if (e.code === "ENOENT" || e.code === "EACCES") {
        finish(new BinaryNotFoundError(`hermes-hooks binary ${JSON.stringify(binary)} not found on PATH (${e.code}; install it, or pass binary: "/path/to/hermes-hooks")`));
      } else {
        finish(new HermesHooksError(`hermes-hooks dispatch ${event}: ${e.message}`));
      }
    });
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    child.stdin.on("error", () => { /* the child exited early: its exit status says why */ });
    child.stdin.end(payload);
    child.on("close", (code, signal) => {
      const stderr = Buffer.concat(err).toString("utf8").trim();
      if (code !== 0) {
        finish(new DispatchError(`hermes-hooks dispatch ${event}: exit ${code ?? signal}: ${stderr}`));
        return;
      }
      if (stderr && opts.onStderr) opts.onStderr(stderr);
      finish(null, Buffer.concat(out));
    });
  });
}

async function call(event, fields, options, hermes) {
  if (typeof event !== "string" || !event) throw new DispatchError("event must be a non-empty string");
  const opts = { timeout: DEFAULT_TIMEOUT, ...options };
  if (!(opts.timeout > 0)) throw new RangeError("timeout must be a positive number of milliseconds");
  opts.timeout = Math.min(opts.timeout, MAX_TIMEOUT);
  fields = fields ?? {};
  const payload = Buffer.from(JSON.stringify(fields), "utf8");
  const deadline = Date.now() + opts.timeout;
  const target = chooseServer(opts.server);
  if (target !== null) {
    try {
      return { body: await post(target, event, fields, payload, opts, hermes, deadline), via: "server" };
    } catch (e) {
      if (!(e instanceof ServerDown)) throw e;
      process.emitWarning(`hermes-hooks server ${target}: ${e.message}; dispatching one-shot instead`,
        { type: "HermesHooksWarning", code: "HERMES_HOOKS_SERVER_UNAVAILABLE" });
    }
  }
  return { body: await oneshot(event, payload, opts, hermes, deadline), via: "oneshot" };
}

/**
 * Fire event with the host's fields and resolve to its Outcome.
 * options: server ("unix:///path" or the socket's path, or
 * "token:///path"; undefined = as `hook` finds it: HERMES_HOOKS_SERVER,
 * else the user-level serve's socket, else the per-project one, when
 * present; false = never; a tcp:// address is not asked), binary, timeout (ms),
 * config, cwd, onStderr (the one-shot dispatch's warnings).
 */
export async function dispatch(event, fields = {}, options = {}) {
  const { body, via } = await call(event, fields, options, false);
  return new Outcome(decode(body), via);
}

/** Fire event and resolve to Hermes' directive for it ({"action": …}, {"context": …}, {"result": …} or {}). */
export async function dispatchHermes(event, fields = {}, options = {}) {
  const { body } = await call(event, fields, options, true);
  const wire = decode(body);
  if (wire === null || typeof wire !== "object" || Array.isArray(wire)) {
    throw new BadOutcomeError(`Hermes directive is ${kindOf(wire)}, not a JSON object`);
  }
  return wire;
}
