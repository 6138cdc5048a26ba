// run_analysis through the real server, on every channel: the guidance's three programs answer exactly over
// the simulator with id lists past the endpoints' limits; arguments are checked before anything is sent;
// each limit ends a run with its own error; runs share nothing and see nothing of the host; the key never
// reaches the program; cancellation stops the requests; errors carry the program's own line numbers.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXAMPLES } from '../../src/reference.js';
import type { SimSession } from '../../src/simulator/data.js';
import { type Simulator, startSimulator } from '../../src/simulator/server.js';
import { NOT_COVERED } from '../../src/tools/coverage.js';
import { decimalSum } from '../../src/untrusted/numbers.js';
import { call, connect, FIRST_CHANNEL, type Harness, ids, SIM_KEY, sc, startSim } from '../helpers.js';

let sim: Simulator;
let h: Harness;
/** The same server with a short time limit, for the endless loop. */
let quick: Harness;

beforeAll(async () => {
  sim = await startSim();
  h = await connect(sim);
  quick = await connect(sim, { config: { analysisTimeoutMs: 3_000 } });
});
beforeEach(() => sim.reset());
afterAll(async () => {
  await h.close();
  await quick.close();
  await sim.close();
});

// A test whose program sends nothing upstream (the sandbox's limits, its errors) never meets the dialect:
// it runs in the first project only, not again against dialect B (vitest.config.ts). So do those whose
// upstream answers the dialect does not shape (found by tracing its functions over a legacy-http-b run):
// the guidance programs' exact answers, the api's arguments and defaults, a call's count of requests, and
// the key an upstream of the test's own (dialect A) echoes; the channel only carries their results.
const once = it.runIf(FIRST_CHANNEL);
const onceAll = describe.runIf(FIRST_CHANNEL);
const run = (code: string, harness = h) => call(harness.client, 'run_analysis', { code });
const paths = () => sim.requests.map((r) => r.path);
/** A program with its inputs bound as constants before the guidance's own text. */
const withInputs = (inputs: Record<string, unknown>, body: string) =>
  `${Object.entries(inputs)
    .map(([k, v]) => `const ${k} = ${JSON.stringify(v)};`)
    .join('\n')}\n${body}`;

