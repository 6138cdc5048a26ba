// History's entry: where the store lives, opened on first use (no database code loaded before), and what
// a call sees of it. A store that is off, unwritable, corrupt or unreachable never fails a tool: the call
// gets one line saying why history is unavailable, and the store is opened again on a later call.
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiRequest } from '../api/client.js';
import { type Config, ENV, envValue } from '../config.js';
import { SHUTDOWN_CLOSE_MS, SHUTDOWN_FLUSH_MS, settledWithin, storeTimeoutMs } from './bounds.js';
import { observationsOf } from './observe.js';
import type { Observation, Store, StoreOptions } from './types.js';

export type { StoreOptions } from './types.js';

const DATABASE_URL = ENV.databaseUrl;
/** Tests only: the scheduled re-check's interval in milliseconds, below the documented 15-minute floor. */
export const WATCH_INTERVAL_MS_FOR_TESTS = 'STREAMER_ANALYTICS_INTERNAL_WATCH_INTERVAL_MS';

/** After a store failed to open, calls in the next few seconds are told so at once, then it is tried again. */
const RETRY_OPEN_MS = 5_000;
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

/** What a tool may do with the store for its caller's key. */
export type Use = <T>(fn: (store: Store, owner: string) => Promise<T>) => Promise<{ value: T } | Unavailable>;

/** One call's view of history: what it observed, written in one transaction once its answer is sent. */
export interface HistoryCall {
  use: Use;
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

/** Why a store could not be used, in one line that names no secret. */
export function whyUnavailable(error: unknown, location: Location): string {
  const e = error as { code?: string; errcode?: number; message?: string };
  const message = String(e?.message ?? error)
    .replace(/postgres(ql)?:\/\/\S+/gi, '(database URL)')
    .split('\n')[0]
    ?.slice(0, 200);
  if (noSqlite(error))
    return `SQLite history needs Node ${MIN_NODE} or later (this is Node ${process.versions.node}): update Node, or set ${DATABASE_URL} to a postgres:// URL or off`;
  if (location.kind === 'sqlite') {
    if (/SQLITE_BUSY|database is locked/.test(message ?? ''))
      return `the SQLite file ${location.path} is busy: ${message}`;
    if (/not a database|malformed|corrupt/i.test(message ?? ''))
      return `the SQLite file ${location.path} is not a readable database (corrupt?): ${message}`;
    if (/EACCES|EROFS|EPERM|readonly|read-only|unable to open/i.test(`${e?.code} ${message}`))
      return `cannot write the SQLite file ${location.path} (read-only or no permission): ${message}`;
    return `the SQLite file ${location.path} failed: ${message}`;
  }
  if (location.kind === 'postgres') {
    const code = e?.code ? ` (${e.code})` : '';
    return `PostgreSQL is unreachable or failed${code}: ${message}`;
  }
  return String(message);
}

/** The oldest Node with node:sqlite (package.json's engines), and whether this one is older. */
export const MIN_NODE = '22.13';
export const nodeTooOld = (version = process.versions.node) => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 13);
};
const noSqlite = (error: unknown) =>
  /node:sqlite/.test(String((error as Error)?.message)) &&
  /ERR_UNKNOWN_BUILTIN_MODULE|No such built-in module/.test(
    `${(error as { code?: string })?.code} ${(error as Error)?.message}`,
  );

/** A failure of the store itself, as opposed to the code that uses it. */
class StoreFault extends Error {}

/** The store with each failure of its own marked as such. */
function guard(s: Store): Store {
  const out = { ...s } as Record<string, unknown>;
  for (const [k, v] of Object.entries(s))
    if (typeof v === 'function')
      out[k] = (...a: unknown[]) =>
        (v as (...x: unknown[]) => Promise<unknown>).apply(s, a).catch((cause: unknown) => {
          throw new StoreFault('store failed', { cause });
        });
  return out as unknown as Store;
}

/** History as configured; nothing is opened (and no database module loaded) before the first use. */
export function openHistory(options: StoreOptions, demo = false): History {
  const location = locate(options.url, demo);
  let opening: Promise<Store> | undefined;
  let failure: { at: number; reason: string; lasting?: true } | undefined;
  let lastPrune = 0;
  // Writes leave the answer's path: queued in order, begun once the answer is on its way (setImmediate runs
  // after the transport's write), awaited by every read (a caller reads what it just fetched) and by close.
  let writing: Promise<void> = Promise.resolve();
  let writeFailure: string | undefined;

  const open = async (): Promise<Store> => {
    switch (location.kind) {
      case 'sqlite':
        return (await import('./sqlite.js')).openSqlite(location.path);
      case 'postgres':
        return (await import('./postgres.js')).openPostgres(location.url);
      case 'memory':
        return (await import('./memory.js')).openMemory();
      default:
        throw new Error('history is off');
    }
  };

  const store = async (): Promise<Store | Unavailable> => {
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
      attempt.catch((error: unknown) => {
        failure = {
          at: Date.now(),
          reason: whyUnavailable(error, location),
          ...(noSqlite(error) ? { lasting: true as const } : {}),
        };
        if (opening === attempt) opening = undefined;
      });
    }
    try {
      const opened = await opening;
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
      const use: Use = async (fn) => {
        if (!key)
          return { unavailable: 'no API key is set, so there is no one to keep history for', lasting: true };
        // A stuck write (bounded itself) holds no other caller's read longer than one operation's bound.
        await settledWithin(writing, storeTimeoutMs());
        const s = await store();
        if ('unavailable' in s) return s;
        try {
          const guarded = guard(s);
          return { value: await fn(guarded, await guarded.owner(key)) };
        } catch (error) {
          // Only the store's own failures are history's; the tool's (a missing list, the upstream) go on.
          if (error instanceof StoreFault) return { unavailable: whyUnavailable(error.cause, location) };
          throw error;
        }
      };
      return {
        use,
        observe(req, body) {
          observedAny = true;
          try {
            const now = Date.now();
            for (const o of observationsOf(req, body, now)) observed.push(o);
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
          const earlier = writeFailure;
          writeFailure = undefined;
          writing = writing
            .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
            .then(async () => {
              const owner = await s.owner(key);
              await s.record(owner, rows);
              prune(s);
            })
            .catch((error: unknown) => {
              // Said on the next answer: this one has been sent.
              writeFailure = whyUnavailable(error, location);
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
