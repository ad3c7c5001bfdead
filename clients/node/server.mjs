// Which server to ask, whether it may be trusted, and what to tell it:
// `hermes-hooks hook`'s rules (internal/cli/hook.go hookServer and
// forwardQuery; server/private.go, server/token.go), kept in step, so that
// a host using this client asks the server `hook` asks.
//
// The order: options.server (as hook's --server); else HERMES_HOOKS_SERVER
// ("off": none; an address with "://" as it is; anything else a socket's
// path); else the user-level serve's socket
// ($HERMES_HOME/run/hermes-hooks.sock, `serve --user`), else the
// per-project default ($HERMES_HOME/hermes-hooks.sock) — the first with a
// file at its path, whatever the file is: a stale or foreign one is then
// refused with a warning, never passed over for the next. On Windows the
// two defaults are token:// endpoint files, as serve's.

import { execFile } from "node:child_process";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { accessSync, closeSync, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, constants as fsc } from "node:fs";
import { isIP } from "node:net";
import { homedir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";

const WINDOWS = process.platform === "win32";
const ENDPOINT_MAGIC = "hermes-hooks endpoint 1";
export const AUTH_HEADER = "Hermes-Hooks-Auth";

/** The server is not there or is not to be trusted: dispatch one-shot instead. */
export class ServerDown extends Error {}

/** $HERMES_HOME, else ~/.hermes. */
export function hermesHome() {
  return process.env.HERMES_HOME || join(homedir(), ".hermes");
}

/** Where `serve --user` listens by default (server.UserAddr). */
export function userAddress() {
  return WINDOWS ? "token://" + join(hermesHome(), "run", "hermes-hooks.endpoint")
    : "unix://" + join(hermesHome(), "run", "hermes-hooks.sock");
}

/** Where a per-project serve listens by default (server.DefaultAddr). */
export function defaultAddress() {
  return WINDOWS ? "token://" + join(hermesHome(), "hermes-hooks.endpoint")
    : "unix://" + join(hermesHome(), "hermes-hooks.sock");
}

const present = (path) => {
  try {
    lstatSync(path); // server.Present: any file, not followed
    return true;
  } catch {
    return false;
  }
};

/** The server to ask (an address), or null for none: hook's hookServer. */
export function chooseServer(server) {
  if (server === false || server === "") return null;
  if (server) {
    // A socket's path, as HERMES_HOOKS_SERVER may name it for `hook` too.
    const target = String(server);
    return target.includes("://") ? target : "unix://" + resolve(target);
  }
  const env = process.env.HERMES_HOOKS_SERVER ?? "";
  if (env === "off") return null;
  if (env.includes("://")) return env;
  if (env) return "unix://" + resolve(env);
  for (const address of [userAddress(), defaultAddress()]) {
    if (present(address.slice(address.indexOf("://") + 3))) return address;
  }
  return null;
}

/** {kind: "unix" | "token", path} of an address; ServerDown for any other. */
export function parseTarget(target) {
  const unsupported = () => new ServerDown(`unsupported server address ${JSON.stringify(target)} (use unix:///path or token:///path)`);
  if (target.startsWith("token://")) {
    // server.ParseAddr: not a URL (C:\... on Windows).
    const p = target.slice("token://".length);
    if (!p) throw unsupported();
    return { kind: "token", path: resolve(p) };
  }
  let u;
  try {
    u = new URL(target);
  } catch {
    throw unsupported();
  }
  if (u.protocol === "tcp:" || u.protocol === "http:") {
    // Whoever listens on a port is unknown: while the server is down any
    // local user can take it, read every tool call and answer "no
    // objection" (and an address in the environment must not carry the
    // calls off the machine). token:// proves a key instead.
    throw new ServerDown("a tcp:// server cannot prove which user runs it (use unix:// or token://)");
  }
  if (u.protocol !== "unix:") throw unsupported();
  return { kind: "unix", path: decodeURIComponent(u.pathname) };
}

const mode = (m) => (m & 0o7777).toString(8).padStart(4, "0");
const untrusted = (why) => new ServerDown(`not private to you: ${why}`);

// The directory of a socket or endpoint file must be ours and not
// writable by others (nobody else could have put the file there or swap
// it); what is above it must be ours or root's and not writable by others
// unless sticky, so that the directory checked is the one used. Returns
// dir with its links resolved.
function trustedDir(dir, what) {
  const me = process.geteuid();
  const dt = statSync(dir);
  if (dt.uid !== me) throw untrusted(`the ${what}'s directory ${dir} is owned by uid ${dt.uid}, not by you (uid ${me})`);
  if (dt.mode & 0o022) throw untrusted(`the ${what}'s directory ${dir} has mode ${mode(dt.mode)}: others can write it`);
  for (let up = dirname(dir); ; up = dirname(up)) {
    const at = statSync(up);
    if (at.uid !== me && at.uid !== 0) throw untrusted(`${up}, above the ${what}, is owned by uid ${at.uid}`);
    if ((at.mode & 0o022) && !(at.mode & 0o1000)) {
      throw untrusted(`${up}, above the ${what}, has mode ${mode(at.mode)}: others could swap the ${what}'s directory`);
    }
    if (up === dirname(up)) return;
  }
}

// A server answers "no objection" or "block" for every call of its caller,
// so one another local user runs must never be asked: it would read every
// tool call and could let all of them through. These are the Go client's
// file rules (server/private.go TrustedSocket): the socket is ours, not
// open to group or others, in a directory we own that others cannot
// write. The Go client also reads the listening process's user from the
// kernel (SO_PEERCRED), which Node cannot (no getsockopt): instead every
// directory above the socket's must be one nobody else could have
// swapped (trustedDir), so that the socket checked is the one connected
// to, and only this user (or root) can have bound it. The path connected
// to is the checked one, its directories resolved. Throws ServerDown
// saying why; returns the path.
export function trustedSocket(path) {
  if (typeof process.geteuid !== "function") return path; // Windows: no Unix modes (as the Go client)
  const me = process.geteuid();
  let dir;
  try {
    dir = realpathSync(dirname(path));
  } catch (e) {
    throw new ServerDown(e.code === "ENOENT" ? "not running (no socket file)" : `socket directory ${dirname(path)}: ${e.message}`);
  }
  const sock = join(dir, basename(path));
  let st;
  try {
    st = lstatSync(sock);
  } catch (e) {
    throw new ServerDown(e.code === "ENOENT" ? "not running (no socket file)" : `socket ${path}: ${e.message}`);
  }
  if (!st.isSocket()) throw untrusted(`${path} is not a socket`);
  if (st.uid !== me) throw untrusted(`the socket ${path} is owned by uid ${st.uid}, not by you (uid ${me})`);
  if (st.mode & 0o077) throw untrusted(`the socket ${path} has mode ${mode(st.mode)}, open to other users`);
  trustedDir(dir, "socket");
  return sock;
}

// The contents of the endpoint file at path (at most 4 KiB) once it may
// be believed (server/token.go trustedEndpoint): a regular file of this
// user's that nobody else can read (it holds the key) or replace. On
// Windows the file's access list, which serve sets, keeps others out: not
// read here, as in Go.
function endpointFile(path) {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    throw new ServerDown(e.code === "ENOENT" ? "not running (no endpoint file)" : `endpoint file ${path}: ${e.message}`);
  }
  if (!st.isFile()) throw untrusted(`${path} is not an endpoint file`);
  if (typeof process.geteuid === "function") {
    const me = process.geteuid();
    if (st.uid !== me) throw untrusted(`the endpoint file ${path} is owned by uid ${st.uid}, not by you (uid ${me})`);
    if (st.mode & 0o077) throw untrusted(`the endpoint file ${path} has mode ${mode(st.mode)}, open to other users`);
    trustedDir(realpathSync(dirname(path)), "endpoint file");
  }
  const fd = openSync(path, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
  try {
    // The file read is the one checked: not swapped in between.
    const now = fstatSync(fd);
    if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) throw untrusted(`${path} changed while it was checked`);
    const buf = Buffer.alloc(4097);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString("latin1");
  } finally {
    closeSync(fd);
  }
}

