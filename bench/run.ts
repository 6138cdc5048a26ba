// `npm run bench`: what users feel, measured side by side in one run against the simulator on 127.0.0.1.
// Prints a table and writes bench/results.json. Figures drift between runs; compare within one run.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, request, fetch as undiciFetch } from 'undici';
import { startHttpServer } from '../scripts/http-server.js';
import { nodeBinary } from '../scripts/node-version.js';
import { bundleBareServer } from '../scripts/pack.js';
import { prng, widenPage } from '../src/simulator/data.js';
import { type Simulator, startSimulator } from '../src/simulator/server.js';
import { analysisRows, analysisToolBench } from './analysis-tool.js';
import { BENCH } from './config.js';
import { type HistoryBench, historyBench, historyRows } from './history.js';
import { type InstructionCounts, instructionCounts, instructionRows } from './instructions.js';
import { viewsBench } from './views.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The load clients' fetches each add an abort listener to their transport's one signal, freed only when
// the request is collected; undici warns past 1,500. It is the clients', not the server's, and thousands
// of printed warnings would slow the clients being measured.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'MaxListenersExceededWarning') console.warn(w);
});
/** What the command runs (`npm run build` bundles it); the compiled modules are measured beside it at start. */
const ENTRY = join(root, 'dist/server/index.js');
const UNBUNDLED = join(root, 'dist/src/main.js');
const NOOP = join(root, 'dist/bench/noop-server.js');
const UPSTREAM = join(root, 'dist/bench/upstream.js');
/** What an MCP client passes: a minimal environment (no NODE_OPTIONS, no extra CA certificates). */
const MINIMAL_ENV = { PATH: process.env.PATH ?? '' };

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
// The tokenizer's tables are large: loaded after the timed sections, so the client process's heap (and
// its garbage collection) is the same size while they run.
let encode: ((text: string) => number[]) | undefined;
const tokens = (value: unknown) =>
  (encode as (text: string) => number[])(typeof value === 'string' ? value : JSON.stringify(value)).length;
const rssMiB = (pid: number) =>
  round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024, 1);

/**
 * Another build's server (BENCH_BASELINE=/path/to/dist/server/index.js, e.g. the last release's) to measure
 * beside ours in the same run: cold start, and HTTP load with 2025 clients.
 */
const BASELINE = process.env.BENCH_BASELINE;

/** Both protocol eras: a 2026-07-28 client (SDK v2, pinned) and a 2025 one (SDK v1, `initialize`). */
const ERAS = ['2025', '2026'] as const;
type Era = (typeof ERAS)[number];
/** What the bench uses of either SDK's Client. */
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: unknown }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}
/** The Node beside the running one for cold start: one with V8's compile cache (the conformance suite's). */
const NODE22 = '22.23.3';
const PIN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

/** The first message a client of each era sends. */
const OPENING: Record<Era, string> = {
  '2025': `${JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  })}\n`,
  '2026': `${JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  })}\n`,
};

/** A Node that does nothing but answer: the floor every cold start is divided by. */
const FLOOR_ARGS = ['-e', "process.stdout.write('\\n'); process.stdin.resume()"];

/**
 * Spawn to the first line the process writes (a server: the result of its opening message), in ms of wall
 * time, and the main thread's CPU time by then (Linux: /proc/PID/schedstat), which the other engineers'
 * work on a shared machine disturbs far less than wall time.
 */
