// MCP Apps: a client that declares the extension gets the view named on five tools, an app-only evidence
// tool and each result's full data for the view; a client that does not gets exactly what it got before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_CAPABILITIES } from '../../scripts/host/harness.js';
import { SIM_NOW } from '../../src/simulator/data.js';
import type { Simulator } from '../../src/simulator/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { VIEW_LIMITS } from '../../src/view-data.js';
import { VIEW_DATA_KEY, VIEW_URI } from '../../src/views.js';
import { atPath, call, connect, type Harness, ids, SIM_NAMES, sc, startSim } from '../helpers.js';

let sim: Simulator;
let plain: Harness;
let apps: Harness;
beforeAll(async () => {
  sim = await startSim();
  // A small budget: the model's channels are cut, the view's data is not.
  [plain, apps] = await Promise.all([
    connect(sim, { budgetChars: 4_000 }),
    connect(sim, { budgetChars: 4_000, capabilities: APPS_CAPABILITIES }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), apps?.close()]);
  await sim.close();
});

const meta = (r: { _meta?: unknown }) => (r._meta ?? {}) as Record<string, unknown>;

const WITH_VIEW = [
  'investigate_botting',
  'analyze_botting',
  'get_streamers_analytics',
  'get_activity_heatmap',
];
/** The calls whose results a view draws, and two it does not. */
const CALLS = (): Array<[string, Record<string, unknown>]> => [
  ['investigate_botting', { mintIds: ids(sim, 'platform_a', 60) }],
  ['analyze_botting', { mintIds: ids(sim, 'platform_a', 20) }],
  ['get_streamers_analytics', { mintIds: ids(sim, 'platform_a', 5), points: 50 }],
  ['get_activity_heatmap', {}],
  ['get_streamer_sessions', { mint: ids(sim, 'platform_a', 1)[0] }],
  ['check_health', {}],
];

describe('a plain client (no MCP Apps) is unchanged', () => {
  it('lists exactly the reviewed tool table (the snapshot in __snapshots__/tools-list.json), nothing more', async () => {
    const { tools } = await plain.client.listTools();
    expect(JSON.stringify(tools)).toBe(JSON.stringify(TOOLS.map((t) => t.entry())));
  });

  it('gets results byte for byte what an MCP Apps client gets, without the view data', async () => {
    for (const [name, args] of CALLS()) {
      const [bare, rich] = await Promise.all([
        plain.client.callTool({ name, arguments: args }),
        apps.client.callTool({ name, arguments: args }),
      ]);
      expect(meta(bare)[VIEW_DATA_KEY], name).toBeUndefined();
      // The MCP Apps client's result without the view's data: the key removed, and _meta if that empties it.
      const { [VIEW_DATA_KEY]: view, ...others } = meta(rich);
      expect(view !== undefined, name).toBe(WITH_VIEW.includes(name));
      const rest = Object.fromEntries(
        Object.entries(rich).flatMap(([k, v]) =>
          k !== '_meta' ? [[k, v]] : Object.keys(others).length ? [[k, others]] : [],
        ),
      );
      expect(JSON.stringify(rest), name).toBe(JSON.stringify(bare));
    }
  });

  it('is told the view page is an unknown resource, exactly as for any other unknown URI', async () => {
    const error = (uri: string) =>
      plain.client.readResource({ uri }).then(
        () => 'answered',
        (e: { code?: number; message: string }) => `${e.code} ${e.message.replace(uri, '<uri>')}`,
      );
    const other = await error('ui://streamer-analytics/other.html');
    expect(other).toMatch(/Unknown resource: <uri>/);
    expect(await error(VIEW_URI)).toBe(other);
    expect((await plain.client.listResources()).resources.map((r) => r.uri)).not.toContain(VIEW_URI);
  });
});

