// What guides the assistant: initialize instructions, prompts, and the reference resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../src/reference.js';
import { type Simulator, startSimulator } from '../src/simulator/server.js';
import { TOOLS } from '../src/tools/index.js';
import { describeAllowed } from '../src/tools/tool.js';
import {
  call,
  connect,
  failedOf,
  type Harness,
  ids,
  SIM_KEY,
  sc,
  UNKNOWN_ID,
  useSimulator,
} from './helpers.js';

let h: Harness;
const textOf = (result: { messages: Array<{ content: { type: string; text?: string } }> }) =>
  result.messages[0]?.content.text ?? '';
beforeAll(async () => {
  h = await connect(undefined);
});
afterAll(() => h.close());

describe('instructions', () => {
  it('say in a few lines which tool answers which question', () => {
    const text = h.client.getInstructions() ?? '';
    expect(text.split('\n').length).toBeLessThanOrEqual(10);
    for (const tool of ['investigate_botting', 'analyze_botting', 'get_streamer_core', 'check_health'])
      expect(text).toContain(tool);
    expect(text).toContain('streamer-analytics://reference');
    // The slicing parameters where they answer "which flagged ones are live, most watched first".
    for (const param of ['levels', 'liveOnly', 'sortBy', 'offset']) expect(text).toContain(param);
  });

  it('show run_analysis with its three example programs, one line each', () => {
    const text = h.client.getInstructions() ?? '';
    expect(text).toContain('run_analysis');
    for (const code of Object.values(EXAMPLES)) expect(text).toContain(code.replace(/\n\s*/g, ' '));
  });
});

describe('prompts', () => {
  it('lists investigate_botting and streamer_report with their arguments', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'investigate_botting',
        [
          ['mintIds', true],
          ['hours', false],
        ],
      ],
      ['streamer_report', [['mint', true]]],
    ]);
  });

  it('investigate_botting takes pasted ids and the hours, and guides through the tools', async () => {
    const result = await h.client.getPrompt({
      name: 'investigate_botting',
      arguments: { mintIds: 'AAA, BBB\nCCC  DDD', hours: '48' },
    });
    const text = textOf(result);
    expect(result.messages[0]?.role).toBe('user');
    expect(text).toContain('AAA, BBB, CCC, DDD');
    expect(text).toContain('Call investigate_botting with all of them as mintIds and hours 48');
    expect(text).toContain('levels ["HIGH"], liveOnly true, sortBy "viewers"');
    expect(text).toContain('get_streamer_sessions');
    expect(text).toContain('needs a computation: one run_analysis program');
  });

  it('streamer_report names the tools for one token', async () => {
    const result = await h.client.getPrompt({ name: 'streamer_report', arguments: { mint: 'MINT123' } });
    const text = textOf(result);
    for (const tool of ['get_streamer_core', 'get_streamer_sessions', 'analyze_botting', 'get_creator_fees'])
      expect(text).toContain(tool);
    expect(text).toContain('MINT123');
    expect(text).toContain('run_analysis pages get_streamer_sessions');
  });

  it('refuses a missing required argument, naming it', async () => {
    await expect(h.client.getPrompt({ name: 'streamer_report', arguments: {} })).rejects.toThrow(
      /needs the argument mint/,
    );
    await expect(h.client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown prompt/);
  });
});