async function raw(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${sim.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

onceAll('the guidance programs answer exactly', () => {
  it('top-N share of a fee total: 120 addresses are 2 requests, sums exact', async () => {
    const tokenAddresses = ids(sim, 'platform_a', 120);
    const out = await run(withInputs({ tokenAddresses, n: 5 }, EXAMPLES.topShare));
    expect(out.isError, out.text).toBe(false);
    expect(paths().filter((p) => p === '/stats/creator-fees/bulk')).toHaveLength(2);
    // The expected figures, from the upstream's own answers for the same two pieces.
    const pieces = [
      await raw('/stats/creator-fees/bulk', { tokenAddresses: tokenAddresses.slice(0, 100) }),
      await raw('/stats/creator-fees/bulk', { tokenAddresses: tokenAddresses.slice(100) }),
    ];
    const fees = pieces
      .flatMap((p) => p.data as Array<{ feesInNativeCoin: number }>)
      .map((f) => f.feesInNativeCoin)
      .sort((a, b) => b - a);
    const value = sc(out).value as Record<string, number>;
    expect(value.total).toBe(Number(decimalSum(fees)));
    expect(value.top).toBe(Number(decimalSum(fees.slice(0, 5))));
    expect(value.share).toBeCloseTo(Number(decimalSum(fees.slice(0, 5))) / Number(decimalSum(fees)), 12);
    expect(sc(out).calls).toBe(2);
    expect(out.text).toContain(
      `total: ${value.total?.toLocaleString('en-US', { maximumFractionDigits: 20 })}`,
    );
    // The file's first run: on a loaded machine it has taken over 20 s.
  }, 60_000);

  it('a whole session history: 123 sessions over two pages, the longest, the count, the total duration', async () => {
    const token = sim.data.tokens.find((t) => t.platform === 'platform_a' && t.sessions.length > 0);
    if (!token) throw new Error('no token with sessions');
    const base = token.sessions[0] as SimSession;
    const extra = Array.from({ length: 123 - token.sessions.length }, (_, i) => ({
      ...base,
      sessionId: `${base.sessionId}-x${i}`,
      duration: 600 + ((i * 37) % 5_000),
    }));
    const saved = token.sessions;
    token.sessions = [...saved, ...extra];
    try {
      const out = await run(withInputs({ mint: token.mintId }, EXAMPLES.history));
      expect(out.isError, out.text).toBe(false);
      expect(paths().filter((p) => p.endsWith('/sessions'))).toHaveLength(2);
      const longest = token.sessions.reduce((a, b) => (b.duration > a.duration ? b : a));
      expect(sc(out).value).toEqual({
        sessions: 123,
        totalDuration: token.sessions.reduce((s, x) => s + x.duration, 0),
        longest: { sessionId: longest.sessionId, duration: longest.duration, startTime: longest.startTime },
      });
    } finally {
      token.sessions = saved;
    }
  });

  it('botting joined with live viewers: 120 ids are 2 list requests and 3 botting requests', async () => {
    const mintIds = ids(sim, 'platform_a', 120);
    const out = await run(withInputs({ mintIds }, EXAMPLES.bottedLive));
    expect(out.isError, out.text).toBe(false);
    expect(paths().filter((p) => p === '/streamers')).toHaveLength(2);
    expect(paths().filter((p) => p === '/botting/bulk')).toHaveLength(3);
    const byMint = new Map(sim.data.tokens.map((t) => [t.mintId, t]));
    const verdicts = [0, 50, 100].map((at) =>
      raw('/botting/bulk', { mintIds: mintIds.slice(at, at + 50) }).then(
        (b) =>
          (b.data as { results: Array<{ mintId: string; confidenceLevel: string; confidence: number }> })
            .results,
      ),
    );
    const verdict = new Map((await Promise.all(verdicts)).flat().map((r) => [r.mintId, r]));
    // Every live token with a verdict, whatever its level's name: none is assumed beyond what the data shows.
    const expected = mintIds
      .map((m) => byMint.get(m))
      .filter((t) => t?.isCurrentlyLive && verdict.has(t.mintId))
      .map((t) => ({
        mintId: t?.mintId,
        coinSymbol: t?.coinSymbol,
        currentViewers: t?.currentViewers,
        level: verdict.get(t?.mintId ?? '')?.confidenceLevel,
        confidence: verdict.get(t?.mintId ?? '')?.confidence,
      }))
      .sort(
        (a, b) =>
          (b.confidence ?? 0) - (a.confidence ?? 0) || (b.currentViewers ?? 0) - (a.currentViewers ?? 0),
      );
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(expected.map((r) => r.level)).size).toBeGreaterThan(1);
    expect(sc(out).value).toEqual(expected);
    // Records read as a table in the text.
    expect(out.text).toMatch(/mintId\s+coinSymbol\s+currentViewers\s+level\s+confidence/);
  });
  it('the botting example keeps every level an upstream names (HIGH, ELEVATED, NOMINAL, INCONCLUSIVE), none assumed', async () => {
    const mintIds = ids(sim, 'platform_a', 40).filter((m) => sim.data.byMint.get(m)?.isCurrentlyLive);
    const levels = ['NOMINAL', 'ELEVATED', 'HIGH', 'INCONCLUSIVE'];
    const picked = mintIds.slice(0, 4);
    expect(picked).toHaveLength(4);
    sim.injectFor(/botting/, {
      status: 200,
      body: {
        success: true,
        data: {
          results: picked.map((mintId, i) => ({
            mintId,
            confidenceLevel: levels[i],
            confidence: [0.1, 0.6, 0.9, 0.3][i],
            score: i,
            reasons: [],
          })),
          errors: [],
        },
      },
    });
    const out = await run(withInputs({ mintIds: picked }, EXAMPLES.bottedLive));
    expect(out.isError, out.text).toBe(false);
    expect((sc(out).value as Array<{ level: string }>).map((r) => r.level)).toEqual([
      'HIGH',
      'ELEVATED',
      'INCONCLUSIVE',
      'NOMINAL',
    ]);
  });
});

describe('the api', () => {
  once.each([
    ['an id of the wrong length', 'api.get_creator_fees({ tokenAddresses: ["short"] })', 'tokenAddresses[0]'],
    [
      'an unknown parameter',
      'api.list_streamers({ tokenAddresses: IDS, sortby: "viewers" })',
      'unknown parameter',
    ],
    [
      'a contradictory pair',
      'api.get_streamer_core({ mint: IDS[0], chain: "chain_a", platform: "platform_b" })',
      'contradict',
    ],
    ['hours out of range', 'api.analyze_botting({ mintIds: IDS, hours: 500 })', 'hours'],
    ['more than 500 ids', 'api.analyze_botting({ mintIds: MANY })', 'mintIds'],
  ])('%s: the call throws the argument error and nothing is sent', async (_, expr, named) => {
    const IDS = ids(sim, 'platform_a', 3);
    const code = withInputs(
      { IDS },
      `const MANY = Array.from({ length: 501 }, (_, i) => "M".repeat(40) + String(i).padStart(4, "0"));
try { await ${expr}; return 'sent'; } catch (e) { return String(e.message); }`,
    );
    const out = await run(code);
    expect(out.isError, out.text).toBe(false);
    const message = sc(out).value as string;
    expect(message).toContain('Invalid arguments for');
    expect(message).toContain(named);
    expect(message).toContain('[error: invalid_arguments · final]');
    expect(sim.requests).toHaveLength(0);
  });

  it('reports progress per upstream request, not per api call', async () => {
    const tokenAddresses = ids(sim, 'platform_a', 120);
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> =
      [];
    await h.client.callTool(
      {
        name: 'run_analysis',
        arguments: {
          code: withInputs(
            { tokenAddresses },
            'await api.get_creator_fees({ tokenAddresses });\nawait api.check_health();\nreturn 1;',
          ),
        },
      },
      { onprogress: (p) => progress.push(p) },
    );
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(progress.map((p) => p.message)).toEqual([
      'upstream request 1 (/stats/creator-fees/bulk)',
      'upstream request 2 (/stats/creator-fees/bulk)',
      'upstream request 3 (/health)',
    ]);
    expect(progress.every((p) => p.total === 200)).toBe(true);
  });

  once('positional arguments are answered with the named parameters', async () => {
    const [mint] = ids(sim, 'platform_a', 1);
    const out = await run(
      withInputs({ mint }, 'try { await api.get_streamer_core(mint); } catch (e) { return e.message; }'),
    );
    expect(sc(out).value).toMatch(
      /^api\.get_streamer_core takes one object of named parameters \(mint, chain, platform\)/,
    );
    expect(sim.requests).toHaveLength(0);
  });

  once('an unknown api function is named with the real ones, closest first', async () => {
    const out = await run('return await api.list_streamer({})');
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/list_streamers/);
    expect(sim.requests).toHaveLength(0);
  });

  once("defaults and inference are the tools': platform_b alone means chain_b", async () => {
    const [mint] = ids(sim, 'platform_b', 1);
    const out = await run(
      withInputs(
        { mint },
        'const r = await api.get_streamer_core({ mint, platform: "platform_b" }); return r.data.platform;',
      ),
    );
    expect(sc(out).value).toBe('platform_b');
    expect(sim.requests[0]?.query).toMatchObject({ chain: 'chain_b', platform: 'platform_b' });
  });

  once(
    'analyze_botting on chain_b marks platform_c tokens as not covered, adding a field and renaming nothing',
    async () => {
      const onC = ids(sim, 'platform_c', 2);
      const onB = ids(sim, 'platform_b', 2);
      const code = withInputs(
        { mintIds: [...onB, ...onC] },
        'const b = await api.analyze_botting({ mintIds, chain: "chain_b" });\nreturn [...b.data.results, ...b.data.errors].map((r) => ({ mintId: r.mintId, error: r.error ?? null, coverage: r.coverage ?? null }));',
      );
      const out = await run(code);
      expect(out.isError, out.text).toBe(false);
      const rows = sc(out).value as Array<{ mintId: string; error: string | null; coverage: string | null }>;
      const expected = (
        await raw('/botting/bulk', { mintIds: [...onB, ...onC], chain: 'chain_b', platform: 'platform_b' })
      ).data as { errors: Array<{ mintId: string; error: string }> };
      for (const id of onC) {
        const row = rows.find((r) => r.mintId === id);
        // The upstream's own error text, kept; the coverage beside it.
        expect(row?.error).toBe(expected.errors.find((e) => e.mintId === id)?.error);
        expect(row?.coverage).toBe(NOT_COVERED);
      }
      for (const id of onB) expect(rows.find((r) => r.mintId === id)?.coverage).toBeNull();
      // The lookup is one /streamers request, counted in the run's requests.
      expect(paths().filter((p) => p === '/streamers')).toHaveLength(1);
      expect(sc(out).calls).toBe(2);
      // On chain_a nothing is looked up.
      sim.reset();
      await run(
        withInputs({ mintIds: ids(sim, 'platform_a', 2) }, 'return await api.analyze_botting({ mintIds });'),
      );
      expect(paths()).toEqual(['/botting/bulk']);
    },
  );

  it("an upstream failure throws the tool's tagged message, which the program may catch", async () => {
    sim.injectFor(/health/, { status: 503 }, { status: 503 }, { status: 503 });
    const out = await run('try { await api.check_health(); } catch (e) { return e.message; }');
    expect(out.isError, out.text).toBe(false);
    expect(sc(out).value).toMatch(/\[error: upstream_error · retryable\]/);
    // Retried as for the tools: three attempts, one request counted.
    expect(sim.requests).toHaveLength(3);
    expect(sc(out).calls).toBe(1);
  });
});

