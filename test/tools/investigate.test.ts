// investigate_botting against the simulator: batching by each endpoint's limit, the join, the ranking,
// progress, partial failure and cancellation.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordedRequest, Simulator } from '../../src/simulator/server.js';
import { call, connect, FIRST_CHANNEL, failedOf, type Harness, ids, sc, startSim } from '../helpers.js';

let sim: Simulator;
let h: Harness;
let known: string[];
let requested: string[];
const unknown = Array.from({ length: 7 }, (_, i) => `Unknown${i}${'z'.repeat(36)}`);

beforeAll(async () => {
  sim = await startSim();
  h = await connect(sim);
  known = ids(sim, 'platform_a', 130);
  // 137 ids: 130 known on chain_a, 7 unknown, interleaved.
  requested = [...known];
  unknown.forEach((id, i) => {
    requested.splice(i * 19, 0, id);
  });
});
afterAll(async () => {
  await h.close();
  await sim.close();
});
beforeEach(() => sim.reset());

// The facts of the report (which requests, which ids, how ranked, counted and cut, what a time-out says) are
// the same over every channel: they run once, on the first channel. Those that meet the simulator's dialect
// (found by tracing its functions over a legacy-http-b run) and those that are the channel's own
// (progress notifications, cancellation, many ids' abort listeners) run on legacy-http-b too.
const once = it.runIf(FIRST_CHANNEL);
const onceAll = describe.runIf(FIRST_CHANNEL);

const bodyOf = (r: RecordedRequest) => r.body as Record<string, unknown>;
const byPath = (path: string) => sim.requests.filter((r) => r.path === path);
const token = (id: string) => sim.data.byMint.get(id);