describe('MCP Apps', () => {
  it('lists the view on five tools and one app-only tool, only to a client that declares the extension', async () => {
    const before = (await plain.client.listTools()).tools;
    expect(before.map((t) => t.name)).not.toContain('get_token_evidence');
    expect(before.filter((t) => t._meta !== undefined)).toEqual([]);
    const tools = (await apps.client.listTools()).tools;
    const withView = tools.filter(
      (t) => (meta(t).ui as { resourceUri?: string } | undefined)?.resourceUri === VIEW_URI,
    );
    expect(withView.map((t) => t.name).sort()).toEqual([
      'analyze_botting',
      'check_watchlist',
      'get_activity_heatmap',
      'get_streamers_analytics',
      'investigate_botting',
    ]);
    const evidence = tools.find((t) => t.name === 'get_token_evidence');
    expect(meta(evidence ?? {}).ui).toEqual({ visibility: ['app'] });
    // Apart from _meta and the app-only tool, the same list.
    expect(tools.filter((t) => t.name !== 'get_token_evidence').map(({ _meta, ...t }) => t)).toEqual(before);
  });

  it('serves the view as one self-contained MCP App page, listed only to MCP Apps clients', async () => {
    expect((await plain.client.listResources()).resources.map((r) => r.uri)).not.toContain(VIEW_URI);
    expect((await apps.client.listResources()).resources.map((r) => r.uri)).toContain(VIEW_URI);
    const [page] = (await apps.client.readResource({ uri: VIEW_URI })).contents as Array<
      Record<string, unknown>
    >;
    expect(page?.mimeType).toBe('text/html;profile=mcp-app');
    const html = String(page?.text);
    expect(html.length).toBeLessThan(500 * 1024);
    // Nothing loaded from anywhere: no src= or href= to another place, a CSP that allows none.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
    expect(html).toContain("default-src 'none'");
  });

  it('gives the view every finding while the model channels keep their budget, the same as without the view', async () => {
    const mintIds = ids(sim, 'platform_a', 120);
    const [without, withView] = await Promise.all([
      plain.client.callTool({ name: 'investigate_botting', arguments: { mintIds } }),
      apps.client.callTool({ name: 'investigate_botting', arguments: { mintIds } }),
    ]);
    expect(meta(without)[VIEW_DATA_KEY]).toBeUndefined();
    expect(withView.content).toEqual(without.content);
    expect(withView.structuredContent).toEqual(without.structuredContent);
    const view = meta(withView)[VIEW_DATA_KEY] as { kind: string; rows: unknown[]; failures: unknown[] };
    const counts = (without.structuredContent as { counts: { analysed: number; failed: number } }).counts;
    expect(view.kind).toBe('board');
    expect(view.rows).toHaveLength(counts.analysed);
    expect(view.failures).toHaveLength(counts.failed);
    expect(JSON.stringify(without.structuredContent).length).toBeLessThan(4_000);
  });

  it('serves the evidence of one token to the view, and no one else', async () => {
    const [mint] = ids(sim, 'platform_a', 1);
    const out = await apps.client.callTool({ name: 'get_token_evidence', arguments: { mint } });
    const view = meta(out)[VIEW_DATA_KEY] as Record<string, unknown>;
    expect(view.kind).toBe('evidence');
    expect(Array.isArray(view.sessions)).toBe(true);
    expect((view.series as { series: unknown[] }).series).toHaveLength(1);
    const refused = await call(plain.client, 'get_token_evidence', { mint }).catch((e: Error) => e);
    expect(String((refused as Error).message)).toContain('Unknown tool: get_token_evidence');
  });
  it('evidence counts the series it read, not the results it was sent', async () => {
    const [mint] = ids(sim, 'platform_a', 1);
    // A result with no points (an empty time-keyed record): one result sent, no series read.
    sim.injectFor(/analytics/, {
      status: 200,
      body: { success: true, data: { results: [{ mint_id: mint, timeline: {} }], errors: [] } },
    });
    const empty = await call(apps.client, 'get_token_evidence', { mint });
    expect(empty.text).toMatch(/no series points read \(1 analytics result with no numeric points\)/);
    expect(sc(empty).counts).toMatchObject({ series: 0, points: 0, resultsWithoutPoints: 1 });
    // Points keyed by time, viewers sent as text: read, drawn and counted.
    const timeline = Object.fromEntries(
      Array.from({ length: 12 }, (_, k) => [String(1_746_097_200 + k * 300), { viewers: String(100 + k) }]),
    );
    sim.injectFor(/analytics/, {
      status: 200,
      body: { success: true, data: { results: [{ mint_id: mint, timeline }], errors: [] } },
    });
    const out = await apps.client.callTool({ name: 'get_token_evidence', arguments: { mint } });
    const view = meta(out)[VIEW_DATA_KEY] as {
      series: { series: Array<{ t: number[]; values: Record<string, number[]> }> };
    };
    expect(view.series.series[0]?.t).toHaveLength(12);
    expect(view.series.series[0]?.values.viewers?.slice(0, 2)).toEqual([100, 101]);
    expect(String((out.content as Array<{ text: string }>)[0]?.text)).toContain('1 series of 12 points');
  });
});

