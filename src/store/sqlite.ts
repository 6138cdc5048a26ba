// SQLite through Node's built-in node:sqlite (real SQLite, no native module): WAL so that two server
// processes (Claude Desktop and Claude Code) share one file, and a busy timeout so neither fails on the other.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { type Driver, openSql, type Query, type Row } from './sql.js';
import type { Store } from './types.js';

const BUSY_TIMEOUT_MS = 10_000;

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

export function sqliteDriver(db: DatabaseSync): Driver {
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
  // One connection per process: its transactions one after the other (another process waits on the lock).
  let queue: Promise<unknown> = Promise.resolve();
  const queued = <T>(fn: () => Promise<T> | T): Promise<T> => {
    const next = queue.then(fn);
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
      await queue;
      if (db.isOpen) db.close();
    },
  };
}

/** Opens (creating it and its folder) an SQLite file, or `:memory:`, and brings its schema up to date. */
export async function openSqlite(path: string, kind: 'sqlite' | 'memory' = 'sqlite'): Promise<Store> {
  const { DatabaseSync } = await loadSqlite();
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL keeps every committed transaction through a crash of the process.
    db.exec('PRAGMA synchronous = NORMAL');
    return await openSql(sqliteDriver(db), kind, path === ':memory:' ? 'memory' : path);
  } catch (error) {
    if (db.isOpen) db.close();
    throw error;
  }
}