describe('investigate_botting over 137 ids', () => {
  once('makes the expected upstream calls, each within its endpoint limit', async () => {
    const out = await call(h.client, 'investigate_botting', { mintIds: requested, includeCreatorFees: true });
    expect(out.isError, out.text).toBe(false);
    const botting = byPath('/botting/bulk').map((r) => (bodyOf(r).mintIds as string[]).length);
    const streamers = byPath('/streamers').map((r) => (bodyOf(r).tokenAddresses as string[]).length);
    const fees = byPath('/stats/creator-fees/bulk').map((r) => (bodyOf(r).tokenAddresses as string[]).length);
    expect(botting.sort((x, y) => y - x)).toEqual([50, 50, 37]);
    expect(streamers.sort((x, y) => y - x)).toEqual([100, 37]);
    expect(fees.sort((x, y) => y - x)).toEqual([100, 37]);
    expect(sim.requests).toHaveLength(7);
    for (const r of byPath('/botting/bulk'))
      expect(bodyOf(r)).toMatchObject({ hours: 24, chain: 'chain_a', platform: 'platform_a' });
    for (const r of byPath('/streamers'))
      expect(bodyOf(r)).toMatchObject({ limit: 100, page: 1, chain: 'chain_a', platform: 'platform_a' });
    expect(sc(out).calls).toEqual({ botting: 3, streamers: 2, fees: 2 });
  });

  once('accounts for every id exactly once, and ranks and counts as the data says', async () => {
    const out = await call(h.client, 'investigate_botting', { mintIds: requested });
    const columns = sc(out).columns as string[];
    const rows = sc(out).rows as unknown[][];
    const col = (row: unknown[], name: string) => row[columns.indexOf(name)];
    const errors = failedOf(out);
    const accounted = [...rows.map((r) => col(r, 'mintId') as string), ...errors.map((e) => e.id)];
    expect(accounted.sort()).toEqual([...requested].sort());

    const analysed = known.filter((id) => token(id)?.botting);
    const high = analysed.filter((id) => token(id)?.botting?.confidenceLevel === 'HIGH');
    const highLive = high.filter((id) => token(id)?.isCurrentlyLive);
    expect(sc(out).counts).toMatchObject({
      requested: 137,
      analysed: analysed.length,
      failed: 137 - analysed.length,
      flagged: high.length,
      flaggedLive: highLive.length,
    });
    for (const id of unknown) expect(errors).toContainEqual({ id, error: 'Token not found' });

    // Most suspicious first: all HIGH rows, then the rest; within a level, by score.
    const levels = rows.map((r) => col(r, 'level'));
    expect(levels.slice(0, high.length).every((l) => l === 'HIGH')).toBe(true);
    expect(levels.slice(high.length).includes('HIGH')).toBe(false);
    const highScores = rows.slice(0, high.length).map((r) => col(r, 'score') as number);
    expect(highScores).toEqual([...highScores].sort((x, y) => y - x));

    // The join: each row carries its token's streamer record.
    const first = rows[0] as unknown[];
    const t = token(col(first, 'mintId') as string);
    expect(col(first, 'name')).toBe(t?.coinName);
    expect(col(first, 'live')).toBe(t?.isCurrentlyLive);
    expect(col(first, 'viewers')).toBe(t?.currentViewers);

    expect(out.text.split('\n')[0]).toBe(
      `Botting investigation: ${high.length} of ${analysed.length} analysed tokens flagged HIGH, ${highLive.length} of them live now (137 requested, ${137 - analysed.length} failed; chain_a / platform_a, last 24 h)`,
    );
    expect(out.text).toContain(`Flagged HIGH and live now: ${highLive.length} (`);
    expect(out.text).toMatch(/Most frequent reasons: "/);
    // The budget holds every id whole: none is shortened, and no note says otherwise.
    expect(sc(out).idsShortened).toBeUndefined();
    expect(out.text).not.toMatch(/shortened/);
    // Whole: the first 10 rows, and every flagged live token (the headline and the next step point at them).
    const shown = (rows as unknown[][]).map((r) => col(r, 'mintId') as string);
    for (const id of shown.slice(0, 10)) expect(out.text).toContain(id);
    for (const id of highLive) if (shown.includes(id)) expect(out.text).toContain(id);
  });

  it('sends one progress notification per finished request, with a message', async () => {
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> =
      [];
    await h.client.callTool(
      // Another `hours` than the calls before: a fresh investigation, not a re-slice of a kept one.
      { name: 'investigate_botting', arguments: { mintIds: requested, hours: 25 } },
      { onprogress: (p) => progress.push(p) },
    );
    expect(progress).toHaveLength(5);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.every((p) => p.total === 5 && /\(\d of 5 requests done\)$/.test(p.message ?? ''))).toBe(
      true,
    );
  });

  it('a botting chunk that keeps failing costs only its own ids', async () => {
    const second = known[60] as string;
    const chunk = (r: RecordedRequest) =>
      r.path === '/botting/bulk' && (bodyOf(r).mintIds as string[]).includes(second);
    sim.injectFor(chunk, { status: 503 }, { status: 503 }, { status: 503 });
    const out = await call(h.client, 'investigate_botting', { mintIds: requested, hours: 26 });
    expect(out.isError).toBe(false);
    const errors = failedOf(out);
    const chunkIds = requested.slice(50, 100);
    for (const id of chunkIds) {
      expect(errors).toContainEqual({
        id,
        error: expect.stringMatching(/failed \(HTTP 503\) after 3 attempts/),
      });
    }
    const analysedOutside = [...requested.slice(0, 50), ...requested.slice(100)].filter(
      (id) => token(id)?.botting,
    );
    expect((sc(out).counts as { analysed: number }).analysed).toBe(analysedOutside.length);
  });

  once('a chunk that times out reports the real time limit for its ids', async () => {
    // A breaker that stays closed: on a loaded machine another chunk's slow answer may time out too, and
    // five failures in a row would refuse this chunk's last attempt as circuit_open instead.
    const quick = await connect(sim, { config: { timeoutMs: 500 }, api: { breaker: { threshold: 1_000 } } });
    const second = known[60] as string;
    const chunk = (r: RecordedRequest) =>
      r.path === '/botting/bulk' && (bodyOf(r).mintIds as string[]).includes(second);
    sim.injectFor(chunk, { hang: true }, { hang: true }, { hang: true });
    const out = await call(quick.client, 'investigate_botting', { mintIds: requested });
    await quick.close();
    expect(failedOf(out)).toContainEqual({
      id: second,
      error: 'The streamer analytics service did not answer within 500 ms after 3 attempts.',
    });
  });

  it('a failed streamer-records chunk leaves the findings standing and says what is missing', async () => {
    const chunk = (r: RecordedRequest) =>
      r.path === '/streamers' && (bodyOf(r).tokenAddresses as string[]).length === 37;
    sim.injectFor(chunk, { status: 500 }, { status: 500 }, { status: 500 });
    const out = await call(h.client, 'investigate_botting', { mintIds: requested, hours: 27 });
    expect(out.text).toMatch(/Note: No streamer records for 37 ids: .*HTTP 500/);
    expect((sc(out).counts as { analysed: number }).analysed).toBeGreaterThan(100);
  });

  it('cancellation stops the remaining requests and returns nothing', async () => {
    const serial = await connect(sim, { config: { maxConcurrency: 1 } });
    sim.latencyMs = 150;
    const controller = new AbortController();
    const pending = serial.client.callTool(
      { name: 'investigate_botting', arguments: { mintIds: requested } },
      { signal: controller.signal },
    );
    // Cancelled once its first request is upstream (one at a time, 150 ms each).
    await vi.waitFor(() => expect(sim.requests.length).toBeGreaterThan(0), { timeout: 10_000, interval: 5 });
    controller.abort();
    await expect(pending).rejects.toThrow();
    const atCancel = sim.requests.length;
    // Four requests' time: without the cancellation, about four more would start (more on an idle machine).
    await new Promise((r) => setTimeout(r, 600));
    // (One more may have started while the cancellation was on its way to the server.)
    expect(sim.requests.length).toBeLessThanOrEqual(atCancel + 1);
    await serial.close();
  });

  it('takes up to 500 ids (without a listener-leak warning) and refuses 501', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const many = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(5, 'x')}${'K'.repeat(39)}`);
    const ok = await call(h.client, 'investigate_botting', { mintIds: many });
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    expect(ok.isError).toBe(false);
    expect(byPath('/botting/bulk')).toHaveLength(10);
    sim.reset();
    const refused = await call(h.client, 'investigate_botting', { mintIds: [...many, `X${'K'.repeat(40)}`] });
    expect(refused.text).toContain('- mintIds: got a list of 501; allowed: a list of 1 to 500 items');
    expect(sim.requests).toHaveLength(0);
  });

  once('stays within the budget in both channels, cutting the lowest-ranked rows', async () => {
    const small = await connect(sim, { budgetChars: 6_000 });
    const out = await call(small.client, 'investigate_botting', { mintIds: requested });
    await small.close();
    expect(out.text.length).toBeLessThanOrEqual(6_000);
    expect(JSON.stringify(out.structured).length).toBeLessThanOrEqual(6_000);
    expect(String(sc(out).truncated)).toMatch(
      /^Showing 1–(\d+) of \d+ ranked findings \(most suspicious first\)\. Continue with offset \1 /,
    );
  });
});

onceAll('analyze_botting: the window decides the verdicts', () => {
  const verdicts = async (hours: number) => {
    const out = await call(h.client, 'analyze_botting', { mintIds: known.slice(0, 50), hours });
    expect(out.isError, out.text).toBe(false);
    expect(out.text.split('\n')[0]).toContain(`last ${hours} h`);
    const results = sc(out).results as Array<{ mintId: string; level: string; confidence: number }>;
    return new Map(results.map((r) => [r.mintId, `${r.level} ${r.confidence}`]));
  };

  it('6 and 168 hours give other verdicts, from the sessions inside each window; 24 hours the dataset own', async () => {
    const [six, week, day, sixAgain] = [
      await verdicts(6),
      await verdicts(168),
      await verdicts(24),
      await verdicts(6),
    ];
    expect([...sixAgain]).toEqual([...six]);
    expect([...day]).toEqual(
      [...day.keys()].map((id) => [
        id,
        `${token(id)?.botting?.confidenceLevel} ${token(id)?.botting?.confidence}`,
      ]),
    );
    const within = (id: string, hours: number) =>
      token(id)?.sessions.filter(
        (s) => Date.parse(s.endTime) >= Date.parse('2026-11-20T12:00:00.000Z') - hours * 3_600_000,
      ).length;
    const differ = [...six.keys()].filter((id) => six.get(id) !== week.get(id));
    // A token with as many sessions in the last week as in the last 6 hours gets the same verdict; most differ.
    for (const id of six.keys())
      if (within(id, 6) === within(id, 168)) expect(week.get(id)).toBe(six.get(id));
    expect(differ.length).toBeGreaterThan(six.size / 2);
    // The week holds more sessions: confidences rise, the 6 hours' fall.
    const conf = (m: Map<string, string>, id: string) => Number(m.get(id)?.split(' ')[1]);
    for (const id of differ) expect(conf(week, id)).toBeGreaterThanOrEqual(conf(six, id));
  });
});

onceAll('investigate_botting: ids shortened only where the budget forces it, and the note says which', () => {
  // The blind trial's question: HIGH or MEDIUM, live, most watched first, over more than 25 matching rows.
  const ask = { levels: ['HIGH', 'MEDIUM'], liveOnly: true, sortBy: 'viewers' };
  const shownIds = (out: Awaited<ReturnType<typeof call>>) => {
    const columns = sc(out).columns as string[];
    return (sc(out).rows as unknown[][]).map((r) => r[columns.indexOf('mintId')] as string);
  };

  it('within the budget: every id whole, and no note', async () => {
    const out = await call(h.client, 'investigate_botting', { mintIds: known, ...ask });
    const shown = shownIds(out);
    expect(shown.length).toBeGreaterThan(25);
    expect(sc(out).truncated).toBeUndefined();
    for (const id of shown) expect(out.text).toContain(id);
    expect(out.text).not.toMatch(/shortened/);
    expect(sc(out).idsShortened).toBeUndefined();
  });

  it('under a budget that cuts rows, shortening that lets no more rows in is not done', async () => {
    // structuredContent (every id whole, up to three reasons a row) is what fills 7,100 characters first
    // (the counts name the flagged levels: a few characters more than 7,000 held).
    const small = await connect(sim, { budgetChars: 7_100 });
    const out = await call(small.client, 'investigate_botting', { mintIds: known, ...ask });
    await small.close();
    const shown = shownIds(out);
    expect(shown.length).toBeGreaterThan(25);
    expect(sc(out).truncated).toBeDefined();
    for (const id of shown) expect(out.text).toContain(id);
    expect(out.text).not.toMatch(/Ids shortened/);
    expect(sc(out).idsShortened).toBeUndefined();
  });
});

describe('another upstream: levels CRITICAL > HIGH > GUARDED > CLEAR, confidence in percent, two currencies', () => {
  // Verdicts as a second upstream gives them (its choices, not the document's): a CRITICAL above HIGH,
  // percentages, score 0-10; three tokens with no data in the window; fees in USD and EUR.
  const verdicts: Array<[string, number]> = [
    ['HIGH', 81.5],
    ['CLEAR', 9.2],
    ['CRITICAL', 96.1],
    ['GUARDED', 47.3],
    ['HIGH', 79],
  ];
  const NO_DATA = 'No viewer data available in the last 24h';
  const serve = (a: string[]) => {
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: {
          results: verdicts.map(([confidenceLevel, confidence], i) => ({
            mintId: a[i],
            confidenceLevel,
            confidence,
            score: Math.round(confidence) / 10,
            reasons: [`reason ${confidenceLevel}`],
          })),
          errors: a.slice(5).map((mintId) => ({ mintId, error: NO_DATA })),
        },
      },
    });
    // Fees: USD for even positions, EUR for odd ones.
    sim.injectFor(/creator-fees/, {
      status: 200,
      body: {
        success: true,
        data: a.map((tokenAddress, i) => ({
          tokenAddress,
          creatorAddress: null,
          totalFees: 100 * (i + 1) + 0.25,
          currency: i % 2 ? 'EUR' : 'USD',
          feesInNativeCoin: (i + 1) / 10,
        })),
        errors: [],
      },
    });
  };
  const a = () => known.slice(0, 8);

  once(
    'investigate_botting: CRITICAL counts as flagged (its mean confidence is above HIGH’s), in both channels and in Next',
    async () => {
      const mints = a();
      serve(mints);
      const out = await call(h.client, 'investigate_botting', { mintIds: mints, includeCreatorFees: true });
      const live = [mints[0], mints[2], mints[4]].filter((id) => id && token(id)?.isCurrentlyLive).length;
      expect(out.text.split('\n')[0]).toBe(
        `Botting investigation: 3 of 5 analysed tokens flagged CRITICAL or HIGH, ${live} of them live now (8 requested, 3 failed; chain_a / platform_a, last 24 h)`,
      );
      expect(out.text).toContain("Flagged: HIGH and CRITICAL (mean confidence at least HIGH's)");
      expect(sc(out).counts).toMatchObject({
        flagged: 3,
        flaggedLevels: ['CRITICAL', 'HIGH'],
        flaggedRule: "HIGH and CRITICAL (mean confidence at least HIGH's)",
        flaggedLive: live,
        byLevel: { CRITICAL: 1, HIGH: 2, GUARDED: 1, CLEAR: 1 },
        // (81.5 + 9.2 + 96.1 + 47.3 + 79) / 5 = 62.62: on the upstream's scale, 3 significant digits.
        averageConfidence: 62.6,
        averageConfidenceOf: 'computed over the 5 analysed tokens, 3 significant digits',
      });
      expect(out.text).toContain(
        '(average confidence ≈62.6, computed over the 5 analysed tokens, 3 significant digits)',
      );
      if (live) expect(sc(out).next).toContain('levels ["CRITICAL","HIGH"] with liveOnly true');
      // The larger window, for the three tokens that failed with one message.
      expect(sc(out).next).toContain(
        `3 tokens failed with one message ("${NO_DATA}"): if it means no data in the last 24 h, retry with a larger hours (up to 168).`,
      );
      expect(out.text).toContain(`Next: ${sc(out).next}`);
    },
  );

  once(
    'investigate_botting: fee shares by level per currency, never added across currencies, in both channels',
    async () => {
      const mints = a();
      serve(mints);
      const out = await call(h.client, 'investigate_botting', {
        mintIds: mints,
        includeCreatorFees: true,
        hours: 48,
      });
      // USD: positions 0 (HIGH 100.25), 2 (CRITICAL 300.25), 4 (HIGH 500.25), 6 (failed 700.25) = 1,601.
      // EUR: 1 (CLEAR 200.25), 3 (GUARDED 400.25), 5 (failed 600.25), 7 (failed 800.25) = 2,001.
      expect(out.text).toContain(
        'Creator fees per currency (each apart): EUR 2,001 over 4 tokens: GUARDED 400.25 (20%), CLEAR 200.25 (10%), failed 1,400.50 (70%); USD 1,601 over 4 tokens: CRITICAL 300.25 (18.8%), HIGH 600.50 (37.5%), failed 700.25 (43.7%)',
      );
      const byCurrency = (sc(out).counts as { totalFeesByCurrency: Array<Record<string, unknown>> })
        .totalFeesByCurrency;
      expect(byCurrency.map((c) => [c.currency, c.total, c.tokensWithValue])).toEqual([
        ['EUR', 2001, 4],
        ['USD', 1601, 4],
      ]);
      expect(byCurrency[1]?.byLevel).toMatchObject({
        CRITICAL: { value: 300.25, share: 0.1875 },
        HIGH: { value: 600.5, share: 0.3751 },
      });
      // 48 hours: the message still asks for a larger window (it is the upstream's, whatever it says).
      expect(sc(out).next).toContain('retry with a larger hours (up to 168)');
    },
  );

  once('analyze_botting: the same flagged rule, average and larger-window Next', async () => {
    const mints = a();
    serve(mints);
    const out = await call(h.client, 'analyze_botting', { mintIds: mints });
    expect(out.text.split('\n')[0]).toBe(
      'Botting analysis: 3 of 5 analysed tokens flagged CRITICAL or HIGH (8 requested, 3 failed; chain_a / platform_a, last 24 h)',
    );
    expect(out.text).toContain("Flagged: HIGH and CRITICAL (mean confidence at least HIGH's)");
    expect(out.text).toContain(
      '(average confidence ≈62.6, computed over the 5 analysed tokens, 3 significant digits)',
    );
    expect(sc(out).counts).toMatchObject({
      flagged: 3,
      flaggedLevels: ['CRITICAL', 'HIGH'],
      averageConfidence: 62.6,
    });
    expect(sc(out).next).toMatch(
      /^3 tokens failed with one message .*retry with a larger hours \(up to 168\)/,
    );
    expect(out.text).toContain(`Next: ${sc(out).next}`);
  });

  once(
    'no HIGH verdict: none flagged, and the most suspicious level is named; 168 hours: no larger window offered',
    async () => {
      const mints = a();
      sim.injectFor(/botting/, {
        status: 200,
        body: {
          success: true,
          data: {
            results: [
              { mintId: mints[0], confidenceLevel: 'CRITICAL', confidence: 95.5, score: 9.6, reasons: [] },
              { mintId: mints[1], confidenceLevel: 'CLEAR', confidence: 4, score: 0.4, reasons: [] },
            ],
            errors: mints.slice(2).map((mintId) => ({ mintId, error: NO_DATA })),
          },
        },
      });
      const out = await call(h.client, 'analyze_botting', { mintIds: mints, hours: 168 });
      expect(out.text.split('\n')[0]).toContain('0 of 2 analysed tokens flagged HIGH');
      const rule =
        'none (no HIGH verdict to compare the levels with); the most suspicious level here is CRITICAL (1 token, mean confidence 95.5)';
      expect(out.text).toContain(`Flagged: ${rule}`);
      expect(sc(out).counts).toMatchObject({ flagged: 0, flaggedLevels: [], flaggedRule: rule });
      expect(sc(out).next).not.toContain('larger hours');
    },
  );

  it('failures that are not a shared upstream message (not found, a failed request) offer no larger window', async () => {
    const out = await call(h.client, 'investigate_botting', { mintIds: [...known.slice(0, 3), ...unknown] });
    expect(failedOf(out).length).toBe(unknown.length);
    expect(sc(out).next).not.toContain('larger hours');
    // The first chunk of 50 fails three times: its ids share the request's reason, not an upstream answer.
    const first = known[0] as string;
    sim.injectFor(
      (r) => r.path === '/botting/bulk' && (bodyOf(r).mintIds as string[]).includes(first),
      { status: 503 },
      { status: 503 },
      { status: 503 },
    );
    const failed = await call(h.client, 'investigate_botting', { mintIds: known.slice(0, 60), hours: 5 });
    expect(failedOf(failed).length).toBe(50);
    expect(sc(failed).next).not.toContain('larger hours');
  });
});