describe('limits', () => {
  once('an endless loop ends with the time limit, and another call is answered meanwhile', async () => {
    const looping = run('console.log("started");\nwhile (true) {}', quick);
    let ended = false;
    void looping.finally(() => {
      ended = true;
    });
    const health = await call(quick.client, 'check_health');
    expect(health.isError).toBe(false);
    // Answered while the program loops, not after it was stopped.
    expect(ended).toBe(false);
    const out = await looping;
    expect(out.isError).toBe(true);
    expect(out.text).toContain('3,000 ms');
    expect(out.text).toContain('STREAMER_ANALYTICS_ANALYSIS_TIMEOUT_MS');
    expect(out.text).toContain('0 upstream requests');
    expect(out.text).toContain('"started"');
    expect(out.text).toContain('[error: analysis_timeout · final]');
  });

  once('a memory bomb ends with the memory limit', async () => {
    const out = await run('const a = [];\nwhile (true) a.push("x".repeat(1e5) + a.length);');
    expect(out.isError).toBe(true);
    expect(out.text).toContain('64 MiB');
    expect(out.text).toContain('[error: analysis_memory · final]');
    // The next run is served as usual.
    expect(sc(await run('return 1 + 1;')).value).toBe(2);
  });

  it('a request flood ends at 200 upstream requests, counted per request, not per call', async () => {
    const out = await run(
      'let n = 0;\nconsole.log("flooding");\nfor (;;) { await api.check_health(); n++; if (n % 50 === 0) console.log(n); }',
    );
    expect(out.isError).toBe(true);
    expect(out.text).toContain('200 upstream requests');
    expect(out.text).toContain('STREAMER_ANALYTICS_ANALYSIS_MAX_REQUESTS');
    expect(out.text).toContain('"200"');
    expect(out.text).toContain('[error: analysis_request_limit · final]');
    expect(sim.requests).toHaveLength(200);
  });

  once('one call of 500 ids counts as its 5 upstream requests', async () => {
    const tokenAddresses = ids(sim, 'platform_a', 100);
    const out = await run(
      withInputs(
        { tokenAddresses },
        `const many = [0, 1, 2, 3, 4].flatMap((k) => tokenAddresses.map((a) => a.slice(0, 43) + k));
const r = await api.get_creator_fees({ tokenAddresses: many });
return r.summary;`,
      ),
    );
    expect(out.isError, out.text).toBe(false);
    expect(sc(out).calls).toBe(5);
    expect(sim.requests).toHaveLength(5);
    expect((sc(out).value as Record<string, number>).totalRequested).toBe(500);
  });

  once('a huge answer is cut to whole rows, valid JSON, with how to ask for less', async () => {
    const out = await run('return Array.from({ length: 20000 }, (_, i) => ({ i, name: "row " + i }));');
    expect(out.isError).toBe(false);
    const value = sc(out).value as unknown[];
    expect(value.length).toBeGreaterThan(10);
    expect(value.length).toBeLessThan(20_000);
    expect(value.at(-1)).toEqual({ i: value.length - 1, name: `row ${value.length - 1}` });
    expect(sc(out).truncated).toMatch(/Showing [\d,]+ of 20,000 rows .*aggregate first/);
    expect(out.text).toMatch(/Showing [\d,]+ of 20,000 rows/);
  });

  once(
    'a cut answer says in its headline how many rows are shown of how many, in both channels',
    async () => {
      const out = await run('return Array.from({ length: 5000 }, (_, i) => ({ i, name: "row " + i }));');
      expect(out.isError).toBe(false);
      const shown = (sc(out).value as unknown[]).length;
      expect(shown).toBeLessThan(5_000);
      const headline = `Analysis answer: ${shown.toLocaleString('en-US')} of 5,000 rows shown, cut to fit the result budget (0 upstream requests)`;
      expect(out.text.split('\n')[0]).toBe(headline);
      expect(sc(out).summary).toBe(headline);
      // The note at the end stays.
      expect(sc(out).truncated).toMatch(/^Showing [\d,]+ of 5,000 rows/);
      // A list field of a record that is cut: the record's gist, then the rows of that field.
      const field = await run(
        'return { note: "x", items: Array.from({ length: 5000 }, (_, i) => ({ i })) };',
      );
      expect(sc(field).summary).toMatch(/^Analysis answer: 2 fields; [\d,]+ of 5,000 rows of "items" shown/);
      // Not cut: the count alone.
      expect(sc(await run('return [{ a: 1 }, { a: 2 }];')).summary).toBe(
        'Analysis answer: 2 rows (0 upstream requests)',
      );
    },
  );

  once(
    '65,000 rows each with a field of its own render in time linear in the answer, naming a few of the fields left out',
    async () => {
      // 0.9 MB, under the 1 MiB limit: the column list was built with a linear search per key, and the whole
      // answer rendered at every step of the fit (7 to 33 s of the main thread, which every caller shares).
      // Timed against a fifth of the rows in the same run, so that a loaded machine slows both: linear time
      // takes at most 5 times as long, quadratic 25 times.
      const timed = async (rows: number) => {
        const started = performance.now();
        const out = await run(`return Array.from({ length: ${rows} }, (_, i) => ({ ["c" + i]: 1 }));`);
        return { out, ms: performance.now() - started };
      };
      const fifth = await timed(13_000);
      const { out, ms } = await timed(65_000);
      expect(fifth.out.isError, fifth.out.text).toBe(false);
      expect(out.isError, out.text).toBe(false);
      expect(ms, `65,000 rows in ${Math.round(ms)} ms, 13,000 in ${Math.round(fifth.ms)} ms`).toBeLessThan(
        12 * fifth.ms,
      );
      expect(out.text).toMatch(
        /\(([\d,]+) more fields in structuredContent: c12, c13, .*, and [\d,]+ more\)/,
      );
      expect(Math.max(...out.text.split('\n').map((l) => l.length))).toBeLessThan(1_000);
      expect(sc(out).summary).toMatch(/^Analysis answer: [\d,]+ of 65,000 rows shown/);
    },
    // Two answers, of 0.9 and 0.2 MB: 16 s on a loaded machine.
    60_000,
  );

  once('an answer past 1 MiB ends with its error', async () => {
    const out = await run('return "x".repeat(3 * 1024 * 1024);');
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/1 MiB/);
  });
});

