// How long the store may hold anything up. A store operation (SQLite: waiting for another process's write
// lock; PostgreSQL: one statement) is bounded, and so is the flush at shutdown: a store that takes longer is
// unavailable for that call (the tool answers without history); it never holds an answer, another caller or
// the exit.

/** One store operation's bound, unless the tests' variable sets another. */
export const STORE_TIMEOUT_MS = 5_000;
/** Tests only: the bound in milliseconds, so that a test of a stuck store takes a second, not five. */
export const STORE_TIMEOUT_MS_FOR_TESTS = 'STREAMER_ANALYTICS_INTERNAL_STORE_TIMEOUT_MS';
/** At shutdown: how long the writes still queued may take, then how long closing the store may take. */
export const SHUTDOWN_FLUSH_MS = 2_000;
export const SHUTDOWN_CLOSE_MS = 1_000;

export function storeTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env[STORE_TIMEOUT_MS_FOR_TESTS]);
  return Number.isFinite(ms) && ms > 0 ? ms : STORE_TIMEOUT_MS;
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether `promise` settled within `ms` (its outcome is left to whoever else awaits it). */
export function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}
