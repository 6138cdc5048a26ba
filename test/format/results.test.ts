// What each tool answers, in both channels, checked against the simulator's own data. Every call goes
// through the SDK Client, which validates structuredContent against the tool's outputSchema.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import {
  call,
  connect,
  FIRST_CHANNEL,
  failedOf,
  type Harness,
  ids,
  SIM_NAMES,
  sc,
  UNKNOWN_ID,
  useSimulator,
} from '../helpers.js';

let sim: Simulator;
let h: Harness;
let a: string[];
useSimulator((s, harness) => {
  sim = s;
  h = harness;
  a = ids(sim, 'platform_a', 160);
});

// Its facts are about formatting, the same over every channel: each runs once, on the first channel
// (FIRST_CHANNEL), except those whose upstream answer the simulator's dialect shapes (src/simulator/dialect.ts:
// found by tracing the dialect's functions over a legacy-http-b run), which run on legacy-http-b against
// dialect B too. test/tools/channels.test.ts meets every channel with a call of every tool.
const once = it.runIf(FIRST_CHANNEL);
const onceAll = describe.runIf(FIRST_CHANNEL);

const token = (id: string) => {
  const t = sim.data.byMint.get(id);
  if (!t) throw new Error(`no token ${id}`);
  return t;
};

onceAll('list_streamers', () => {
  it('answers a headline, a sorted table and the next page, in both channels', async () => {
    const out = await call(h.client, 'list_streamers', { tokenAddresses: a.slice(0, 30), limit: 10 });
    const sorted = a
      .slice(0, 30)
      .map(token)
      .sort((x, y) => y.currentViewers - x.currentViewers);
    // The page's live count and viewers, computed independently from the simulator's data.
    const page = sorted.slice(0, 10);
    const live = page.filter((t) => t.isCurrentlyLive).length;
    const viewers = page.reduce((sum, t) => sum + t.currentViewers, 0);
    expect(out.text.split('\n')[0]).toBe(
      `Streamers: 10 of 30 (page 1 of 3, by viewers desc; chain_a / platform_a); on this page: ${live} live, ${viewers.toLocaleString('en')} viewers now`,
    );
    expect(sc(out).aggregates).toEqual({
      rows: 10,
      live,
      currentViewers: viewers,
      sortedBy: 'currentViewers',
    });
    expect(sc(out).summary).toBe(out.text.split('\n')[0]);
    // The name quoted (upstream data), the whole id beside it (a table of up to 25 rows).
    expect(out.text).toContain(`${sorted[0]?.mintId}  "${sorted[0]?.coinName}"`);
    expect(out.text).toContain('Next: page 2.');
    expect(sc(out).pagination).toMatchObject({ page: 1, total: 30, hasNext: true });
    const columns = out.structured?.columns as string[];
    const rows = out.structured?.rows as unknown[][];
    expect(rows).toHaveLength(10);
    expect(rows[0]?.[columns.indexOf('mintId')]).toBe(sorted[0]?.mintId);
    expect(rows[0]?.[columns.indexOf('currentViewers')]).toBe(sorted[0]?.currentViewers);
    // No per-row chain and platform when the query names one of each.
    expect(columns).not.toContain('chain');
  });

  it('shortens ids in a long text table only past its first 10 rows, and says so', async () => {
    const out = await call(h.client, 'list_streamers', { tokenAddresses: a.slice(0, 100) });
    expect(out.text).toContain(
      'Addresses shortened to their first 6 characters in rows 11–100 (90 rows; the other 10 rows whole)',
    );
    expect(out.text).toContain(String(sc(out).idsShortened));
    const sorted = a
      .slice(0, 100)
      .map(token)
      .sort((x, y) => y.currentViewers - x.currentViewers);
    // The top 10 whole (what an assistant passes on next), the rest shortened; JSON has every id whole.
    for (const t of sorted.slice(0, 10)) expect(out.text).toContain(t.mintId);
    const rest = sorted.slice(10).map((t) => t.mintId);
    for (const id of rest) expect(out.text).not.toContain(id);
    expect(out.text).toContain(`${rest[0]?.slice(0, 6)}…`);
    for (const id of a.slice(0, 100)) expect(JSON.stringify(out.structured)).toContain(id);
  });

  it('keeps every id whole in a table of 25 rows', async () => {
    const out = await call(h.client, 'list_streamers', { tokenAddresses: a.slice(0, 25) });
    for (const id of a.slice(0, 25)) expect(out.text).toContain(id);
    expect(out.text).not.toContain('shortened');
  });

  it('names the requested addresses that have no streamer', async () => {
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [a[0], UNKNOWN_ID] });
    expect(out.text).toContain(
      `1 of 2 requested addresses has no streamer data on chain_a / platform_a: ${UNKNOWN_ID}`,
    );
    expect(sc(out).notFound).toEqual([UNKNOWN_ID]);
  });

  it('adds chain and platform columns when the query spans chains', async () => {
    const b = ids(sim, 'platform_b', 2);
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [a[0], ...b], chain: 'all' });
    expect(sc(out).columns).toContain('platform');
    expect(out.text).toContain('"platform_b"');
  });

  it('detailed keeps every upstream field as objects', async () => {
    const out = await call(h.client, 'list_streamers', {
      tokenAddresses: a.slice(0, 3),
      response_format: 'detailed',
    });
    const items = out.structured?.items as Array<Record<string, unknown>>;
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(
      [
        'chain',
        'coinName',
        'coinSymbol',
        'currentViewers',
        'isCurrentlyLive',
        'mintId',
        'platform',
        'tokenMarketCap',
        'tokenPrice',
        'totalStreamingTime',
      ].sort(),
    );
  });
});

