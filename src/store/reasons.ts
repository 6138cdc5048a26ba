// Why history is unavailable, in one line a caller may read: no secret, no server path, none of
// PostgreSQL's own text (all of which go to the server's log), and the Node that node:sqlite needs.
import { dirname } from 'node:path';
import { ENV } from '../config.js';
import type { Location } from './index.js';

const DATABASE_URL = ENV.databaseUrl;

/** Paths and file names in a message (an errno text's `'/x/y'`, a bare `/x/y` or `C:\\x`), replaced. */
export function pathless(message: string, path?: string): string {
  let out = message;
  if (path) for (const p of [path, dirname(path)]) if (p.length > 1) out = out.split(p).join('(path)');
  return out
    .replace(/(['"`])[^'"`]*[/\\][^'"`]*\1/g, '(path)')
    .replace(/(^|[\s(=:])(?:[A-Za-z]:)?[/\\][^\s,;)]*/g, '$1(path)');
}

/**
 * Why a store could not be used, in one line for a caller: it names no secret and no server path (the
 * SQLite file's path, and the failure as it came, go to the server's log: `openHistory`'s `log`).
 */
export function whyUnavailable(error: unknown, location: Location): string {
  const e = error as { code?: string; errcode?: number; message?: string };
  const raw = String(e?.message ?? error);
  const message = pathless(
    raw.replace(/postgres(ql)?:\/\/\S+/gi, '(database URL)'),
    location.kind === 'sqlite' ? location.path : undefined,
  )
    .split('\n')[0]
    ?.slice(0, 200);
  if (noSqlite(error))
    return `SQLite history needs Node ${MIN_NODE} or later (this is Node ${process.versions.node}): update Node, or set ${DATABASE_URL} to a postgres:// URL or off`;
  if (location.kind === 'sqlite') {
    const logged = 'the server log names its path';
    if (/SQLITE_BUSY|database is locked/.test(raw))
      return `the history store's SQLite file is busy (${logged}): ${message}`;
    if (/not a database|malformed|corrupt/i.test(raw))
      return `the history store's SQLite file is not a readable database (corrupt?; ${logged})`;
    if (
      /EACCES|EROFS|EPERM|ENOSPC|ENOENT|ENOTDIR|readonly|read-only|unable to open|disk is full|disk I\/O/i.test(
        `${e?.code} ${raw}`,
      )
    )
      return `cannot write the SQLite file: the history store (SQLite) is unwritable (read-only, full or no permission; ${logged})`;
    return `the history store (SQLite) failed (${logged}): ${message}`;
  }
  if (location.kind === 'postgres') {
    // Ours (schema.ts), naming nothing of the server's.
    if ((error as Error)?.name === 'NewerSchemaError') return raw;
    // PostgreSQL's own text names databases, roles, client hosts (pg_hba): it goes to the log only.
    const code =
      e?.code && /^([0-9A-Z]{5}|E[A-Z]+)$/.test(e.code)
        ? e.code
        : (PG_CLIENT_TEXTS.find((t) => raw.startsWith(t)) ?? 'no code');
    const what = PG_CODES[code];
    return `PostgreSQL is unreachable or failed (${code}${what ? `, ${what}` : ''}): ${PG_HINT}`;
  }
  return String(message);
}

/** What a caller is told of a PostgreSQL failure beside its code (the failure as it came is logged). */
const PG_HINT = `PostgreSQL's own message is in the server log; check ${DATABASE_URL} and that the database is up`;
/** A few SQLSTATE and errno codes in words of ours (PostgreSQL's condition names, not its messages). */
const PG_CODES: Record<string, string> = {
  '57014': 'statement timeout',
  '55P03': 'lock timeout',
  '3D000': 'no such database',
  '28000': 'role refused',
  '28P01': 'password refused',
  '53300': 'too many connections',
  '57P01': 'server shutting down',
  '57P03': 'server starting up',
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
};
/** node-postgres's own failures without a code: fixed texts that name nothing, said as they are. */
const PG_CLIENT_TEXTS = [
  'timeout expired',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Connection terminated',
];

/** The oldest Node with node:sqlite (package.json's engines), and whether this one is older. */
export const MIN_NODE = '22.13';
export const nodeTooOld = (version = process.versions.node) => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 13);
};
export const noSqlite = (error: unknown) =>
  /node:sqlite/.test(String((error as Error)?.message)) &&
  /ERR_UNKNOWN_BUILTIN_MODULE|No such built-in module/.test(
    `${(error as { code?: string })?.code} ${(error as Error)?.message}`,
  );
