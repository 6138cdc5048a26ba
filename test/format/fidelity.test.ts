// Numbers keep their meaning, short lists of records stay records, and the detailed text carries what
// the detailed JSON carries (Claude Desktop shows the model only the text).
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, FIRST_CHANNEL, type Harness, ids, SIM_NAMES, sc, useSimulator } from '../helpers.js';

let sim: Simulator;
let h: Harness;
useSimulator((s, harness) => {
  sim = s;
  h = harness;
});

// Its facts are about formatting, the same over every channel: each runs once, on the first channel
// (FIRST_CHANNEL), except those whose upstream answer the simulator's dialect shapes (src/simulator/dialect.ts:
// found by tracing the dialect's functions over a legacy-http-b run), which run on legacy-http-b against
// dialect B too. test/tools/channels.test.ts meets every channel with a call of every tool.
const once = it.runIf(FIRST_CHANNEL);
const onceAll = describe.runIf(FIRST_CHANNEL);

const M = 'M'.repeat(44);

onceAll('numbers', () => {
  it('money to the cent, in the text and the concise JSON', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          {
            tokenAddress: M,
            creatorAddress: 'C'.repeat(44),
            totalFees: 43_421.82,
            currency: 'USD',
            feesInNativeCoin: 0.1234567,
          },
        ],
        errors: [],
      },
    });
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [M] });
    expect(out.text).toContain('43,421.82');
    expect(out.text).not.toMatch(/43,42[02]\b/);
    const [row] = sc(out).results as Array<Record<string, unknown>>;
    expect(row).toMatchObject({ totalFees: 43_421.82, feesInNativeCoin: 0.1234567 });
  });

  it('an average keeps its decimal beside the peak it nearly equals', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [{ sessionId: 's1', peakViewers: 2_694, averageViewers: 2_693.9, duration: 5_400.5 }],
      },
    });
    const out = await call(h.client, 'get_streamer_sessions', { mint: M });
    expect(out.text).toMatch(/2,694\s+2,693\.9/);
    expect(out.text).toContain('5,400.5');
    expect((sc(out).rows as unknown[][])[0]).toEqual([null, null, 5_400.5, 2_694, 2_693.9]);
  });

  it('market caps and viewers of a list read exactly, and the JSON holds the exact values', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          { mintId: M, coinName: 'A', currentViewers: 123_456, tokenMarketCap: 39_512_345.67 },
          { mintId: 'N'.repeat(44), coinName: 'B', currentViewers: 123_457, tokenMarketCap: 39_514_000.1 },
        ],
        pagination: { total: 2 },
      },
    });
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [M, 'N'.repeat(44)] });
    for (const shown of ['123,456', '123,457', '39,512,345.67', '39,514,000.1'])
      expect(out.text).toContain(shown);
    expect(JSON.stringify(sc(out).rows)).toContain('39512345.67');
  });
});

describe('short lists of records', () => {
  once('overview topViewers: one record per entry, each id beside its own viewers', async () => {
    const top = [
      { mintId: 'A'.repeat(44), currentViewers: 900 },
      { mintId: 'B'.repeat(44), currentViewers: 450 },
      { mintId: 'C'.repeat(44), currentViewers: 450 },
    ];
    sim.inject({
      status: 200,
      body: { success: true, data: { globalStats: { totalStreamers: 3 }, liveMetrics: { topViewers: top } } },
    });
    const out = await call(h.client, 'get_analytics_overview');
    expect(out.text).toContain(
      `topViewers={mintId="${'A'.repeat(44)}", currentViewers=900}; {mintId="${'B'.repeat(44)}", currentViewers=450}; {mintId="${'C'.repeat(44)}", currentViewers=450}`,
    );
    expect((sc(out).liveMetrics as Record<string, unknown>).topViewers).toEqual(top);
  });

  it('complete recentSessions: every session a record, none folded into columns', async () => {
    const mint = ids(sim, 'platform_a', 1)[0] as string;
    const out = await call(h.client, 'get_streamers_complete', { mintIds: [mint] });
    const sessions = sim.data.byMint.get(mint)?.sessions.slice(0, 5) ?? [];
    expect(sessions.length).toBeGreaterThan(1);
    for (const s of sessions) expect(out.text).toContain(`{sessionId="${s.sessionId}"`);
    // The token's id heads its entry; concise does not repeat it in every nested record.
    expect(out.text.split(mint).length - 1).toBe(1);
    const [result] = sc(out).results as Array<Record<string, unknown>>;
    expect(result?.[SIM_NAMES.recentSessions]).toHaveLength(sessions.length);
  });
});