describe('what a program leaves behind', () => {
  it('requests under way when it ends are ended, and those still queued never sent', async () => {
    sim.injectFor(/health/, ...Array.from({ length: 20 }, () => ({ hang: true }) as const));
    // Twenty requests that hang, then one more that waits behind them: the run ends at its time limit with
    // some requests under way upstream and the rest still queued.
    const out = await run(
      'for (let i = 0; i < 20; i++) api.check_health().catch(() => {});\nawait api.get_analytics_overview({});',
      quick,
    );
    expect(out.text).toContain('[error: analysis_timeout');
    // The ones that reached the upstream are abandoned at once (they would hang until their timeout).
    await vi.waitFor(
      () => {
        expect(sim.requests.length).toBeGreaterThan(0);
        expect(sim.abandoned).toBe(sim.requests.length);
      },
      { timeout: 5_000, interval: 10 },
    );
    const sent = sim.requests.length;
    expect(sent).toBeLessThan(20);
    expect((await call(h.client, 'get_analytics_overview')).isError).toBe(false);
    expect(sim.requests).toHaveLength(sent + 1);
  });

  once(
    'refused calls are cheap and bounded: a long id list is refused before its ids are checked, and a loop of refusals ends the run',
    async () => {
      const out = await run(
        'const many = Array.from({ length: 2000 }, (_, k) => "b" + k);\nfor (let i = 0; ; i++) {\n  try { await api.list_streamers({ tokenAddresses: many }); }\n  catch (e) { if (i === 0) console.log(e.message); }\n}',
      );
      expect(out.isError).toBe(true);
      expect(out.text).toContain('tokenAddresses');
      expect(out.text).toContain('[error: analysis_refused_limit · final]');
      expect(sim.requests).toHaveLength(0);
    },
  );

  once(
    'many unknown keys are refused in the sandbox, a few by the tool, each error naming the first five',
    async () => {
      const out = await run(
        [
          'const many = {}; for (let i = 0; i < 5000; i++) many["k" + i] = 0;',
          'const few = {}; for (let i = 0; i < 12; i++) few["k" + i] = 0;',
          'const messages = [];',
          'for (const args of [many, few]) { try { await api.check_health(args); } catch (e) { messages.push(e.message); } }',
          'return messages;',
        ].join('\n'),
      );
      expect(out.isError, out.text).toBe(false);
      const [many, few = ''] = sc(out).value as string[];
      expect(many).toBe(
        'api.check_health: 5000 named parameters ("k0", "k1", "k2", "k3", "k4", …); it takes at most 16, named in its line of the description. Nothing was sent.',
      );
      expect(few).toContain('unknown parameter "k0", "k1", "k2", "k3", "k4", and 7 more; parameters are:');
      expect(few.length).toBeLessThan(500);
      expect(sim.requests).toHaveLength(0);
    },
  );

  it('an api call that fails unawaited is named in the log, not dropped', async () => {
    const out = await run('api.check_health({ bogus: 1 });\nawait api.check_health();\nreturn 1;');
    expect(out.isError, out.text).toBe(false);
    const logs = sc(out).logs as string[];
    expect(logs.at(-1)).toMatch(
      /^1 api call failed and was never awaited \(its error is lost unless awaited or caught\); the first: Invalid arguments for check_health .*unknown parameter "bogus"/,
    );
    expect(out.text).toContain('1 api call failed and was never awaited');
    // One awaited and caught is not.
    const read = await run('const p = api.check_health({ bogus: 1 });\ntry { await p; } catch {}\nreturn 1;');
    expect(sc(read).logs).toBeUndefined();
  });

  once('an answer nested past 64 levels ends with its own error, not an internal one', async () => {
    const out = await run('let a = 1;\nfor (let i = 0; i < 5000; i++) a = { a };\nreturn a;');
    expect(out.isError).toBe(true);
    expect(out.text).toContain("The program's answer is nested more than 64 levels deep");
    expect(out.text).toContain('[error: analysis_answer_too_deep · final]');
  });
});

