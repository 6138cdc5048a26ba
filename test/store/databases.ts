// Real databases for the history tests: an SQLite file in a fresh folder, and a fresh PostgreSQL database
// on the machine's server (127.0.0.1:5432, trust auth, user postgres), dropped afterwards. A PostgreSQL that
// cannot be reached fails the test: it is never skipped.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_ADMIN = process.env.HISTORY_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

export function sqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'history-test-'));
  return {
    kind: 'sqlite',
    url: join(dir, 'history.db'),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function postgresDatabase(): Promise<TestDatabase> {
  const name = `history_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export const DATABASES = {
  sqlite: async () => sqliteDatabase(),
  postgres: postgresDatabase,
} as const;