onceAll('detailed text carries what detailed JSON carries', () => {
  const sentinel = { sentinelText: 'sentinel-abc', sentinelNumber: 1234.56789 };
  const bodies: Record<string, [Record<string, unknown>, unknown]> = {
    list_streamers: [
      { tokenAddresses: [M] },
      { success: true, data: [{ mintId: M, ...sentinel }], pagination: {} },
    ],
    get_streamer_core: [{ mint: M }, { success: true, data: { mintId: M, ...sentinel } }],
    get_streamer_sessions: [{ mint: M }, { success: true, data: [{ sessionId: 's', ...sentinel }] }],
    get_streamers_analytics: [
      { mintIds: [M] },
      { success: true, data: { results: [{ mintId: M, ...sentinel }] } },
    ],
    get_streamers_complete: [
      { mintIds: [M] },
      { success: true, data: { results: [{ mintId: M, ...sentinel }] } },
    ],
    analyze_botting: [{ mintIds: [M] }, { success: true, data: { results: [{ mintId: M, ...sentinel }] } }],
    get_creator_fees: [{ tokenAddresses: [M] }, { success: true, data: [{ tokenAddress: M, ...sentinel }] }],
    get_analytics_overview: [{}, { success: true, data: { globalStats: sentinel, liveMetrics: {} } }],
    get_activity_heatmap: [
      {},
      { success: true, data: { daily: { hourlyActivity: { '0-0': 1 } }, ...sentinel } },
    ],
    check_health: [{}, { success: true, ...sentinel }],
  };
  for (const [tool, [args, body]] of Object.entries(bodies)) {
    it(tool, async () => {
      sim.inject({ status: 200, body });
      const out = await call(h.client, tool, { ...args, response_format: 'detailed' });
      expect(JSON.stringify(out.structured)).toContain('sentinel-abc');
      expect(out.text).toContain('"sentinel-abc"');
      expect(out.text).toContain('1234.56789');
    });
  }

  it('investigate_botting', async () => {
    const mintIds = ids(sim, 'platform_a', 2);
    sim.injectFor(/streamers$/, {
      status: 200,
      body: { success: true, data: mintIds.map((mintId) => ({ mintId, ...sentinel })) },
    });
    const out = await call(h.client, 'investigate_botting', { mintIds, response_format: 'detailed' });
    expect(JSON.stringify(out.structured)).toContain('sentinel-abc');
    expect(out.text).toContain('streamer.sentinelText="sentinel-abc"');
    expect(out.text).toContain('1234.56789');
  });
});

