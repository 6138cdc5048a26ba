// Runs of the sandbox, one per worker (workers.ts), in fair turns between callers. The main thread owns every
// limit that must hold whatever the guest does: the clock, cancellation, ending a worker no longer trusted.
import { Limiter, PlacesBusy } from '../limits/places.js';
import { Switch } from '../limits/switch.js';
import type { AnalysisHost, RunOptions, RunOutcome } from './index.js';
import {
  ANSWER_MAX_CHARS,
  ARGS_MAX_CHARS,
  type FailureKind,
  type FromWorker,
  type ToWorker,
  type WorkerOutcome,
} from './protocol.js';
import { DEFAULT_MEMORY, RETIRE_RUNS, RETIRE_WASM_BYTES, type Slot, Workers } from './workers.js';

export { WASM_FILE, WORKER_FILE } from './workers.js';

export interface PoolOptions {
  /** Workers at most, busy or idle (each runs one program at a time). Default 4. */
  maxWorkers?: number;
  /** Idle workers kept ready. Default 2. */
  warm?: number;
  /** Runs one caller may have at once, so other callers keep the other workers. Default half of maxWorkers. */
  maxRunningPerCaller?: number;
  /** Runs one caller may have waiting; beyond, 'busy' at once. Default 8. */
  maxWaitingPerCaller?: number;
  /** Runs waiting in all; beyond, 'busy' at once. Default 64. */
  maxWaiting?: number;
  /** The answer's JSON beyond this many characters is refused in the worker. Default 1 MiB. */
  maxAnswerChars?: number;
}

/** A new caller's wait for its turn, at most, in runs' time limits. */
const WAIT_TURNS_MAX = 4;
/** A worker's replacement start, allowed for in a wait of several turns (generous: two loaded cores). */
const RESTART_MS = 1_000;

export class SandboxPool extends Workers {
  readonly #limiter: Limiter;
  /** Each caller's own turn-taking, made when it asks, dropped when it has no run. */
  readonly #callers = new Map<string, Limiter>();
  readonly #options: Required<PoolOptions>;

  constructor(options: PoolOptions = {}) {
    const maxWorkers = options.maxWorkers ?? 4;
    const all = {
      maxWorkers,
      maxRunningPerCaller: Math.max(1, Math.floor(maxWorkers / 2)),
      warm: 2,
      maxWaitingPerCaller: 8,
      maxWaiting: 64,
      maxAnswerChars: ANSWER_MAX_CHARS,
      ...options,
    };
    super(all);
    this.#options = all;
    this.#limiter = new Limiter({ limit: maxWorkers });
  }

