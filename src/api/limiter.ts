import { BusyError } from './errors.js';
import type { Switch } from './switch.js';

export interface LimiterOptions {
  /** Tasks running at once. */
  limit: number;
  /** Tasks one caller may have waiting; beyond, its next task is refused at once with BusyError. */
  maxWaitingPerCaller?: number;
}

/**
 * At most `limit` tasks run at once; the rest wait, in one queue per caller, and a free slot goes to the
 * callers in turn (round robin): a caller with a hundred tasks waiting delays another caller's one task by
 * at most one task per caller ahead of it, not by a hundred. A waiter whose switch is thrown leaves its
 * queue. With one caller (stdio, or one key) this is the plain first-come-first-served queue.
 */
export class Limiter {
  #active = 0;
  #waiting = 0;
  /** Waiting tasks by caller; a caller's turn comes in the order the map keeps (re-added at the end). */
  readonly #queues = new Map<string, Array<() => void>>();
  /** Recent task time (ms, moving average), for the wait a busy caller is told. */
  #taskMs = 200;
  readonly limit: number;
  readonly maxWaitingPerCaller: number;

  constructor(options: LimiterOptions | number) {
    const o = typeof options === 'number' ? { limit: options } : options;
    this.limit = o.limit;
    this.maxWaitingPerCaller = o.maxWaitingPerCaller ?? Number.POSITIVE_INFINITY;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiting;
  }

  run<T>(task: () => Promise<T>, cancel: Switch, caller = ''): Promise<T> {
    // With a slot free and nobody waiting, start at once: no extra async frame on the hot path.
    if (this.#active < this.limit && this.#waiting === 0) return this.#start(task);
    const queue = this.#queues.get(caller);
    if ((queue?.length ?? 0) >= this.maxWaitingPerCaller) {
      // Past its share of waiting work: said at once, with how long its queue takes to drain.
      const turns = Math.ceil(
        (queue?.length ?? 0) / Math.max(1, this.limit / Math.max(1, this.#queues.size)),
      );
      const retryAfterMs = Math.min(30_000, Math.max(1_000, Math.round(turns * this.#taskMs)));
      return Promise.reject(
        new BusyError(`${queue?.length} upstream requests of this caller already waiting`, { retryAfterMs }),
      );
    }
    return this.#wait(cancel, caller).then(() => this.#start(task, true));
  }

  /** Runs a task in a slot: taken here, or already taken for it by #next (`reserved`). */
  #start<T>(task: () => Promise<T>, reserved = false): Promise<T> {
    if (!reserved) this.#active++;
    const started = performance.now();
    const release = () => {
      this.#active--;
      this.#taskMs = this.#taskMs * 0.9 + (performance.now() - started) * 0.1;
      this.#next();
    };
    let running: Promise<T>;
    try {
      running = task();
    } catch (error) {
      release();
      return Promise.reject(error);
    }
    return running.finally(release);
  }

  /** Starts the first waiting task of the caller whose turn it is; that caller goes to the back. */
  #next(): void {
    if (this.#active >= this.limit) return;
    const first = this.#queues.entries().next();
    if (first.done) return;
    const [caller, queue] = first.value;
    this.#queues.delete(caller);
    const go = queue.shift();
    if (queue.length) this.#queues.set(caller, queue);
    this.#waiting--;
    // The slot is taken now, before the waiter's continuation runs, so that no one else takes it too.
    this.#active++;
    go?.();
  }

  #wait(cancel: Switch, caller: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        stop();
        resolve();
      };
      const stop = cancel.listen(() => {
        const queue = this.#queues.get(caller);
        const index = queue?.indexOf(go) ?? -1;
        if (queue && index >= 0) {
          queue.splice(index, 1);
          this.#waiting--;
          if (!queue.length) this.#queues.delete(caller);
        }
        reject(cancel.reason);
      });
      const queue = this.#queues.get(caller);
      if (queue) queue.push(go);
      else this.#queues.set(caller, [go]);
      this.#waiting++;
      // A slot may be free (tasks were waiting a moment ago): the next in turn takes it.
      this.#next();
    });
  }
}
