// The figures the server computes (totals, ranks, peaks, means, medians, counts), checked through the real
// server over the simulator against values computed here independently; ties, empty and single-row pages,
// missing fields, non-numeric junk, and a sum that float addition gets wrong in the last digit.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, type Harness, ids, sc, useSimulator } from '../helpers.js';

let sim: Simulator;
let h: Harness;
useSimulator((s, harness) => {
  sim = s;
  h = harness;
});

const addr = (c: string) => c.repeat(44);
const [A, B, C, D, E] = ['A', 'B', 'C', 'D', 'E'].map(addr) as [string, string, string, string, string];

function fees(data: unknown[], errors: unknown[] = []) {
  sim.inject({ status: 200, body: { success: true, data, errors } });
}

describe('get_creator_fees', () => {
  it('totals exactly where float addition is off in the last digit, keeps every native decimal', async () => {
    // 867.273174 + 0.1 + 0.2 is 867.5731740000001 in floating point; the true total is 867.573174.
    expect(867.273174 + 0.1 + 0.2).not.toBe(867.573174);
    fees([
      {
        tokenAddress: A,
        creatorAddress: 'c1',
        totalFees: 1.1,
        currency: 'USD',
        feesInNativeCoin: 867.273174,
      },
      { tokenAddress: B, creatorAddress: 'c2', totalFees: 2.2, currency: 'USD', feesInNativeCoin: 0.1 },
      { tokenAddress: C, creatorAddress: 'c3', totalFees: 5, currency: 'EUR', feesInNativeCoin: 0.2 },
    ]);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [A, B, C] });
    expect(out.text).toContain('867.273174');
    expect(out.text.split('\n')[0]).toBe(
      'Creator fees: 3 of 3 tokens found; total 867.573174 in native coin (3 tokens) · 3.30 USD (2 tokens) · 5 EUR (1 tokens)',
    );
    expect(sc(out).totals).toEqual({
      nativeCoin: 867.573174,
      nativeCoinTokens: 3,
      byCurrency: [
        { currency: 'USD', total: 3.3, tokens: 2 },
        { currency: 'EUR', total: 5, tokens: 1 },
      ],
    });
    // Ranked by native coin, highest first.
    const results = sc(out).results as Array<{ rank: number; tokenAddress: string }>;
    expect(results.map((r) => [r.rank, r.tokenAddress])).toEqual([
      [1, A],
      [2, C],
      [3, B],
    ]);
  });

  it('ties share a rank; missing and non-numeric amounts rank last and stay out of the totals', async () => {
    fees([
      { tokenAddress: A, totalFees: 10, currency: 'USD', feesInNativeCoin: 5 },
      { tokenAddress: B, totalFees: 'n/a', currency: 'USD', feesInNativeCoin: '12' },
      { tokenAddress: C, totalFees: 20, currency: 'USD', feesInNativeCoin: 7.5 },
      { tokenAddress: D, totalFees: 30, currency: 'USD', feesInNativeCoin: 5 },
      { tokenAddress: E, currency: 'USD' },
    ]);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [A, B, C, D, E] });
    const results = sc(out).results as Array<{ rank: number | null; tokenAddress: string }>;
    expect(results.map((r) => [r.rank, r.tokenAddress])).toEqual([
      [1, C],
      [2, A],
      [2, D],
      [null, B],
      [null, E],
    ]);
    expect(sc(out).totals).toMatchObject({
      nativeCoin: 17.5,
      nativeCoinTokens: 3,
      byCurrency: [{ currency: 'USD', total: 60, tokens: 3 }],
    });
  });

  it('an empty answer has no totals to invent', async () => {
    fees([], [{ tokenAddress: A, error: 'Token not found' }]);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [A] });
    expect(out.text.split('\n')[0]).toBe('Creator fees: 0 of 1 tokens found, 1 failed');
    expect(sc(out).totals).toEqual({ nativeCoin: 0, nativeCoinTokens: 0, byCurrency: [] });
  });
});

