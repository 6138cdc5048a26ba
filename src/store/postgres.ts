// PostgreSQL through node-postgres with a pool: a team's --http replicas share one database. Every statement
// is bounded (a stuck database leaves the call without history, it never holds the call), a connection the
// server ends is replaced on the next call, and a database dropped and made again gets its schema again.
import type { Client, Pool, PoolClient } from 'pg';
import { settledWithin, storeTimeoutMs } from './bounds.js';
import { type Driver, migrate, openSql, type Query, type Row } from './sql.js';
import type { Store } from './types.js';

const CONNECT_TIMEOUT_MS = 3_000;
const POOL_SIZE = 4;
/** undefined_table: the tables are gone (the database was dropped and made again). */
const SCHEMA_GONE = '42P01';

const queryOf =
  (runner: Pool | PoolClient | Client): Query =>
  async (sql, params = []) =>
    (await runner.query(sql, params as unknown[])).rows as Row[];

/**
 * The connection was gone before the statement reached the server (ended by it, or a restart the pool had
 * not seen yet): the pool closes it, and another may be tried.
 */
const connectionLost = (error: unknown) => {
  const e = error as { code?: string; message?: string } | undefined;
  return (
    /^(57P0[123]|08|ECONNRESET$|EPIPE$)/.test(e?.code ?? '') ||
    /^Connection terminated|not queryable/.test(e?.message ?? '')
  );
};
/** Listens to a connection's 'error' while it is out of the pool (the pool listens only to idle ones). */
const ignore = () => {};

/** Where a URL points, without its user or password. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

type Pg = typeof import('pg');

/**
 * Brings the schema up to date (sql.ts's migrate) on a connection of its own, without the operations'
 * statement bound (a migration's backfill may take minutes) but with their bound on waiting for a lock
 * (`lock_timeout`): a migration that waits past it on another's (a replica's migration holding the advisory
 * lock, a session holding `meta`) fails, and the open is tried again on a later call. `salt` is kept when
 * the tables were gone. Returns the store's salt.
 */
async function migrated(pg: Pg, url: string, salt?: string): Promise<string> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    lock_timeout: storeTimeoutMs(),
  });
  client.on('error', ignore);
  await client.connect();
  const q = queryOf(client);
  // Outside the migration's transaction (meta made if need be, and read: all an up-to-date store's open
  // sends), a statement is bounded as the operations' are, so a server that stopped answering fails the open
  // (tried again later) instead of leaving it under way for good.
  const queryTimeout = storeTimeoutMs() + 1_000;
  const bounded: Query = async (sql, params = []) => {
    // node-postgres reads query_timeout from a query's config too (its types do not say so).
    const config = { text: sql, values: params as unknown[], query_timeout: queryTimeout };
    return (await client.query(config as import('pg').QueryConfig)).rows as Row[];
  };
  try {
    return await migrate(
      {
        dialect: 'postgres',
        query: bounded,
        async transaction(fn) {
          await q('BEGIN');
          try {
            const value = await fn(q);
            await q('COMMIT');
            return value;
          } catch (error) {
            await q('ROLLBACK').catch(ignore);
            throw error;
          }
        },
        close: async () => {},
      },
      salt,
    );
  } finally {
    // A server that stopped answering may never acknowledge the end either: not waited for past a second.
    await settledWithin(client.end(), 1_000);
  }
}

export async function openPostgres(url: string): Promise<Store> {
  const mod = await import('pg');
  // Bundled, the CommonJS module arrives with its exports under `default`.
  const pg = ('Pool' in mod ? mod : (mod as { default: typeof mod }).default) as Pg;
  // Before the pool: openSql's own migrate then finds the schema up to date and only reads.
  let salt = await migrated(pg, url);
  const timeoutMs = storeTimeoutMs();
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: Math.min(CONNECT_TIMEOUT_MS, timeoutMs),
    idleTimeoutMillis: 30_000,
    // The server cancels a statement that runs, or waits for a lock, longer than the bound; the client gives
    // up a second later on a server that does not answer at all.
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 1_000,
  });
  // An idle connection the server drops (a restart) is an error on the pool, not a crash of ours.
  pool.on('error', () => {});
  const query = queryOf(pool);
  /**
   * A connection with its transaction begun. Out of the pool, a connection the server ends is this
   * transaction's failure, not an unhandled 'error' event; one found gone at BEGIN is replaced (each of the
   * pool's idle connections may be gone after a restart).
   */
  const begin = async (tries = POOL_SIZE + 1): Promise<PoolClient> => {
    const client = await pool.connect();
    client.on('error', ignore);
    try {
      await client.query('BEGIN');
      return client;
    } catch (error) {
      client.off('error', ignore);
      client.release(error as Error);
      if (tries > 1 && connectionLost(error)) return begin(tries - 1);
      throw error;
    }
  };
  const raw: Driver = {
    dialect: 'postgres',
    // Every statement sent alone is idempotent (reads, upserts, pruning's bounded delete): tried again on
    // another connection when the one it was given was gone.
    async query(sql, params) {
      for (let tries = POOL_SIZE + 1; ; tries--) {
        try {
          return await query(sql, params);
        } catch (error) {
          if (tries <= 1 || !connectionLost(error)) throw error;
        }
      }
    },
    async transaction(fn) {
      const client = await begin();
      let broken: Error | undefined;
      try {
        const value = await fn(queryOf(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        // A server that stopped answering would not answer ROLLBACK either: that connection is closed.
        if ((error as Error)?.message === 'Query read timeout') broken = error as Error;
        else
          await client.query('ROLLBACK').catch((e: Error) => {
            broken = e;
          });
        throw error;
      } finally {
        client.off('error', ignore);
        // A connection that could not roll back is closed, not handed to the next caller.
        client.release(broken);
      }
    },
    async close() {
      if (pool.ended) return;
      await pool.end();
    },
  };
  // The tables gone: made again (once, however many calls meet it at a time), with the salt this store had,
  // and the operation tried once more.
  let remaking: Promise<unknown> | undefined;
  const again = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (error) {
      if ((error as { code?: string })?.code !== SCHEMA_GONE) throw error;
      remaking ??= migrated(pg, url, salt)
        .then((kept) => {
          salt = kept;
        })
        .finally(() => {
          remaking = undefined;
        });
      await remaking;
      return op();
    }
  };
  const driver: Driver = {
    dialect: 'postgres',
    query: (sql, params) => again(() => raw.query(sql, params)),
    transaction: (fn) => again(() => raw.transaction(fn)),
    close: () => raw.close(),
  };
  try {
    return await openSql(driver, 'postgres', describePostgres(url));
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}