describe.runIf(FIRST_CHANNEL)('the sandbox', () => {
  it('each run gets a fresh context', async () => {
    await run('globalThis.leak = 42; Array.prototype.leaky = 1; return 1;');
    const out = await run('return [typeof leak, typeof [].leaky];');
    expect(sc(out).value).toEqual(['undefined', 'undefined']);
  });

  it('sees nothing of the host', async () => {
    const out = await run(
      'return ["process", "require", "fetch", "module", "Buffer", "setTimeout", "WebAssembly", "XMLHttpRequest"].map((n) => n + ":" + typeof globalThis[n]);',
    );
    expect(sc(out).value).toEqual(
      ['process', 'require', 'fetch', 'module', 'Buffer', 'setTimeout', 'WebAssembly', 'XMLHttpRequest'].map(
        (n) => `${n}:undefined`,
      ),
    );
    const viaConstructor = await run(
      'return (function () { return this; }).constructor("return typeof process")();',
    );
    expect(sc(viaConstructor).value).toBe('undefined');
    const dynamic = await run('return await import("node:fs");');
    expect(dynamic.isError).toBe(true);
  });

  it('a text the program wrote reads as its lines', async () => {
    const out = await run(
      'return ["Top 3 by viewers:", "1. AAA 2,525", "2. BBB 1,469", "3. CCC 161"].join("\\n");',
    );
    expect(out.text.split('\n')).toEqual([
      'Analysis answer: a text of 4 lines (0 upstream requests)',
      '',
      'Top 3 by viewers:',
      '1. AAA 2,525',
      '2. BBB 1,469',
      '3. CCC 161',
    ]);
    expect(sc(out).value).toBe('Top 3 by viewers:\n1. AAA 2,525\n2. BBB 1,469\n3. CCC 161');
  });

  it('a number named as a time reads as its ISO time, never grouped; Infinity and NaN as themselves', async () => {
    const out = await run(
      'return { first: { sampled_at: 1794572410, viewers: 1794572410 }, rows: [{ startTime: 1794572410000, year: 2026 }] };',
    );
    expect(out.text).toContain('first.sampled_at: 1794572410 (2026-11-13T');
    expect(out.text).toContain('first.viewers: 1,794,572,410');
    expect(out.text).toContain('1794572410000 (2026-11-13T');
    expect(out.text).not.toContain('1,794,572,410,000');
    expect(out.text).not.toContain('2,026');
    const infinite = await run('return 1 / 0;');
    expect(sc(infinite).summary).toBe('Analysis answer: Infinity (0 upstream requests)');
    expect(sc(infinite).value).toBe('Infinity');
    expect(sc(await run('console.log(0 / 0); return { r: 0 / 0 };')).logs).toEqual(['NaN']);
  });

  it('float noise of the program prints at 15 significant digits; upstream numbers exactly', async () => {
    const out = await run('return { noise: 0.1 + 0.2, third: 1 / 3, exact: 287.796 };');
    expect(sc(out).value).toEqual({ noise: 0.3, third: 0.333333333333333, exact: 287.796 });
    expect(out.text).toContain('noise: 0.3');
  });
});

