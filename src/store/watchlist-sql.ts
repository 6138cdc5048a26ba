// The watchlists' SQL, the same for SQLite and PostgreSQL: a row and the list it holds (ids as JSON text).
import type { Row, Watchlist } from './types.js';

export const SELECT_WATCHLIST = 'SELECT name, chain, note, mint_ids, created, updated FROM watchlists';
export const PUT_WATCHLIST = `INSERT INTO watchlists (owner, name, chain, note, mint_ids, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (owner, name) DO UPDATE SET chain = excluded.chain, note = excluded.note,
  mint_ids = excluded.mint_ids, updated = excluded.updated`;
export const watchlistValues = (owner: string, w: Watchlist) => [
  owner,
  w.name,
  w.chain,
  w.note,
  JSON.stringify(w.mintIds),
  w.created,
  w.updated,
];

export function watchlistOf(r: Row): Watchlist {
  return {
    name: String(r.name),
    chain: String(r.chain),
    note: String(r.note),
    mintIds: JSON.parse(String(r.mint_ids)) as string[],
    created: Number(r.created),
    updated: Number(r.updated),
  };
}