describe('get_streamer_sessions', () => {
  const mint = () => ids(sim, 'platform_a', 1)[0] as string;
  const sessions = (data: unknown[]) => sim.inject({ status: 200, body: { success: true, data } });

  it('peak, mean and median, total duration, span and order of the simulated page', async () => {
    const id = ids(sim, 'platform_a', 160).find((m) => (sim.data.byMint.get(m)?.sessions.length ?? 0) >= 20);
    const page = sim.data.byMint.get(id as string)?.sessions.slice(0, 20) ?? [];
    const out = await call(h.client, 'get_streamer_sessions', { mint: id });
    const peak = page.reduce((best, s) => (s.peakViewers > best.peakViewers ? s : best));
    const avgs = page.map((s) => s.averageViewers).sort((x, y) => x - y);
    const mean = avgs.reduce((x, y) => x + y, 0) / avgs.length;
    const median = ((avgs[9] as number) + (avgs[10] as number)) / 2;
    const figures = sc(out).aggregates as Record<string, Record<string, unknown> | unknown>;
    expect(figures.peak).toMatchObject({ peakViewers: peak.peakViewers, sessionId: peak.sessionId });
    expect(figures.averageViewers).toMatchObject({ sessions: 20 });
    // The midpoint of the two middle values, exact in decimal (float halving may be off in the last digit).
    expect((figures.averageViewers as { median: number }).median).toBeCloseTo(median, 9);
    expect(String((figures.averageViewers as { median: number }).median)).toMatch(/^\d+(\.\d{1,2})?$/);
    expect((figures.averageViewers as { mean: number }).mean).toBeCloseTo(mean, 9);
    expect(figures.totalDuration).toBe(page.reduce((x, s) => x + s.duration, 0));
    expect(figures.earliestStart).toBe(page.at(-1)?.startTime);
    expect(figures.latestEnd).toBe(page[0]?.endTime);
    expect(figures.order).toBe('newest first');
    expect(out.text.split('\n')[0]).toContain(
      `peak ${peak.peakViewers.toLocaleString('en')} viewers (newest first;`,
    );
    expect(out.text).toContain(`in session ${peak.sessionId}`);
  });

  it('ties, missing fields and junk: the first peak named with the tie, numbers only averaged', async () => {
    sessions([
      {
        sessionId: 's1',
        startTime: '2026-11-01T10:00:00Z',
        endTime: '2026-11-01T11:00:00Z',
        peakViewers: 50,
        averageViewers: 10,
        duration: 0.1,
      },
      {
        sessionId: 's2',
        startTime: '2026-11-02T10:00:00Z',
        endTime: '2026-11-02T12:00:00Z',
        peakViewers: 50,
        averageViewers: 'x',
        duration: 0.2,
      },
      { sessionId: 's3', startTime: 'not a time', peakViewers: null, averageViewers: 20 },
      {
        sessionId: 's4',
        startTime: '2026-11-03T10:00:00Z',
        peakViewers: 7,
        averageViewers: 40,
        duration: 1.1,
      },
    ]);
    const out = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    expect(sc(out).aggregates).toEqual({
      peak: { peakViewers: 50, sessionId: 's1', startTime: '2026-11-01T10:00:00Z', sessionsWithSamePeak: 2 },
      averageViewers: { mean: 70 / 3, median: 20, sessions: 3, withoutNumber: 1 },
      // 0.1 + 0.2 + 1.1 is 1.4000000000000001 in floating point.
      totalDuration: 1.4,
      durationMissing: 1,
      earliestStart: '2026-11-01T10:00:00Z',
      latestEnd: '2026-11-02T12:00:00Z',
      order: 'oldest first',
    });
    expect(out.text).toContain('mean ≈23.33, median 20 (over 3 of 4 sessions; the rest have no number)');
    expect(out.text).toContain('total duration 1.4');
  });

  it('a single session, and an empty page', async () => {
    sessions([{ sessionId: 'only', startTime: '2026-11-01T10:00:00Z', peakViewers: 3, averageViewers: 2.5 }]);
    const one = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    expect(sc(one).aggregates).toMatchObject({
      peak: { peakViewers: 3 },
      averageViewers: { mean: 2.5, median: 2.5 },
    });
    expect(sc(one).aggregates).not.toHaveProperty('order');
    sessions([]);
    const none = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    expect(none.text.split('\n')[0]).toMatch(/: 0 on page 1 \(chain_a/);
    expect(sc(none)).not.toHaveProperty('aggregates');
  });
});

describe('list_streamers', () => {
  it('the live count and viewers of the page, non-numeric viewers left out', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          { mintId: A, isCurrentlyLive: true, currentViewers: 1_000 },
          { mintId: B, isCurrentlyLive: true, currentViewers: 'lots' },
          { mintId: C, isCurrentlyLive: false, currentViewers: 0 },
          { mintId: D, isCurrentlyLive: 'yes', currentViewers: 234 },
        ],
        pagination: { total: 4 },
      },
    });
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [A, B, C, D] });
    expect(sc(out).aggregates).toEqual({ rows: 4, live: 2, currentViewers: 1_234 });
    expect(out.text.split('\n')[0]).toMatch(
      /^Streamers: 4 of 4 .*; on this page: 2 live, 1,234 viewers now$/,
    );
  });
});