describe('the reference resource', () => {
  it('is listed and readable as Markdown', async () => {
    const { resources } = await h.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['streamer-analytics://reference']);
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    expect(contents[0]?.mimeType).toBe('text/markdown');
  });

  it('states every tool and every parameter limit exactly as the schemas do', async () => {
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    const text = (contents[0] as { text: string }).text;
    for (const tool of TOOLS) {
      const entry = tool.entry();
      expect(text).toContain(`### ${entry.name}: ${entry.title}`);
      for (const [name, prop] of Object.entries(
        entry.inputSchema.properties as Record<string, Record<string, unknown>>,
      )) {
        expect(text).toContain(`- ${name}`);
        expect(text).toContain(describeAllowed(prop));
      }
    }
    expect(text).toContain(
      '- mintIds (required): a list of 1 to 500 items, each a string of 32 to 44 characters',
    );
    expect(text).toContain('platform_b belongs to chain_b');
    expect(text).toContain('| Are these tokens botted? Which flagged ones are live? |');
    expect(text).toContain(
      '| Which HIGH ones are live now, most watched first? | investigate_botting with levels ["HIGH"], liveOnly true, sortBy viewers',
    );
    expect(text).toContain(
      '- sortBy: one of suspicion, viewers, marketCap, score, confidence, fees (default suspicion) (fees needs includeCreatorFees)',
    );
    expect(text).toContain('investigate_botting keeps an investigation 5 minutes per API key');
  });

  it('shows the three run_analysis programs as written', async () => {
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    const text = (contents[0] as { text: string }).text;
    expect(text).toContain('## run_analysis: example programs');
    for (const code of Object.values(EXAMPLES)) expect(text).toContain(`\`\`\`js\n${code}\n\`\`\``);
    expect(text).toMatch(/\| [^|]*share of the fees[^|]* \| run_analysis/);
  });

  it('refuses an unknown uri, naming it in the error data (SEP-2164)', async () => {
    const error = await h.client.readResource({ uri: 'streamer-analytics://nope' }).then(
      () => undefined,
      (e: unknown) => e as { message: string; data?: unknown },
    );
    expect(error?.message).toMatch(/Unknown resource/);
    expect(error?.data).toEqual({ uri: 'streamer-analytics://nope' });
  });
});

