// investigate_botting's slices (sortBy, levels, liveOnly, offset) over the simulator, checked against
// lists computed here from its data; the short per-caller cache proven by the simulator's request log;
// and platform_c tokens on chain_b named next to their result by both botting tools.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { INVESTIGATION_TTL_MS, recall, remember } from '../../src/tools/investigation-cache.js';
import { decimalSum } from '../../src/untrusted/numbers.js';
import { call, connect, failedOf, type Harness, ids, sc, startSim } from '../helpers.js';

let sim: Simulator;
let h: Harness;
let mints: string[];

beforeAll(async () => {
  sim = await startSim();
  h = await connect(sim);
  mints = ids(sim, 'platform_a', 130);
});
afterAll(async () => {
  await h.close();
  await sim.close();
});
beforeEach(() => sim.reset());

const token = (id: string) => sim.data.byMint.get(id);
type Row = unknown[];
const rowsOf = (out: Awaited<ReturnType<typeof call>>) => {
  const columns = sc(out).columns as string[];
  return (sc(out).rows as Row[]).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
};

describe('investigate_botting slices', () => {
  it('HIGH and live, by viewers: exactly the tokens the data says, counts of the whole investigation', async () => {
    const out = await call(h.client, 'investigate_botting', {
      mintIds: mints,
      levels: ['high'],
      liveOnly: true,
      sortBy: 'viewers',
    });
    const analysed = mints.filter((id) => token(id)?.botting);
    const expected = analysed
      .filter((id) => token(id)?.botting?.confidenceLevel === 'HIGH' && token(id)?.isCurrentlyLive)
      .sort((x, y) => (token(y)?.currentViewers ?? 0) - (token(x)?.currentViewers ?? 0));
    const rows = rowsOf(out);
    expect(rows.map((r) => r.mintId)).toEqual(expected);
    expect(rows.map((r) => r.rank)).toEqual(expected.map((_, i) => i + 1));
    expect(sc(out).counts).toMatchObject({
      requested: 130,
      analysed: analysed.length,
      matching: expected.length,
    });
    expect(out.text).toContain(
      `Filter levels high, live only: ${expected.length} of ${analysed.length} findings match; ranked most viewers first.`,
    );
    expect(sc(out).query).toMatchObject({ sortBy: 'viewers', levels: ['high'], liveOnly: true, offset: 0 });
  });

  it('a re-slice (sortBy, levels, liveOnly, offset, response_format) makes no upstream request and says how old its data is', async () => {
    const base = { mintIds: mints, hours: 12 };
    await call(h.client, 'investigate_botting', base);
    // 130 ids: botting in 50, 50, 30; streamer records in 100, 30.
    expect(sim.requests.length).toBe(5);
    sim.reset();
    for (const slice of [
      { sortBy: 'marketCap' },
      { sortBy: 'score', levels: ['LOW', 'medium'] },
      { liveOnly: true, offset: 3 },
      { response_format: 'detailed', sortBy: 'confidence' },
      // The same ids in another order, and repeated: the same investigation.
      { mintIds: [...mints].reverse().concat(mints[0] as string) },
    ]) {
      const out = await call(h.client, 'investigate_botting', { ...base, ...slice });
      expect(out.isError, out.text).toBe(false);
      expect(sim.requests, JSON.stringify(slice)).toHaveLength(0);
      expect(sc(out).calls).toEqual({ botting: 0, streamers: 0, fees: 0 });
      expect(typeof sc(out).dataAgeSeconds).toBe('number');
      expect(out.text).toMatch(
        /Data from this investigation \d+ s ago; no new upstream requests \(kept 5 minutes\)\./,
      );
    }
    // Sorted by market cap, highest first, in the structured channel exactly.
    const byCap = rowsOf(await call(h.client, 'investigate_botting', { ...base, sortBy: 'marketCap' }));
    const caps = byCap.map((r) => r.marketCap as number);
    expect(caps).toEqual([...caps].sort((x, y) => y - x));
  });

  it('a change to ids, hours, chain, platform or includeCreatorFees computes afresh', async () => {
    const base = { mintIds: mints.slice(0, 60), hours: 48 };
    await call(h.client, 'investigate_botting', base);
    for (const change of [
      { mintIds: mints.slice(0, 59) },
      { hours: 47 },
      { includeCreatorFees: true },
      // chain_b alone means platform_b here (botting takes no `all`): a change of chain and platform.
      { chain: 'chain_b' },
    ]) {
      sim.reset();
      const out = await call(h.client, 'investigate_botting', { ...base, ...change });
      expect(sim.requests.length, JSON.stringify(change)).toBeGreaterThan(0);
      expect(sc(out)).not.toHaveProperty('dataAgeSeconds');
    }
  });

  it('another caller key (another upstream client) never sees a kept investigation', async () => {
    await call(h.client, 'investigate_botting', { mintIds: mints, hours: 100 });
    const other = await connect(sim);
    sim.reset();
    await call(other.client, 'investigate_botting', { mintIds: mints, hours: 100 });
    await other.close();
    expect(sim.requests.length).toBe(5);
  });

  it('an investigation with a failed request is not kept: the next call asks again', async () => {
    // The 30-id streamer-record chunk fails on every attempt (fewer failures than open the breaker).
    const small = (r: { path: string; body: unknown }) =>
      r.path === '/streamers' && (r.body as { tokenAddresses: string[] }).tokenAddresses.length === 30;
    sim.injectFor(small, { status: 500 }, { status: 500 }, { status: 500 });
    const failed = await call(h.client, 'investigate_botting', { mintIds: mints, hours: 101 });
    expect(failed.text).toContain('Note: No streamer records for 30 ids');
    sim.reset();
    await call(h.client, 'investigate_botting', { mintIds: mints, hours: 101 });
    expect(sim.requests.length).toBe(5);
  });

  it('when rows are cut, the note names the offset to continue from; that offset gives the next rows', async () => {
    const small = await connect(sim, { budgetChars: 5_000 });
    const first = await call(small.client, 'investigate_botting', { mintIds: mints, hours: 30 });
    const note = String(sc(first).truncated);
    const match =
      /^Showing 1–(\d+) of (\d+) ranked findings \(most suspicious first\)\. Continue with offset (\d+) /.exec(
        note,
      );
    expect(match, note).not.toBeNull();
    const [, shown, total, next] = match as unknown as [string, string, string, string];
    expect(next).toBe(shown);
    expect(first.text).toContain(note);
    sim.reset();
    const second = await call(small.client, 'investigate_botting', {
      mintIds: mints,
      hours: 30,
      offset: Number(next),
    });
    expect(sim.requests).toHaveLength(0);
    const rows = rowsOf(second);
    expect(rows[0]?.rank).toBe(Number(next) + 1);
    // Together the pages list the ranking without a gap or a repeat.
    const seen = new Set([...rowsOf(first), ...rows].map((r) => r.mintId));
    expect(seen.size).toBe(rowsOf(first).length + rows.length);
    expect(Number(total)).toBe((sc(first).counts as { analysed: number }).analysed);
    await small.close();
  });

  it('an offset past the end says how many match; levels the data lacks match nothing', async () => {
    const past = await call(h.client, 'investigate_botting', { mintIds: mints, offset: 1_000 });
    expect(past.text).toMatch(/offset 1000 is past the end: \d+ match, use an offset below \d+/);
    const none = await call(h.client, 'investigate_botting', { mintIds: mints, levels: ['EXTREME'] });
    expect((sc(none).counts as { matching: number }).matching).toBe(0);
    expect(none.text).toContain('Filter levels EXTREME: 0 of');
  });

  it('sortBy fees needs includeCreatorFees; with it, rows go by native-coin fees', async () => {
    const refused = await call(h.client, 'investigate_botting', { mintIds: mints, sortBy: 'fees' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('sortBy "fees" needs includeCreatorFees: true');
    expect(sim.requests).toHaveLength(0);
    const out = await call(h.client, 'investigate_botting', {
      mintIds: mints,
      sortBy: 'fees',
      includeCreatorFees: true,
    });
    const fees = rowsOf(out).map((r) => r.feesInNativeCoin as number | null);
    const numbers = fees.filter((f): f is number => f !== null);
    expect(numbers).toEqual([...numbers].sort((x, y) => y - x));
    expect(fees.slice(numbers.length).every((f) => f === null)).toBe(true);
  });
});

describe('the cache itself', () => {
  it('forgets an investigation after its lifetime, and keeps at most a few per caller', () => {
    const owner = 'caller a';
    remember(owner, 'k', 1, 0);
    expect(recall(owner, 'k', INVESTIGATION_TTL_MS)).toEqual({ value: 1, ageMs: INVESTIGATION_TTL_MS });
    expect(recall(owner, 'k', INVESTIGATION_TTL_MS + 1)).toBeUndefined();
    for (let i = 0; i < 20; i++) remember(owner, `k${i}`, i, 10);
    expect(recall(owner, 'k0', 10)).toBeUndefined();
    expect(recall(owner, 'k19', 10)).toEqual({ value: 19, ageMs: 0 });
    expect(recall('caller b', 'k19', 10)).toBeUndefined();
  });
});

describe('platform_c tokens on chain_b', () => {
  it('analyze_botting names a platform_c token that got a verdict, next to it, in both channels', async () => {
    const [c] = ids(sim, 'platform_c', 1) as [string];
    const b = ids(sim, 'platform_b', 2);
    // An upstream that answers a confident LOW for a token it cannot have data on.
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: {
          results: [
            { mintId: c, confidenceLevel: 'LOW', confidence: 0.05, score: 2, reasons: [] },
            ...b.map((mintId) => ({
              mintId,
              confidenceLevel: 'LOW',
              confidence: 0.1,
              score: 5,
              reasons: [],
            })),
          ],
          errors: [],
        },
      },
    });
    const out = await call(h.client, 'analyze_botting', { mintIds: [c, ...b], chain: 'chain_b' });
    // Its level in brackets: shown, never counted.
    const line = out.text.split('\n').find((l) => l.startsWith('(LOW)') && l.includes(c));
    expect(line).toContain('not covered (platform_c); (none)');
    expect(out.text).toContain(
      'Not covered (1): streams on platform_c (its streamer record); the platform asked was platform_b, so it is in no level count or average. The upstream answered:',
    );
    expect(out.text).toContain(`  a verdict (1, in brackets in the table): ${c}`);
    expect(sc(out).counts).toMatchObject({ requested: 3, analysed: 2, notCovered: 1, byLevel: { LOW: 2 } });
    const results = sc(out).results as Array<Record<string, unknown>>;
    expect(results.find((r) => r.mintId === c)).toMatchObject({ covered: false });
    expect(results.filter((r) => r.covered === false)).toHaveLength(1);
    expect(sc(out).notCovered).toEqual([c]);
    expect(sc(out).calls).toEqual({ botting: 1, streamers: 1 });
    expect(sim.requests.filter((r) => r.path === '/streamers')).toHaveLength(1);
  });

  // An upstream that analyses platform_c tokens on chain_b (as one did): its verdict is its own, shown as
  // given; the server says only what it knows (the platform asked, the platform the record names).
  for (const tool of ['analyze_botting', 'investigate_botting'] as const)
    it(`${tool}: a verdict the upstream gave on a platform_c token is the upstream's, not "on no data"`, async () => {
      const [c] = ids(sim, 'platform_c', 1) as [string];
      const [b] = ids(sim, 'platform_b', 1) as [string];
      sim.injectFor(/botting/, {
        status: 200,
        body: {
          success: true,
          data: {
            results: [
              { mintId: c, confidenceLevel: 'high', confidence: 0.91, score: 88, reasons: ['spiky chat'] },
              { mintId: b, confidenceLevel: 'low', confidence: 0.1, score: 5, reasons: [] },
            ],
            errors: [],
          },
        },
      });
      const out = await call(h.client, tool, { mintIds: [c, b], chain: 'chain_b' });
      expect(out.text).not.toMatch(/no data|does not take|cannot have|meaningless/i);
      expect(out.text).toContain(
        'Not covered (1): streams on platform_c (its streamer record); the platform asked was platform_b',
      );
      expect(out.text).toContain(`  a verdict (1, in brackets in the table): ${c}`);
      const row = out.text.split('\n').find((l) => l.includes(c) && l.includes('not covered (platform_c)'));
      expect(row).toMatch(/^\S*\s*\(high\)/);
      expect(JSON.stringify(out.structured)).not.toMatch(/no data|does not take/);
      if (tool === 'analyze_botting')
        expect(JSON.stringify(out.structured)).toContain(
          'not covered: streams on platform_c; the platform asked was platform_b',
        );
    });

  it('investigate_botting marks the same token the same way (one implementation)', async () => {
    const [c] = ids(sim, 'platform_c', 1) as [string];
    const b = ids(sim, 'platform_b', 2);
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: {
          results: [{ mintId: c, confidenceLevel: 'LOW', confidence: 0.05, score: 2, reasons: [] }],
          errors: [],
        },
      },
    });
    const out = await call(h.client, 'investigate_botting', {
      mintIds: [c, ...b],
      chain: 'chain_b',
      hours: 3,
    });
    expect(out.text).toContain('Not covered (1): streams on platform_c');
    expect(rowsOf(out).find((r) => r.mintId === c)).toMatchObject({ covered: false });
    expect(sc(out).notCovered).toEqual([c]);
    // The ids the upstream left out are not platform_c tokens: they keep the upstream's reason.
    expect(failedOf(out).map((e) => e.error)).toEqual(['no result returned', 'no result returned']);
  });

  describe('chain_b headlines over a mix of platform_b and platform_c tokens', () => {
    // Verdicts for every token, platform_c ones included (as an upstream did): 6 on platform_b, 4 on
    // platform_c, the platform_c ones all HIGH with a high confidence, which no count may include.
    const mix = () => {
      const b = ids(sim, 'platform_b', 6);
      const c = ids(sim, 'platform_c', 4);
      const levels = ['HIGH', 'HIGH', 'MEDIUM', 'LOW', 'LOW', 'LOW'];
      const confidence = [0.9, 0.8, 0.5, 0.2, 0.1, 0.1];
      const results = [
        ...b.map((mintId, i) => ({
          mintId,
          confidenceLevel: levels[i],
          confidence: confidence[i],
          score: Math.round((confidence[i] as number) * 100),
          reasons: ['low chat-to-viewer ratio'],
        })),
        ...c.map((mintId) => ({
          mintId,
          confidenceLevel: 'HIGH',
          confidence: 0.99,
          score: 99,
          reasons: ['x'],
        })),
      ];
      sim.injectFor(/botting/, {
        status: 200,
        body: {
          success: true,
          data: {
            results,
            errors: [],
            // The upstream's own summary counts the platform_c verdicts too.
            summary: {
              totalRequested: 10,
              successful: 10,
              failed: 0,
              processingTime: 1,
              averageConfidence: 0.74,
            },
          },
        },
      });
      const bHigh = b.slice(0, 2);
      const bHighLive = bHigh.filter((id) => token(id)?.isCurrentlyLive);
      return { b, c, ids: [...b, ...c], bHigh, bHighLive };
    };

    it('investigate_botting: flagged counts over covered tokens only, platform_c counted apart, in both channels', async () => {
      const m = mix();
      const out = await call(h.client, 'investigate_botting', { mintIds: m.ids, chain: 'chain_b', hours: 5 });
      expect(out.text.split('\n')[0]).toBe(
        `Botting investigation: 2 of 6 analysed tokens flagged HIGH, ${m.bHighLive.length} of them live now; 4 not covered (platform_c) (10 requested, 0 failed; chain_b / platform_b, last 5 h)`,
      );
      expect(sc(out).summary).toBe(out.text.split('\n')[0]);
      expect(out.text).toContain('Confidence levels: HIGH 2, MEDIUM 1, LOW 3');
      expect(out.text).toContain('Not covered (4): stream on platform_c');
      expect(sc(out).counts).toMatchObject({
        requested: 10,
        analysed: 6,
        failed: 0,
        byLevel: { HIGH: 2, MEDIUM: 1, LOW: 3 },
        flagged: 2,
        flaggedLive: m.bHighLive.length,
        notCovered: 4,
        averageConfidence: 0.433,
      });
      // Not covered last in the ranking, however confident their verdicts.
      const rows = rowsOf(out);
      expect(rows.slice(-4).map((r) => r.mintId)).toEqual(m.c);
      expect(rows.slice(-4).every((r) => r.covered === false)).toBe(true);
      expect(rows.slice(0, 2).map((r) => r.mintId)).toEqual(m.bHigh);
    });

    it('investigate_botting with a filter leads with what the filter matched', async () => {
      const m = mix();
      const out = await call(h.client, 'investigate_botting', {
        mintIds: m.ids,
        chain: 'chain_b',
        hours: 6,
        levels: ['MEDIUM', 'HIGH'],
      });
      expect(out.text.split('\n')[0]).toBe(
        `Botting investigation: 3 of 6 analysed tokens match levels MEDIUM, HIGH (and 4 not covered (platform_c)); in all, 2 flagged HIGH, ${m.bHighLive.length} of them live now; 4 not covered (platform_c) (10 requested, 0 failed; chain_b / platform_b, last 6 h)`,
      );
      expect(sc(out).counts).toMatchObject({ matching: 7, matchingNotCovered: 4, flagged: 2 });
    });

    it('analyze_botting: analysed count, level counts and average confidence leave platform_c out', async () => {
      const m = mix();
      const out = await call(h.client, 'analyze_botting', { mintIds: m.ids, chain: 'chain_b' });
      expect(out.text.split('\n')[0]).toBe(
        'Botting analysis: 2 of 6 analysed tokens flagged HIGH; 4 not covered (platform_c) (10 requested, 0 failed; chain_b / platform_b, last 24 h)',
      );
      expect(out.text).toContain(
        'Confidence levels: HIGH 2, MEDIUM 1, LOW 3 (average confidence ≈0.433, computed over the 6 analysed tokens, 3 significant digits)',
      );
      expect(sc(out).counts).toEqual({
        requested: 10,
        analysed: 6,
        failed: 0,
        byLevel: { HIGH: 2, MEDIUM: 1, LOW: 3 },
        averageConfidence: 0.433,
        averageConfidenceOf: 'computed over the 6 analysed tokens, 3 significant digits',
        flagged: 2,
        flaggedLevels: ['HIGH'],
        notCovered: 4,
      });
      expect(sc(out).notCovered).toEqual(m.c);
    });
  });

  it('investigate_botting keeps not-covered tokens in the ranking data: their viewers and fees count in the totals', async () => {
    const b = ids(sim, 'platform_b', 3);
    const c = ids(sim, 'platform_c', 3);
    const all = [...b, ...c];
    const out = await call(h.client, 'investigate_botting', {
      mintIds: all,
      chain: 'chain_b',
      includeCreatorFees: true,
    });
    const rows = rowsOf(out);
    // Every token asked is a row: the platform_c ones last, unranked for suspicion, with their record and fees.
    expect(rows.map((r) => r.mintId).sort()).toEqual([...all].sort());
    for (const id of c) {
      const row = rows.find((r) => r.mintId === id);
      expect(row).toMatchObject({
        covered: false,
        level: null,
        viewers: token(id)?.currentViewers,
        feesInNativeCoin: token(id)?.fees?.feesInNativeCoin ?? null,
      });
      expect(typeof row?.upstreamError).toBe('string');
    }
    const viewers = all.reduce((n, id) => n + (token(id)?.currentViewers ?? 0), 0);
    const viewersC = c.reduce((n, id) => n + (token(id)?.currentViewers ?? 0), 0);
    const counts = sc(out).counts as Record<string, Record<string, unknown>>;
    expect(counts.viewersNow).toMatchObject({ total: viewers, tokensWithValue: 6 });
    expect(counts.viewersNow?.notCovered).toMatchObject({ value: viewersC });
    const fees = all.map((id) => token(id)?.fees?.feesInNativeCoin).filter((f) => f !== undefined);
    expect(counts.feesInNativeCoin).toMatchObject({
      total: Number(decimalSum(fees)),
      tokensWithValue: fees.length,
    });
    expect(out.text).toContain(`Viewers now: ${viewers.toLocaleString('en')} over the 6 tokens asked`);
    expect(out.text).toContain(`not covered ${viewersC.toLocaleString('en')}`);
  });

  it('on chain_a no lookup is made', async () => {
    await call(h.client, 'analyze_botting', { mintIds: mints.slice(0, 3) });
    expect(sim.requests.map((r) => r.path)).toEqual(['/botting/bulk']);
  });
});