describe('the view data is bounded and cleaned like the text channel', () => {
  const board = async (mintIds: string[]) =>
    meta(await apps.client.callTool({ name: 'analyze_botting', arguments: { mintIds } }))[VIEW_DATA_KEY] as {
      total: number;
      unexpected: number;
      limits: { rows: number };
      rows: Array<{ mintId: string; name: string | null; reasons: string[] }>;
      failures: Array<{ id: string }>;
    };

  it('puts only the requested ids on the board and in its counts; the others are counted as unexpected', async () => {
    const [mint, other] = ids(sim, 'platform_a', 2);
    const flood = Array.from({ length: 35_001 }, (_, i) => ({
      mintId: `${String(i).padStart(6, '0')}${'Z'.repeat(38)}`,
      confidenceLevel: 'HIGH',
      confidence: 0.99,
      score: 99,
      reasons: ['not asked for'],
    }));
    sim.injectFor(/\/botting\/bulk/, {
      status: 200,
      body: {
        success: true,
        data: {
          results: [
            { mintId: mint, confidenceLevel: 'LOW', confidence: 0.1, score: 3, reasons: [] },
            ...flood,
          ],
          errors: [{ mintId: 'Q'.repeat(44), error: 'not yours' }],
          summary: {},
        },
      },
    });
    const view = await board([mint as string, other as string]);
    expect(view.rows.map((r) => r.mintId)).toEqual([mint]);
    expect(view.total).toBe(1);
    expect(view.failures.map((f) => f.id)).toEqual([other]);
    expect(view.unexpected).toBe(35_002);
    expect(view.limits.rows).toBeGreaterThanOrEqual(500);
  });

  it('cleans and caps every upstream string (a 1 MiB coin name, reasons with control characters)', async () => {
    const token = sim.data.tokens.find((t) => t.platform === 'platform_a' && t.botting?.reasons.length);
    if (!token?.botting) throw new Error('no token with reasons');
    const name = token.coinName;
    const reasons = token.botting.reasons;
    token.coinName = `\u202eEvil\u0007${'N'.repeat(1024 * 1024)}`;
    token.botting.reasons = [`line\nbreak\u001b[31m red`, ...Array.from({ length: 50 }, (_, i) => `r${i}`)];
    try {
      const out = await apps.client.callTool({
        name: 'investigate_botting',
        arguments: { mintIds: [token.mintId] },
      });
      const [row] = (meta(out)[VIEW_DATA_KEY] as { rows: Array<{ name: string; reasons: string[] }> }).rows;
      expect(row?.name.length).toBeLessThanOrEqual(80);
      expect(row?.name.startsWith('Evil')).toBe(true);
      expect(row?.reasons[0]).toBe('line break red');
      expect(row?.reasons).toHaveLength(VIEW_LIMITS.reasons);
      expect(JSON.stringify(meta(out)).length).toBeLessThan(10_000);
    } finally {
      token.coinName = name;
      token.botting.reasons = reasons;
    }
  });

  it("labels series by the tokens' names and symbols, and keeps only the requested ones", async () => {
    const mintIds = ids(sim, 'platform_a', 3);
    const out = await apps.client.callTool({ name: 'get_streamers_analytics', arguments: { mintIds } });
    const view = meta(out)[VIEW_DATA_KEY] as {
      series: Array<{
        mintId: string;
        name: string;
        symbol: string;
        t: number[];
        values: Record<string, number[]>;
        primary: string;
      }>;
    };
    expect(view.series.map((s) => s.mintId)).toEqual(mintIds);
    for (const s of view.series) {
      const token = sim.data.byMint.get(s.mintId);
      expect([s.name, s.symbol]).toEqual([token?.coinName, token?.coinSymbol]);
      expect(s.t).toHaveLength(100);
      expect(s.primary).toBe(SIM_NAMES.viewers);
      expect(s.values[s.primary]).toHaveLength(100);
    }
  });
});

