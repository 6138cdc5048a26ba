type Deadline = { at: number; expire: (() => void) | undefined };

/** Every attempt's deadline on one timer: attempts share one time limit, so they expire in the order they began. */
export class Deadlines {
  #queue: Deadline[] = [];
  #head = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {}

  add(expire: () => void): { done(): void } {
    const entry: Deadline = { at: performance.now() + this.ms, expire };
    this.#queue.push(entry);
    if (!this.#timer) this.#arm(this.ms);
    return {
      done: () => {
        entry.expire = undefined;
      },
    };
  }

  #arm(ms: number) {
    // A pending request keeps the process alive by its socket; this timer alone must not.
    this.#timer = setTimeout(this.#fire, ms).unref();
  }

  readonly #fire = () => {
    this.#timer = undefined;
    const now = performance.now();
    while (this.#head < this.#queue.length) {
      const entry = this.#queue[this.#head] as Deadline;
      if (entry.expire && entry.at > now) {
        this.#arm(entry.at - now);
        break;
      }
      this.#head++;
      const expire = entry.expire;
      entry.expire = undefined;
      expire?.();
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  };
}
