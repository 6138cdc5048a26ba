// PostgreSQL through node-postgres with a pool: a team's --http replicas share one database.
import type { Pool, PoolClient } from 'pg';
import { type Driver, openSql, type Query, type Row } from './sql.js';
import type { Store } from './types.js';

const CONNECT_TIMEOUT_MS = 3_000;

const queryOf =
  (runner: Pool | PoolClient): Query =>
  async (sql, params = []) =>
    (await runner.query(sql, params as unknown[])).rows as Row[];

/** Where a URL points, without its user or password. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

export async function openPostgres(url: string): Promise<Store> {
  const mod = await import('pg');
  // Bundled, the CommonJS module arrives with its exports under `default`.
  const pg = ('Pool' in mod ? mod : (mod as { default: typeof mod }).default) as typeof import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server drops (a restart) is an error on the pool, not a crash of ours.
  pool.on('error', () => {});
  const driver: Driver = {
    dialect: 'postgres',
    query: queryOf(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await fn(queryOf(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (pool.ended) return;
      await pool.end();
    },
  };
  try {
    return await openSql(driver, 'postgres', describePostgres(url));
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}