/**
 * A token:// server (serve's loopback TCP transport): where it listens and
 * the key both sides prove. Every request proves the key; a reply is
 * believed only when it proves it back, so what listens on a port a dead
 * server left cannot answer.
 */
export function readEndpoint(path) {
  let text;
  try {
    text = endpointFile(path);
  } catch (e) {
    throw e instanceof ServerDown ? e : new ServerDown(`endpoint file ${path}: ${e.message}`);
  }
  const lines = text.split("\n");
  if (lines.length !== 4 || lines[3] !== "" || lines[0] !== ENDPOINT_MAGIC) throw new ServerDown(`${path}: not a hermes-hooks endpoint file`);
  const addr = lines[1];
  const m = /^(?:\[([^\]]*)\]|([^:[\]]*)):([0-9]+)$/.exec(addr);
  const host = m ? (m[1] ?? m[2]) : "";
  const port = m ? Number(m[3]) : 0;
  const loopback = (isIP(host) === 4 && host.startsWith("127.")) || (isIP(host) === 6 && /^(0*:)*:?0*1$/.test(host));
  if (!m || !loopback || String(port) !== m[3] || port < 1 || port > 65535) {
    throw new ServerDown(`${path}: endpoint address ${JSON.stringify(addr)} is not a loopback IP and port`);
  }
  if (!/^[0-9a-f]{64}$/.test(lines[2])) throw new ServerDown(`${path}: endpoint key is not 32 bytes of lowercase hex`);
  const key = Buffer.from(lines[2], "hex");
  const mac = (label, nonce) => createHmac("sha256", key).update(`${label}\0${nonce}`).digest("hex");
  return {
    addr, host, port, path,
    /** A fresh nonce and the request's AUTH_HEADER value. */
    auth() {
      const nonce = randomBytes(16).toString("hex");
      return { nonce, header: `${nonce}.${mac("request", nonce)}` };
    },
    /** Throws ServerDown unless the reply's headers prove the key for nonce. */
    checkReply(nonce, headers, status) {
      const got = Buffer.from(headers["hermes-hooks-proof"] ?? "", "latin1");
      const want = Buffer.from(mac("reply", nonce), "latin1");
      if (got.length !== want.length || !timingSafeEqual(got, want)) {
        throw untrusted(`what answers at ${addr} (from ${path}) does not prove it holds the endpoint's key (HTTP ${status}): not the server that wrote it`);
      }
    },
  };
}

