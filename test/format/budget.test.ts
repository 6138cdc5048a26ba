// The result budget, through the real server and the simulator: what is added after the fit still fits,
// the last resort degrades instead of wiping a channel, failures never crowd out the findings, and a cut
// note's advice fits the call.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, connect, FIRST_CHANNEL, failedOf, type Harness, ids, sc, useSimulator } from '../helpers.js';

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

const BUDGET = 4_000;
const within = (out: { text: string; structured: unknown }, budget = BUDGET) => {
  expect(out.text.length).toBeLessThanOrEqual(budget);
  expect(JSON.stringify(out.structured).length).toBeLessThanOrEqual(budget);
};

onceAll('what is added after the fit counts inside it', () => {
  it('the duplicates note and the demo marker leave both channels whole and within the budget', async () => {
    const distinct = ids(sim, 'platform_a', 100);
    const given = [...distinct, ...distinct.slice(0, 40)];
    for (const options of [{}, { demo: true }]) {
      const small = await connect(sim, { budgetChars: BUDGET, ...options });
      const out = await call(small.client, 'list_streamers', { tokenAddresses: given });
      await small.close();
      within(out);
      const structured = sc(out);
      expect((structured.rows as unknown[]).length).toBeGreaterThan(3);
      expect(structured.summary).toMatch(/Streamers: 100 of 100/);
      expect(structured.duplicates).toHaveLength(26);
      expect(structured.truncated).toMatch(/^Showing \d+ of 100 rows of this page/);
      expect(out.text).toContain('Duplicate ids sent once:');
      expect(out.text).not.toContain('Result cut to the');
    }
  });
});

onceAll('the last resort degrades, never wipes a channel', () => {
  it('a detailed record larger than the budget keeps its summary and whole lines', async () => {
    const mint = ids(sim, 'platform_a', 1)[0] as string;
    const huge = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`field${i}`, 'v'.repeat(60)]));
    sim.inject({ status: 200, body: { success: true, data: { mintId: mint, coinName: 'Big', ...huge } } });
    const small = await connect(sim, { budgetChars: BUDGET });
    const out = await call(small.client, 'get_streamer_core', { mint, response_format: 'detailed' });
    await small.close();
    within(out);
    const lines = out.text.split('\n');
    expect(lines[0]).toMatch(/^Streamer "Big"/);
    expect(lines.at(-1)).toBe(
      'Result cut to the 4,000-character budget; ask with response_format "concise", or a narrower query.',
    );
    expect(sc(out).summary).toMatch(/^Streamer "Big"/);
    expect(sc(out).streamer).toEqual({});
    expect(sc(out).truncated).toBe(lines.at(-1));
  });
});

describe('advice that fits the call', () => {
  once('a concise call is never told to ask for concise', async () => {
    const small = await connect(sim, { budgetChars: BUDGET });
    const out = await call(small.client, 'list_streamers', { tokenAddresses: ids(sim, 'platform_a', 100) });
    const metrics = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`metric${i}`, 'w'.repeat(150)]));
    sim.inject({ status: 200, body: { success: true, data: { globalStats: {}, liveMetrics: metrics } } });
    const overview = await call(small.client, 'get_analytics_overview');
    await small.close();
    for (const cut of [out, overview]) {
      within(cut);
      expect(sc(cut).truncated).toBeDefined();
      expect(cut.text).not.toContain('response_format "concise"');
    }
    expect(overview.text).toContain('Result cut to the 4,000-character budget; ask a narrower query');
  });

  it("one token's detailed 500-point analytics is told about points and concise, not fewer mintIds", async () => {
    const mint = ids(sim, 'platform_a', 1)[0];
    const out = await call(h.client, 'get_streamers_analytics', {
      mintIds: [mint],
      points: 500,
      response_format: 'detailed',
    });
    within(out, 24_000);
    expect(out.text).not.toContain('fewer mintIds');
    expect(out.text).toContain(
      'One result is larger than the budget: ask for fewer points or a shorter period. Or ask with response_format "concise".',
    );
  });
});

onceAll('failures never crowd out the findings', () => {
  it('500 ids, 347 unknown: failures grouped by reason, findings first, every id accounted for', async () => {
    const known = ids(sim, 'platform_a', 153);
    const unknown = Array.from({ length: 347 }, (_, i) =>
      `Missing${String(i).padStart(4, '0')}`.padEnd(44, 'q'),
    );
    const out = await call(h.client, 'investigate_botting', { mintIds: [...known, ...unknown] });
    within(out, 24_000);
    const counts = sc(out).counts as { analysed: number; failed: number };
    expect(counts.analysed + counts.failed).toBe(500);
    const rows = sc(out).rows as unknown[][];
    // The findings get the room: most of them in both channels.
    expect(rows.length).toBeGreaterThanOrEqual(Math.min(counts.analysed, 100));
    const textRows = out.text.split('\n').filter((l) => /^\s*\d+\s+(HIGH|MEDIUM|LOW)\b/.test(l));
    expect(textRows.length).toBeGreaterThanOrEqual(Math.min(counts.analysed, 100));
    // Every failed id, grouped by reason, in both channels (shortened: there are hundreds).
    const groups = sc(out).errors as Array<{ error: string; count: number; mintIds: string[] }>;
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(counts.failed);
    expect(groups[0]).toMatchObject({ error: 'Token not found', count: 347 });
    const failed = failedOf(out)
      .filter((f) => f.error === 'Token not found')
      .map((f) => f.id);
    const named = (short: string) => unknown.filter((id) => id.startsWith(short.replace(/…$/, '')));
    expect(failed).toHaveLength(347);
    for (const short of failed) expect(named(short)).toHaveLength(1);
    expect(new Set(failed.flatMap(named)).size).toBe(347);
    for (const short of failed) expect(out.text).toContain(`${short}`);
    expect(out.text).toContain('"Token not found" (347): ');
    expect(out.text.split('\n').filter((l) => l.includes('Token not found')).length).toBeLessThanOrEqual(2);
  });
});

describe('a cut says what would help', () => {
  it('when not even one result fits, fewer ids would not help: it names what narrows one result', async () => {
    const out = await call(h.client, 'get_streamers_analytics', {
      mintIds: ids(sim, 'platform_a', 3),
      points: 500,
      period: '7d',
      response_format: 'detailed',
    });
    expect(out.text).toContain('Showing 0 of 3 results');
    expect(out.text).toContain(
      'One result is larger than the budget: ask for fewer points or a shorter period',
    );
    expect(out.text).not.toMatch(/fewer mintIds per call \(\d+ fit\)/);
  });
});
