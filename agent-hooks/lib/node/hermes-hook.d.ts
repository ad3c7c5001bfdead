// Types of hermes-hook.mjs: a hook's handler gets the payload and returns
// its reply (null or {} for no opinion), or throws an Exit.

/** The key of a worker request's id, in the payload and in the reply. */
export const REQUEST_ID: "hermes_hooks_request_id";

/** A reply by exit status: new Exit(2, "reason") is Claude's exit-2 block. */
export class Exit extends Error {
  constructor(code: number, stderr?: string);
  code: number;
  stderr: string;
}

export type Handler = (payload: any) => unknown | Promise<unknown>;

/** Runs handler for every event this process is given: one-shot, or as a worker. */
export function serve(handler: Handler): Promise<void>;
