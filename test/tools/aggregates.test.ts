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
      `Creator fees: 3 of 3 tokens found; total 867.573174 in native coin (3 tokens) · 3.30 USD (2 tokens; highest ${B} 2.20) · 5 EUR (1 token; highest ${C} 5)`,
    );
    expect(sc(out).totals).toEqual({
      nativeCoin: 867.573174,
      nativeCoinTokens: 3,
      byCurrency: [
        { currency: 'USD', total: 3.3, tokens: 2, highest: { tokenAddress: B, totalFees: 2.2 } },
        { currency: 'EUR', total: 5, tokens: 1, highest: { tokenAddress: C, totalFees: 5 } },
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
      { tokenAddress: B, totalFees: 'n/a', currency: 'USD', feesInNativeCoin: 'about 12' },
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
      byCurrency: [{ currency: 'USD', total: 60, tokens: 3, highest: { tokenAddress: D, totalFees: 30 } }],
    });
  });

  it('an empty answer has no totals to invent', async () => {
    fees([], [{ tokenAddress: A, error: 'Token not found' }]);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [A] });
    expect(out.text.split('\n')[0]).toBe('Creator fees: 0 of 1 token found, 1 failed');
    expect(sc(out).totals).toEqual({ nativeCoin: 0, nativeCoinTokens: 0, byCurrency: [] });
  });

  it('an upstream null stays null in structuredContent and reads as – in the text, never an empty string', async () => {
    fees([{ tokenAddress: A, creatorAddress: null, totalFees: 5, currency: 'USD', feesInNativeCoin: 1 }]);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [A] });
    expect((sc(out).results as Array<Record<string, unknown>>)[0]?.creatorAddress).toBeNull();
    expect(out.text.split('\n').find((l) => /^[\d–] /.test(l) && l.includes(A))).toMatch(/ –$/);
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
      covers: { page: 1, sessions: 4, wholeHistory: true },
      peak: { peakViewers: 50, sessionId: 's1', startTime: '2026-11-01T10:00:00Z', sessionsWithSamePeak: 2 },
      longest: { duration: 1.1, sessionId: 's4', startTime: '2026-11-03T10:00:00Z' },
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
    expect(sc(none)).not.toHaveProperty('aggregates');
  });

  it("an empty page 1 is not a zero: it may be another chain's or platform's token, and says where to look, in both channels", async () => {
    sessions([]);
    const none = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    const headline = none.text.split('\n')[0] as string;
    expect(headline).toContain(
      ': none on page 1 with chain_a / platform_a (no sessions, or not a chain_a / platform_a token: an empty page does not say which)',
    );
    expect(sc(none).summary).toBe(headline);
    const next =
      "to tell which, try get_streamer_sessions with chain all, platform all, or get_streamer_sessions with chain chain_b, platform all, or get_streamer_core with chain all to find the token's chain and platform.";
    expect(sc(none).next).toBe(next);
    expect(none.text).toContain(`Next: ${next}`);
    expect(none.text).not.toContain('No sessions.');
    // The chain's other platform first; every chain at once says only that the token may be unknown.
    sessions([]);
    const b = await call(h.client, 'get_streamer_sessions', { mint: mint(), platform: 'platform_b' });
    expect(sc(b).next).toMatch(
      /^to tell which, try get_streamer_sessions with chain chain_b, platform platform_c, or get_streamer_sessions with chain all, platform all, or get_streamer_sessions with chain chain_a, platform platform_a, or get_streamer_core/,
    );
    sessions([]);
    const all = await call(h.client, 'get_streamer_sessions', { mint: mint(), chain: 'all' });
    expect(sc(all).summary).toContain('(no sessions, or a token the service does not know: ');
    expect(sc(all).next).toBe(
      "to tell which, try get_streamer_core with chain all to find the token's chain and platform.",
    );
    // A later empty page, or an upstream total of 0, is what it says.
    sessions([]);
    const later = await call(h.client, 'get_streamer_sessions', { mint: mint(), page: 2 });
    expect(later.text.split('\n')[0]).toMatch(/: 0 on page 2 \(chain_a/);
    sim.inject({ status: 200, body: { success: true, data: [], pagination: { total: 0 } } });
    const zero = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    expect(zero.text.split('\n')[0]).toMatch(/: 0 on page 1 \(0 in all\)/);
  });

  it("get_streamer_core with chain all points the sessions at the token's own chain and platform", async () => {
    const id = ids(sim, 'platform_b', 1)[0] as string;
    const out = await call(h.client, 'get_streamer_core', { mint: id, chain: 'all' });
    const next =
      'get_streamer_sessions with chain chain_b, platform platform_b for its stream history; analyze_botting with chain chain_b, platform platform_b to check its viewer counts.';
    expect(sc(out).next).toBe(next);
    expect(out.text).toContain(`Next: ${next}`);
  });

  const at = (ms: number) => new Date(Date.UTC(2026, 10, 1) + ms).toISOString().replace('Z', '+00:00');
  const run = (i: number, lengthMs: number, duration: number) => ({
    sessionId: `s${i}`,
    startTime: at(i * 86_400_000),
    endTime: at(i * 86_400_000 + lengthMs),
    duration,
    peakViewers: 10,
    averageViewers: 5,
  });

  it('minutes, from times without a zone (both alike, so their difference holds)', async () => {
    // "2026-11-01 06:13:00" (no zone) and durations in minutes: 90, 45 and 15.
    const plain = (ms: number) =>
      new Date(Date.UTC(2026, 10, 1) + ms).toISOString().slice(0, 19).replace('T', ' ');
    sessions(
      [90, 45, 15].map((m, i) => ({
        sessionId: `m${i}`,
        startTime: plain(i * 86_400_000),
        endTime: plain(i * 86_400_000 + m * 60_000),
        duration: m,
        peakViewers: 10,
      })),
    );
    const out = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    expect(sc(out).aggregates).toMatchObject({
      durationUnit: 'min',
      totalDuration: 150,
      totalDurationHours: 2.5,
    });
    expect(out.text).toContain('duration equals end − start in minutes for all 3 rows with a duration');
  });

  it('the duration unit only where every row shows it: duration = end − start in ms or in seconds, in both channels', async () => {
    // Milliseconds: 2.5 h + 1 h + 0.25 h.
    const lengths = [9_000_000, 3_600_000, 900_123];
    sessions(lengths.map((l, i) => run(i, l, l)));
    const ms = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    const evidence = 'duration equals end − start in ms for all 3 rows with a duration';
    expect(sc(ms).aggregates).toMatchObject({
      totalDuration: 13_500_123,
      durationUnit: 'ms',
      durationUnitEvidence: evidence,
      totalDurationHours: 13_500_123 / 3_600_000,
    });
    expect(ms.text).toContain('longest 9,000,000 ms in session s0');
    expect(ms.text).toContain('total duration 13,500,123 ms (≈3.75 h)');
    expect(ms.text).toContain(`durations in ms: ${evidence} (computed here; the API states no unit).`);
    expect(ms.text).not.toContain('unit not stated');
    // Seconds; a session under way (no end, no duration) does not count against it.
    sessions([
      { sessionId: 'live', startTime: at(9 * 86_400_000), endTime: null, duration: null },
      ...lengths.map((l, i) => run(i, l - (l % 1000), (l - (l % 1000)) / 1000)),
    ]);
    const s = await call(h.client, 'get_streamer_sessions', { mint: mint() });
    expect(sc(s).aggregates).toMatchObject({ durationUnit: 's', totalDuration: 13_500 });
    expect(s.text).toContain('total duration 13,500 s (3.75 h; 1 session without a duration)');
    expect(s.text).toContain('duration equals end − start in seconds for all 3 rows with a duration');
    // One row that disagrees, a row with a duration and no end, or times without a zone: no unit.
    for (const odd of [
      [...lengths.map((l, i) => run(i, l, l)), run(5, 1000, 1001)],
      [...lengths.map((l, i) => run(i, l, l)), { ...run(5, 1000, 1000), endTime: null }],
      // One time with a zone and one without: no difference is computed from them.
      lengths.map((l, i) => {
        const r = run(i, l, l);
        return { ...r, endTime: r.endTime.slice(0, 23) };
      }),
    ]) {
      sessions(odd);
      const out = await call(h.client, 'get_streamer_sessions', { mint: mint() });
      expect(sc(out).aggregates).not.toHaveProperty('durationUnit');
      expect(sc(out).aggregates).not.toHaveProperty('totalDurationHours');
      expect(out.text).toContain('(unit not stated by the API');
      expect(out.text).toContain('durations as returned (unit not stated by the API).');
      expect(out.text).not.toMatch(/\d h\b/);
    }
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
    expect(sc(out).aggregates).toEqual({
      rows: 4,
      live: 2,
      currentViewers: 1_234,
      sortedBy: 'currentViewers',
    });
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
      maxRise: 4,
      maxRiseAt: '2026-11-20T11:00:00Z',
      maxFall: -8,
      maxFallAt: '2026-11-20T14:00:00Z',
      ignored: 1,
    });
    expect(out.text).toContain(
      'dataPoints[].viewers=computed over 4 points: first 5, last 1, min 1 at 2026-11-20T14:00:00Z, max 9 at 2026-11-20T11:00:00Z, mean 6, largest rise +4 at 2026-11-20T11:00:00Z, largest fall -8 at 2026-11-20T14:00:00Z (1 non-numeric left out)',
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
      'Activity heatmap (chain_a / platform_a): busiest day 2026-11-01 (30); busiest hour cell a=1, b=2 (9); quietest returned cell a=0, b=1 (4)',
    );
    expect((sc(out).monthly as Record<string, unknown>).peak).toEqual({ date: '2026-11-01', value: 30 });
    expect((sc(out).hourly as Record<string, unknown>).peak).toEqual({ a: 1, b: 2, value: 9 });
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

// The outside trials' findings: each a figure the assistant had to compute itself, or a claim the data did not
// support. Bodies as an upstream built from the document alone sent them (offsets, sparse maps, other orders).
describe('figures an assistant would otherwise compute', () => {
  const [mint] = ['M'.repeat(44)];

  it('get_creator_fees: the rank by fiat fees per currency, beside the native-coin rank', async () => {
    // Native order C, A, B; USD order B, A (and C alone in EUR): "rank by USD" must not need a sort.
    fees([
      { tokenAddress: A, totalFees: 50, currency: 'USD', feesInNativeCoin: 2 },
      { tokenAddress: B, totalFees: 900.5, currency: 'USD', feesInNativeCoin: 1 },
      { tokenAddress: C, totalFees: 10, currency: 'EUR', feesInNativeCoin: 3 },
      { tokenAddress: D, totalFees: 50, currency: 'USD' },
    ]);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [A, B, C, D] });
    const results = sc(out).results as Array<Record<string, unknown>>;
    expect(results.map((r) => [r.tokenAddress, r.rank, r.feesRank])).toEqual([
      [C, 1, 1],
      [A, 2, 2],
      [B, 3, 1],
      [D, null, 2],
    ]);
    expect(out.text.split('\n')[0]).toContain(`1,000.50 USD (3 tokens; highest ${B} 900.50)`);
    const row = (id: string) => out.text.split('\n').find((l) => /^[\d–] /.test(l) && l.includes(id)) ?? '';
    expect(row(B)).toMatch(/900\.50 {2}USD +1$/);
    expect(row(D)).toMatch(/50 {2}USD +2$/);
    expect(out.text).toContain('fees rank: rank by total fees within the row');
  });

  const sessions = (data: unknown[], extra: Record<string, unknown> = {}) =>
    sim.inject({ status: 200, body: { success: true, data, ...extra } });
  const offsetSessions = [
    {
      sessionId: 'a',
      startTime: '2025-05-01T06:00:00-05:00',
      endTime: null,
      duration: null,
      peakViewers: 400,
      averageViewers: 200,
    },
    {
      sessionId: 'b',
      startTime: '2025-04-30T12:30:00+02:00',
      endTime: '2025-04-30T14:50:00+02:00',
      duration: 8400,
      peakViewers: 437,
      averageViewers: 213,
    },
    {
      sessionId: 'c',
      startTime: '2025-04-29T05:00:00.250-05:00',
      endTime: '2025-04-29T13:20:00+02:00',
      duration: 4800,
      peakViewers: 2222,
      averageViewers: 226,
    },
  ];

  it('get_streamer_sessions: every time in UTC where it states a zone, in both channels', async () => {
    sessions(offsetSessions);
    const out = await call(h.client, 'get_streamer_sessions', { mint });
    expect(out.text).not.toMatch(/[+-]0[25]:00/);
    expect(out.text).toContain('2025-05-01 11:00Z  –');
    expect(out.text).toContain('2025-04-30 10:30Z  2025-04-30 12:50Z');
    expect(out.text).toContain('From 2025-04-29 10:00Z to 2025-04-30 12:50Z (earliest start, latest end)');
    expect(out.text).toContain('Times in UTC;');
    const rows = sc(out).rows as unknown[][];
    expect(rows.map((r) => [r[0], r[1]])).toEqual([
      ['2025-05-01T11:00:00Z', null],
      ['2025-04-30T10:30:00Z', '2025-04-30T12:50:00Z'],
      ['2025-04-29T10:00:00.250Z', '2025-04-29T11:20:00Z'],
    ]);
    expect(sc(out).aggregates).toMatchObject({
      peak: { sessionId: 'c', startTime: '2025-04-29T10:00:00.250Z' },
      earliestStart: '2025-04-29T10:00:00.250Z',
      latestEnd: '2025-04-30T12:50:00Z',
    });
    // A time without a zone names no instant: shown as sent, and the footer no longer says UTC for it.
    sessions([{ ...offsetSessions[1], endTime: '2025-04-30T14:50:00' }]);
    const local = await call(h.client, 'get_streamer_sessions', { mint });
    expect(local.text).toContain('2025-04-30 10:30Z  2025-04-30T14:50:00');
    expect(local.text).toContain(
      'Times in UTC where the upstream stated a zone; 1 time without one shown as sent;',
    );
  });

  it('get_streamer_sessions: the longest session, what the figures cover, and how to cover a whole history', async () => {
    sessions(offsetSessions);
    const full = await call(h.client, 'get_streamer_sessions', { mint, limit: 3 });
    expect(sc(full).aggregates).toMatchObject({
      covers: { page: 1, sessions: 3, wholeHistory: false },
      longest: { duration: 8400, sessionId: 'b', startTime: '2025-04-30T10:30:00Z' },
    });
    expect(full.text).toContain(
      'Figures over page 1 only (3 sessions): peak 2,222 viewers in session c, started 2025-04-29 10:00Z · longest 8,400 in session b, started 2025-04-30 10:30Z',
    );
    expect(full.text).toContain('(unit not stated by the API; 1 session without a duration)');
    const next =
      'page 2 may hold more (this page is full); limit 100 (the most per page) needs fewer pages. These figures cover this page only: run_analysis totals a whole history (peak, longest, sums) in one call.';
    expect(full.text).toContain(`Next: ${next}`);
    expect(sc(full).next).toBe(next);
    // At limit 100 already, no advice to ask it.
    sessions(Array.from({ length: 100 }, (_, i) => ({ ...offsetSessions[1], sessionId: `s${i}` })));
    const hundred = await call(h.client, 'get_streamer_sessions', { mint, limit: 100 });
    expect(sc(hundred).next).toBe(
      'page 2 may hold more (this page is full). These figures cover this page only: run_analysis totals a whole history (peak, longest, sums) in one call.',
    );
    // A page that is not full is the whole history; an upstream's total, where one is sent, is said.
    sessions(offsetSessions);
    const whole = await call(h.client, 'get_streamer_sessions', { mint });
    expect(whole.text).toContain('Figures over all 3 sessions (page 1 is not full): ');
    expect(sc(whole).aggregates).toMatchObject({ covers: { wholeHistory: true } });
    expect(sc(whole)).not.toHaveProperty('next');
    sessions(offsetSessions, { pagination: { total: 42 } });
    const paged = await call(h.client, 'get_streamer_sessions', { mint, limit: 3, page: 2 });
    expect(paged.text.split('\n')[0]).toContain(': 3 on page 2 (42 in all)');
    expect(paged.text).toContain('Figures over page 2 only (3 of 42 sessions)');
    expect(sc(paged).aggregates).toMatchObject({ covers: { page: 2, sessions: 3, total: 42 } });
    expect(sc(paged).next).toMatch(/^page 3 holds more; limit 100/);
  });

  it('get_streamer_sessions on the simulator: the longest session is the one with the largest duration', async () => {
    const id = ids(sim, 'platform_a', 160).find((m) => (sim.data.byMint.get(m)?.sessions.length ?? 0) >= 20);
    const page = sim.data.byMint.get(id as string)?.sessions.slice(0, 20) ?? [];
    const longest = page.reduce((best, s) => (s.duration > best.duration ? s : best));
    const out = await call(h.client, 'get_streamer_sessions', { mint: id });
    expect(sc(out).aggregates).toMatchObject({
      longest: { duration: longest.duration, sessionId: longest.sessionId, startTime: longest.startTime },
    });
    // The simulator's durations are end − start in seconds: the page shows it, so the unit is said.
    expect(out.text).toContain(
      `longest ${longest.duration.toLocaleString('en')} s in session ${longest.sessionId}`,
    );
    expect(sc(out).aggregates).toMatchObject({ durationUnit: 's' });
    expect(out.text).toContain(`duration equals end − start in seconds for all ${page.length} rows`);
  });

  // The second trial's heatmap: hour-weekday keys (1–7), zero cells left out, a month map with gaps.
  const sparse = {
    daily: { hourlyActivity: { '21-6': 97, '20-6': 80, '3-1': 2, '14-3': 40, '0-7': 12, '23-5': 61 } },
    monthly: {
      dailyActivity: { '2025-05-01': 14, '2025-04-30': 30, '2025-04-27': 52, '2025-04-12': 7 },
      maxActivity: 52,
      calendar: { year: 2025, month: 5, daysInMonth: 31, startDayOfWeek: 4 },
    },
    consistency: { consistencyData: { '2025-04-29': 3, '2025-04-30': 5, '2025-05-01': 1 } },
  };

  it('get_activity_heatmap: a sparse month keeps its dates; never drawn as consecutive days', async () => {
    sim.inject({ status: 200, body: { success: true, data: sparse } });
    const out = await call(h.client, 'get_activity_heatmap');
    const monthly = sc(out).monthly as Record<string, unknown>;
    expect(monthly).toMatchObject({ from: '2025-04-12', to: '2025-05-01', datesWithValue: 4 });
    const values = monthly.values as Array<number | null>;
    expect(values).toHaveLength(20);
    expect([values[0], values[15], values[18], values[19]]).toEqual([7, 52, 30, 14]);
    expect(values.filter((v) => v === null)).toHaveLength(16);
    const month = out.text.split('\n').find((l) => l.startsWith('Month 2025-05:')) ?? '';
    expect(month).not.toContain('4 days');
    expect(month).toContain(
      '20 days 2025-04-12 to 2025-05-01, 4 with a value (· = no value sent for that date)',
    );
    expect(month).toMatch(/: [▁-█]·{14}[▁-█]··[▁-█][▁-█] /);
  });

  it('get_activity_heatmap: the quietest cell and each series` max date, in both channels', async () => {
    sim.inject({ status: 200, body: { success: true, data: sparse } });
    const out = await call(h.client, 'get_activity_heatmap');
    expect(out.text.split('\n')[0]).toContain(
      'busiest hour cell a=21, b=6 (97); quietest returned cell a=3, b=1 (2)',
    );
    expect(sc(out).hourly).toMatchObject({
      a: [0, 23],
      b: [1, 7],
      peak: { a: 21, b: 6, value: 97 },
      quietest: { a: 3, b: 1, value: 2 },
      cellsReturned: 6,
      cells: 168,
    });
    expect(out.text).toContain(
      '6 cells of the 168 in these ranges returned; the other 162 not sent (drawn ·, as 0).',
    );
    expect(out.text).toContain('max 5 on 2025-04-30, min 1 on 2025-05-01), total 9');
    expect(sc(out).consistency).toEqual({
      from: '2025-04-29',
      to: '2025-05-01',
      days: 3,
      activeDays: 3,
      total: 9,
      peak: { date: '2025-04-30', value: 5 },
      quietest: { date: '2025-05-01', value: 1 },
    });
  });

  it('get_activity_heatmap on the simulator: both channels name the same busiest and quietest', async () => {
    const out = await call(h.client, 'get_activity_heatmap');
    const hourly = sc(out).hourly as { peak: { a: number; b: number }; quietest: { a: number; b: number } };
    expect(out.text.split('\n')[0]).toContain(`busiest hour cell a=${hourly.peak.a}, b=${hourly.peak.b} (`);
    expect(out.text.split('\n')[0]).toContain(
      `quietest cell a=${hourly.quietest.a}, b=${hourly.quietest.b} (`,
    );
    const c = sc(out).consistency as { peak: { date: string; value: number } };
    expect(out.text).toMatch(
      new RegExp(`Consistency: .*max ${c.peak.value.toLocaleString('en')} on ${c.peak.date}`),
    );
  });

  it('list_streamers: the sort key is shown, or its absence from the records is said', async () => {
    const tokens = ids(sim, 'platform_a', 5);
    const out = await call(h.client, 'list_streamers', { tokenAddresses: tokens, sortBy: 'averageViewers' });
    const note =
      "Order: the upstream's, by averageViewers desc; the records carry no averageViewers value, so the order cannot be checked from this data.";
    expect(out.text).toContain(note);
    expect(sc(out).aggregates).toMatchObject({ order: note });
    const byViewers = await call(h.client, 'list_streamers', { tokenAddresses: tokens });
    expect(byViewers.text).not.toContain('Order:');
    expect(sc(byViewers).aggregates).toMatchObject({ sortedBy: 'currentViewers' });
    // An upstream that does send the field: a column in both channels, so the order can be read.
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          { mintId: A, currentViewers: 5, averageViewers: 301.4 },
          { mintId: B, currentViewers: 900, averageViewers: 60 },
        ],
        pagination: { total: 2 },
      },
    });
    const sent = await call(h.client, 'list_streamers', { tokenAddresses: [A, B], sortBy: 'averageViewers' });
    expect(sent.text).not.toContain('Order:');
    expect(sent.text.split('\n')[1]).toMatch(/ averageViewers$/);
    expect(sent.text.split('\n')[2]).toMatch(/ 301\.4$/);
    expect(sc(sent).columns).toContain('averageViewers');
    expect((sc(sent).rows as unknown[][])[0]?.at(-1)).toBe(301.4);
  });
});
