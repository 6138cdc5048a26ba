// The messages between the main thread (pool.ts) and a sandbox worker (worker.ts): plain data only.

/** The globals a program finds besides the JavaScript built-ins (prelude.ts defines them). */
export const GLOBALS = ['api', 'sum', 'mean', 'median', 'maxBy', 'minBy', 'sortBy', 'console'] as const;

/** The answer's JSON, in characters, past which the worker refuses it (it never crosses). */
export const ANSWER_MAX_CHARS = 1024 * 1024;
/** An api call's arguments, in JSON characters, past which guest and pool refuse it (500 ids take 24,000). */
export const ARGS_MAX_CHARS = 64 * 1024;
/** Named parameters an api call may have (every tool has fewer): more are refused in the guest. */
export const PARAMS_MAX = 16;

export type FailureKind =
  | 'syntax'
  | 'runtime'
  | 'timeout'
  | 'memory'
  | 'cancelled'
  | 'stack'
  | 'busy'
  | 'answer_too_large'
  | 'answer_too_deep'
  | 'internal';

export type RunFailure = { ok: false; kind: FailureKind; message: string; line?: number; column?: number };

export interface WorkerSetup {
  /** The QuickJS module, compiled once in the process and instantiated in each worker. */
  wasm: WasmModule;
  /** The hard ceiling of the worker's WebAssembly memory, in bytes (the runtime's own limit is lower). */
  maxWasmBytes: number;
  /** One Int32 the worker counts cut log lines in: readable even after the worker is terminated. */
  logsCut: SharedArrayBuffer;
}

export type ToWorker =
  | { t: 'run'; code: string; apiNames: readonly string[]; memoryBytes: number; maxAnswerChars: number }
  | { t: 'settle'; id: number; ok: true; json: string }
  | { t: 'settle'; id: number; ok: false; message: string };

/** A run's end as the worker reports it (the logs travel separately, line by line). */
export type WorkerOutcome = { ok: true; json: string } | RunFailure;

export type FromWorker =
  | { t: 'ready' }
  | { t: 'log'; text: string }
  | { t: 'call'; id: number; name: string; args: string }
  /** `reusable` false: the worker must be ended; `wasmBytes`: its memory now (it never shrinks). */
  | { t: 'done'; outcome: WorkerOutcome; reusable: boolean; wasmBytes: number };

// Opaque here: @types/node 20 has no WebAssembly types.
export type WasmModule = { readonly __wasmModule: unique symbol };
export type WasmMemory = { readonly buffer: ArrayBuffer };

type WasmApi = {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
};
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