describe.runIf(FIRST_CHANNEL)("errors carry the program's own line numbers", () => {
  it('a syntax error (TypeScript) names its line and says plain JavaScript', async () => {
    const out = await run('const a = 1;\nconst b: number = 2;\nreturn a + b;');
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/line 2/);
    expect(out.text).toContain('plain JavaScript');
    expect(out.text).toContain('[error: analysis_syntax · final]');
  });

  it('an uncaught exception names its line and column, and the log', async () => {
    const out = await run('console.log("step 1");\nconst rows = [];\n\n  rows[0].mintId;');
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/line 4, column \d+/);
    expect(out.text).toContain('TypeError');
    expect(out.text).toContain('step 1');
  });

  it('a property read of undefined says to inspect the data first', async () => {
    const out = await run('const row = { a: 1 };\nreturn row.foo.bar;');
    expect(out.isError).toBe(true);
    expect(out.text).toContain("TypeError: cannot read property 'bar' of undefined");
    expect(out.text).toContain('inspect the data first, e.g. return Object.keys(row)');
  });

  it('a missing global names the ones that exist', async () => {
    const out = await run('\nreturn await fetch("http://127.0.0.1/");');
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/line 2/);
    expect(out.text).toContain('In scope: api, sum, mean');
  });
});

describe('cancellation', () => {
  it('stops the program and its requests', async () => {
    // The third request hangs; a program that went on would send more after its call failed.
    sim.injectFor(/health/, { delayMs: 0 }, { delayMs: 0 }, { hang: true });
    const controller = new AbortController();
    const pending = h.client.callTool(
      {
        name: 'run_analysis',
        arguments: { code: 'for (;;) { try { await api.check_health(); } catch {} }' },
      },
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(sim.requests).toHaveLength(3), { timeout: 10_000, interval: 5 });
    controller.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 5_000, interval: 10 });
    // Another call goes through; the cancelled program sent nothing more meanwhile.
    expect((await call(h.client, 'check_health')).isError).toBe(false);
    expect(sim.requests).toHaveLength(4);
  });
});

