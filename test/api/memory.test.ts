// A leak check that does not depend on RSS noise: the heap after a forced collection, round after round.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { connect, type Harness, ids, startSim } from '../helpers.js';

const gc = (globalThis as { gc?: () => void }).gc;

let sim: Simulator;
let h: Harness;
beforeAll(async () => {
  sim = await startSim();
  h = await connect(sim, { api: { breaker: { threshold: 1_000 } } });
});
afterAll(async () => {
  await h.close();
  await sim.close();
});

async function round(calls: number, mintIds: string[]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < calls) {
        const i = next++;
        await h.client.callTool({
          name: 'analyze_botting',
          arguments: { mintIds: [mintIds[i % mintIds.length] as string] },
        });
      }
    }),
  );
  sim.requests.length = 0; // the simulator's own log is not the server's memory
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

describe('memory', () => {
  it.runIf(gc)(
    'holds nothing per call: the heap after GC is flat across rounds, faults included',
    async () => {
      const mintIds = ids(sim, 'platform_a', 100);
      sim.randomFaults(0.05, [
        { status: 500 },
        { drop: 'before' },
        { raw: '{' },
        { status: 200, body: { success: false } },
      ]);
      const warm = await round(1_000, mintIds);
      const later = [await round(1_000, mintIds), await round(1_000, mintIds)];
      const growthMiB = (Math.max(...later) - warm) / 1024 / 1024;
      console.log(
        `heap after GC: ${(warm / 1048576).toFixed(1)} MiB warm, +${growthMiB.toFixed(2)} MiB after 2,000 more calls`,
      );
      expect(growthMiB).toBeLessThan(2);
    },
    60_000,
  );
});