describe('the view data carries what the text channel says beyond the rows', () => {
  const view = (r: { _meta?: unknown }) => meta(r)[VIEW_DATA_KEY] as Record<string, unknown>;
  const unknown = (count: number) =>
    Array.from({ length: count }, (_, i) => `Fk${String(i).padStart(4, '9')}${'Z'.repeat(38)}`);

  it("carries the call's filters and order, the fees it joined, the failed count and the text's hint", async () => {
    const mintIds = [...ids(sim, 'platform_a', 10), ...unknown(12)];
    const out = await apps.client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds, levels: ['HIGH'], liveOnly: true, sortBy: 'fees', includeCreatorFees: true },
    });
    const data = view(out) as {
      title: string;
      filters: unknown;
      failed: number;
      hint: string | null;
      rows: Array<{ mintId: string; feesNative?: number | null; feesCurrency?: string | null }>;
    };
    expect(data.title).toBe('Botting investigation');
    expect(data.filters).toEqual({ levels: ['HIGH'], liveOnly: true, sortBy: 'fees' });
    expect(data.failed).toBe(12);
    // The same hint, in the same words, as the text channel's.
    const text = (out.content as Array<{ text: string }>).map((c) => c.text).join('\n');
    expect(data.hint).toBeTruthy();
    expect(text).toContain(`Hint: ${data.hint}`);
    const feeOf = new Map(
      sim.data.tokens.filter((t) => t.fees).map((t) => [t.mintId, t.fees?.feesInNativeCoin]),
    );
    const withFees = data.rows.filter((r) => feeOf.has(r.mintId));
    expect(withFees.length).toBeGreaterThan(0);
    for (const r of withFees) expect(r.feesNative).toBe(feeOf.get(r.mintId));

    const plainBoard = view(
      await apps.client.callTool({
        name: 'analyze_botting',
        arguments: { mintIds: ids(sim, 'platform_a', 3) },
      }),
    );
    expect(plainBoard.title).toBe('Botting analysis');
    expect(plainBoard.filters).toBeUndefined();
    expect((plainBoard.rows as Array<Record<string, unknown>>)[0]).not.toHaveProperty('feesNative');
  });

  it('counts the tokens botting analysis does not cover apart on both boards, as the text does: rows, never failures', async () => {
    for (const [name, mintIds] of [
      ['investigate_botting', [...ids(sim, 'platform_b', 4), ...ids(sim, 'platform_c', 4)]],
      ['analyze_botting', [...ids(sim, 'platform_b', 3), ...ids(sim, 'platform_c', 3)]],
    ] as const) {
      const offIds = mintIds.filter((id) => sim.data.byMint.get(id)?.platform === 'platform_c');
      const out = await apps.client.callTool({
        name,
        arguments: {
          mintIds,
          chain: 'chain_b',
          ...(name === 'investigate_botting' ? { includeCreatorFees: true } : {}),
        },
      });
      const counts = (
        out.structuredContent as { counts: { analysed: number; failed: number; notCovered: number } }
      ).counts;
      const data = view(out) as {
        total: number;
        failed: number;
        failures: Array<{ id: string }>;
        hint: string | null;
        notCovered: { count: number; platform: string };
        rows: Array<{ mintId: string; covered?: boolean; viewers: number | null; live: boolean | null }>;
      };
      expect(counts.notCovered, name).toBe(offIds.length);
      expect([data.total, data.failed, data.notCovered.count], name).toEqual([
        counts.analysed,
        counts.failed,
        counts.notCovered,
      ]);
      expect(data.notCovered.platform).toBe('platform_c');
      expect(data.failures.map((f) => f.id)).toEqual([]);
      expect(data.hint, name).toBeNull();
      // Every token a row: the covered ones first, then the not-covered ones, with their viewers and live state.
      expect(data.rows.map((r) => r.mintId).sort()).toEqual([...mintIds].sort());
      const off = data.rows.filter((r) => r.covered === false);
      expect(off.map((r) => r.mintId).sort()).toEqual([...offIds].sort());
      expect(data.rows.slice(-off.length)).toEqual(off);
      for (const r of off) {
        const token = sim.data.byMint.get(r.mintId);
        expect([r.viewers, r.live], r.mintId).toEqual([token?.currentViewers, token?.isCurrentlyLive]);
      }
    }
  });

  it("names every token on analyze_botting's board on either chain (one /streamers request, for a view only)", async () => {
    for (const [chain, platform] of [
      ['chain_a', 'platform_a'],
      ['chain_b', 'platform_b'],
    ] as const) {
      const mintIds = ids(sim, platform, 10);
      const lookups = () => sim.requests.filter((r) => /\/streamers\/?$/.test(r.path)).length;
      const before = lookups();
      await plain.client.callTool({ name: 'analyze_botting', arguments: { mintIds, chain } });
      const plainLookups = lookups() - before;
      const out = await apps.client.callTool({ name: 'analyze_botting', arguments: { mintIds, chain } });
      expect(lookups() - before - plainLookups, chain).toBe(1);
      expect(plainLookups, chain).toBe(chain === 'chain_b' ? 1 : 0);
      const rows = (view(out) as { rows: Array<{ mintId: string; name: string; viewers: number | null }> })
        .rows;
      expect(rows).toHaveLength(10);
      for (const r of rows) {
        const token = sim.data.byMint.get(r.mintId);
        expect([r.name, r.viewers], r.mintId).toEqual([token?.coinName, token?.currentViewers]);
      }
    }
  });

  it("carries the heatmap's headline facts as the structured channel gives them", async () => {
    const out = await apps.client.callTool({ name: 'get_activity_heatmap', arguments: {} });
    const s = out.structuredContent as {
      monthly: { peak: unknown; activeDays: number };
      consistency: { total: number; days: number };
    };
    const data = view(out) as {
      month: { peak: unknown; active: number; days: unknown[] };
      consistency: { total: number; days: number };
    };
    expect(data.month.peak).toEqual(s.monthly.peak);
    expect(data.month.active).toBe(s.monthly.activeDays);
    expect(data.month.days.length).toBeGreaterThan(27);
    expect(data.consistency.total).toBe(s.consistency.total);
    expect(data.consistency.days).toBe(s.consistency.days);
  });

  it("says which window the evidence's verdict is over", async () => {
    const [mint] = ids(sim, 'platform_a', 1);
    const out = await apps.client.callTool({
      name: 'get_token_evidence',
      arguments: { mint, period: '30d' },
    });
    expect((view(out).scope as { hours: number }).hours).toBe(168);
  });
});