  async run(code: string, host: AnalysisHost, opts: RunOptions): Promise<RunOutcome> {
    if (this.closed) return failed('internal', 'the sandbox pool is closed');
    if (opts.signal?.aborted) return failed('cancelled', NOT_STARTED);
    let waiting = this.#limiter.waiting;
    for (const own of this.#callers.values()) waiting += own.waiting;
    if (waiting >= this.#options.maxWaiting) return busy(`${waiting} runs are waiting`);
    const caller = opts.caller ?? '';
    // A new caller's turn comes after each other caller's (round robin): it waits that many runs, at most
    // WAIT_TURNS_MAX, so many callers delay it but do not refuse it. Its further runs wait one run's time.
    const turns = this.#callers.has(caller)
      ? 1
      : Math.min(WAIT_TURNS_MAX, Math.ceil((this.#callers.size + 1) / this.#options.maxWorkers));
    const waitMs = opts.timeoutMs * turns + RESTART_MS * (turns - 1);
    const wait = new Switch();
    const onAbort = () => wait.abort('cancelled');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const waitTimer = setTimeout(() => wait.abort('waited'), waitMs);
    const stopWaiting = () => {
      clearTimeout(waitTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    // First the caller's own turn, then a worker in fair turns: one caller's programs never hold every worker.
    const { maxRunningPerCaller: limit, maxWaitingPerCaller } = this.#options;
    const own = this.#callers.get(caller) ?? new Limiter({ limit, maxWaitingPerCaller });
    this.#callers.set(caller, own);
    try {
      const execute = () => {
        stopWaiting();
        return this.#execute(code, host, opts);
      };
      return await own.run(() => this.#limiter.run(execute, wait, caller), wait);
    } catch (error) {
      if (error === 'cancelled') return failed('cancelled', NOT_STARTED);
      if (error === 'waited') return busy(`no sandbox came free within ${waitMs / 1000} s`);
      if (error instanceof PlacesBusy)
        return busy(`this caller already has ${maxWaitingPerCaller} runs waiting`);
      return failed('internal', `the sandbox failed: ${(error as Error)?.message ?? error}`);
    } finally {
      stopWaiting();
      if (own.active === 0 && own.waiting === 0) this.#callers.delete(caller);
    }
  }

  /** One run in a worker of its own (taken from the idle ones, or started), under the run's clock. */
  async #execute(code: string, host: AnalysisHost, opts: RunOptions): Promise<RunOutcome> {
    let slot: Slot;
    try {
      slot = await this.acquire();
    } catch (error) {
      return failed('internal', `the sandbox did not start: ${(error as Error).message}`);
    }
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (opts.signal?.aborted) {
      this.release(slot);
      return failed('cancelled', NOT_STARTED);
    }
    // Aborted when the run ends, however it ends: the host stops what it still does for it.
    const runEnded = new AbortController();
    const { worker } = slot;
    const logs: string[] = [];
    let callsMade = 0;
    const pending = new Set<number>();

    return new Promise<RunOutcome>((resolve) => {
      let finished = false;
      const end = (outcome: WorkerOutcome | { ok: true; value: unknown }, keepWorker: boolean) => {
        if (finished) return;
        finished = true;
        runEnded.abort();
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        const logsCut = Atomics.load(slot.logsCut, 0);
        if (keepWorker) this.release(slot);
        else this.retire(slot);
        resolve({ ...(outcome as RunOutcome), logs, logsCut });
      };
      const progress = () =>
        callsMade === 0
          ? 'it had made no api call'
          : `it had made ${callsMade} api call${callsMade === 1 ? '' : 's'}${pending.size ? `, ${pending.size} still waiting for an answer` : ''}`;
      const fail = (kind: FailureKind, message: string, keep = false) =>
        end({ ok: false, kind, message }, keep);
      const limit = `the program ran past its ${opts.timeoutMs / 1000} s limit`;
      const timer = setTimeout(() => fail('timeout', `${limit} (${progress()})`), opts.timeoutMs);
      const onAbort = () => fail('cancelled', `the run was cancelled (${progress()})`);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const onError = (error: Error & { code?: string }) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? fail('memory', 'the program went past its memory limit')
          : fail('internal', `the sandbox failed: ${error.message}`);
      const onExit = () => fail('internal', 'the sandbox stopped unexpectedly');
      const onMessage = (message: FromWorker) => {
        if (finished) return;
        if (message.t === 'log') logs.push(message.text);
        else if (message.t === 'call') {
          const { id, name, args } = message;
          callsMade++;
          pending.add(id);
          const settle = (reply: ToWorker) => {
            pending.delete(id);
            if (!finished) worker.postMessage(reply);
          };
          Promise.resolve()
            .then(() => {
              // Only the names given: the guest's prelude calls no other, and nothing else is trusted.
              if (!opts.apiNames.includes(name)) throw new Error(`api.${name} is not a function`);
              if (args.length > ARGS_MAX_CHARS)
                throw new Error(`api.${name}: its arguments are over ${ARGS_MAX_CHARS} characters of JSON`);
              return host.call(name, JSON.parse(args), { signal: runEnded.signal });
            })
            .then(
              (value) => settle({ t: 'settle', id, ok: true, json: JSON.stringify(value) ?? 'null' }),
              (error: unknown) => {
                const text = error instanceof Error ? error.message : String(error);
                settle({ t: 'settle', id, ok: false, message: text });
              },
            );
        } else if (message.t === 'done') {
          const keep =
            message.reusable && message.wasmBytes <= RETIRE_WASM_BYTES && ++slot.runs < RETIRE_RUNS;
          const { outcome } = message;
          if (!outcome.ok) return end(outcome, keep);
          try {
            end({ ok: true, value: JSON.parse(outcome.json) }, keep);
          } catch (error) {
            fail('internal', `the answer did not parse: ${(error as Error).message}`, keep);
          }
        }
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      const { apiNames, memoryBytes = DEFAULT_MEMORY } = opts;
      const { maxAnswerChars } = this.#options;
      worker.postMessage({ t: 'run', code, apiNames, memoryBytes, maxAnswerChars } satisfies ToWorker);
    });
  }
}

const NOT_STARTED = 'the run was cancelled before it started';
function failed(kind: FailureKind, message: string): RunOutcome {
  return { ok: false, kind, message, logs: [], logsCut: 0 };
}
const busy = (why: string) =>
  failed('busy', `the sandbox is busy: ${why}; try again in a moment, or combine questions into one program`);