onceAll('an upstream that echoes the key', () => {
  const KEY = 'sk/live-9f8e7d6c5b4a3f2e';
  let hostile: Simulator;
  let hh: Harness;
  beforeAll(async () => {
    hostile = await startSimulator({ apiKey: KEY });
    hh = await connect(hostile);
  });
  afterAll(async () => {
    await hh.close();
    await hostile.close();
  });

  it('reaches the program redacted, in a reason and in a failure', async () => {
    const [mint] = ids(hostile, 'platform_a', 1);
    hostile.inject({
      raw: JSON.stringify({
        success: true,
        data: {
          results: [
            {
              mintId: mint,
              confidence: 0.9,
              confidenceLevel: 'HIGH',
              score: 80,
              reasons: [`key ${KEY} seen`],
            },
          ],
          errors: [],
          summary: {},
        },
      }),
    });
    hostile.inject({ raw: `{"success":false,"error":"bad key ${KEY}"}`, status: 401 });
    const code = withInputs(
      { mint },
      `const r = await api.analyze_botting({ mintIds: [mint] });
const seen = r.data.results[0].reasons[0];
let failed;
try { await api.check_health(); } catch (e) { failed = e.message; }
console.log(seen, failed);
return { seen, failed, hasKey: JSON.stringify([seen, failed]).includes(${JSON.stringify(KEY.slice(3))}) };`,
    );
    const out = await run(code, hh);
    expect(out.isError, out.text).toBe(false);
    const value = sc(out).value as { seen: string; failed: string; hasKey: boolean };
    expect(value.hasKey).toBe(false);
    expect(value.seen).toBe('key [redacted] seen');
    expect(value.failed).toContain('[redacted]');
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(SIM_KEY).not.toBe(KEY);
  });
});
