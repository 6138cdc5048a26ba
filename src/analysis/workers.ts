// The sandbox workers: kept warm (the WebAssembly compiled once per process), started while runs wait,
// ended when idle past the warm ones, replaced when no longer trusted.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type FromWorker, type WasmModule, type WorkerSetup, wasmApi } from './protocol.js';

const MiB = 1024 * 1024;
export const DEFAULT_MEMORY = 64 * MiB;
/** A worker whose WebAssembly memory grew past this (it never shrinks) is replaced after its run. */
export const RETIRE_WASM_BYTES = 32 * MiB;
/** The hard bound on a worker's WebAssembly memory, even inside one long builtin. */
const MAX_WASM_BYTES = RETIRE_WASM_BYTES + DEFAULT_MEMORY;
/** Each run leaves its QuickJS runtime behind (worker.ts): a worker is replaced after this many. */
export const RETIRE_RUNS = 1000;
/** An idle worker beyond the warm ones is ended after this long unused. */
const IDLE_MS = 30_000;

// Set by the bundle; from source or tsc's output, the last build's.
declare const __ANALYSIS_DIR__: string | undefined;
const filesDir = (): URL =>
  typeof __ANALYSIS_DIR__ === 'string'
    ? new URL(__ANALYSIS_DIR__, import.meta.url)
    : new URL(import.meta.url.endsWith('.ts') ? '../../dist/server/' : '../../server/', import.meta.url);
export const WORKER_FILE = 'analysis-worker.js';
export const WASM_FILE = 'quickjs.wasm';

let compiled: Promise<WasmModule> | undefined;
/** The QuickJS WebAssembly, compiled once in the process (on the first run) and shared by every worker. */
function compiledQuickJS(): Promise<WasmModule> {
  compiled ??= readFile(fileURLToPath(new URL(WASM_FILE, filesDir()))).then((bytes) =>
    wasmApi.compile(bytes),
  );
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

export type Slot = { worker: Worker; runs: number; logsCut: Int32Array; idleTimer?: NodeJS.Timeout };

/** Workers at most `maxWorkers`, busy or idle, of which `warm` are kept idle and ready. */
export class Workers {
  readonly #idle: Slot[] = [];
  /** Runs that found no idle worker, waiting for the next one to come free or start. */
  readonly #waitingForWorker: Array<{ resolve: (slot: Slot) => void; reject: (error: Error) => void }> = [];
  readonly #spawning = new Set<Promise<Slot>>();
  readonly #all = new Set<Slot>();
  #starting = 0;
  started = 0;
  closed = false;

  constructor(readonly options: { maxWorkers: number; warm: number }) {}

  get workers(): number {
    return this.#all.size + this.#starting;
  }

  /** Starts the warm workers now rather than at the first run; resolves when they are ready. */
  async warmUp(): Promise<void> {
    this.#replenish();
    await Promise.all([...this.#spawning]);
  }

  /** Ends every worker (tests, shutdown); runs in progress end as 'internal'. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.#waitingForWorker.splice(0))
      waiting.reject(new Error('the sandbox pool closed'));
    await Promise.allSettled([...this.#spawning]);
    await Promise.all([...this.#all].map((slot) => slot.worker.terminate()));
    this.#all.clear();
    this.#idle.length = 0;
  }

  /** An idle worker, or the next to come free or start (never more than maxWorkers in all). */
  acquire(): Promise<Slot> {
    const idle = this.#idle.pop();
    if (idle) return Promise.resolve(idle);
    return new Promise((resolve, reject) => {
      this.#waitingForWorker.push({ resolve, reject });
      this.#replenish();
    });
  }

  /** Starts workers while runs wait for one or fewer than the warm ones are idle, within maxWorkers. */
  #replenish(): void {
    const { warm, maxWorkers } = this.options;
    const waiting = this.#waitingForWorker.length;
    while (
      !this.closed &&
      // Runs waiting come first: the warm spares start once none is (on two cores they would slow it).
      (this.#starting < waiting || (waiting === 0 && this.#idle.length + this.#starting < warm)) &&
      this.#all.size + this.#starting < maxWorkers
    ) {
      const spawning: Promise<Slot> = this.#spawn().finally(() => this.#spawning.delete(spawning));
      this.#spawning.add(spawning);
      const failed = (error: Error) => this.#waitingForWorker.shift()?.reject(error);
      spawning.then((slot) => this.release(slot), failed);
    }
  }

  /** A new worker, resolved once it has instantiated QuickJS and warmed it up. */
  async #spawn(): Promise<Slot> {
    this.#starting++;
    this.started++;
    let worker: Worker | undefined;
    try {
      const wasm = await compiledQuickJS();
      const logsCut = new SharedArrayBuffer(4);
      worker = new Worker(new URL(WORKER_FILE, filesDir()), {
        workerData: { wasm, maxWasmBytes: MAX_WASM_BYTES, logsCut } satisfies WorkerSetup,
        // The worker's own JavaScript heap (the guest's memory is WebAssembly memory, bounded apart).
        resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
        // Its stdout must never reach the stdio transport: anything it prints goes to stderr.
        stdout: true,
      });
      worker.stdout.pipe(process.stderr, { end: false });
      worker.unref();
      const started = worker;
      await new Promise<void>((resolve, reject) => {
        const onMessage = (m: FromWorker) => {
          if (m.t !== 'ready') return;
          started.off('error', reject).off('exit', onExit).off('message', onMessage);
          resolve();
        };
        const onExit = (code: number) =>
          reject(new Error(`the worker exited with code ${code} while starting`));
        started.on('message', onMessage).once('error', reject).once('exit', onExit);
      });
      const slot: Slot = { worker, runs: 0, logsCut: new Int32Array(logsCut) };
      // A worker that fails or ends outside a run is dropped (and its 'error' always has a listener).
      const drop = () => {
        this.#unidle(slot);
        if (this.#all.delete(slot)) this.#replenish();
      };
      worker.on('error', drop).on('exit', drop);
      this.#all.add(slot);
      return slot;
    } catch (error) {
      void worker?.terminate();
      throw error;
    } finally {
      this.#starting--;
    }
  }

  #unidle(slot: Slot): boolean {
    const index = this.#idle.indexOf(slot);
    if (index >= 0) this.#idle.splice(index, 1);
    return index >= 0;
  }

  /** A worker back: to a run waiting for one, else to the idle ones (beyond the warm count, ended if unused). */
  release(slot: Slot) {
    if (this.closed) return this.retire(slot);
    const waiting = this.#waitingForWorker.shift();
    if (waiting) {
      waiting.resolve(slot);
      return this.#replenish();
    }
    this.#idle.push(slot);
    if (this.#idle.length <= this.options.warm) return;
    slot.idleTimer = setTimeout(() => {
      if (!this.#unidle(slot)) return;
      this.#all.delete(slot);
      void slot.worker.terminate();
    }, IDLE_MS);
    slot.idleTimer.unref();
  }

  /** Ends a worker that is busy in the guest or no longer trusted, and starts what is missing. */
  retire(slot: Slot): void {
    this.#all.delete(slot);
    void slot.worker.terminate();
    this.#replenish();
  }
}
