// For files whose tests spend their time waiting (on spawned servers, databases, a store's bounds), not
// computing, and share no state: `it` runs them at once (vitest's it.concurrent, three at a time), and
// `closers` is the running test's own list of what to close after it, in reverse (an AsyncLocalStorage scope
// that follows the test through its awaits), in place of a file-wide afterEach.
import { AsyncLocalStorage } from 'node:async_hooks';
import { it as base } from 'vitest';
import type { Simulator } from '../src/simulator/server.js';
import { startSim } from './helpers.js';

type Closer = () => Promise<unknown>;
const scope = new AsyncLocalStorage<Closer[]>();

function opened(): Closer[] {
  const list = scope.getStore();
  if (!list) throw new Error('closers: called outside a test of test/concurrent.ts');
  return list;
}

export const closers = {
  push: (c: Closer) => void opened().push(c),
  /** Closed last (a database dropped after the servers that use it). */
  unshift: (c: Closer) => void opened().unshift(c),
};

// Three at a time, not vitest's five: the tests start servers at once, and some time an answer against a
// bound (a store's 1 s open answered within 3 s), which five servers starting together beside the suite's
// other files could starve.
const AT_ONCE = 3;
let running = 0;
const queued: Array<() => void> = [];

export function it(name: string, body: () => Promise<void>, timeout = 60_000) {
  base.concurrent(
    name,
    async ({ onTestFinished }) => {
      if (running >= AT_ONCE) await new Promise<void>((go) => queued.push(go));
      running++;
      const list: Closer[] = [];
      onTestFinished(async () => {
        for (const c of list.reverse()) await c().catch(() => {});
        running--;
        queued.shift()?.();
      });
      await scope.run(list, body);
    },
    timeout,
  );
}

/** A simulator of the running test's own (the requests it records and the faults it is given are this test's alone). */
export async function ownSim(): Promise<Simulator> {
  const sim = await startSim();
  closers.push(() => sim.close());
  return sim;
}
