// Both channels carry the same facts: a reader of the text alone (Claude Desktop) and a reader of
// structuredContent alone (Claude Code) learn the same continuation, counts, ids and labels. Through the
// real server over the simulator.
// Last, the matrix of the ways to reach the server: each protocol era (a v2 client on 2026-07-28, a v1
// client on the 2025 handshake) over each transport (stdio, --http), each against both of the simulator's
// dialects (src/simulator/dialect.ts). The rest of the suite checks its facts once, over modern-stdio.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPS_CAPABILITIES } from '../../scripts/host/harness.js';
import type { DialectName } from '../../src/simulator/dialect.js';
import type { Simulator } from '../../src/simulator/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import {
  type CallOutcome,
  CHANNELS,
  call,
  connect,
  type Harness,
  ids,
  sc,
  startSim,
  UNKNOWN_ID,
  useSimulator,
} from '../helpers.js';

let sim: Simulator;
let h: Harness;
useSimulator((s, harness) => {
  sim = s;
  h = harness;
});

/** The text's `Next:` line, without its label; undefined when there is none. */
const nextLine = (out: CallOutcome) => /^Next: (.*)$/m.exec(out.text)?.[1];

/** Every next step or continuation said in one channel is said, the same, in the other. */
function sameNext(out: CallOutcome) {
  expect(sc(out).next).toBe(nextLine(out));
}

describe('next steps and continuations, in both channels', () => {
  it('get_streamer_sessions: a full page says page 2 may hold more in structuredContent too', async () => {
    const [m] = ids(sim, 'platform_a', 1) as [string];
    const out = await call(h.client, 'get_streamer_sessions', { mint: m, limit: 2 });
    expect(nextLine(out)).toMatch(
      /^page 2 may hold more \(this page is full\); limit 100 .* run_analysis totals a whole history/,
    );
    sameNext(out);
  });

  it('every tool that proposes a next step says it in both channels', async () => {
    const a = ids(sim, 'platform_a', 30);
    const outs = await Promise.all([
      call(h.client, 'list_streamers', { tokenAddresses: a, limit: 5 }),
      call(h.client, 'get_streamer_core', { mint: a[0] }),
      call(h.client, 'analyze_botting', { mintIds: a.slice(0, 5) }),
      call(h.client, 'investigate_botting', { mintIds: a }),
      call(h.client, 'get_streamer_sessions', { mint: a[0], page: 50 }),
    ]);
    for (const out of outs) {
      expect(nextLine(out), out.text).toBeDefined();
      sameNext(out);
    }
  });
});

describe('investigate_botting: where the rows stand, cut or not', () => {
  it('says all N shown when nothing is cut, and the end of the ranking from an offset', async () => {
    const a = ids(sim, 'platform_a', 12);
    const all = await call(h.client, 'investigate_botting', { mintIds: a });
    expect(all.text).toContain('All 12 ranked findings (most suspicious first) shown.');
    expect(sc(all).shown).toEqual({ from: 1, to: 12, of: 12 });
    const rest = await call(h.client, 'investigate_botting', { mintIds: a, offset: 5 });
    expect(rest.text).toContain(
      'Showing 6–12 of 12 ranked findings (most suspicious first): the end of the ranking.',
    );
    expect(sc(rest).shown).toEqual({ from: 6, to: 12, of: 12 });
    const past = await call(h.client, 'investigate_botting', { mintIds: a, offset: 20 });
    expect(past.text).toContain('offset 20 is past the end: 12 match, use an offset below 12');
    expect(sc(past).shown).toEqual({ from: null, to: null, of: 12 });
  });

  it('when cut, structuredContent has the offset to continue from, the one the note names', async () => {
    const small = await connect(sim, { budgetChars: 5_000 });
    try {
      const out = await call(small.client, 'investigate_botting', { mintIds: ids(sim, 'platform_a', 60) });
      const note = String(sc(out).truncated);
      const [, to, of, offset] = /^Showing 1–(\d+) of (\d+) .* Continue with offset (\d+) /.exec(note) ?? [];
      expect(sc(out).shown).toEqual({ from: 1, to: Number(to), of: Number(of), nextOffset: Number(offset) });
    } finally {
      await small.close();
    }
  });

  it('the flagged-and-live line counts; it lists no ids against the table order', async () => {
    const a = ids(sim, 'platform_a', 120);
    const out = await call(h.client, 'investigate_botting', { mintIds: a, sortBy: 'viewers' });
    const counts = sc(out).counts as { flaggedLive: number; flaggedLiveViewers: number };
    expect(counts.flaggedLive).toBeGreaterThan(0);
    const line = out.text.split('\n').find((l) => l.startsWith('Flagged HIGH and live now:')) ?? '';
    expect(line).toBe(
      `Flagged HIGH and live now: ${counts.flaggedLive} (${counts.flaggedLiveViewers.toLocaleString('en')} viewers)`,
    );
    expect(nextLine(out)).toContain(`levels ["HIGH"] with liveOnly true lists the ${counts.flaggedLive}`);
    sameNext(out);
  });
});