describe('get_streamers_analytics and the heatmap', () => {
  it('per series: first, last, min, max with its time, mean', async () => {
    const [m] = ids(sim, 'platform_a', 1) as [string];
    const dataPoints = [
      { timestamp: '2026-11-20T10:00:00Z', viewers: 5 },
      { timestamp: '2026-11-20T11:00:00Z', viewers: 9 },
      { timestamp: '2026-11-20T12:00:00Z', viewers: 'junk' },
      { timestamp: '2026-11-20T13:00:00Z', viewers: 9 },
      { timestamp: '2026-11-20T14:00:00Z', viewers: 1 },
    ];
    sim.inject({
      status: 200,
      body: { success: true, data: { results: [{ mintId: m, dataPoints }], errors: [] } },
    });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [m] });
    const first = (sc(out).results as Array<Record<string, unknown>>)[0];
    expect(first?.['dataPoints[].viewers']).toEqual({
      count: 4,
      first: 5,
      last: 1,
      min: 1,
      minAt: '2026-11-20T14:00:00Z',
      max: 9,
      maxAt: '2026-11-20T11:00:00Z',
      mean: 6,
      ignored: 1,
    });
    expect(out.text).toContain(
      'dataPoints[].viewers=computed over 4 points: first 5, last 1, min 1 at 2026-11-20T14:00:00Z, max 9 at 2026-11-20T11:00:00Z, mean 6 (1 non-numeric left out)',
    );
  });

  it('the busiest day and hour cell, stated as such, ties going to the first', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: {
          daily: { hourlyActivity: { '0-1': 4, '1-2': 9, '2-3': 9 } },
          monthly: { dailyActivity: { '2026-11-02': 30, '2026-11-01': 30, '2026-11-03': 'x' } },
        },
      },
    });
    const out = await call(h.client, 'get_activity_heatmap');
    expect(out.text.split('\n')[0]).toBe(
      'Activity heatmap (chain_a / platform_a): busiest day 2026-11-01 (30); busiest hour cell a=1, b=2 (9)',
    );
    expect(sc(out).busiest).toEqual({
      day: { date: '2026-11-01', value: 30 },
      hourCell: { a: 1, b: 2, value: 9 },
    });
  });
});

describe('detailed earns its tokens', () => {
  const nothing = 'detailed: the upstream sent nothing beyond what concise shows.';

  it('says so in one line where the upstream sent nothing beyond concise (fees, core)', async () => {
    const [m] = ids(sim, 'platform_a', 160).filter((id) => sim.data.byMint.get(id)?.fees) as [string];
    const fees = await call(h.client, 'get_creator_fees', {
      tokenAddresses: [m],
      response_format: 'detailed',
    });
    expect(fees.text).toContain(nothing);
    expect(sc(fees).detail).toBe(nothing);
    const core = await call(h.client, 'get_streamer_core', { mint: m, response_format: 'detailed' });
    expect(core.text).toContain(nothing);
    expect(sc(core).detail).toBe(nothing);
  });

  it('shows what it adds where there is more (an undocumented field), and concise never says it', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          { tokenAddress: A, totalFees: 1, currency: 'USD', feesInNativeCoin: 2, claimedAt: '2026-11-01' },
        ],
      },
    });
    const fees = await call(h.client, 'get_creator_fees', {
      tokenAddresses: [A],
      response_format: 'detailed',
    });
    expect(fees.text).toContain('claimedAt="2026-11-01"');
    expect(fees.text).not.toContain(nothing);
    const [m] = ids(sim, 'platform_a', 1) as [string];
    const concise = await call(h.client, 'get_streamer_core', { mint: m });
    expect(concise.text).not.toContain(nothing);
  });
});
