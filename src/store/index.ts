// History's entry: where the store lives, opened on first use (no database code loaded before), and what
// a call sees of it. A store that is off, unwritable, corrupt or unreachable never fails a tool: the call
// gets one line saying why history is unavailable, and the store is opened again on a later call.
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiRequest } from '../api/client.js';
import { type Config, ENV, envValue } from '../config.js';
import { Lru } from '../limits/lru.js';
import { type Redactor, redactor } from '../redact.js';
import { SHUTDOWN_CLOSE_MS, SHUTDOWN_FLUSH_MS, settledWithin, storeTimeoutMs } from './bounds.js';
import { createPrivately, guard, StoreFault, UnverifiedKey } from './guard.js';
import { observationsOf } from './observe.js';
import { noSqlite, whyUnavailable } from './reasons.js';
import type { Observation, Store, StoreOptions } from './types.js';

export { UnverifiedKey } from './guard.js';
export { MIN_NODE, nodeTooOld, pathless, whyUnavailable } from './reasons.js';

export type { StoreOptions } from './types.js';

const DATABASE_URL = ENV.databaseUrl;
/** Tests only: the scheduled re-check's interval in milliseconds, below the documented 15-minute floor. */
export const WATCH_INTERVAL_MS_FOR_TESTS = 'STREAMER_ANALYTICS_INTERNAL_WATCH_INTERVAL_MS';

/** After a store failed to open, calls in the next few seconds are told so at once, then it is tried again. */
const RETRY_OPEN_MS = 5_000;
/** Keys the upstream has accepted, remembered (as hashes) for this many keys: only they write to the store. */
const VERIFIED_KEYS = 256;
/** Pruning: at most this many old observations per step, at most one step a minute. */
const PRUNE_ROWS = 500;
const PRUNE_EVERY_MS = 60_000;

export type Location =
  | { kind: 'off' }
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'memory' };

/** The platform's data folder: XDG on Linux, Application Support on macOS, LocalAppData on Windows. */
export function dataFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const join = platform === 'win32' ? win32.join : posix.join;
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? env.LOCALAPPDATA || join(home, 'AppData', 'Local')
        : env.XDG_DATA_HOME || join(home, '.local', 'share');
  return join(base, 'streamer-analytics-mcp');
}

/** Where STREAMER_ANALYTICS_DATABASE_URL says the store is. */
export function locate(url: string | undefined, demo = false): Location {
  if (demo) return { kind: 'memory' };
  const value = url?.trim();
  if (!value) return { kind: 'sqlite', path: join(dataFolder(), 'history.db') };
  if (value.toLowerCase() === 'off') return { kind: 'off' };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  if (/^file:/i.test(value)) return { kind: 'sqlite', path: fileURLToPath(value) };
  return { kind: 'sqlite', path: value };
}

/**
 * The store's options from the configuration (src/config.ts parses and checks the three variables), with
 * the schedule's interval in milliseconds (tests may set it below the 15-minute floor).
 */
export function storeOptions(
  config: Pick<Config, 'databaseUrl' | 'historyDays' | 'watchIntervalMinutes'>,
  env: NodeJS.ProcessEnv = process.env,
): StoreOptions & { watchIntervalMs: number } {
  const testMs = Number(envValue(env[WATCH_INTERVAL_MS_FOR_TESTS]) ?? 0);
  return {
    url: config.databaseUrl,
    historyDays: config.historyDays,
    watchIntervalMinutes: config.watchIntervalMinutes,
    watchIntervalMs: testMs > 0 ? testMs : config.watchIntervalMinutes * 60_000,
  };
}

/** Why history cannot be used; `lasting` when asking again cannot help (off, a Node without node:sqlite). */
export type Unavailable = { unavailable: string; lasting?: true };

/**
 * What a tool may do with the store for its caller's key. The store handed to `fn` writes only for a key the
 * upstream has accepted: a write before that runs `probe` (one upstream request with the key) first, or,
 * without one, is refused.
 */
export type Use = <T>(
  fn: (store: Store, owner: string) => Promise<T>,
  probe?: () => Promise<unknown>,
) => Promise<{ value: T } | Unavailable>;

/** An observation's texts from the upstream, redacted after cleaning. */
const TEXT_FIELDS = ['platform', 'level', 'currency', 'error'] as const;