describe('the text never sends its reader to a channel it cannot see', () => {
  it('mcap, shortened ids and failures point to what a text reader can do', async () => {
    const a = ids(sim, 'platform_a', 40);
    const b = ids(sim, 'platform_b', 30);
    const outs = await Promise.all([
      call(h.client, 'investigate_botting', { mintIds: [...a, ...b] }),
      call(h.client, 'list_streamers', { tokenAddresses: [...a, ...b] }),
      call(h.client, 'analyze_botting', { mintIds: b }),
    ]);
    for (const out of outs) expect(out.text).not.toContain('structuredContent');
    expect(outs[0]?.text).toContain('mcap abbreviated (k, M, B); response_format "detailed" shows it exact.');
  });

  it('detailed shows the market cap exact', async () => {
    const a = ids(sim, 'platform_a', 5);
    const out = await call(h.client, 'investigate_botting', { mintIds: a, response_format: 'detailed' });
    const rows = (sc(out).items as Array<{ streamer: { tokenMarketCap: number } }>).map(
      (r) => r.streamer.tokenMarketCap,
    );
    for (const cap of rows) expect(out.text).toContain(cap.toLocaleString('en'));
    expect(out.text).not.toContain('mcap abbreviated');
  });
});

describe('ids unknown on the chain asked', () => {
  it('analyze_botting: the count, the ids shortened, and the other chain to try, in both channels', async () => {
    const b = ids(sim, 'platform_b', 30);
    const out = await call(h.client, 'analyze_botting', { mintIds: b });
    const hint =
      "none of the 30 ids sent was found with chain chain_a, platform platform_a (no other chain or platform was asked); they may be another platform's or chain's tokens: try analyze_botting with chain chain_b, platform platform_b.";
    expect(out.text).toContain(`"Token not found" (30): ${b[0]?.slice(0, 6)}…`);
    expect(out.text).toContain(`Hint: ${hint}`);
    expect(sc(out).errors).toEqual([{ error: 'Token not found', count: 30, mintIds: b, hint }]);
  });

  it('get_streamers_analytics: the same hint through the same machinery (chain all where it is taken)', async () => {
    const b = ids(sim, 'platform_b', 4);
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: b });
    expect(out.text).toContain(
      'try get_streamers_analytics with chain all, platform all, or get_streamers_analytics with chain chain_b, platform all.',
    );
    expect((sc(out).errors as Array<{ hint?: string }>)[0]?.hint).toContain('chain chain_b');
  });

  it('a token of another platform of the same chain: that platform is proposed first, and no chain is said to be searched', async () => {
    const c = ids(sim, 'platform_c', 1);
    const out = await call(h.client, 'get_streamers_analytics', {
      mintIds: c,
      chain: 'chain_b',
      platform: 'platform_b',
    });
    const hint = (sc(out).errors as Array<{ hint?: string }>)[0]?.hint ?? '';
    expect(hint).toMatch(/^the id sent was not found with chain chain_b, platform platform_b /);
    expect(hint).toContain(': try get_streamers_analytics with chain chain_b, platform all, or ');
    expect(hint).not.toContain('known on chain_b');
    expect(out.text).toContain(`Hint: ${hint}`);
    // The pair proposed first finds it.
    const again = await call(h.client, 'get_streamers_analytics', {
      mintIds: c,
      chain: 'chain_b',
      platform: 'all',
    });
    expect(again.text).not.toContain('Failed (');
  });

  it('a few unknown ids among many known ones get no hint', async () => {
    const out = await call(h.client, 'analyze_botting', {
      mintIds: [...ids(sim, 'platform_a', 5), ...ids(sim, 'platform_b', 1)],
    });
    expect(out.text).toContain('"Token not found" (1)');
    expect(out.text).not.toContain('Hint:');
  });

  it('list_streamers with none found: no empty table, ids shortened, the other chain proposed', async () => {
    const b = ids(sim, 'platform_b', 30);
    const out = await call(h.client, 'list_streamers', { tokenAddresses: b });
    const lines = out.text.split('\n');
    expect(lines[0]).toBe('Streamers: none of the 30 requested addresses found on chain_a / platform_a');
    expect(out.text).not.toContain('page 1 of 0');
    expect(out.text).not.toMatch(/^mint\s+name/m);
    expect(out.text).not.toContain(b[0]);
    expect(out.text).toContain(`${b[0]?.slice(0, 6)}…`);
    expect(nextLine(out)).toBe(
      "none of the 30 ids sent was found with chain chain_a, platform platform_a (no other chain or platform was asked); they may be another platform's or chain's tokens: try list_streamers with chain all, platform all, or list_streamers with chain chain_b, platform all.",
    );
    sameNext(out);
    expect(sc(out).notFound).toEqual(b);
    expect(sc(out).notFoundCount).toBe(30);
    // The whole answer is short: no wall of whole ids.
    expect(out.text.length).toBeLessThan(800);
  });

  it('list_streamers over several pages: the missing count in both channels, and how to see which', async () => {
    const a = ids(sim, 'platform_a', 10);
    const b = ids(sim, 'platform_b', 2);
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [...a, ...b], limit: 5 });
    expect(out.text).toContain('2 of 12 requested addresses have no streamer data on chain_a / platform_a.');
    expect(nextLine(out)).toBe('page 2. limit 12 (all on one page) names the 2 missing addresses.');
    sameNext(out);
    expect(sc(out).notFoundCount).toBe(2);
  });
});

