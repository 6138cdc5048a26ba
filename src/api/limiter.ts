import type { Switch } from './switch.js';

/** At most `limit` tasks run at once; the rest wait in arrival order. A waiter whose switch is thrown leaves the queue. */
export class Limiter {
  #active = 0;
  readonly #queue: Array<() => void> = [];

  constructor(readonly limit: number) {}

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  run<T>(task: () => Promise<T>, cancel: Switch): Promise<T> {
    // With a slot free, start at once: no extra async frame on the hot path.
    if (this.#active < this.limit) return this.#start(task);
    return this.#wait(cancel).then(() => this.#start(task));
  }

  #start<T>(task: () => Promise<T>): Promise<T> {
    this.#active++;
    const release = () => {
      this.#active--;
      this.#queue.shift()?.();
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

  #wait(cancel: Switch): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        stop();
        resolve();
      };
      const stop = cancel.listen(() => {
        const index = this.#queue.indexOf(go);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(cancel.reason);
      });
      this.#queue.push(go);
    });
  }
}
