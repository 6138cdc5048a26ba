// Numbers keep their meaning, short lists of records stay records, and the detailed text carries what
// the detailed JSON carries (Claude Desktop shows the model only the text).
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, type Harness, ids, SIM_NAMES, sc, useSimulator } from '../helpers.js';

let sim: Simulator;
let h: Harness;
useSimulator((s, harness) => {
  sim = s;
  h = harness;
});

const M = 'M'.repeat(44);

describe('numbers', () => {
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
  it('overview topViewers: one record per entry, each id beside its own viewers', async () => {
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
    const [result] = sc(out).results as Array<Record<string, unknown>>;
    expect(result?.[SIM_NAMES.recentSessions]).toHaveLength(sessions.length);
  });
});

describe('detailed text carries what detailed JSON carries', () => {
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
