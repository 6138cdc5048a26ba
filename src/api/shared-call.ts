import { Callers } from '../limits/places.js';
import { Switch } from '../limits/switch.js';
import { CancelledError } from './errors.js';

// One upstream call awaited by any number of callers, aborted only when every one has cancelled. Waiting for
// a slot, it waits in the queue of each caller that joined (`callers`), at the best place.
export class SharedCall<T> {
  readonly #cancel = new Switch();
  readonly callers: Callers;
  readonly done: Promise<T>;
  #waiters = 0;
  #settled = false;

  constructor(run: (cancel: Switch, callers: Callers) => Promise<T>, caller?: string) {
    this.callers = new Callers(caller);
    this.done = run(this.#cancel, this.callers);
    const settle = () => {
      this.#settled = true;
    };
    this.done.then(settle, settle);
  }

  /** Every caller has left: a new caller must start a new call. */
  get abandoned(): boolean {
    return this.#cancel.aborted;
  }

  join(signal?: AbortSignal, caller?: string): Promise<T> {
    if (signal?.aborted) return Promise.reject(new CancelledError('cancelled by the client'));
    if (caller !== undefined) this.callers.add(caller);
    this.#waiters++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.#waiters--;
        if (this.#waiters === 0 && !this.#settled) this.#cancel.abort();
        reject(new CancelledError('cancelled by the client'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.done.finally(() => signal?.removeEventListener('abort', onAbort)).then(resolve, reject);
    });
  }
}