describe('single-token tools', () => {
  once('get_streamer_core: a card with every documented field, units not invented', async () => {
    const t = token(a[0] as string);
    const out = await call(h.client, 'get_streamer_core', { mint: t.mintId });
    expect(out.text).toContain(`Streamer "${t.coinName}" ("${t.coinSymbol}")`);
    expect(out.text).toContain('(unit not stated by the API)');
    expect(out.text).not.toMatch(/\b(seconds|minutes|hours)\b/);
    expect(sc(out).streamer).toMatchObject({
      mintId: t.mintId,
      tokenMarketCap: t.tokenMarketCap,
      isCurrentlyLive: t.isCurrentlyLive,
    });
  });

  it('get_streamer_core: a 404 passes the upstream message on as a tool error', async () => {
    const out = await call(h.client, 'get_streamer_core', { mint: UNKNOWN_ID });
    expect(out.isError).toBe(true);
    expect(out.structured).toBeUndefined();
    expect(out.text).toContain('Not found (HTTP 404): "Token not found".');
    expect(out.text).toContain('[error: not_found · final]');
  });

  once('get_streamer_sessions: a table, and the next page when this one is full', async () => {
    const t = sim.data.tokens.find((x) => x.platform === 'platform_a' && x.sessions.length > 7);
    const out = await call(h.client, 'get_streamer_sessions', { mint: t?.mintId, limit: 7 });
    expect(out.text).toContain('Next: page 2 may hold more (this page is full); limit 100');
    expect(sc(out).rows).toHaveLength(7);
    expect((sc(out).rows as unknown[][])[0]?.[0]).toBe(t?.sessions[0]?.startTime);
  });
});

