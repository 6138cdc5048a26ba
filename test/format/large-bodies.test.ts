// Answers with very long lists, each body near the client's bound of 250,000 entries (BODY_BOUNDS): every
// tool that reads them must answer, not fail inside (a spread of such a list into Math.max overflowed the
// call stack: "Maximum call stack size exceeded").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, connect, type Harness, ids, startSim } from '../helpers.js';

/** One list of this many elements: each body stays just under BODY_BOUNDS.entries (250,000). */
const LONG = 249_000;
let sim: Simulator;
let h: Harness;

beforeAll(async () => {
  sim = await startSim();
  h = await connect(sim, { config: { timeoutMs: 30_000 } });
});
afterAll(async () => {
  await h.close();
  await sim.close();
});

const day = (i: number) => new Date(Date.UTC(1970, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const numbers = (n = LONG) => Array.from({ length: n }, (_, i) => (i * 7919) % 10_007);

describe('answers with lists of 249,000 elements', () => {
  it('get_activity_heatmap: hourly keys, daily and consistency series', async () => {
    const hourlyActivity: Record<string, number> = {};
    for (let i = 0; i < LONG; i++) hourlyActivity[`${i % 7}-${i}`] = i % 500;
    const consistencyData: Record<string, number> = {};
    for (let i = 0; i < 400; i++) consistencyData[day(i)] = i;
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: {
          daily: { hourlyActivity, maxActivity: 499 },
          monthly: { dailyActivity: { '2026-11-01': 3 }, maxActivity: 3 },
          consistency: { consistencyData },
        },
      },
    });
    const out = await call(h.client, 'get_activity_heatmap');
    expect(out.isError, out.text).toBe(false);
    expect(out.text).toContain('Consistency:');
    expect(out.text).toContain('max 399');
  });

  it('get_analytics_overview: a long series inside the global stats', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: { globalStats: { totalStreamers: 3, history: numbers() }, liveMetrics: {} },
      },
    });
    const out = await call(h.client, 'get_analytics_overview');
    expect(out.isError, out.text).toBe(false);
    expect(out.text).toContain(`history=computed over ${LONG.toLocaleString('en')} points`);
    expect(out.text).toContain('max 10,006');
  });

  it('get_streamers_analytics: a long time series summarised', async () => {
    const [mint] = ids(sim, 'platform_a', 1) as [string];
    sim.inject({
      status: 200,
      body: { success: true, data: { results: [{ mintId: mint, viewers: numbers() }], errors: [] } },
    });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [mint] });
    expect(out.isError, out.text).toBe(false);
    expect(out.text).toContain('max 10,006');
  });

  it('get_streamers_analytics: a series whose every point has a field of its own is read in linear time', async () => {
    // 40,000 points (120,000 entries), each with one field no other point has: read field by field, each
    // over every point, this took minutes of the main thread; read in one pass, well under a second.
    const [mint] = ids(sim, 'platform_a', 1) as [string];
    const points = Array.from({ length: 40_000 }, (_, i) => ({ at: 1_790_000_000 + i * 60, [`f${i}`]: 'x' }));
    sim.inject({
      status: 200,
      body: { success: true, data: { results: [{ mintId: mint, points }], errors: [] } },
    });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [mint] });
    expect(out.isError, out.text).toBe(false);
    expect(out.text).toContain(mint);
  }, 20_000);

  it('get_streamer_sessions: a page of that many sessions', async () => {
    const [mint] = ids(sim, 'platform_a', 1) as [string];
    sim.inject({
      status: 200,
      body: { success: true, data: numbers().map(() => ({})) },
    });
    const out = await call(h.client, 'get_streamer_sessions', { mint });
    expect(out.isError, out.text).toBe(false);
    expect(out.text).toContain('249,000 on page 1');
  });
});