/** One call's view of history: what it observed, written in one transaction once its answer is sent. */
export interface HistoryCall {
  use: Use;
  /**
   * Resolves once the upstream has accepted the call's key: at once if it has already (an answer it gave,
   * remembered per key hash), else after `probe`, one upstream request with the key (its refusal rejects).
   */
  verify(probe: () => Promise<unknown>): Promise<void>;
  /** Keeps what one upstream answer says of tokens (written by `flush`). */
  observe(req: ApiRequest, body: Record<string, unknown>): void;
  /**
   * Queues what was observed for writing right after the answer is sent (reads and close wait for it);
   * returns the line saying why history is unavailable, if it is (a failed write is said on the next answer).
   */
  flush(): Promise<string | undefined>;
}

export interface History {
  readonly location: Location;
  readonly options: StoreOptions;
  /** The store for a key (over --http a caller's own, else the server's), for one call. */
  call(key: string | undefined): HistoryCall;
  /** The open store, opening it if need be (the schedule's), or why it is unavailable. */
  store(): Promise<Store | Unavailable>;
  close(): Promise<void>;
}

/** `ms` as a person reads it: `5 s`, `300 ms`. */
const seconds = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * What `promise` gives if it settles within `ms`, else undefined (it goes on; its outcome is left to whoever
 * else awaits it). One already settled is given even when `ms` is 0.
 */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** History as configured; nothing is opened (and no database module loaded) before the first use. */