describe('batch tools', () => {
  once('analyze_botting: ranked, counted per level, every id accounted for', async () => {
    const chosen = a.slice(0, 50);
    const out = await call(h.client, 'analyze_botting', { mintIds: [...chosen.slice(0, 49), UNKNOWN_ID] });
    const analysed = chosen.slice(0, 49).filter((id) => token(id).botting);
    const noData = chosen.slice(0, 49).filter((id) => !token(id).botting);
    const counts = out.structured?.counts as Record<string, unknown>;
    expect(counts).toMatchObject({ requested: 50, analysed: analysed.length, failed: noData.length + 1 });
    const high = analysed.filter((id) => token(id).botting?.confidenceLevel === 'HIGH').length;
    expect((counts.byLevel as Record<string, number>).HIGH).toBe(high);
    const results = sc(out).results as Array<{ mintId: string; level: string; score: number }>;
    // Most suspicious first: by level (HIGH, MEDIUM, LOW in the simulator), then by score.
    const rank = { HIGH: 0, MEDIUM: 1, LOW: 2 } as Record<string, number>;
    for (let i = 1; i < results.length; i++) {
      const [prev, cur] = [results[i - 1], results[i]] as [(typeof results)[0], (typeof results)[0]];
      expect(rank[prev.level] as number).toBeLessThanOrEqual(rank[cur.level] as number);
      if (prev.level === cur.level) expect(prev.score).toBeGreaterThanOrEqual(cur.score);
    }
    const errors = failedOf(out);
    expect(errors).toContainEqual({ id: UNKNOWN_ID, error: 'Token not found' });
    const all = [...results.map((r) => r.mintId), ...errors.map((e) => e.id)].sort();
    expect(all).toEqual([...chosen.slice(0, 49), UNKNOWN_ID].sort());
    expect(out.text).toContain(`"Token not found" (1): ${UNKNOWN_ID}`);
    expect(out.text).toContain(`HIGH ${high}`);
    // concise leaves out per-item processingTime and timestamp
    expect(JSON.stringify(out.structured)).not.toContain('processingTime');
  });

  once('analyze_botting: an id the upstream silently drops is reported, not lost', async () => {
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: { results: [], errors: [], summary: { totalRequested: 1, successful: 0, failed: 0 } },
      },
    });
    const out = await call(h.client, 'analyze_botting', { mintIds: [a[0]] });
    expect(sc(out).errors).toEqual([{ error: 'no result returned', count: 1, mintIds: [a[0]] }]);
    expect(out.text).toContain(`Failed (1):\n  "no result returned" (1): ${a[0]}`);
  });

  it('get_streamers_analytics: long series summarised, not dumped', async () => {
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: a.slice(0, 2), points: 500 });
    const first = (sc(out).results as Array<Record<string, unknown>>)[0];
    expect(first?.mintId).toBe(a[0]);
    const field = `${SIM_NAMES.series}[].${SIM_NAMES.viewers}`;
    expect(first?.[field]).toMatchObject({ count: 500 });
    expect(out.text).toMatch(
      new RegExp(
        `${field.replace(/[.[\]]/g, '\\$&')}=computed over 500 points: first [\\d,]+, last [\\d,]+, min [\\d,]+ at 2026-\\S+, max [\\d,]+ at 2026-\\S+, mean ≈?[\\d,.]+(, largest (rise \\+|fall -)[\\d,.]+ at 2026-\\S+)* [▁▂▃▄▅▆▇█]+`,
      ),
    );
    expect(out.text.length).toBeLessThan(3_000);
  });

  it('get_streamers_complete: each element led by its id, failures listed', async () => {
    const out = await call(h.client, 'get_streamers_complete', { mintIds: [a[0], UNKNOWN_ID] });
    expect(out.text).toContain(`${a[0]}:\n  ${SIM_NAMES.core}.`);
    // The id heads the entry once; the nested record's copy of it is not repeated.
    expect(out.text.split(a[0] as string).length - 1).toBe(1);
    expect(out.text).toContain(`Failed (1):\n  "Token not found" (1): ${UNKNOWN_ID}`);
  });

  once('get_creator_fees: a table, the currency, and the tokens that failed', async () => {
    const withFees = a.filter((id) => token(id).fees).slice(0, 3);
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [...withFees, UNKNOWN_ID] });
    expect(out.text.split('\n')[0]).toMatch(
      /^Creator fees: 3 of 4 tokens found, 1 failed; total [\d,.]+ in native coin \(3 tokens\) · [\d,.]+ USD \(3 tokens; highest \w{32,44} [\d,.]+\)$/,
    );
    expect(sc(out).results).toContainEqual(
      expect.objectContaining({
        tokenAddress: withFees[0],
        totalFees: token(withFees[0] as string).fees?.totalFees,
      }),
    );
    expect(sc(out).errors).toEqual([{ error: 'Token not found', count: 1, tokenAddresses: [UNKNOWN_ID] }]);
  });

  once('reports a summary that disagrees with the lists', async () => {
    sim.injectFor(/creator-fees/, {
      status: 200,
      body: {
        success: true,
        data: [],
        errors: [{ tokenAddress: a[0], error: 'x' }],
        summary: { totalRequested: 1, successful: 1, failed: 0 },
      },
    });
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [a[0]] });
    expect(out.text).toContain(
      'Note: The upstream summary says 1 successful / 0 failed; its lists hold 0 / 1.',
    );
    expect(sc(out).integrity).toEqual([
      'The upstream summary says 1 successful / 0 failed; its lists hold 0 / 1.',
    ]);
  });
});

