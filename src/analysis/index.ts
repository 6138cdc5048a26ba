// run_analysis's engine: the program runs in QuickJS (WebAssembly) in a worker thread, a fresh runtime
// per run, and reaches the host only through `api`. The pool loads on the first run, not at start.
import type { PoolOptions, SandboxPool } from './pool.js';
import type { RunFailure } from './protocol.js';

export type { FailureKind } from './protocol.js';
export { GLOBALS } from './protocol.js';

/** The host side of the program's `api` (src/tools/run-analysis.ts). */
export interface AnalysisHost {
  // Each `api.<name>(args)`, `args` a JSON copy made in the guest; resolves to JSON the guest gets a copy of,
  // a rejection's message is the Error the program sees. `run.signal` aborts when the run ends.
  call(name: string, args: unknown, run: { signal: AbortSignal }): Promise<unknown>;
}

export interface RunOptions {
  /** The api.* functions to expose; another name throws in the guest with the closest names first. */
  apiNames: readonly string[];
  /** Wall clock from the program's start, held on the main thread; the wait for a sandbox too (then 'busy'). */
  timeoutMs: number;
  /** The QuickJS runtime's memory limit; default 64 MiB. */
  memoryBytes?: number;
  /** Ends the run at once, as 'cancelled' (cancellation, or a host-side limit such as the request cap). */
  signal?: AbortSignal;
  /** Whose run this is, for fair turns between callers; runs without one share a queue. */
  caller?: string;
}

// How a run ended: `value` as JSON gave it (undefined as null; BigInt, Infinity, NaN as strings); `logs` the
// console lines kept, `logsCut` those left out; `line`/`column` 1-based, as the program was written.
export type RunOutcome = ({ ok: true; value: unknown } | RunFailure) & { logs: string[]; logsCut: number };

let pool: Promise<SandboxPool> | undefined;

/** Runs `code` (the body of an async function; its `return` is the answer) in the shared sandbox pool. */
export async function runAnalysis(code: string, host: AnalysisHost, opts: RunOptions): Promise<RunOutcome> {
  pool ??= createSandboxPool();
  return (await pool).run(code, host, opts);
}

/** A pool of one's own (tests, the bench): sizes and limits other than the server's. */
export async function createSandboxPool(options: PoolOptions = {}): Promise<SandboxPool> {
  const { SandboxPool } = await import('./pool.js');
  return new SandboxPool(options);
}