export function openHistory(options: StoreOptions, demo = false): History {
  const location = locate(options.url, demo);
  let opening: Promise<Store> | undefined;
  // Hashes of the keys the upstream has accepted (an answer it gave with the key): only they write.
  const verified = new Lru<string, true>(VERIFIED_KEYS);
  // node:crypto loads at the first key hashed, not at start: loading it costs about 6% of a cold start.
  const hashOf = (key: string) =>
    process.getBuiltinModule('node:crypto').createHash('sha256').update(key).digest('base64url');
  /** A failure's full text (the path included) for the server's log; the caller gets `whyUnavailable`. */
  const logged = (error: unknown, what: string) => {
    try {
      options.log?.(what, { error, ...(location.kind === 'sqlite' ? { path: location.path } : {}) });
    } catch {}
    return whyUnavailable(error, location);
  };
  let failure: { at: number; reason: string; lasting?: true } | undefined;
  let lastPrune = 0;
  // Writes leave the answer's path: queued in order, begun once the answer is on its way (setImmediate runs
  // after the transport's write), awaited by every read (a caller reads what it just fetched) and by close.
  let writing: Promise<void> = Promise.resolve();
  // A failed write's reason, per owner (the key's salted hash): said on that key's next answer, and only there.
  const writeFailures = new Lru<string, string>(VERIFIED_KEYS);

  const open = async (): Promise<Store> => {
    switch (location.kind) {
      case 'sqlite':
        createPrivately(location.path);
        return (await import('./sqlite.js')).openSqlite(location.path);
      case 'postgres':
        return (await import('./postgres.js')).openPostgres(location.url);
      case 'memory':
        return (await import('./memory.js')).openMemory();
      default:
        throw new Error('history is off');
    }
  };

  // When the open under way began, and whether its overrun was logged: a call waits for an open at most the
  // bound from its start, so an open held by a lock (another replica's migration, a locked table) keeps no
  // answer waiting; it goes on in the background, and the calls after it ends use the store (or retry).
  let openingSince = 0;
  let overrunLogged = false;
  const overrun = (ms: number) => {
    const reason = `the history store did not open within ${seconds(ms)} (${
      location.kind === 'postgres'
        ? 'a lock held by another session or replica?'
        : 'another process holds its lock?'
    }); it goes on opening, and a later call uses it once it is open`;
    if (!overrunLogged) {
      overrunLogged = true;
      try {
        options.log?.('history store slow to open', { ms });
      } catch {}
    }
    return reason;
  };

  /** The open store, or why not, waiting for an open under way at most `waitMs` (and the bound from its start). */
  const store = async (waitMs = storeTimeoutMs()): Promise<Store | Unavailable> => {
    if (location.kind === 'off')
      return {
        unavailable: options.offReason ?? `history is off (${DATABASE_URL}=off): nothing is kept`,
        lasting: true,
      };
    if (failure?.lasting) return { unavailable: failure.reason, lasting: true };
    if (failure && Date.now() - failure.at < RETRY_OPEN_MS) return { unavailable: failure.reason };
    if (!opening) {
      const attempt = open();
      opening = attempt;
      openingSince = Date.now();
      overrunLogged = false;
      attempt.catch((error: unknown) => {
        failure = {
          at: Date.now(),
          reason: logged(error, 'history store unavailable'),
          ...(noSqlite(error) ? { lasting: true as const } : {}),
        };
        if (opening === attempt) opening = undefined;
      });
    }
    const bound = storeTimeoutMs();
    const wait = Math.max(0, Math.min(waitMs, openingSince + bound - Date.now()));
    const current = opening;
    try {
      const opened = await within(current, wait);
      if (opened === undefined) return { unavailable: overrun(bound) };
      failure = undefined;
      return opened;
    } catch (error) {
      return failure
        ? { unavailable: failure.reason, ...(failure.lasting ? { lasting: true as const } : {}) }
        : { unavailable: whyUnavailable(error, location) };
    }
  };

  const prune = (s: Store) => {
    const now = Date.now();
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    const before = Math.floor(now / 60_000) - options.historyDays * 1440;
    s.prune(before, PRUNE_ROWS).catch(() => {});
  };

  return {
    location,
    options,
    store,
    call(key) {
      const observed: Observation[] = [];
      let observedAny = false;
      // Off: nothing is read for history and no key is hashed; the answer only says history is off (flush).
      const off = location.kind === 'off';
      const hash = key && !off ? hashOf(key) : undefined;
      let redact: Redactor | undefined;
      const accepted = () => hash !== undefined && verified.get(hash) !== undefined;
      const verify = async (probe: () => Promise<unknown>) => {
        if (!hash || accepted()) return;
        await probe();
        verified.set(hash, true);
      };
      const use: Use = async (fn, probe) => {
        if (!key)
          return { unavailable: 'no API key is set, so there is no one to keep history for', lasting: true };
        // A stuck write (bounded itself) holds no other caller's read longer than one operation's bound, and
        // waiting for it and for the store's open together take no longer than that.
        const started = Date.now();
        const bound = storeTimeoutMs();
        await settledWithin(writing, bound);
        const s = await store(bound - (Date.now() - started));
        if ('unavailable' in s) return s;
        try {
          const guarded = guard(s, async () => {
            if (accepted()) return;
            if (!probe) throw new UnverifiedKey();
            await verify(probe);
          });
          return { value: await fn(guarded, await guarded.owner(key)) };
        } catch (error) {
          // Only the store's own failures are history's; the tool's (a missing list, the upstream) go on.
          if (error instanceof StoreFault)
            return { unavailable: logged(error.cause, 'history store failed') };
          throw error;
        }
      };
      return {
        use,
        verify,
        observe(req, body) {
          observedAny = true;
          if (off) return;
          // The upstream answered with this key: it is accepted.
          if (hash) verified.set(hash, true);
          try {
            const now = Date.now();
            // Cleaned first (observationsOf), then redacted: the key is in no row, whatever disguised it.
            redact ??= redactor([key]);
            for (const o of observationsOf(req, body, now)) {
              if (redact.found(o.mint)) continue;
              for (const f of TEXT_FIELDS) {
                const v = o[f];
                if (typeof v === 'string') o[f] = redact.text(v);
              }
              observed.push(o);
            }
          } catch {
            // An answer that cannot be read for history is still the tool's answer.
          }
        },
        async flush() {
          if (!observedAny) return undefined;
          const rows = observed.splice(0);
          if (!rows.length && location.kind !== 'off') return undefined;
          const line = (why: string) => `History unavailable, this answer was not kept: ${why}.`;
          if (!key) return line('no API key is set, so there is no one to keep history for');
          const s = await store();
          if ('unavailable' in s) return line(s.unavailable);
          const owner = await s.owner(key);
          const earlier = writeFailures.get(owner);
          writeFailures.delete(owner);
          writing = writing
            .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
            .then(async () => {
              await s.record(owner, rows);
              prune(s);
            })
            .catch((error: unknown) => {
              // Said on the key's next answer: this one has been sent.
              writeFailures.set(owner, logged(error, 'history write failed'));
            });
          return earlier ? `History unavailable, an earlier answer was not kept: ${earlier}.` : undefined;
        },
      };
    },
    async close() {
      // What was answered is written before the store closes, within a bound: a stuck store never holds the exit.
      await settledWithin(writing, SHUTDOWN_FLUSH_MS);
      const pending = opening;
      opening = undefined;
      if (pending)
        await settledWithin(
          pending.then((s) => s.close()),
          SHUTDOWN_CLOSE_MS,
        );
    },
  };
}