describe('one average, and levels the document does not name', () => {
  it('analyze_botting and investigate_botting give the same average confidence, computed, its source stated', async () => {
    const a = ids(sim, 'platform_a', 12);
    const analysed = await call(h.client, 'analyze_botting', { mintIds: a });
    const investigated = await call(h.client, 'investigate_botting', { mintIds: a });
    const confidences = a.map((id) => token(id)?.botting?.confidence).filter((v) => v !== undefined);
    const mean = confidences.reduce((x, y) => x + y, 0) / confidences.length;
    const expected = Number(mean.toPrecision(3));
    for (const out of [analysed, investigated]) {
      expect(sc(out).counts).toMatchObject({
        averageConfidence: expected,
        averageConfidenceOf: `computed over the ${confidences.length} analysed tokens, 3 significant digits`,
      });
    }
    const levelsLine = (text: string) => text.split('\n').find((l) => l.startsWith('Confidence levels:'));
    expect(levelsLine(analysed.text)).toBe(levelsLine(investigated.text));
    expect(levelsLine(analysed.text)).toContain(
      `average confidence ${expected === mean ? '' : '≈'}${expected}`,
    );
  });

  // Another upstream's levels (the document shows only HIGH) and its own unrounded summary average.
  const custom = (a: string[]) => {
    const verdicts: Array<[string, number]> = [
      ['NOMINAL', 0.12],
      ['HIGH', 0.91],
      ['INCONCLUSIVE', 0.09],
      ['ELEVATED', 0.55],
    ];
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: {
          results: verdicts.map(([confidenceLevel, confidence], i) => ({
            mintId: a[i],
            confidenceLevel,
            confidence,
            score: Math.round(confidence * 10),
            reasons: [`reason ${confidenceLevel}`],
          })),
          errors: [],
          summary: { totalRequested: 4, successful: 4, failed: 0, averageConfidence: 0.4175000000000001 },
        },
      },
    });
    return Number(((0.12 + 0.91 + 0.09 + 0.55) / 4).toPrecision(3));
  };

  it('analyze_botting with levels HIGH, ELEVATED, NOMINAL, INCONCLUSIVE: ordered by the data, the computed average', async () => {
    const a = ids(sim, 'platform_a', 4);
    const expected = custom(a);
    const out = await call(h.client, 'analyze_botting', { mintIds: a });
    expect(out.text).toContain(
      `Confidence levels: HIGH 1, ELEVATED 1, NOMINAL 1, INCONCLUSIVE 1 (average confidence ≈${expected}, computed over the 4 analysed tokens, 3 significant digits)`,
    );
    expect(out.text).not.toContain('0.4175000000000001');
    expect((sc(out).results as Array<{ level: string }>).map((r) => r.level)).toEqual([
      'HIGH',
      'ELEVATED',
      'NOMINAL',
      'INCONCLUSIVE',
    ]);
  });

  it("investigate_botting with those levels: each level's share of the viewers, and a filter on ELEVATED", async () => {
    const a = ids(sim, 'platform_a', 4);
    custom(a);
    const out = await call(h.client, 'investigate_botting', { mintIds: a, hours: 7 });
    const viewers = (id: string | undefined) => (id ? (token(id)?.currentViewers ?? 0) : 0);
    const total = a.reduce((n, id) => n + viewers(id), 0);
    const byLevel = (sc(out).counts as { viewersNow: { byLevel: Record<string, { value: number }> } })
      .viewersNow.byLevel;
    expect(Object.keys(byLevel)).toEqual(['HIGH', 'ELEVATED', 'NOMINAL', 'INCONCLUSIVE']);
    expect(byLevel.HIGH?.value).toBe(viewers(a[1]));
    expect(byLevel.ELEVATED?.value).toBe(viewers(a[3]));
    expect(out.text).toContain(
      `Viewers now: ${total.toLocaleString('en')} over the 4 tokens asked (4 with a value): HIGH `,
    );
    const elevated = await call(h.client, 'investigate_botting', {
      mintIds: a,
      hours: 7,
      levels: ['elevated'],
    });
    expect(rowsOf(elevated).map((r) => r.mintId)).toEqual([a[3]]);
  });
});

describe('not-covered failures wrapped over several lines', () => {
  it('investigate_botting: only a reason line carries the error label; wrapped ids keep their indent', async () => {
    const c = ids(sim, 'platform_c', 12);
    const b = ids(sim, 'platform_b', 1);
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: { results: [], errors: [...c, ...b].map((mintId) => ({ mintId, error: 'Token not found' })) },
      },
    });
    const out = await call(h.client, 'investigate_botting', { mintIds: [...c, ...b], chain: 'chain_b' });
    const lines = out.text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Not covered (12)'));
    expect(lines[at + 1]).toMatch(/^ {2}error "Token not found" \(12\): /);
    // The two ids past the first ten, on their own line, without a label.
    expect(lines[at + 2]).toMatch(/^ {4}\S+, \S+$/);
    expect(out.text).not.toMatch(/^ {2}error {2}/m);
  });
});