// Shapes an independent upstream sent (written from the interface document alone): ids nested in the
// element, series keyed by time, numbers sent as text, a flat series of zeros, years and epoch times.
onceAll('shapes of an independent upstream', () => {
  const A = 'AlphA1111111111111111111111111111111111pump';
  const B = 'BravO2222222222222222222222222222222222pump';
  const C = 'CharL3333333333333333333333333333333333pump';
  const T0 = 1_746_097_200;
  const envelope = (results: unknown[], errors: unknown[], total: number) => ({
    success: true,
    data: {
      results,
      errors,
      summary: { total, successful: results.length, failed: errors.length },
    },
  });
  /** A timeline keyed by epoch seconds, viewers and caps sent as decimal text, a jump at point 7. */
  const timeline = (n: number, base: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, k) => [
        String(T0 + k * 360),
        {
          viewers: String(base + ((k * 53) % 97) - 40 + (k === 7 ? 5000 : 0)),
          mcap_usd: (1_250_000.5 * (1 + k / 1000)).toFixed(2),
          live: k % 10 !== 0,
        },
      ]),
    );
  const viewersOf = (n: number, base: number) =>
    Object.values(timeline(n, base)).map((p) => Number(p.viewers));

  it('complete: an id nested in the element is its id; no false integrity claim', async () => {
    sim.inject({
      status: 200,
      body: envelope(
        [A, B].map((id) => ({ token: { mint_address: id, name: 'x' }, market: { cap_usd: '4200' } })),
        [{ mintId: C, error: 'Token not found' }],
        3,
      ),
    });
    const out = await call(h.client, 'get_streamers_complete', { mintIds: [A, B, C] });
    expect(out.text.split('\n')[0]).toMatch(/3 requested, 2 returned, 1 failed/);
    expect(out.text).not.toMatch(/not requested|result 1/);
    expect(out.text).toContain(`${A}:\n`);
    const s = sc(out);
    expect((s.results as Array<Record<string, unknown>>).map((r) => r.mintId)).toEqual([A, B]);
    expect(s.integrity).toBeUndefined();
    expect(s.counts).toEqual({ requested: 3, returned: 2, failed: 1 });
  });

  it('complete: an element with no readable id is not called unrequested, nor its id failed upstream', async () => {
    sim.inject({
      status: 200,
      body: envelope([{ token: { name: 'no id here' } }, { mintId: B }], [], 2),
    });
    const out = await call(h.client, 'get_streamers_complete', { mintIds: [A, B] });
    expect(out.text).not.toContain('not requested');
    expect(out.text.split('\n')[0]).toMatch(
      /2 requested, 2 returned \(1 not matched to an id\), 0 failed, 1 without a matched result/,
    );
    const s = sc(out);
    expect(s.counts).toMatchObject({ requested: 2, returned: 2, failed: 0, unidentified: 1, unmatched: 1 });
    expect((s.results as Array<Record<string, unknown>>)[0]).toMatchObject({ position: 'result 1' });
    expect((s.results as Array<Record<string, unknown>>)[0]?.mintId).toBeUndefined();
    expect(JSON.stringify(s.errors)).toContain('no result matched to this id');
  });

  it('analytics: a record keyed by time is a series; numbers sent as text are read; largest rise and fall', async () => {
    sim.inject({
      status: 200,
      body: envelope(
        [
          {
            mint_id: A,
            window: { from_ts: T0, step_s: 360 },
            timeline: timeline(10, 812),
            stats: { peak_viewers: '5852' },
          },
        ],
        [],
        1,
      ),
    });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [A], points: 10, period: '1h' });
    expect(out.text).not.toMatch(/timeline\.\d+/);
    const at = (k: number) => new Date((T0 + k * 360) * 1000).toISOString();
    expect(out.text).toContain(
      `timeline{}.viewers=computed over 10 points: first 772, last 861, min 772 at ${at(0)}, max 5,852 at ${at(7)}, mean 1,316.5, largest rise +5,053 at ${at(7)}, largest fall -5,044 at ${at(8)} (numbers sent as text)`,
    );
    expect(out.text).toContain(`window.from_ts=${T0} (${at(0)})`);
    const [r] = sc(out).results as Array<Record<string, unknown>>;
    expect(r?.['timeline{}.viewers']).toMatchObject({
      count: 10,
      first: 772,
      last: 861,
      min: 772,
      max: 5852,
      maxAt: at(7),
      mean: 1316.5,
      maxRise: 5053,
      maxRiseAt: at(7),
      maxFall: -5044,
      maxFallAt: at(8),
    });
    expect(r?.['timeline{}.mcap_usd']).toMatchObject({ first: 1_250_000.5, last: 1_261_250.5 });
    // A field of booleans is said to hold no numbers, not dropped.
    expect(out.text).toContain('timeline{}.live=10 values, none numeric');
  });

  it('analytics concise, 500 points: the upstream stats first, the series summarised, no point dumped', async () => {
    sim.inject({
      status: 200,
      body: envelope(
        [A, B].map((id) => ({
          mint_id: id,
          timeline: timeline(500, 812),
          stats: { peak_viewers: '5852', mean_viewers: '829.8' },
        })),
        [],
        2,
      ),
    });
    const out = await call(h.client, 'get_streamers_analytics', {
      mintIds: [A, B],
      points: 500,
      period: '7d',
    });
    expect(out.text).not.toContain('more fields');
    expect(out.text).not.toMatch(/timeline\.\d+/);
    for (const id of [A, B]) {
      const block = out.text.slice(out.text.indexOf(`${id}:`));
      expect(block).toMatch(/^[^\n]+:\n {2}stats\.peak_viewers="5852"\n {2}stats\.mean_viewers="829\.8"\n/);
    }
    const viewers = viewersOf(500, 812);
    expect(out.text).toContain(`computed over 500 points: first ${viewers[0]}, last ${viewers.at(-1)}`);
    expect(out.text.length).toBeLessThan(3_000);
  });

  it('analytics: a series of zeros is said to be all zeros, in both channels', async () => {
    const zeros = Array.from({ length: 100 }, (_, i) => ({ at: (T0 + i * 60) * 1000, viewers: 0 }));
    sim.inject({ status: 200, body: envelope([{ mint_id: A, points: zeros }], [], 1) });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [A], points: 100 });
    expect(out.text).toContain('points[].viewers=computed over 100 points: all 100 points are 0');
    expect(out.text).not.toMatch(/max 0 at/);
    const [r] = sc(out).results as Array<Record<string, unknown>>;
    expect(r?.['points[].viewers']).toEqual({ count: 100, allEqual: 0 });
  });

  it('analytics: a field of text that is not all numbers says how few were numbers', async () => {
    const list = Array.from({ length: 20 }, (_, i) => ({
      ts: new Date((T0 + i * 60) * 1000).toISOString(),
      viewers: i < 15 ? 'n/a' : String(i),
    }));
    sim.inject({ status: 200, body: envelope([{ mint_id: A, list }], [], 1) });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [A], points: 20 });
    expect(out.text).toContain('list[].viewers=20 values, only 5 numeric: first "n/a", last "19"');
  });

  it('years and epoch times are never grouped; detailed keeps nulls as null', async () => {
    sim.inject({
      status: 200,
      body: { success: true, status: 'degraded', checked_at: T0, calendar: { year: 2025 }, lag: null },
    });
    const out = await call(h.client, 'check_health', { response_format: 'detailed' });
    expect(out.text).toContain(`checked_at=${T0} (${new Date(T0 * 1000).toISOString()})`);
    expect(out.text).toContain('calendar.year=2025');
    expect(out.text).not.toMatch(/2,025|1,746,097,200/);
    expect(out.text).toContain('lag=null');
  });

  it('a duration whose name ends in Time is never shown as a date; an event time is', async () => {
    sim.inject({
      status: 200,
      body: envelope([{ profile: { mint: A, totalStreamingTime: 1_491_492_365, lastSeenTime: T0 } }], [], 1),
    });
    const out = await call(h.client, 'get_streamers_complete', { mintIds: [A] });
    expect(out.text).toContain('profile.totalStreamingTime=1,491,492,365');
    expect(out.text).not.toContain('2017-04-06');
    expect(out.text).toContain(`profile.lastSeenTime=${T0} (${new Date(T0 * 1000).toISOString()})`);
  });

  it('analytics: a series sent as [time, value] pairs is a series, in time order, its times as ISO', async () => {
    // Epoch milliseconds, one level deeper than the element, as pairs: [[t, viewers], …].
    const points = Array.from({ length: 12 }, (_, k) => [(T0 + k * 3600) * 1000, k === 5 ? 900 : 100 + k]);
    sim.inject({
      status: 200,
      body: envelope([{ mintId: A, metrics: { viewers: { points, peak: 900 } } }], [], 1),
    });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [A] });
    const at = (k: number) => new Date((T0 + k * 3600) * 1000).toISOString();
    expect(out.text).toContain(
      `metrics.viewers.points[][1]=computed over 12 points: first 100, last 111, min 100 at ${at(0)}, max 900 at ${at(5)}`,
    );
    expect(out.text).not.toMatch(/mixed items/);
    const first = (sc(out).results as Array<Record<string, unknown>>)[0] ?? {};
    expect(first['metrics.viewers.points[][1]']).toMatchObject({ count: 12, max: 900, maxAt: at(5) });
    expect(first['metrics.viewers.points[][0]']).toMatchObject({ count: 12, first: at(0), last: at(11) });
  });

  it('documented numbers sent as decimal text are read as the numbers they write: totals, ranks, peaks', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          { tokenAddress: A, totalFees: '100.25', currency: 'USD', feesInNativeCoin: '1.5' },
          { tokenAddress: B, totalFees: '300.5', currency: 'USD', feesInNativeCoin: '0.25' },
        ],
        errors: [],
        summary: { totalRequested: '2', successful: '2', failed: '0' },
      },
    });
    const fees = await call(h.client, 'get_creator_fees', { tokenAddresses: [A, B] });
    expect(fees.text.split('\n')[0]).toContain('total 1.75 in native coin (2 tokens) · 400.75 USD');
    expect((sc(fees).results as Array<Record<string, unknown>>).map((r) => [r.rank, r.feesRank])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(fees.text).not.toMatch(/upstream summary says/);
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [
          { mintId: A, coinName: 'A', currentViewers: '3412', isCurrentlyLive: true },
          { mintId: B, coinName: 'B', currentViewers: '998', isCurrentlyLive: true },
        ],
        pagination: { page: 1, limit: 2, total: '25', totalPages: '13' },
      },
    });
    const list = await call(h.client, 'list_streamers', { tokenAddresses: [A, B], limit: 2 });
    expect(list.text).toContain('4,410 viewers now');
  });

  it('analytics: parallel lists {timestamps, viewers, market_cap} are one series, each index a point', async () => {
    // Epoch seconds in one list, viewers and caps as decimal text in lists of the same length.
    const n = 12;
    const viewers = Array.from({ length: n }, (_, k) => (k === 4 ? 9_000 : k === 9 ? 100 : 1_000 + k));
    const series = {
      timestamps: Array.from({ length: n }, (_, k) => T0 + k * 900),
      viewers: viewers.map(String),
      market_cap: Array.from({ length: n }, (_, k) => (5_996_178.4 + k * 1000).toFixed(2)),
    };
    sim.inject({
      status: 200,
      body: envelope([{ mint_id: A, period: '1h', point_count: String(n), series }], [], 1),
    });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [A], points: n });
    const at = (k: number) => new Date((T0 + k * 900) * 1000).toISOString();
    // The time list is the points' time, not values to summarise.
    expect(out.text).not.toMatch(/timestamps=computed over|mean 1,7\d\d,/);
    expect(out.text).toContain(`series.timestamps=12 points, from ${at(0)} to ${at(11)}`);
    expect(out.text).toContain(
      `series.viewers=computed over 12 points: first 1,000, last 1,011, min 100 at ${at(9)}, max 9,000 at ${at(4)}`,
    );
    expect(out.text).toContain(`largest rise +7,997 at ${at(4)}, largest fall -7,995 at ${at(5)}`);
    expect(out.text).toContain('period="1h"');
    const [r] = sc(out).results as Array<Record<string, unknown>>;
    expect(r?.['series.viewers']).toMatchObject({ count: 12, max: 9_000, maxAt: at(4), maxFallAt: at(5) });
    expect(r?.['series.market_cap']).toMatchObject({ first: 5_996_178.4, last: 6_007_178.4 });
    expect(r?.['series.timestamps']).toMatchObject({ count: 12, first: at(0), last: at(11) });
  });

  it('analytics: times without a zone are times, shown as sent, never as UTC', async () => {
    const stamp = (k: number) => `2026-11-20 ${String(10 + k).padStart(2, '0')}:00:00`;
    const series = {
      time: Array.from({ length: 6 }, (_, k) => stamp(k)),
      viewers: [5, 6, 50, 7, 8, 9],
    };
    sim.inject({ status: 200, body: envelope([{ mint_id: A, series }], [], 1) });
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [A] });
    expect(out.text).toContain(`series.time=6 points, from ${stamp(0)} to ${stamp(5)}`);
    expect(out.text).toContain(`max 50 at ${stamp(2)}`);
    expect(out.text).toContain(`largest fall -43 at ${stamp(3)}`);
    expect(out.text).not.toMatch(/2026-11-20T1\d:00:00(\.000)?Z|UTC/);
  });

  it('list_streamers detailed: a field the upstream sent as null is shown as null', async () => {
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: [{ mintId: M, coinName: 'A', currentViewers: 1, tokenPrice: null, thumb_url: null }],
        pagination: { total: 1 },
      },
    });
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [M], response_format: 'detailed' });
    expect(out.text).toMatch(/thumb_url=null/);
  });
});
