// run_analysis's engine: the program runs in QuickJS (WebAssembly) in a worker thread, a fresh runtime
// per run, and reaches the host only through `api`. The pool loads on the first run, not at start.

import type { PoolOptions, SandboxPool } from './pool.js';
import type { FailureKind } from './protocol.js';

export type { FailureKind } from './protocol.js';
export { GLOBALS } from './protocol.js';

/** The host side of the program's `api`: what the tool (src/tools/run-analysis.ts) gives the engine. */
export interface AnalysisHost {
  /**
   * Each `api.<name>(args)`, `args` a JSON copy made in the guest (`api.x()` gives `{}`). Resolves to a JSON
   * value the guest gets a copy of; a rejection's message is the Error the program sees. When the run ends,
   * `run.signal` aborts and a pending answer is dropped.
   */
  call(name: string, args: unknown, run: { signal: AbortSignal }): Promise<unknown>;
}

export interface RunOptions {
  /** The api.* functions to expose; another name throws in the guest with the closest names first. */
  apiNames: readonly string[];
  /** Wall clock from the program's start, held on the main thread; the wait for a sandbox too (then 'busy'). */
  timeoutMs: number;
  /** The QuickJS runtime's memory limit; default 64 MiB. */
  memoryBytes?: number;
  /** Cancellation (or a host-side limit such as the request cap): ends the run at once, as 'cancelled'. */
  signal?: AbortSignal;
  /** Whose run this is, for fair turns between callers (round robin); runs without one share a queue. */
  caller?: string | object;
}

/**
 * How a run ended: `value` as JSON gave it (undefined as null; BigInt, Infinity, NaN as strings); `logs`
 * the console lines kept (200 lines, 16 KiB), `logsCut` those left out; `line`/`column` 1-based, as written.
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