/**
 * The working directory the one-shot `hermes-hooks dispatch`, started in
 * cwd (undefined: here), has (Go's os.Getwd): $PWD — inherited — when it
 * names that directory, else the directory's real path. A user-level serve
 * runs the hooks there, as the one-shot does.
 */
export function workdir(cwd) {
  const where = resolve(cwd || ".");
  if (WINDOWS) return where;
  const pwd = process.env.PWD ?? "";
  if (pwd.startsWith("/")) {
    try {
      const a = statSync(pwd);
      const b = statSync(where);
      if (a.dev === b.dev && a.ino === b.ino) return pwd;
    } catch { /* gone: the real path */ }
  }
  try {
    return realpathSync.native(where);
  } catch {
    return where;
  }
}

/** The one-shot's project directory (protocol.Firing.Bind): the payload's cwd when it names a directory, else its working directory. */
export function projectOf(fields, cwd, wd) {
  const host = fields.cwd;
  if (typeof host === "string" && host) {
    try {
      if (statSync(resolve(cwd || ".", host)).isDirectory()) return host;
    } catch { /* not a directory: the working directory */ }
  }
  return wd;
}

// The program a name runs, as spawn finds it on PATH (null: none).
function which(binary) {
  const candidates = binary.includes("/") || (WINDOWS && binary.includes("\\")) ? [resolve(binary)]
    : (process.env.PATH ?? "").split(delimiter).filter(Boolean).map((d) => join(d, binary));
  // Windows: spawn (libuv) tries these endings too.
  for (const c of candidates.flatMap((c) => (WINDOWS ? [c, c + ".exe", c + ".com"] : [c]))) {
    try {
      accessSync(c, fsc.X_OK);
      if (statSync(c).isFile()) return c;
    } catch { /* not this one */ }
  }
  return null;
}

// The versions of the hermes-hooks programs asked, by path and the file's
// identity: one `hermes-hooks version` per program (and per upgrade of it)
// in a host's life, not one per call.
const versions = new Map();
const VERSION_TIMEOUT = 10_000;

/**
 * The version of the hermes-hooks program the one-shot would run, as serve
 * names its own (Hermes-Hooks-Version); "" when it cannot be told (which no
 * server's matches); null when there is no such program (the server is then
 * the only hermes-hooks there is to ask).
 */
export async function binaryVersion(binary, deadline) {
  const path = which(binary);
  if (path === null) return null;
  let st;
  try {
    st = statSync(path);
  } catch {
    return null;
  }
  const key = [path, st.dev, st.ino, st.size, st.mtimeMs].join("\0");
  if (!versions.has(key)) {
    const out = await new Promise((res) => {
      const timeout = Math.max(1, Math.min(VERSION_TIMEOUT, deadline - Date.now()));
      execFile(path, ["version"], { timeout, encoding: "utf8" }, (err, stdout) => res(err ? null : stdout));
    });
    const m = /^hermes-hooks (\S+) \(/.exec(out ?? "");
    if (!m) return "";
    versions.set(key, m[1]);
  }
  return versions.get(key);
}
