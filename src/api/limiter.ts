/** At most `limit` tasks run at once; the rest wait in arrival order. A waiter whose signal aborts leaves the queue. */
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

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#active >= this.limit) await this.#wait(signal);
    this.#active++;
    try {
      return await task();
    } finally {
      this.#active--;
      this.#queue.shift()?.();
    }
  }

  #wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', cancel);
        resolve();
      };
      const cancel = () => {
        const index = this.#queue.indexOf(go);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.#queue.push(go);
    });
  }
}