describe('service-wide tools', () => {
  it('get_analytics_overview: the global stats and live metrics, units not invented', async () => {
    const out = await call(h.client, 'get_analytics_overview');
    const onA = sim.data.tokens.filter((t) => t.chain === 'chain_a');
    expect(out.text.split('\n')[0]).toContain(
      `${onA.length} streamers, ${onA.filter((t) => t.isCurrentlyLive).length} live`,
    );
    expect(out.text).toContain('served from cache: yes · precomputed: no');
    expect(out.structured).toMatchObject({
      cached: true,
      precomputed: false,
      globalStats: { totalStreamers: onA.length },
    });
  });

  once('get_activity_heatmap: a grid over the ranges the keys show, with the peak', async () => {
    const out = await call(h.client, 'get_activity_heatmap');
    const entries = Object.entries(sim.data.hourlyActivity).sort((x, y) => y[1] - x[1]);
    const [peakKey, peakValue] = entries[0] as [string, number];
    const [pa, pb] = peakKey.split('-');
    expect(out.text.split('\n')[0]).toContain(`busiest hour cell a=${pa}, b=${pb} (${peakValue})`);
    expect(out.text).toContain('a = 0..6, b = 0..23');
    const gridLines = out.text.split('\n').filter((l) => /^a=\d /.test(l));
    expect(gridLines).toHaveLength(7);
    for (const line of gridLines) expect(line.replace(/^a=\d\s+/, '')).toHaveLength(24);
    expect(out.text).toMatch(/Month 2026-11: [▁▂▃▄▅▆▇█]{30} \(30 days/);
    const hourly = out.structured?.hourly as { rows: number[][]; peak: unknown };
    expect(hourly.rows).toHaveLength(7);
    expect(hourly.peak).toEqual({ a: Number(pa), b: Number(pb), value: peakValue });
  });

  it('check_health: reports what /health said', async () => {
    const out = await call(h.client, 'check_health');
    const { key, value } = SIM_NAMES.health;
    expect(out.text).toContain(`${key}="${value}"`);
    expect(sc(out).health).toMatchObject({ [key]: value });
    // The simulator's service is well ("ok" or "healthy"): nothing is flagged.
    expect(out.text.split('\n')[0]).toBe('Service reachable: GET /health answered');
    expect(sc(out)).not.toHaveProperty('notOk');
  });

  once(
    'check_health: any field, at any depth and under any name, whose value reads as not ok reaches the headline, in both channels',
    async () => {
      sim.inject({
        status: 200,
        body: {
          success: true,
          state: 'operational',
          checks: {
            database: { state: 'up', latencyMs: 4 },
            cache: { status: 'PASS', lastError: 'no errors' },
            ingest: { state: 'degraded', lagSeconds: 41, note: 'platform_c poller behind' },
          },
          components: [
            { name: 'search', condition: 'partial_outage' },
            { name: 'mail', healthy: false },
          ],
          queue: 'down',
        },
      });
      const out = await call(h.client, 'check_health');
      const headline =
        'Service reachable; not ok: checks.ingest.state="degraded" (lagSeconds=41, note="platform_c poller behind"); components[0].condition="partial_outage" (name="search"); components[1].healthy=false (name="mail"); queue="down"';
      expect(out.text.split('\n')[0]).toBe(headline);
      expect(sc(out).summary).toBe(headline);
      expect(sc(out).notOk).toEqual([
        {
          field: 'checks.ingest.state',
          state: 'degraded',
          with: { lagSeconds: 41, note: 'platform_c poller behind' },
        },
        { field: 'components[0].condition', state: 'partial_outage', with: { name: 'search' } },
        { field: 'components[1].healthy', state: false, with: { name: 'mail' } },
        { field: 'queue', state: 'down' },
      ]);
    },
  );
});

onceAll('output schemas accept what the upstream may add', () => {
  const extra = { surprise: 'new field', nested: { deeper: [1, 2, 3] } };
  const bodies: Record<string, unknown> = {
    list_streamers: {
      success: true,
      data: [{ mintId: 'M'.repeat(44), coinName: 'X', ...extra }],
      pagination: { page: 1, total: 1, ...extra },
      ...extra,
    },
    get_streamer_core: { success: true, data: { mintId: 'M'.repeat(44), ...extra }, ...extra },
    get_streamer_sessions: { success: true, data: [{ sessionId: 's', ...extra }], ...extra },
    get_streamers_analytics: {
      success: true,
      data: { results: [{ mintId: 'M'.repeat(44), ...extra }], errors: [], summary: {} },
      ...extra,
    },
    get_streamers_complete: {
      success: true,
      data: { results: [{ ...extra }], errors: [{ mintId: 'M'.repeat(44), error: 'e', ...extra }] },
    },
    analyze_botting: {
      success: true,
      data: {
        results: [{ mintId: 'M'.repeat(44), confidenceLevel: 'EXTREME', ...extra }],
        errors: [],
        summary: extra,
      },
    },
    get_creator_fees: {
      success: true,
      data: [{ tokenAddress: 'M'.repeat(44), ...extra }],
      errors: [],
      summary: extra,
    },
    get_analytics_overview: {
      success: true,
      data: { globalStats: extra, liveMetrics: extra, ...extra },
      cached: false,
      ...extra,
    },
    get_activity_heatmap: {
      success: true,
      data: { daily: { hourlyActivity: { '0-0': 1, odd: 2 } }, ...extra },
    },
    check_health: { success: true, ...extra },
  };
  const args: Record<string, Record<string, unknown>> = {
    list_streamers: { tokenAddresses: ['M'.repeat(44)] },
    get_streamer_core: { mint: 'M'.repeat(44) },
    get_streamer_sessions: { mint: 'M'.repeat(44) },
    get_streamers_analytics: { mintIds: ['M'.repeat(44)] },
    get_streamers_complete: { mintIds: ['M'.repeat(44)] },
    analyze_botting: { mintIds: ['M'.repeat(44)] },
    get_creator_fees: { tokenAddresses: ['M'.repeat(44)] },
  };
  for (const [tool, body] of Object.entries(bodies)) {
    for (const format of ['concise', 'detailed']) {
      it(`${tool} (${format})`, async () => {
        sim.inject({ status: 200, body });
        const out = await call(h.client, tool, { ...args[tool], response_format: format });
        expect(out.isError, out.text).toBe(false);
        if (format === 'detailed') expect(JSON.stringify(out.structured)).toContain('surprise');
      });
    }
  }

  it('detailed text renders nested fields the table does not show, never "[object Object]"', async () => {
    const nested = { mintId: 'M'.repeat(44), coinName: 'X', extraInfo: { depth: 2 } };
    sim.inject({ status: 200, body: { success: true, data: [nested], pagination: { total: 1 } } });
    const streamers = await call(h.client, 'list_streamers', {
      tokenAddresses: ['M'.repeat(44)],
      response_format: 'detailed',
    });
    sim.inject({
      status: 200,
      body: { success: true, data: { results: [{ ...nested, confidenceLevel: 'HIGH' }] } },
    });
    const botting = await call(h.client, 'analyze_botting', {
      mintIds: ['M'.repeat(44)],
      response_format: 'detailed',
    });
    for (const out of [streamers, botting]) {
      expect(out.text).toContain('extraInfo.depth=2');
      expect(out.text).not.toContain('[object Object]');
    }
  });

  it('refuses a body without data, or with data of the wrong type, as an invalid response', async () => {
    // /health's answer is not shown in the document: whatever it is, it is reported.
    for (const tool of Object.keys(bodies).filter((t) => t !== 'check_health')) {
      for (const body of [{ success: true }, { success: true, data: 'ok' }, { success: true, data: 7 }]) {
        sim.inject({ status: 200, body });
        const out = await call(h.client, tool, args[tool] ?? {});
        expect(out.isError, `${tool}: ${out.text}`).toBe(true);
        expect(out.text).toMatch(
          /unexpected answer: data is (missing|a string|a number) where an (object|array)/,
        );
        expect(out.text).toContain('[error: invalid_response · final]');
      }
    }
  });
});

onceAll('budget', () => {
  it('cuts rows to the budget in both channels and says how to get the rest', async () => {
    const small = await connect(sim, { budgetChars: 4_000 });
    const out = await call(small.client, 'list_streamers', { tokenAddresses: a.slice(0, 100) });
    await small.close();
    expect(out.text.length).toBeLessThanOrEqual(4_000);
    expect(JSON.stringify(out.structured).length).toBeLessThanOrEqual(4_000);
    const shown = (sc(out).rows as unknown[]).length;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(100);
    const note = `Showing ${shown} of 100 rows of this page.`;
    expect(out.text).toContain(note);
    expect(String(sc(out).truncated)).toContain(note);
  });

  it('keeps a 1,000-row page within the default budget, and says what was cut', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      ...token(a[i % a.length] as string),
      sessions: undefined,
      botting: undefined,
      fees: undefined,
    }));
    sim.inject({
      status: 200,
      body: {
        success: true,
        data: rows,
        pagination: { page: 1, limit: 1000, total: 1000, totalPages: 1, hasNext: false, hasPrev: false },
      },
    });
    const out = await call(h.client, 'list_streamers', { tokenAddresses: a.slice(0, 100), limit: 1000 });
    expect(out.text.length).toBeLessThanOrEqual(24_000);
    expect(JSON.stringify(out.structured).length).toBeLessThanOrEqual(24_000);
    const shown = (sc(out).rows as unknown[]).length;
    expect(shown).toBeLessThan(1000);
    expect(out.text).toContain(`Showing ${shown.toLocaleString('en-US')} of 1,000 rows of this page.`);
  });
});