describe('reasons in full when there is room', () => {
  const reasons = ['one', 'two', 'three', 'four'].map((w) => `reason ${w} of a botted stream`);
  const finding = (mintId: string) => ({
    mintId,
    confidenceLevel: 'HIGH',
    confidence: 0.9,
    score: 80,
    reasons,
  });

  it('analyze_botting on one token shows every reason, in both channels', async () => {
    const [m] = ids(sim, 'platform_a', 1) as [string];
    sim.inject({ status: 200, body: { success: true, data: { results: [finding(m)], errors: [] } } });
    const out = await call(h.client, 'analyze_botting', { mintIds: [m] });
    for (const r of reasons) expect(out.text).toContain(`"${r}"`);
    expect(out.text).not.toContain('more');
    expect((sc(out).results as Array<{ reasons: string[] }>)[0]?.reasons).toEqual(reasons);
  });

  it('investigate_botting with few rows shows every reason', async () => {
    const a = ids(sim, 'platform_a', 3);
    sim.injectFor((r) => r.path === '/botting/bulk', {
      status: 200,
      body: { success: true, data: { results: a.map(finding), errors: [] } },
    });
    const out = await call(h.client, 'investigate_botting', { mintIds: a, hours: 7 });
    expect(out.text).not.toMatch(/\+\d+ more/);
    for (const r of reasons) expect(out.text).toContain(`"${r}"`);
  });
});

describe('get_streamers_analytics: computed figures told from the upstream own', () => {
  it('labels the series figures as computed and the other fields as the upstream own, in both channels', async () => {
    const [m] = ids(sim, 'platform_a', 1) as [string];
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: [m], points: 20 });
    const legend = sc(out).legend as string;
    expect(legend).toMatch(
      /this server's, over the points returned; every other field \(a peak or an average the upstream gives, say\) is the upstream's own/,
    );
    expect(out.text).toContain(legend);
    expect(out.text).toMatch(/dataPoints\[\]\.viewers=computed over 20 points: .*min [\d,.]+ at 20\d\d-/);
  });
});

// ---- the channel matrix ----

/** A representative call of every tool the server lists to a plain client, in the registry's order. */
const representative = (sim: Simulator): Array<[string, Record<string, unknown>]> => {
  const a = ids(sim, 'platform_a', 12);
  return [
    ['list_streamers', { tokenAddresses: a, limit: 5 }],
    ['get_streamer_core', { mint: a[0] }],
    ['get_streamer_sessions', { mint: a[0], limit: 5 }],
    ['get_streamers_analytics', { mintIds: a.slice(0, 3), points: 20 }],
    ['get_streamers_complete', { mintIds: a.slice(0, 3) }],
    ['analyze_botting', { mintIds: a }],
    ['get_creator_fees', { tokenAddresses: a }],
    ['get_analytics_overview', {}],
    ['get_activity_heatmap', {}],
    ['check_health', {}],
    ['investigate_botting', { mintIds: a }],
    [
      'run_analysis',
      {
        code: `const r = await api.get_streamers_complete({ mintIds: ${JSON.stringify(a.slice(0, 2))} }); return { n: r.data.results.length };`,
      },
    ],
  ];
};

/** The first channel's answers per dialect: every other channel must answer the same, byte for byte. */
const answersOf = new Map<DialectName, Map<string, string>>();
const validator = new AjvJsonSchemaValidator();