describe('the simulator tells one consistent story', () => {
  it('never has averageViewers above peakViewers, in sessions or in analytics', async () => {
    for (const t of sim.data.tokens)
      for (const s of t.sessions) expect(s.averageViewers).toBeLessThanOrEqual(s.peakViewers);
    const res = await fetch(`${sim.url}/streamers/analytics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
      body: JSON.stringify({ mintIds: ids(sim, 'platform_a', 25), period: '7d', points: 500 }),
    });
    const results = ((await res.json()) as { data: { results: unknown[] } }).data.results;
    expect(results).toHaveLength(25);
    for (const r of results)
      expect(atPath(r, SIM_NAMES.mean)).toBeLessThanOrEqual(atPath(r, SIM_NAMES.peak) as number);
  });

  it("draws evidence curves that differ by period and agree with the token's sessions", async () => {
    const token = sim.data.tokens.find(
      (t) => t.platform === 'platform_a' && t.isCurrentlyLive && t.sessions.length > 3,
    );
    if (!token) throw new Error('no live token with sessions');
    const curve = async (period: string) => {
      const out = await apps.client.callTool({
        name: 'get_token_evidence',
        arguments: { mint: token.mintId, period },
      });
      const view = meta(out)[VIEW_DATA_KEY] as {
        series: { series: Array<{ t: number[]; values: Record<string, number[]>; primary: string }> };
        sessions: Array<{ startTime: string; endTime: string; peakViewers: number }>;
      };
      const s = view.series.series[0];
      // The audience field, as the view draws it, whatever the dialect names it.
      return { t: s?.t ?? [], values: { viewers: s?.values[s.primary] ?? [] }, sessions: view.sessions };
    };
    const [day, week] = await Promise.all([curve('1d'), curve('7d')]);
    expect(day.values.viewers).not.toEqual(week.values.viewers);
    for (const c of [day, week]) {
      expect(Math.max(...c.values.viewers)).toBeGreaterThan(0);
      c.t.forEach((at, i) => {
        const v = c.values.viewers[i] as number;
        const within = c.sessions.find((s) => Date.parse(s.startTime) <= at && at <= Date.parse(s.endTime));
        // Inside a session: at most its peak; outside every session listed (all are in a week here): none.
        if (within) expect(v).toBeLessThanOrEqual(within.peakViewers);
        else if (at >= Date.parse(c.sessions.at(-1)?.startTime ?? '')) expect(v).toBe(0);
      });
      expect(c.t.at(-1)).toBe(SIM_NOW);
      // Live now: the curve ends at the viewers the streamer record gives.
      expect(c.values.viewers.at(-1)).toBe(token.currentViewers);
    }
  });
});