describe('demo mode and setup', () => {
  it('marks every demo result as simulated, in both channels', async () => {
    const demo = await connect(sim, { demo: true });
    const out = await call(demo.client, 'get_analytics_overview');
    await demo.close();
    expect(out.text.split('\n')[0]).toBe('SIMULATED DATA (demo mode): not the real service.');
    expect(String(sc(out).summary)).toMatch(/^\[simulated\] /);
  });

  it('marks demo errors as simulated too, and never advises a setting the demo does not use', async () => {
    const demo = await connect(sim, { demo: true });
    const outs = [
      await call(demo.client, 'get_streamer_core', { mint: UNKNOWN_ID }),
      await call(demo.client, 'list_streamers', { tokenAddresses: ['abc'] }),
    ];
    // The failures whose advice outside the demo names the key or the base URL.
    for (const [status, tool, args] of [
      [401, 'check_health', {}],
      [404, 'get_analytics_overview', {}],
    ] as const) {
      sim.inject({ status, body: { success: false, error: 'nope' } });
      outs.push(await call(demo.client, tool, args));
    }
    sim.inject({ raw: '<html>', contentType: 'text/html' });
    outs.push(await call(demo.client, 'get_activity_heatmap'));
    await demo.close();
    for (const out of outs) {
      expect(out.isError, out.text).toBe(true);
      expect(out.text.split('\n')[0]).toBe('SIMULATED DATA (demo mode): not the real service.');
      expect(out.text).not.toMatch(/STREAMER_ANALYTICS_(API_KEY|BASE_URL)/);
      expect(out.text).toMatch(/\[error: \w+ · (final|retryable)[^\]]*\]$/);
    }
    expect(outs[0]?.text).toContain("get_analytics_overview's live metrics name the most watched");
  });

  once('answers a setup guide naming the missing variables, and sends nothing', async () => {
    const bare = await connect(undefined, {
      problems: ['STREAMER_ANALYTICS_TIMEOUT_MS must be at least 100; using the default'],
    });
    const { tools } = await bare.client.listTools();
    const out = await call(bare.client, 'check_health');
    await bare.close();
    expect(tools).toHaveLength(15);
    expect(out.isError).toBe(true);
    expect(out.text).toContain('STREAMER_ANALYTICS_API_KEY and STREAMER_ANALYTICS_BASE_URL are not set');
    expect(out.text).toContain("operator's web application");
    expect(out.text).toContain('Note: STREAMER_ANALYTICS_TIMEOUT_MS must be at least 100');
    expect(out.text).toContain('[error: not_configured · final]');
  });

  once('validates arguments before complaining about the setup', async () => {
    const bare = await connect(undefined);
    const out = await call(bare.client, 'analyze_botting', { mintIds: [] });
    await bare.close();
    expect(out.text).toContain('Invalid arguments for analyze_botting');
  });
});

describe('upstream failures become actionable tool errors', () => {
  once('401 names the key variable, without the key', async () => {
    sim.inject({ status: 401, body: { success: false, error: 'Invalid API key' } });
    const out = await call(h.client, 'check_health');
    expect(out.isError).toBe(true);
    expect(out.structured).toBeUndefined();
    expect(out.text).toContain('refused the API key (HTTP 401): "Invalid API key"');
    expect(out.text).toContain('Check STREAMER_ANALYTICS_API_KEY');
    expect(out.text).not.toContain(sim.apiKey);
  });

  it('5xx after the retries says so and what to do', async () => {
    sim.inject({ status: 503 }, { status: 503 }, { status: 503 });
    const out = await call(h.client, 'get_analytics_overview');
    expect(out.text).toContain('failed (HTTP 503) after 3 attempts');
    expect(out.text).toContain('[error: upstream_error · retryable]');
  });
});
