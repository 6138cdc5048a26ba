// Demo mode's store: the same SQL in an SQLite database held in memory, gone with the process, so the
// simulator's data never reaches the user's own history.
import { openSqlite } from './sqlite.js';
import type { Store } from './types.js';

export const openMemory = (): Promise<Store> => openSqlite(':memory:', 'memory');