function spawnOnce(node: string, args: string[], era: Era = '2025'): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, args, { env: MINIMAL_ENV, stdio: ['pipe', 'pipe', 'ignore'] });
    child.on('error', reject);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      if (!out.includes('\n')) return;
      const wall = performance.now() - started;
      let cpu = Number.NaN;
      try {
        cpu = Number(readFileSync(`/proc/${child.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      } catch {}
      child.kill();
      resolve({ wall, cpu });
    });
    child.stdin.write(OPENING[era]);
  });
}

/**
 * Cold start on the running Node and on a Node 22 (fetched like the conformance suite's), each against its
 * own floor: Node 22.1+ has V8's compile cache (module.enableCompileCache), which the server turns on
 * where it exists; Node 20 has none. With BENCH_BASELINE, that build beside ours, both eras.
 */
async function coldStart() {
  const node22 = await nodeBinary(NODE22);
  const variants: Array<{ name: string; node: string; args: string[]; era?: Era; floor: string }> = [];
  for (const [node, tag] of [
    [process.execPath, ''],
    [node22, `Node ${NODE22}: `],
  ] as const) {
    const floor = `${tag}node, answering at once (floor)`;
    variants.push({ name: floor, node, args: FLOOR_ARGS, floor });
    if (!tag) variants.push({ name: 'unbundled server', node, args: [UNBUNDLED], floor });
    for (const era of ERAS) {
      const opening = era === '2025' ? '2025 initialize' : '2026 server/discover';
      variants.push({ name: `${tag}bundled server, ${opening}`, node, args: [ENTRY], era, floor });
      if (BASELINE)
        variants.push({ name: `${tag}baseline server, ${opening}`, node, args: [BASELINE], era, floor });
    }
  }
  const samples = new Map(variants.map(({ name }) => [name, { wall: [] as number[], cpu: [] as number[] }]));
  // Interleaved, so drift hits every variant alike.
  for (let i = 0; i < BENCH.coldStartSpawns; i++) {
    for (const { name, node, args, era } of variants) {
      const { wall, cpu } = await spawnOnce(node, args, era);
      samples.get(name)?.wall.push(wall);
      samples.get(name)?.cpu.push(cpu);
    }
  }
  return Object.fromEntries(
    variants.map(({ name, floor }) => {
      const [xs, base] = [samples.get(name), samples.get(floor)];
      const [wall, cpu] = [median(xs?.wall ?? []), median(xs?.cpu ?? [])];
      return [
        name,
        {
          medianMs: round(wall, 1),
          xFloor: round(wall / median(base?.wall ?? []), 2),
          cpuMs: round(cpu, 1),
          cpuXFloor: round(cpu / median(base?.cpu ?? []), 2),
        },
      ];
    }),
  );
}

async function connect(args: string[], env: Record<string, string>, era: Era = '2025') {
  const params = {
    command: process.execPath,
    args,
    env: { ...MINIMAL_ENV, ...env },
    stderr: 'ignore' as const,
  };
  const info = { name: 'bench', version: '1.0.0' };
  if (era === '2026') {
    const transport = new ModernStdio(params);
    const client = new ModernClient(info, PIN);
    await client.connect(transport);
    return { client: client as unknown as AnyClient, pid: transport.pid as number };
  }
  const transport = new LegacyStdio(params);
  const client = new LegacyClient(info);
  await client.connect(transport);
  return { client: client as unknown as AnyClient, pid: transport.pid as number };
}

/**
 * A client over --http, from a loopback address of its own when `from` is given (127.0.0.2 and on): the
 * server shares its places, sessions and bodies per address, so clients that are strangers to each other
 * each come from their own, as a team's machines do; from one address they would meet its session rate.
 */
async function connectHttp(url: string, era: Era, from?: number): Promise<AnyClient> {
  const info = { name: 'load', version: '1.0.0' };
  const agent = from === undefined ? undefined : new Agent({ localAddress: `127.0.0.${2 + (from % 250)}` });
  const opts = agent
    ? {
        fetch: ((input: string | URL, init?: RequestInit) =>
          undiciFetch(input, { ...(init as object), dispatcher: agent } as never)) as unknown as typeof fetch,
      }
    : {};
  if (era === '2026') {
    const client = new ModernClient(info, PIN);
    await client.connect(new ModernHttp(new URL(url), opts));
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient(info);
  await client.connect(new LegacyHttp(new URL(url), opts));
  return client as unknown as AnyClient;
}

/**
 * Instruction counts under callgrind (bench/instructions.ts) on the running Node and on each Node of
 * BENCH.instructionNodes that can be fetched; with BENCH_BASELINE, that build's too, on the same floors.
 */
async function instructions() {
  const bare = await bundleBareServer(join(root, 'dist'));
  const nodes: Array<[string, string]> = [[process.version, process.execPath]];
  for (const version of BENCH.instructionNodes) {
    try {
      const bin = await nodeBinary(version);
      const { execFileSync } = await import('node:child_process');
      nodes.push([String(execFileSync(bin, ['--version'])).trim(), bin]);
    } catch (error) {
      console.log(`instructions: Node ${version} not fetched (${(error as Error).message.split('\n')[0]})`);
    }
  }
  const out: Record<string, { ours: InstructionCounts; baseline?: InstructionCounts }> = {};
  for (const [version, node] of nodes) {
    const count = (entry: string) =>
      instructionCounts({
        node,
        entry,
        bare,
        upstream: UPSTREAM,
        coldRuns: BENCH.instructions.coldRuns,
        warmupCalls: BENCH.warmupCalls,
        countedCalls: BENCH.overheadCalls,
        idleMs: BENCH.instructions.idleMs,
        log: (line) => console.log(`${version}: ${line}`),
      });
    out[version] = { ours: await count(ENTRY), ...(BASELINE ? { baseline: await count(BASELINE) } : {}) };
  }
  return out;
}

/**
 * BENCH_ONLY=cold,perCall,tokens,instructions,history runs only those sections (cold start, per-call overhead
 * on each dialect, token economy on each dialect, instruction counts, history's bars), printed but not written
 * to bench/results.json: a quick look at one figure, while the full run stays the one of record.
 */
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());

async function main() {
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
  if (ONLY) {
    if (ONLY.includes('cold')) results.coldStart = await coldStart();
    if (ONLY.includes('perCall')) results.perCall = await perCallBoth();
    if (ONLY.includes('tokens')) results.tokens = await tokenEconomy();
    if (ONLY.includes('analysis')) results.analysis = await analysis();
    if (ONLY.includes('instructions')) results.instructions = await instructions();
    if (ONLY.includes('history')) results.history = await historyBench();
    report(results);
    return;
  }
  const sim = await startSimulator({ apiKey: 'bench-key' });
  const env = { STREAMER_ANALYTICS_API_KEY: sim.apiKey, STREAMER_ANALYTICS_BASE_URL: sim.url };

  console.log('cold start…');
  results.coldStart = await coldStart();

  console.log('per-call overhead…');
  results.perCall = await perCallBoth();

  console.log('instructions (callgrind)…');
  results.instructions = await instructions();

  console.log('run_analysis…');
  results.analysis = await analysis();

  const ours = await connect([ENTRY], env);
  await ours.client.listTools();
  const rssIdle = rssMiB(ours.pid);
  console.log('token economy…');
  results.tokens = await tokenEconomy();
  // The memory after runs: this server answers the same samples the token figures come from.
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  await dialectSamples(sim, ours.client, agent, 'a');
  await agent.close();
  results.memory = { rssIdleMiB: rssIdle, rssAfterRunsMiB: rssMiB(ours.pid) };
  console.log('HTTP throughput…');
  const a = sim.data.tokens.filter((t) => t.chain === 'chain_a').map((t) => t.mintId);
  results.http = await httpLoad(env, a);
  console.log('MCP Apps views…');
  results.views = await viewsBench(a);
  console.log('history (SQLite; a seeded year is kept in node_modules/.cache)…');
  results.history = await historyBench();

  await ours.client.close();
  await sim.close();
  writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
  report(results);
}

/** tools/list and result sizes against the raw upstream bodies, on both dialects. */
async function tokenEconomy() {
  ({ encode } = await import('gpt-tokenizer/encoding/o200k_base'));
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const first = await startSimulator({ apiKey: 'bench-key', dialect: 'a' });
  const env = { STREAMER_ANALYTICS_API_KEY: first.apiKey, STREAMER_ANALYTICS_BASE_URL: first.url };
  const ours = await connect([ENTRY], env);
  const modern = await connect([ENTRY], env, '2026');
  const { tools } = await ours.client.listTools();
  const endpointTools = tools.filter((t) => !COMPOSITE_TOOLS.includes(t.name));
  const withoutOutput = endpointTools.map(({ outputSchema: _, ...rest }) => rest);
  const toolsList = {
    endpointToolsTokens: tokens(withoutOutput),
    outputSchemasTokens: tokens(endpointTools.map((t) => t.outputSchema)),
    investigateBottingTokens: tokens(
      tools.filter((t) => t.name === 'investigate_botting').map(({ outputSchema: _, ...rest }) => rest),
    ),
    allToolsTokens: tokens(tools.map(({ outputSchema: _, ...rest }) => rest)),
    bytes: JSON.stringify(tools).length,
    // The same list as a 2026-07-28 client gets it.
    endpointToolsTokens2026: tokens(
      (await modern.client.listTools()).tools
        .filter((t) => !COMPOSITE_TOOLS.includes(t.name))
        .map(({ outputSchema: _, ...rest }) => rest),
    ),
  };
  await modern.client.close();
  await ours.client.close();
  await first.close();
  const samples: Array<Record<string, unknown>> = [];
  // The same samples on each dialect (src/simulator/dialect.ts): the budgets hold on both namings.
  for (const dialect of ['a', 'b'] as const) {
    const sim = await startSimulator({ apiKey: 'bench-key', dialect });
    const client = await connect([ENTRY], {
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    });
    samples.push(...(await dialectSamples(sim, client.client, agent, dialect)));
    await client.client.close();
    await sim.close();
  }
  await agent.close();
  return { toolsList, samples };
}

/** Each sample's tokens against the raw upstream body, on one dialect. */
async function dialectSamples(sim: Simulator, client: AnyClient, agent: Agent, dialect: 'a' | 'b') {
  const rawOf = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await request(`${sim.url}${path}`, {
      method,
      dispatcher: agent,
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return res.body.text();
  };
  const a = sim.data.tokens.filter((t) => t.chain === 'chain_a').map((t) => t.mintId);
  const sample = async (
    name: string,
    tool: string,
    args: Record<string, unknown>,
    raw: string,
    inject = false,
  ) => {
    if (inject) sim.inject({ raw });
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    const rawTokens = tokens(raw);
    return {
      name: `${name}${dialect === 'b' ? ' (dialect B)' : ''}`,
      dialect,
      rawTokens,
      textTokens: tokens(text),
      textShare: round(tokens(text) / rawTokens, 3),
      structuredTokens: tokens(result.structuredContent),
      structuredShare: round(tokens(result.structuredContent) / rawTokens, 3),
    };
  };
  const results100 = await rawOf('POST', '/streamers', { tokenAddresses: a.slice(0, 100) });
  const thousand = widenPage(JSON.parse(results100), 1000);
  return [
    await sample(
      'list_streamers, 100 rows',
      'list_streamers',
      { tokenAddresses: a.slice(0, 100) },
      results100,
    ),
    await sample(
      'list_streamers, 1,000 rows',
      'list_streamers',
      { tokenAddresses: a.slice(0, 100), limit: 1000 },
      JSON.stringify(thousand),
      true,
    ),
    await sample(
      'analyze_botting, 50 ids',
      'analyze_botting',
      { mintIds: a.slice(0, 50) },
      await rawOf('POST', '/botting/bulk', { mintIds: a.slice(0, 50) }),
    ),
    await sample(
      'get_streamers_analytics, 25 ids x 500 points',
      'get_streamers_analytics',
      { mintIds: a.slice(0, 25), points: 500 },
      await rawOf('POST', '/streamers/analytics', { mintIds: a.slice(0, 25), points: 500 }),
    ),
    await sample(
      'get_activity_heatmap',
      'get_activity_heatmap',
      {},
      await rawOf('GET', '/analytics/heatmap?chain=chain_a&platform=platform_a'),
    ),
  ];
}

/** The tools that are not one endpoint each: left out of the endpoint tools' token count. */
const COMPOSITE_TOOLS = ['investigate_botting', 'run_analysis'];

/** run_analysis through the built server (bench/analysis-tool.ts); the tokenizer loaded for its budgets. */
async function analysis() {
  ({ encode } = await import('gpt-tokenizer/encoding/o200k_base'));
  return analysisToolBench({
    connect: (env) => connect([ENTRY], env),
    rssMiB,
    upstreamScript: UPSTREAM,
    env: MINIMAL_ENV,
    tokens,
  });
}

/** The per-call overhead against each dialect's upstream. */
async function perCallBoth() {
  return { a: await perCall('a'), b: await perCall('b') };
}

/**
 * Per-call overhead, interleaved call by call against an upstream in its own process: our tool, the same
 * request made directly with undici, a no-op tool on the same SDK (the floor), and a bare SDK tool making
 * the same request (passthrough). Figures are medians of per-iteration differences, so a slow stretch of
 * the machine (they come and go here) shifts every variant of that iteration alike and cancels out.
 */
async function perCall(dialect: 'a' | 'b') {
  const upstream = spawn(process.execPath, [UPSTREAM], {
    env: { ...MINIMAL_ENV, SIM_DIALECT: dialect },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { url, apiKey, mint } = await new Promise<{ url: string; apiKey: string; mint: string }>((resolve) =>
    upstream.stdout.once('data', (line) => resolve(JSON.parse(String(line)))),
  );
  const coreUrl = `${url}/streamers/${mint}/core?chain=chain_a&platform=platform_a`;
  // Per era: our server, the floor and the passthrough, each in a process of its own: a process that has
  // just served a call answers the next one faster (warm caches, not yet descheduled), so sharing one would
  // flatter whichever came second.
  const servers = Object.fromEntries(
    await Promise.all(
      ERAS.map(async (era) => [
        era,
        {
          ours: await connect(
            [ENTRY],
            { STREAMER_ANALYTICS_API_KEY: apiKey, STREAMER_ANALYTICS_BASE_URL: url },
            era,
          ),
          floor: await connect([NOOP], {}, era),
          pass: await connect([NOOP], { UPSTREAM_URL: coreUrl, UPSTREAM_KEY: apiKey }, era),
        },
      ]),
    ),
  ) as Record<Era, Record<'ours' | 'floor' | 'pass', Awaited<ReturnType<typeof connect>>>>;
  const all = ERAS.flatMap((era) => Object.values(servers[era]));
  for (const c of all) await c.client.listTools();
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const variants: Record<string, () => Promise<unknown>> = {
    direct: async () => {
      const res = await request(coreUrl, {
        dispatcher: agent,
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
      });
      await res.body.json();
    },
  };
  for (const era of ERAS) {
    const { ours, floor, pass } = servers[era];
    variants[`tool ${era}`] = () => ours.client.callTool({ name: 'get_streamer_core', arguments: { mint } });
    variants[`noop ${era}`] = () => floor.client.callTool({ name: 'noop', arguments: {} });
    variants[`passthrough ${era}`] = () => pass.client.callTool({ name: 'passthrough', arguments: {} });
  }
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const order = Object.entries(variants);
  const random = prng(7);
  for (let i = 0; i < BENCH.warmupCalls + BENCH.overheadCalls; i++) {
    // A fresh order each iteration (seeded): no variant always runs right after the same one.
    for (let j = order.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [order[j], order[k]] = [order[k] as (typeof order)[0], order[j] as (typeof order)[0]];
    }
    for (const [name, fn] of order) {
      const t0 = performance.now();
      await fn();
      if (i >= BENCH.warmupCalls) times[name]?.push(performance.now() - t0);
    }
  }
  for (const c of all) await c.client.close();
  await agent.close();
  upstream.stdin.end();
  const stats = (xs: number[]) => ({ medianMs: round(median(xs), 3), p99Ms: round(quantile(xs, 0.99), 3) });
  const direct = times.direct as number[];
  const byEra = (era: Era) => {
    const [tool, floor, passthrough] = ['tool', 'noop', 'passthrough'].map(
      (v) => times[`${v} ${era}`] as number[],
    );
    const minusUpstream = (tool as number[]).map((t, i) => t - (direct[i] as number));
    return {
      getStreamerCore: stats(tool as number[]),
      overheadMinusUpstream: stats(minusUpstream),
      noopToolFloor: stats(floor as number[]),
      beyondFloor: stats(minusUpstream.map((t, i) => t - ((floor as number[])[i] as number))),
      passthroughTool: stats(passthrough as number[]),
      beyondPassthrough: stats(
        (tool as number[]).map((t, i) => t - ((passthrough as number[])[i] as number)),
      ),
    };
  };
  return {
    calls: BENCH.overheadCalls,
    directUndici: stats(direct),
    eras: Object.fromEntries(ERAS.map((era) => [era, byEra(era)])) as Record<Era, ReturnType<typeof byEra>>,
  };
}

/** Clients calling get_streamer_core over Streamable HTTP as fast as they can, per concurrency level. */
async function startHttp(entry: string, env: Record<string, string>) {
  const server = await startHttpServer({ entry, env: { ...MINIMAL_ENV, ...env } });
  return { ...server, pid: server.child.pid as number };
}

async function httpLoad(env: Record<string, string>, mints: string[]) {
  const ours = await startHttp(ENTRY, env);
  const baseline = BASELINE ? await startHttp(BASELINE, env) : undefined;
  const targets = [
    ...ERAS.map((era) => ({ label: era as string, era, server: ours })),
    ...(baseline ? [{ label: 'baseline 2025', era: '2025' as Era, server: baseline }] : []),
  ];
  const levels: Array<
    { era: string } & Record<
      'clients' | 'calls' | 'callsPerSecond' | 'p50Ms' | 'p99Ms' | 'errors' | 'peakRssMiB',
      number
    >
  > = [];
  const idle = rssMiB(ours.pid);
  // Each level for each era (and the baseline, if any), one after the other.
  for (const [clients, { label, era, server }] of BENCH.httpClients.flatMap((n) =>
    targets.map((t) => [n, t] as const),
  )) {
    const { pid } = server;
    const connected = await Promise.all(
      Array.from({ length: clients }, (_, c) => connectHttp(server.url, era, c)),
    );
    const latencies: number[] = [];
    let errors = 0;
    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssMiB(pid));
    }, 250);
    const end = performance.now() + BENCH.httpSeconds * 1000;
    await Promise.all(
      connected.map(async (client, c) => {
        for (let i = 0; performance.now() < end; i++) {
          const t0 = performance.now();
          try {
            const r = await client.callTool({
              name: 'get_streamer_core',
              arguments: { mint: mints[(c + i) % mints.length] },
            });
            if (r.isError) errors++;
          } catch {
            errors++;
          }
          latencies.push(performance.now() - t0);
        }
      }),
    );
    clearInterval(sampler);
    await Promise.all(connected.map((c) => c.close()));
    levels.push({
      era: label,
      clients,
      calls: latencies.length,
      callsPerSecond: Math.round(latencies.length / BENCH.httpSeconds),
      p50Ms: round(median(latencies)),
      p99Ms: round(quantile(latencies, 0.99)),
      errors,
      peakRssMiB: peakRss,
    });
  }
  await Promise.all([ours, baseline].map((t) => t?.stop()));
  return { seconds: BENCH.httpSeconds, rssIdleMiB: idle, levels };
}

function report(r: Record<string, unknown>) {
  const t = BENCH.targets;
  const cold = r.coldStart as
    | Record<string, { medianMs: number; xFloor: number; cpuMs: number; cpuXFloor: number }>
    | undefined;
  const perBoth = r.perCall as Awaited<ReturnType<typeof perCallBoth>> | undefined;
  const tok = r.tokens as
    | { toolsList: Record<string, number>; samples: Array<Record<string, number | string>> }
    | undefined;
  const mem = r.memory as Record<string, number> | undefined;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows: string[][] = [['measure', 'figure', 'target']];
  for (const [name, v] of Object.entries(cold ?? {})) {
    const target = /^(Node [\d.]+: )?bundled server/.test(name)
      ? `≤ ${t.coldStartBundledVsFloor}x floor: ${verdict(v.xFloor <= t.coldStartBundledVsFloor)}`
      : '';
    rows.push([
      `cold start, ${name}`,
      `${v.medianMs} ms (${v.xFloor}x floor); CPU ${v.cpuMs} ms (${v.cpuXFloor}x)`,
      target,
    ]);
  }
  const ms = (v: { medianMs: number; p99Ms: number }) => `${v.medianMs} ms median, ${v.p99Ms} p99`;
  for (const [dialect, per] of Object.entries(perBoth ?? {})) {
    const tag = ` (dialect ${dialect.toUpperCase()})`;
    rows.push([`get_streamer_core upstream request, undici direct${tag}`, ms(per.directUndici), '']);
    for (const era of ERAS) {
      const e = per.eras[era];
      if (!e) continue;
      rows.push([`${era} client: tools/call get_streamer_core${tag}`, ms(e.getStreamerCore), '']);
      rows.push(['  our overhead (call − direct, paired)', ms(e.overheadMinusUpstream), '']);
      rows.push(['  no-op tool, same SDK and era (floor)', ms(e.noopToolFloor), '']);
      rows.push(['  overhead beyond the floor (paired)', ms(e.beyondFloor), '']);
      rows.push(['  same request via a bare SDK tool', ms(e.passthroughTool), '']);
      rows.push([
        '  our tool beyond that (paired): our own code',
        ms(e.beyondPassthrough),
        `median ≤ ${t.overheadOverBareToolMs} ms: ${verdict(e.beyondPassthrough.medianMs <= t.overheadOverBareToolMs)}`,
      ]);
    }
  }
  const counts = r.instructions as Awaited<ReturnType<typeof instructions>> | undefined;
  for (const [version, c] of Object.entries(counts ?? {})) {
    rows.push(...instructionRows(c.ours, `${version}: `));
    if (c.baseline) rows.push(...instructionRows(c.baseline, `${version} baseline: `));
  }
  if (tok) rows.push(...tokenRows(tok));
  const analysed = r.analysis as Awaited<ReturnType<typeof analysisToolBench>> | undefined;
  if (analysed) rows.push(...analysisRows(analysed));
  if (mem) rows.push(['RSS, server idle / after runs', `${mem.rssIdleMiB} / ${mem.rssAfterRunsMiB} MiB`, '']);
  const http = r.http as Awaited<ReturnType<typeof httpLoad>> | undefined;
  for (const l of http?.levels ?? []) {
    rows.push([
      `HTTP, ${l.clients} ${l.era} client${l.clients === 1 ? '' : 's'} (${http?.seconds} s)`,
      `${l.callsPerSecond} calls/s, p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, ${l.errors} errors, RSS ${l.peakRssMiB} MiB peak`,
      '',
    ]);
  }
  if (http) rows.push(['HTTP server RSS idle', `${http.rssIdleMiB} MiB`, '']);
  const views = r.views as Awaited<ReturnType<typeof viewsBench>> | undefined;
  if (views && 'skipped' in views) rows.push(['MCP Apps views', `skipped: ${views.skipped}`, '']);
  else if (views) {
    rows.push([
      'view: 500-token board, result to painted',
      `${views.board500RenderMs} ms (median of 5)`,
      `< 500 ms: ${verdict(views.board500RenderMs < 500)}`,
    ]);
    rows.push([
      'view: 2,000-token board, result to painted',
      `${views.board2000RenderMs} ms (median of 5)`,
      `< 500 ms: ${verdict(views.board2000RenderMs < 500)}`,
    ]);
    rows.push([
      'view: 25 series × 500 points, result to painted',
      `${views.chart25x500RenderMs} ms (median of 5)`,
      '',
    ]);
    const s = views.chartPointerSweep;
    rows.push([
      '  pointer across it for ~1 s',
      `${s.frames} frames, worst ${s.worstFrameMs} ms, ${s.longTasks} tasks over 50 ms`,
      `no jank (no task over 50 ms): ${verdict(s.longTasks === 0)}`,
    ]);
  }
  if (r.history) rows.push(...historyRows(r.history as HistoryBench));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  console.log(
    `\n${rows
      .map((row) =>
        row
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n')}`,
  );
  console.log(
    `\n${ONLY ? `Sections ${ONLY.join(', ')} only (BENCH_ONLY), not written.` : 'Written to bench/results.json.'} Tokens: o200k_base (gpt-tokenizer). Cold start: spawn to the opening result (2025 initialize, 2026 server/discover), minimal environment; CPU: the main thread's, by then.`,
  );
}

function tokenRows(tok: {
  toolsList: Record<string, number>;
  samples: Array<Record<string, number | string>>;
}) {
  const t = BENCH.targets;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows: string[][] = [];
  rows.push([
    'tools/list, ten endpoint tools',
    `${tok.toolsList.endpointToolsTokens} tokens`,
    `≤ ${t.toolsListTokens}: ${verdict((tok.toolsList.endpointToolsTokens ?? 0) <= t.toolsListTokens)}`,
  ]);
  rows.push(['  as a 2026 client gets them', `${tok.toolsList.endpointToolsTokens2026} tokens`, '']);
  rows.push(['  their output schemas', `${tok.toolsList.outputSchemasTokens} tokens`, '']);
  rows.push(['  investigate_botting', `${tok.toolsList.investigateBottingTokens} tokens`, '']);
  rows.push([
    'tools/list, every tool the model sees',
    `${tok.toolsList.allToolsTokens} tokens`,
    `≤ ${t.allToolsListTokens}: ${verdict((tok.toolsList.allToolsTokens ?? 0) <= t.allToolsListTokens)}`,
  ]);
  for (const s of tok.samples) {
    const first = String(s.name).startsWith('list_streamers, 100 rows');
    rows.push([
      `${s.name}: text / raw`,
      `${s.textTokens} / ${s.rawTokens} (${round(Number(s.textShare) * 100, 1)}%)`,
      first
        ? `≤ ${t.listStreamers100TextShare * 100}%: ${verdict(Number(s.textShare) <= t.listStreamers100TextShare)}`
        : '',
    ]);
    rows.push([
      `${s.name}: structured / raw`,
      `${s.structuredTokens} / ${s.rawTokens} (${round(Number(s.structuredShare) * 100, 1)}%)`,
      first
        ? `≤ ${t.listStreamers100JsonShare * 100}%: ${verdict(Number(s.structuredShare) <= t.listStreamers100JsonShare)}`
        : '',
    ]);
  }
  return rows;
}

await main();
