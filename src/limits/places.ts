// Places: at most so many tasks at once, the rest waiting in fair turns between callers (HTTP door, upstream, sandbox).
import { EventEmitter } from 'node:events';
import type { Switch } from './switch.js';

export interface LimiterOptions {
  limit: number;
  /** Tasks one caller may have waiting; beyond, its next task is refused at once with `busy`. */
  maxWaitingPerCaller?: number;
  busy?: (waiting: number, retryAfterMs: number) => Error;
}

/** A caller already has its share of tasks waiting, told when its queue will have drained. */
export class PlacesBusy extends Error {
  override readonly name = 'PlacesBusy';
  constructor(
    waiting: number,
    readonly retryAfterMs: number,
  ) {
    super(`${waiting} tasks of this caller already waiting`);
  }
}

/** Who waits on one task: one caller, or several joining a shared upstream request; it runs at the first turn of any. */
export class Callers extends EventEmitter {
  readonly names = new Set<string>();

  constructor(first?: string) {
    super();
    if (first !== undefined) this.names.add(first);
  }

  add(name: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    this.emit('add', name);
  }
}

type Ticket = { go: () => void; live: boolean };

// At most `limit` tasks run at once; the rest wait in one queue per caller, and a free slot goes to the
// callers in turn (round robin). A shared task waits in each of its callers' queues; a thrown switch leaves.
export class Limiter {
  #active = 0;
  #waiting = 0;
  /** Waiting tasks by caller, in turn: the map's order, a served caller re-added at the end. */
  readonly #queues = new Map<string, Ticket[]>();
  /** Recent task time (ms, moving average): the wait a busy caller is told. */
  #taskMs = 200;

  constructor(private readonly o: LimiterOptions) {}

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiting;
  }

  run<T>(task: () => Promise<T>, cancel: Switch, caller: string | Callers = ''): Promise<T> {
    // With a slot free and nobody waiting, start at once: no extra async frame on the hot path.
    if (this.#active < this.o.limit && this.#waiting === 0) return this.#start(task);
    const callers = typeof caller === 'string' ? new Callers(caller) : caller;
    const queue = this.#queue(callers.names.values().next().value ?? '');
    if (queue.length >= (this.o.maxWaitingPerCaller ?? Number.POSITIVE_INFINITY)) {
      const turns = Math.ceil(queue.length / Math.max(1, this.o.limit / Math.max(1, this.#queues.size)));
      const retryAfterMs = Math.min(30_000, Math.max(1_000, Math.round(turns * this.#taskMs)));
      const { busy = (n, ms) => new PlacesBusy(n, ms) } = this.o;
      return Promise.reject(busy(queue.length, retryAfterMs));
    }
    return this.#wait(cancel, callers).then(() => this.#start(task, true));
  }

  /** A caller's live waiting tickets; dead ones (started through another caller's turn) dropped. */
  #queue(caller: string): Ticket[] {
    const queue = this.#queues.get(caller);
    if (!queue) return [];
    const live = queue.filter((t) => t.live);
    if (live.length !== queue.length) {
      if (live.length) this.#queues.set(caller, live);
      else this.#queues.delete(caller);
    }
    return live;
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

  /** Starts the first live task of the caller whose turn it is; that caller goes to the back. */
  #next(): void {
    while (this.#active < this.o.limit) {
      const first = this.#queues.entries().next();
      if (first.done) return;
      const [caller, queue] = first.value;
      this.#queues.delete(caller);
      let ticket = queue.shift();
      while (ticket && !ticket.live) ticket = queue.shift();
      if (queue.length) this.#queues.set(caller, queue);
      if (!ticket) continue;
      ticket.live = false;
      this.#waiting--;
      // The slot is taken now, before the waiter's continuation runs, so that no one else takes it too.
      this.#active++;
      ticket.go();
      return;
    }
  }

  #wait(cancel: Switch, callers: Callers): Promise<void> {
    return new Promise((resolve, reject) => {
      // A caller joining a shared task while it waits puts it in its own queue too.
      const enqueue = (name: string) => {
        if (!ticket.live) return;
        const queue = this.#queues.get(name);
        if (queue) queue.push(ticket);
        else this.#queues.set(name, [ticket]);
      };
      const ticket: Ticket = {
        live: true,
        go: () => {
          stop();
          callers.off('add', enqueue);
          resolve();
        },
      };
      const stop = cancel.listen(() => {
        callers.off('add', enqueue);
        if (ticket.live) {
          ticket.live = false;
          this.#waiting--;
          for (const name of callers.names) this.#queue(name);
        }
        reject(cancel.reason);
      });
      for (const name of callers.names.size ? callers.names : ['']) enqueue(name);
      callers.on('add', enqueue);
      this.#waiting++;
      this.#next();
    });
  }
}
