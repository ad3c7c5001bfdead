// Types of the hermes-hooks Node client (index.mjs).

export type Decision = "none" | "allow" | "ask" | "block";

/** One matching hook's report (an item of Outcome.hooks). */
export interface HookReport {
  event: string;
  command: string;
  dialect: "hermes" | "claude";
  matcher?: string;
  source?: string;
  ran: boolean;
  skipped?: string;
  exit_code: number | null;
  elapsed_ms: number;
  timed_out: boolean;
  error?: string;
  stdout_truncated?: boolean;
  stderr_truncated?: boolean;
  note?: string;
  /** The reply refused in another dialect's words, which this hook's dialect does not read. */
  foreign_refusal?: boolean;
  shadow?: boolean;
  would?: string;
  /** A rule's verdict on the call as another hook rewrote it. */
  rejudged?: boolean;
  contribution: Record<string, unknown> | null;
  [member: string]: unknown;
}

/** The outcome of one event firing (protocol/outcome.schema.json). */
export declare class Outcome {
  constructor(obj: unknown, via?: "server" | "oneshot");
  static fromJSON(obj: unknown, via?: "server" | "oneshot"): Outcome;
  event: string;
  decision: Decision;
  message?: string;
  rule_key?: string;
  args?: Record<string, unknown>;
  context?: string;
  stop: boolean;
  stop_reason?: string;
  system_message?: string;
  result?: string;
  inject_system?: string;
  inject_user?: string;
  metadata?: Record<string, unknown>;
  env?: Record<string, unknown>;
  /** The hooks' hookSpecificOutput members hermes-hooks does not model (Claude dialect). */
  hook_specific?: Record<string, unknown>;
  /** A Claude-dialect reply's terminalSequence, for Claude Code to emit. */
  terminal_sequence?: string;
  /** A Claude-dialect "defer" won (decision is "none"); hook claude answers Claude Code "defer". */
  deferred?: boolean;
  /** How many of a repository's hooks were skipped as not approved. */
  unapproved?: number;
  hooks: HookReport[];
  [member: string]: unknown;
  /** How the answer was obtained; not part of the JSON. */
  readonly via: "server" | "oneshot" | undefined;
  /** decision === "block". */
  readonly blocked: boolean;
  /** The outcome JSON object, exactly as read. */
  toJSON(): Record<string, unknown>;
}

export interface DispatchOptions {
  /** "unix:///path.sock" or the socket's path, or "token:///path.endpoint"; undefined: as `hermes-hooks hook` finds it (HERMES_HOOKS_SERVER, "off" for none; else $HERMES_HOME/run/hermes-hooks.sock of `serve --user`, else $HERMES_HOME/hermes-hooks.sock, when present); false: never. A socket or endpoint file that is not provably this user's, or a tcp:// address, is not asked: the call is dispatched one-shot, with a warning. */
  server?: string | false;
  /** The hermes-hooks program for one-shot dispatches (default "hermes-hooks" on PATH). */
  binary?: string;
  /** Milliseconds for the whole call, server attempt and fallback included (default 330000). */
  timeout?: number;
  /** A config other than $HERMES_HOME/config.yaml. */
  config?: string;
  /** The host's working directory (default: process.cwd()). */
  cwd?: string;
  /** Receives the one-shot dispatch's warnings (stderr). */
  onStderr?: (text: string) => void;
}

/** Hermes' directive shape: {"action": …}, {"context": …}, {"result": …} or {}. */
export type HermesDirective = Record<string, unknown>;

export declare const DEFAULT_TIMEOUT: number;
export declare function dispatch(event: string, fields?: Record<string, unknown>, options?: DispatchOptions): Promise<Outcome>;
export declare function dispatchHermes(event: string, fields?: Record<string, unknown>, options?: DispatchOptions): Promise<HermesDirective>;
export declare function hermesHome(): string;
export declare function defaultSocket(): string;
export declare function userSocket(): string;

export declare class HermesHooksError extends Error {}
export declare class BinaryNotFoundError extends HermesHooksError {}
export declare class ServerNotAnsweringError extends HermesHooksError {}
export declare class BadOutcomeError extends HermesHooksError {}
export declare class DispatchError extends HermesHooksError {}
export declare class DispatchTimeoutError extends HermesHooksError {}