describe('guidance that points the right way', () => {
  let sim: Simulator;
  let g: Harness;
  useSimulator((s, harness) => {
    sim = s;
    g = harness;
  });

  it('answers resources/templates/list, and sends protocol errors without a ready-made "MCP error" prefix', async () => {
    expect((await g.client.listResourceTemplates()).resourceTemplates).toEqual([]);
    // The v1 client adds the prefix once (v2 adds none); the server must not have added it already.
    const prefix = g.channel.startsWith('legacy') ? 'MCP error -32602: ' : '';
    const unknown = await g.client.callTool({ name: 'nope', arguments: {} }).catch((e: Error) => e);
    expect(unknown).toMatchObject({ code: -32602 });
    expect((unknown as Error).message).toMatch(
      new RegExp(
        `^${prefix}Unknown tool: nope\\. The closest tools: \\w+, \\w+, \\w+ \\(tools/list names all \\d+\\)\\.$`,
      ),
    );
    const misspelt = await g.client.callTool({ name: 'getCore', arguments: {} }).catch((e: Error) => e);
    expect((misspelt as Error).message).toContain(
      'Unknown tool: getCore. The closest tools: get_streamer_core,',
    );
    const prompt = await g.client.getPrompt({ name: 'nope' }).catch((e: Error) => e);
    expect(prompt).toMatchObject({ code: -32602, message: `${prefix}Unknown prompt: nope` });
  });

  it('tells a 2026 client that the lists and the API reference keep for an hour', async () => {
    const uri = (await g.client.listResources()).resources[0]?.uri ?? '';
    const answers = (await Promise.all([
      g.client.listTools(),
      g.client.listResources(),
      g.client.listPrompts(),
      g.client.listResourceTemplates(),
      g.client.readResource({ uri }),
    ])) as unknown as Array<Record<string, unknown>>;
    answers.forEach((answer, i) => {
      // The 2025 revision has no cache fields.
      if (g.channel.startsWith('legacy')) expect(answer).not.toHaveProperty('ttlMs');
      // The tool and resource lists, and what a read answers (the view page), depend on whether the client
      // declares MCP Apps: its own cache only.
      else
        expect(answer).toMatchObject({
          ttlMs: 3_600_000,
          cacheScope: i < 2 || i === 4 ? 'private' : 'public',
        });
    });
  });

  it('a 404 where no token is named points to the base URL, not the mint id', async () => {
    sim.inject({ status: 404, raw: 'Not Found', contentType: 'text/plain' });
    const health = await call(g.client, 'check_health');
    sim.inject({ status: 404, body: { success: false, error: 'Cannot POST /streamers' } });
    const list = await call(g.client, 'list_streamers', { tokenAddresses: ids(sim, 'platform_a', 2) });
    sim.inject({ status: 404, raw: '<html>404</html>', contentType: 'text/html' });
    const core = await call(g.client, 'get_streamer_core', { mint: ids(sim, 'platform_a', 1)[0] });
    for (const out of [health, list, core]) {
      expect(out.text).toContain('Check STREAMER_ANALYTICS_BASE_URL');
      expect(out.text).not.toContain('mint id');
      expect(out.text).toContain('[error: not_found · final]');
    }
    expect(health.text).toMatch(/^The streamer analytics service has no \/health \(HTTP 404\)/);
  });

  it('a 404 the API gives for a token names the mint id first, and the base URL as the fallback', async () => {
    const out = await call(g.client, 'get_streamer_core', { mint: UNKNOWN_ID });
    expect(out.text).toContain('Not found (HTTP 404): "Token not found"');
    expect(out.text).toContain('Check the mint id, and the chain and platform');
    expect(out.text).toContain('If every tool answers 404, check STREAMER_ANALYTICS_BASE_URL');
  });

  it('next-step hints keep a non-default chain and platform, and never offer botting for platform_c', async () => {
    const b = ids(sim, 'platform_b', 2);
    const botting = await call(g.client, 'analyze_botting', { mintIds: b, chain: 'chain_b' });
    expect(botting.text).toContain(
      'Next: get_streamer_sessions with chain chain_b, platform platform_b for one token',
    );
    const coreB = await call(g.client, 'get_streamer_core', { mint: b[0], chain: 'chain_b' });
    expect(coreB.text).toContain('analyze_botting with chain chain_b, platform platform_b to check');
    const c = ids(sim, 'platform_c', 1)[0];
    const coreC = await call(g.client, 'get_streamer_core', {
      mint: c,
      chain: 'chain_b',
      platform: 'platform_c',
    });
    expect(coreC.text).toContain('get_streamer_sessions with chain chain_b, platform platform_c');
    expect(coreC.text).not.toContain('analyze_botting');
    expect(coreC.text).toContain('botting analysis does not cover platform_c tokens');
    const coreA = await call(g.client, 'get_streamer_core', { mint: ids(sim, 'platform_a', 1)[0] });
    expect(coreA.text).toContain(
      'Next: get_streamer_sessions for its stream history; analyze_botting to check',
    );
  });

  it("botting on chain_b counts platform_c tokens as not covered, apart from failures, the upstream's words kept", async () => {
    const c = ids(sim, 'platform_c', 3);
    const b = ids(sim, 'platform_b', 3);
    // What the upstream itself says of the platform_c tokens (the simulator: "Token not found").
    const res = await fetch(`${sim.url}/botting/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ mintIds: c, chain: 'chain_b', platform: 'platform_b' }),
    });
    const upstream = ((await res.json()) as { data: { errors: Array<{ error: string }> } }).data;
    const said = upstream.errors[0]?.error as string;
    expect(said).toBeTruthy();
    for (const tool of ['analyze_botting', 'investigate_botting']) {
      const out = await call(g.client, tool, { mintIds: [...b, ...c], chain: 'chain_b' });
      const counts = sc(out).counts as Record<string, number>;
      // Counts match what is shown: every id asked is analysed, failed or not covered, once.
      expect(counts, tool).toMatchObject({ requested: 6, notCovered: 3, failed: 0 });
      expect((counts.analysed ?? 0) + (counts.failed ?? 0) + (counts.notCovered ?? 0)).toBe(6);
      expect(out.text.split('\n')[0]).toContain('; 3 not covered (platform_c) (6 requested, 0 failed;');
      expect(failedOf(out)).toEqual([]);
      expect(out.text).not.toContain('Failed (');
      // The server's words are never quoted as if the upstream had said them; the upstream's are kept.
      expect(out.text).not.toMatch(/"[^"\n]*botting analysis does not/);
      expect(out.text).toContain(`error ${JSON.stringify(said)} (3): ${c.join(', ')}`);
      expect(sc(out).notCovered).toEqual(c);
      expect(sc(out).notCoveredUpstreamErrors).toEqual([{ error: said, count: 3, mintIds: c }]);
      expect(out.text).toContain('get_streamer_sessions with chain chain_b, platform platform_b');
    }
  });

  it('an investigation whose every request was refused is an auth error, not a report', async () => {
    const wrong = await connect(sim, { config: { apiKey: 'not-the-key-0123456789' } });
    const out = await call(wrong.client, 'investigate_botting', { mintIds: ids(sim, 'platform_a', 120) });
    await wrong.close();
    expect(out.isError).toBe(true);
    expect(out.text).toContain('refused the API key');
    expect(out.text).toMatch(/\[error: auth · final\]$/);
  });
});

describe('botting levels', () => {
  it('instructions and reference name no level beyond the documented HIGH (another upstream names its own)', async () => {
    const instructions = h.client.getInstructions() ?? '';
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    const reference = (contents[0] as { text: string }).text;
    for (const text of [instructions, reference]) {
      expect(text).not.toMatch(/\b(MEDIUM|LOW)\b/);
      expect(text).not.toMatch(/\["HIGH", "/);
    }
  });
});

describe('where token ids come from', () => {
  it('instructions and reference say ids come from the user, and point nowhere that lists tokens without them', async () => {
    const instructions = h.client.getInstructions() ?? '';
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    const reference = (contents[0] as { text: string }).text;
    for (const text of [instructions, reference]) {
      expect(text).toMatch(/Token ids (\([^)]*\) )?come from the user/);
      expect(text).toMatch(/no (tool|endpoint) lists tokens without them/);
      expect(text).toMatch(/get_analytics_overview's live ?metrics[^.]* may name/i);
    }
    // No question is routed to list_streamers as if it found tokens by itself (it needs tokenAddresses).
    for (const row of reference.split('\n').filter((l) => l.startsWith('| ') && l.includes('list_streamers')))
      expect(row).toMatch(/ids you have|tokenAddresses|ids from the user/);
    expect(reference).not.toMatch(/list_streamers \(chain[^)]*sortBy/);
  });

  it('in demo mode, the instructions name where sample ids come from, and those ids work in the other tools', async () => {
    // The demo's own simulator: dialect A, as src/main.ts starts it.
    const sim = await startSimulator({ apiKey: SIM_KEY });
    const demo = await connect(sim, { demo: true });
    const instructions = demo.client.getInstructions() ?? '';
    expect(instructions).toMatch(/^DEMO MODE \(simulated data[^\n]*liveMetrics\.topViewers/m);
    // Following it: the overview names ids, and every token tool accepts them.
    const overview = await call(demo.client, 'get_analytics_overview', { chain: 'all', platform: 'all' });
    const top = (sc(overview).liveMetrics as { topViewers: Array<{ mintId: string }> }).topViewers;
    const sample = top.map((t) => t.mintId);
    expect(sample.length).toBe(3);
    const core = await call(demo.client, 'get_streamer_core', {
      mint: sample[0],
      chain: 'all',
      platform: 'all',
    });
    const list = await call(demo.client, 'list_streamers', {
      tokenAddresses: sample,
      chain: 'all',
      platform: 'all',
    });
    await demo.close();
    await sim.close();
    expect(core.isError, core.text).toBe(false);
    expect(list.isError, list.text).toBe(false);
    expect(list.structured?.rows).toHaveLength(3);
    // Outside the demo, no such line: the real service's overview is not documented to name any.
    expect(h.client.getInstructions()).not.toMatch(/DEMO MODE/);
  });
});
