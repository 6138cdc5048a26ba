// run_analysis's engine: the assistant's program runs in QuickJS (WebAssembly) in a worker thread, with a
// fresh runtime and context per run, and reaches the host only through `api` (see AnalysisHost). Nothing
// here loads the WebAssembly: the pool (src/analysis/pool.ts) is imported, and the module compiled, on the
// first run, so the server's cold start does not change.

import type { PoolOptions, SandboxPool } from './pool.js';
import type { FailureKind } from './protocol.js';

export type { FailureKind } from './protocol.js';
export { GLOBALS } from './protocol.js';

/** The host side of the program's `api`: what the tool (src/tools/run-analysis.ts) gives the engine. */
export interface AnalysisHost {
  /**
   * Each `api.<name>(args)` the program makes. `args` is a plain JSON copy taken in the guest (made with
   * JSON.stringify there, parsed here; `api.x()` gives `{}`). Resolves to a JSON-serialisable value, which
   * the guest receives as a parsed copy; rejects with an Error whose message the program's `catch` sees as
   * an Error with that message (an uncaught one ends the run as 'runtime', at the line of the api call).
   * Never called after the run has ended; a call still pending then is abandoned (its answer is dropped)
   * and `run.signal` is aborted, so that the host can stop its requests (on timeout, cancellation, an
   * error, or a program that returned without awaiting everything).
   */
  call(name: string, args: unknown, run: { signal: AbortSignal }): Promise<unknown>;
}

export interface RunOptions {
  /** The api.* functions to expose; another name throws in the guest with the closest names first. */
  apiNames: readonly string[];
  /**
   * Wall clock for the run, from the moment the program starts (not while it waits for a sandbox),
   * enforced on the main thread: it holds while the guest awaits the host or sits in a long builtin.
   * Waiting for a sandbox is bounded separately, by the same figure (then 'busy').
   */
  timeoutMs: number;
  /** The QuickJS runtime's memory limit; default 64 MiB. */
  memoryBytes?: number;
  /** Cancellation (or a host-side limit such as the request cap): ends the run at once, as 'cancelled'. */
  signal?: AbortSignal;
  /** Whose run this is, for fair turns between callers (round robin); runs without one share a queue. */
  caller?: string | object;
}

/**
 * How a run ended. `logs` are the program's console lines, kept within a bound (200 lines, 16 KiB; a line
 * over 2,000 characters is shortened), and `logsCut` counts the lines left out; both come with a failure
 * too, to show how far the program got. `value` is the program's return value as JSON gave it (undefined
 * as null, BigInt, Infinity and NaN as strings, functions dropped as JSON.stringify drops them).
 * Failures: 'syntax' (the program does not parse), 'runtime' (an uncaught exception), 'timeout', 'memory'
 * (past the memory limit), 'stack' (recursion too deep), 'cancelled' (the signal), 'busy' (too many runs
 * waiting: this caller's share, or the wait ran out), 'answer_too_large' (the answer's JSON past the
 * engine's limit, ANSWER_MAX_CHARS characters, measured in the worker: the budgeting under that is the tool's), 'internal' (the engine failed).
 * `line` and `column` are 1-based, in the program as written (syntax and runtime errors, where known).
 */
export type RunOutcome =
  | { ok: true; value: unknown; logs: string[]; logsCut: number }
  | {
      ok: false;
      kind: FailureKind;
      message: string;
      line?: number;
      column?: number;
      logs: string[];
      logsCut: number;
    };

let pool: Promise<SandboxPool> | undefined;
const shared = () => {
  pool ??= import('./pool.js').then(({ SandboxPool }) => new SandboxPool());
  return pool;
};

/** Runs `code` (the body of an async function; its `return` is the answer) in the shared sandbox pool. */
export async function runAnalysis(code: string, host: AnalysisHost, opts: RunOptions): Promise<RunOutcome> {
  return (await shared()).run(code, host, opts);
}

/** A pool of one's own (tests, the bench): sizes and limits other than the server's. */
export async function createSandboxPool(options: PoolOptions = {}): Promise<SandboxPool> {
  const { SandboxPool } = await import('./pool.js');
  return new SandboxPool(options);
}
