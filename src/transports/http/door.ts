// The door: `maxConcurrent` requests in flight; past it, requests wait in one queue per caller and a freed
// place goes to the callers in turn, so many requests (or identities) delay another's one by a turn each.
import { TokenBuckets } from '../../limits/buckets.js';
import { Meter } from '../../limits/meter.js';
import { Limiter, PlacesBusy } from '../../limits/places.js';
import { Switch } from '../../limits/switch.js';
import type { Logger } from '../../log.js';
import type { Who } from './identity.js';
import type { HttpOptions } from './options.js';
import { type Guard, refused, retry, throttle } from './refusal.js';

export function createDoor(options: HttpOptions, logger: Logger) {
  const share = Math.max(1, Math.floor(options.maxConcurrent / 4));
  const door = new Limiter({ limit: options.maxConcurrent, maxWaitingPerCaller: share });
  const { maxWaiting, maxWaitMs } = options;
  const perCaller = new Meter(share);
  // Plenty for cancellations and list changes; a spray costs its sender only.
  const notifications = new TokenBuckets(20, 10);
  // 2025 sessions (each a queue identity of its own) an address may start: a team behind a proxy fits.
  const initializes = new TokenBuckets(60, 1);

  const guards: Guard<{ who: Who; initialize: boolean }>[] = [
    // Once the server is half full, no caller takes more than its share (a quarter of the places).
    ({ who }) =>
      perCaller.refuses(who.id, 1) && door.active >= options.maxConcurrent / 2
        ? retry(429, `Too many requests in flight from this caller (${perCaller.perCaller}): retry after 1 s`)
        : undefined,
    ({ who, initialize }) =>
      initialize ? throttle(initializes, `address ${who.address}`, 'sessions started') : undefined,
    () =>
      door.active >= options.maxConcurrent && door.waiting >= maxWaiting
        ? retry(503, `Server busy: ${options.maxConcurrent} requests in flight and ${door.waiting} waiting`)
        : undefined,
  ];

  /** A place at the door for `who`, waiting its turn: the function that gives it back, or why not. */
  const take = (who: string, gone: AbortSignal) =>
    new Promise<(() => void) | PlacesBusy | 'timeout' | 'gone'>((resolve) => {
      if (gone.aborted) return resolve('gone');
      const wait = new Switch();
      const timer = setTimeout(() => wait.abort('timeout'), maxWaitMs);
      const onGone = () => wait.abort('gone');
      gone.addEventListener('abort', onGone, { once: true });
      // The tests wait for this event: every place is taken.
      if (door.active >= options.maxConcurrent)
        logger.debug('Request waits for a place', { inFlight: door.active, waiting: door.waiting + 1 });
      const stop = () => {
        clearTimeout(timer);
        gone.removeEventListener('abort', onGone);
      };
      const enter = () => {
        stop();
        return new Promise<void>((free) => resolve(() => free()));
      };
      door.run(enter, wait, who).catch((error: unknown) => {
        stop();
        resolve(error instanceof PlacesBusy ? error : error === 'gone' ? 'gone' : 'timeout');
      });
    });

  return {
    guards,
    get active() {
      return door.active;
    },
    /** Notifications pass the limits on calls (a cancellation must reach a full server), at a few a second. */
    notifications: ({ id }: Who) => throttle(notifications, id, 'notifications'),
    /** Counts a request against its caller until its response closes; then waits for a place. */
    async enter(who: Who, res: { once(event: 'close', end: () => void): unknown }, gone: AbortSignal) {
      perCaller.add(who.id, 1);
      res.once('close', () => perCaller.add(who.id, -1));
      const entered = await take(who.id, gone);
      if (entered === 'gone' || typeof entered === 'function') return entered;
      const own = entered instanceof PlacesBusy;
      const retryS = own ? Math.ceil(entered.retryAfterMs / 1000) : 1;
      const message = own
        ? `Too many requests of this caller waiting: retry after ${retryS} s`
        : `Server busy: no place freed within ${maxWaitMs / 1000} s (${options.maxConcurrent} requests in flight)`;
      return refused(own ? 429 : 503, message, { retryAfter: retryS, data: { retry_after_s: retryS } });
    },
  };
}

/** 2025 calls not yet answered, by verified session and JSON-RPC id: what a session's cancellation finds. */
export class SessionCalls {
  readonly #calls = new Map<string, Set<() => void>>();

  add(session: string, key: string, end: () => void, res: { once(event: 'close', f: () => void): unknown }) {
    const id = `${session} ${key}`;
    this.#calls.set(id, (this.#calls.get(id) ?? new Set()).add(end));
    res.once('close', () => {
      const set = this.#calls.get(id);
      set?.delete(end);
      if (!set?.size) this.#calls.delete(id);
    });
  }

  /** Ends the one call of this session with this JSON-RPC id, wherever it is; an id two share ends neither. */
  cancel(session: string | undefined, requestId: unknown): void {
    const matching = session && this.#calls.get(`${session} ${JSON.stringify(requestId)}`);
    if (matching && matching.size === 1) for (const end of matching) end();
  }
}