describe.each(CHANNELS.flatMap((channel) => (['a', 'b'] as const).map((dialect) => ({ channel, dialect }))))(
  'the channel matrix: $channel against dialect $dialect',
  ({ channel, dialect }) => {
    let msim: Simulator;
    let plain: Harness;
    let apps: Harness;
    beforeAll(async () => {
      msim = await startSim(dialect);
      [plain, apps] = await Promise.all([
        connect(msim, { channel }),
        connect(msim, { channel, capabilities: APPS_CAPABILITIES }),
      ]);
    });
    beforeEach(() => msim?.reset());
    afterAll(async () => {
      await Promise.all([plain?.close(), apps?.close()]);
      await msim?.close();
    });

    it('lists every tool, each with an outputSchema; an MCP Apps client also gets the evidence tool', async () => {
      const [bare, rich] = await Promise.all([plain.client.listTools(), apps.client.listTools()]);
      expect(bare.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      for (const t of bare.tools) expect(t.outputSchema?.type, t.name).toBe('object');
      expect(rich.tools.map((t) => t.name)).toContain('get_token_evidence');
    });

    it('every tool answers; its structuredContent meets its outputSchema; every channel answers the same', async () => {
      const { tools } = await plain.client.listTools();
      const calls = representative(msim);
      const outs = await Promise.all(calls.map(([name, args]) => call(plain.client, name, args)));
      const seen = answersOf.get(dialect) ?? new Map<string, string>();
      answersOf.set(dialect, seen);
      outs.forEach((out, i) => {
        const name = calls[i]?.[0] ?? '';
        expect(out.isError, `${name}: ${out.text}`).toBe(false);
        expect(out.text.length, name).toBeGreaterThan(0);
        const schema = tools.find((t) => t.name === name)?.outputSchema;
        const checked = validator.getValidator(schema as never)(out.structured);
        expect(checked.valid, `${name}: ${checked.errorMessage}`).toBe(true);
        // run_analysis states its own running time; every other answer is a function of the data alone.
        if (name === 'run_analysis') return;
        const answer = JSON.stringify(out);
        const first = seen.get(name);
        if (first === undefined) seen.set(name, answer);
        else expect(answer, name).toBe(first);
      });
      expect(outs.at(-1)?.structured?.value).toEqual({ n: 2 });
    });

    it('carries the view data to an MCP Apps client, and the evidence tool answers it', async () => {
      const [mint] = ids(msim, 'platform_a', 1);
      // One after the other: a call that fails leaves none running into the next test.
      const board = await apps.client.callTool({
        name: 'analyze_botting',
        arguments: { mintIds: ids(msim, 'platform_a', 5) },
      });
      const evidence = await apps.client.callTool({ name: 'get_token_evidence', arguments: { mint } });
      const view = (r: { _meta?: unknown }) =>
        ((r._meta ?? {}) as Record<string, unknown>)[VIEW_DATA_KEY] as Record<string, unknown> | undefined;
      expect(view(board)?.kind).toBe('board');
      expect(view(evidence)?.kind).toBe('evidence');
    });

    it("an upstream failure is an error result, read from the dialect's error body", async () => {
      const notFound = await call(plain.client, 'get_streamer_core', { mint: UNKNOWN_ID });
      expect(notFound.isError, notFound.text).toBe(true);
      expect(notFound.structured).toBeUndefined();
      expect(notFound.text).toContain('Not found (HTTP 404): "Token not found".');
      msim.inject({ status: 504 }, { status: 504 }, { status: 504 });
      const down = await call(plain.client, 'get_analytics_overview');
      expect(down.isError, down.text).toBe(true);
      expect(down.text).toMatch(/failed \(HTTP 504\) after 3 attempts: "Simulated HTTP 504"/);
    });

    it('refuses a bad argument as an error result, and an unknown tool as a protocol error', async () => {
      const bad = await call(plain.client, 'get_streamer_core', { mint: 'x' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain('- mint: got "x"');
      expect(msim.requests).toHaveLength(0);
      // The v1 client adds the prefix once (v2 adds none).
      const prefix = channel.startsWith('legacy') ? 'MCP error -32602: ' : '';
      const unknown = await plain.client.callTool({ name: 'nope', arguments: {} }).catch((e: Error) => e);
      // An unknown tool's error names the closest real tools (the bare 'Unknown tool: nope' named none).
      expect(unknown).toMatchObject({ code: -32602 });
      expect((unknown as Error).message).toContain(`${prefix}Unknown tool: nope. The closest tools: `);
    });
  },
);
