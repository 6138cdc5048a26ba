// SQLite through Node's built-in node:sqlite (real SQLite, no native module): WAL so that two server
// processes (Claude Desktop and Claude Code) share one file, and, while the other holds the write lock, an
// asynchronous wait so neither fails on the other and neither stops its own callers.
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { delay, storeTimeoutMs } from './bounds.js';
import { createFolder } from './guard.js';
import { type Driver, openSql, type Query, type Row } from './sql.js';
import type { Store } from './types.js';

/**
 * SQLite's own wait for a lock: none. Its busy handler sleeps inside the one synchronous call, so while
 * another process wrote, this whole process (every caller, stdio and --http) stood still; SQLITE_BUSY is
 * retried here instead, after an asynchronous pause.
 */
const BUSY_TIMEOUT_MS = 0;
/** The pause between tries: from 2 ms, doubling up to 100 ms, each shortened at random by up to half. */
const BACKOFF_FIRST_MS = 2;
const BACKOFF_MAX_MS = 100;

/** SQLITE_BUSY, with any extended code (BUSY_RECOVERY, BUSY_SNAPSHOT...). */
const isBusy = (error: unknown) => {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === 'number'
    ? (code & 0xff) === 5
    : /database is locked/i.test(String((error as Error | undefined)?.message));
};

/**
 * Runs `fn`, again after a pause each time it meets another process's lock, until `boundMs` have passed
 * (or `stop()` says the store is closing): then fails with SQLITE_BUSY in its message.
 */
async function patiently<T>(fn: () => Promise<T> | T, boundMs: number, stop: () => boolean): Promise<T> {
  const started = Date.now();
  for (let pause = BACKOFF_FIRST_MS; ; pause = Math.min(pause * 2, BACKOFF_MAX_MS)) {
    try {
      return await fn();
    } catch (error) {
      if (!isBusy(error)) throw error;
      const left = boundMs - (Date.now() - started);
      if (left <= 0 || stop())
        throw new Error(
          `another process held its write lock for over ${boundMs >= 1000 ? `${boundMs / 1000} s` : `${boundMs} ms`} (SQLITE_BUSY)`,
          { cause: error },
        );
      await delay(Math.min(left, pause * (0.5 + Math.random() / 2)));
    }
  }
}

/** node:sqlite, imported on first use; its one-time "experimental" warning is not the user's business. */
async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

/** `$1` becomes `?1`: SQLite numbers its parameters by what follows `?`. */
/**
 * `$1, $2…` as anonymous `?` in order, with which parameter each takes: Node 22.13 (the minimum) cannot bind
 * positional arguments to numbered `?NNN` ("column index out of range"); later versions can.
 */
function numbered(sql: string): { text: string; order: number[] } {
  const order: number[] = [];
  const text = sql.replace(/\$(\d+)/g, (_m, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { text, order };
}

export function sqliteDriver(db: DatabaseSync, busyBoundMs = storeTimeoutMs()): Driver {
  // Each statement prepared once per connection, with whether it returns rows (read) or not (run).
  const statements = new Map<string, { statement: StatementSync; reads: boolean; order: number[] }>();
  const prepared = (sql: string) => {
    let entry = statements.get(sql);
    if (!entry) {
      const { text, order } = numbered(sql);
      const statement = db.prepare(text);
      // columns() came after Node 22.13 (the minimum); there, a statement returns rows when it reads or
      // says RETURNING (all() on one that returns none fails on 22.13).
      const reads =
        typeof statement.columns === 'function'
          ? statement.columns().length > 0
          : /^\s*(select|with|pragma)\b|\breturning\b/i.test(sql);
      entry = { statement, reads, order };
      statements.set(sql, entry);
    }
    return entry;
  };
  const run: Query = async (sql, params = []) => {
    const { statement, reads, order } = prepared(sql);
    const args = order.map((i) => params[i]) as never[];
    if (!reads) {
      statement.run(...args);
      return [];
    }
    return statement.all(...args) as Row[];
  };
  // One connection per process: its transactions one after the other. Meeting another process's lock, an
  // operation is tried again after a pause (the event loop free meanwhile), whole: a transaction from BEGIN.
  let closing = false;
  let queue: Promise<unknown> = Promise.resolve();
  const queued = <T>(fn: () => Promise<T> | T): Promise<T> => {
    const next = queue.then(() => patiently(fn, busyBoundMs, () => closing));
    queue = next.catch(() => {});
    return next;
  };
  return {
    dialect: 'sqlite',
    query: (sql, params) => queued(() => run(sql, params)),
    arrays: (sql, params) =>
      queued(() => {
        const { statement, order } = prepared(sql);
        const args = order.map((i) => params[i]) as never[];
        // setReturnArrays came in Node 22.16; before it, the objects' values in column order.
        if (typeof statement.setReturnArrays !== 'function')
          return (statement.all(...args) as Row[]).map((r) => Object.values(r));
        statement.setReturnArrays(true);
        try {
          return statement.all(...args) as unknown as unknown[][];
        } finally {
          statement.setReturnArrays(false);
        }
      }),
    transaction: (fn) =>
      queued(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const value = await fn(run);
          db.exec('COMMIT');
          return value;
        } catch (error) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw error;
        }
      }),
    runMany(sql, rows) {
      if (!rows.length) return [];
      const { statement, order } = prepared(sql);
      return rows.map((params) => Number(statement.run(...(order.map((i) => params[i]) as never[])).changes));
    },
    async close() {
      // An operation waiting for another process's lock gives up at its next try.
      closing = true;
      await queue;
      if (db.isOpen) db.close();
    },
  };
}

/** Opens (creating it and its folder) an SQLite file, or `:memory:`, and brings its schema up to date. */
export async function openSqlite(path: string, kind: 'sqlite' | 'memory' = 'sqlite'): Promise<Store> {
  const { DatabaseSync } = await loadSqlite();
  if (path !== ':memory:') createFolder(dirname(path), 0o777);
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // Turning a new file to WAL takes its lock for a moment: waited for as every operation is.
    if (path !== ':memory:')
      await patiently(
        () => db.exec('PRAGMA journal_mode = WAL'),
        storeTimeoutMs(),
        () => false,
      );
    // In WAL mode NORMAL keeps every committed transaction through a crash of the process.
    db.exec('PRAGMA synchronous = NORMAL');
    return await openSql(sqliteDriver(db), kind, path === ':memory:' ? 'memory' : path);
  } catch (error) {
    if (db.isOpen) db.close();
    throw error;
  }
}
