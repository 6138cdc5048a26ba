// run_analysis through the built server (`BENCH_ONLY=analysis`): what a call costs beyond the same upstream
// requests made directly (paired, interleaved), what a run with no request costs, the server's RSS after
// 10 and after 1,000 runs, and the token budgets. The engine alone is measured in bench/analysis.ts.
import { spawn } from 'node:child_process';
import { Agent, request } from 'undici';

interface Client {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<{ tools: Array<Record<string, unknown> & { name: string }> }>;
  close(): Promise<void>;
}

export interface AnalysisToolDeps {
  /** Spawns the built server over stdio with this environment (a 2025 client). */
  connect(env: Record<string, string>): Promise<{ client: Client; pid: number }>;
  rssMiB(pid: number): number;
  upstreamScript: string;
  env: Record<string, string>;
  tokens(value: unknown): number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const CALLS = 300;
const WARMUP = 30;

export async function analysisToolBench(deps: AnalysisToolDeps) {
  const upstream = spawn(process.execPath, [deps.upstreamScript], {
    env: deps.env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { url, apiKey, mint } = await new Promise<{ url: string; apiKey: string; mint: string }>((resolve) =>
    upstream.stdout.once('data', (line) => resolve(JSON.parse(String(line)))),
  );
  const ours = await deps.connect({ STREAMER_ANALYTICS_API_KEY: apiKey, STREAMER_ANALYTICS_BASE_URL: url });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  try {
    // Two upstream requests, one after the other, and a little work on their answers.
    const program = `const core = await api.get_streamer_core({ mint: ${JSON.stringify(mint)} });
const { data } = await api.get_streamer_sessions({ mint: ${JSON.stringify(mint)} });
return { name: core.data.coinName, sessions: data.length, longest: data.length ? maxBy(data, 'duration').duration : null };`;
    const get = async (path: string) => {
      const res = await request(`${url}${path}`, {
        dispatcher: agent,
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
      });
      await res.body.json();
    };
    const variants: Record<string, () => Promise<unknown>> = {
      direct: async () => {
        await get(`/streamers/${mint}/core?chain=chain_a&platform=platform_a`);
        await get(`/streamers/${mint}/sessions?limit=20&page=1&chain=chain_a&platform=platform_a`);
      },
      tool: () => ours.client.callTool({ name: 'run_analysis', arguments: { code: program } }),
      empty: () => ours.client.callTool({ name: 'run_analysis', arguments: { code: 'return 1;' } }),
      floor: () => ours.client.callTool({ name: 'check_health', arguments: {} }),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
    const started = performance.now();
    const first = await ours.client.callTool({ name: 'run_analysis', arguments: { code: 'return 1;' } });
    const firstRunMs = round(performance.now() - started);
    if ((first as { isError?: boolean }).isError)
      throw new Error(`the first run failed: ${JSON.stringify(first)}`);
    // RSS of the server process, workers included (they are its threads): after 10 runs, then 1,000.
    let done = 1;
    const runs = async (until: number) => {
      for (; done < until; done++)
        await ours.client.callTool({ name: 'run_analysis', arguments: { code: program } });
    };
    await runs(10);
    const rssAfter10MiB = deps.rssMiB(ours.pid);
    for (let i = 0; i < WARMUP + CALLS; i++) {
      for (const [name, fn] of Object.entries(variants)) {
        const t0 = performance.now();
        await fn();
        if (i >= WARMUP) times[name]?.push(performance.now() - t0);
      }
    }
    done += 2 * (WARMUP + CALLS);
    const direct = times.direct as number[];
    const overhead = (times.tool as number[]).map((t, i) => t - (direct[i] as number));
    const stats = (xs: number[]) => ({ medianMs: round(median(xs), 3), p99Ms: round(p99(xs), 3) });
    await runs(1_000);
    const rssAfter1000MiB = deps.rssMiB(ours.pid);
    const { tools } = await ours.client.listTools();
    const visible = tools.map(({ outputSchema: _, ...rest }) => rest);
    return {
      calls: CALLS,
      firstRunMs,
      directTwoRequests: stats(direct),
      runAnalysisTwoRequests: stats(times.tool as number[]),
      overheadBeyondUpstream: stats(overhead),
      runAnalysisNoRequest: stats(times.empty as number[]),
      checkHealthTool: stats(times.floor as number[]),
      rssAfter10MiB,
      rssAfter1000MiB,
      rssGrowthMiB: round(rssAfter1000MiB - rssAfter10MiB, 1),
      runAnalysisTokens: deps.tokens(visible.filter((t) => t.name === 'run_analysis')),
      allToolsTokens: deps.tokens(visible),
    };
  } finally {
    await ours.client.close();
    await agent.close();
    upstream.stdin.end();
  }
}

/** The report's rows for the section, with the targets of issue 24. */
export function analysisRows(a: Awaited<ReturnType<typeof analysisToolBench>>): string[][] {
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const ms = (v: { medianMs: number; p99Ms: number }) => `${v.medianMs} ms median, ${v.p99Ms} p99`;
  return [
    ['run_analysis: first run (workers, WebAssembly)', `${a.firstRunMs} ms`, ''],
    ['run_analysis: two upstream requests, undici direct', ms(a.directTwoRequests), ''],
    ['run_analysis: the same two through the tool', ms(a.runAnalysisTwoRequests), ''],
    [
      '  overhead beyond the upstream requests (paired)',
      ms(a.overheadBeyondUpstream),
      `median ≤ 20 ms: ${verdict(a.overheadBeyondUpstream.medianMs <= 20)}`,
    ],
    ['  a run with no request (return 1)', ms(a.runAnalysisNoRequest), ''],
    ['  check_health tool, same server (a call floor)', ms(a.checkHealthTool), ''],
    [
      'run_analysis: server RSS after 10 / 1,000 runs',
      `${a.rssAfter10MiB} / ${a.rssAfter1000MiB} MiB (+${a.rssGrowthMiB})`,
      `within 64 MiB: ${verdict(a.rssGrowthMiB <= 64)}`,
    ],
    [
      'tokens: run_analysis / every model-visible tool',
      `${a.runAnalysisTokens} / ${a.allToolsTokens}`,
      `≤ 900 / ≤ 3,400: ${verdict(a.runAnalysisTokens <= 900 && a.allToolsTokens <= 3_400)}`,
    ],
  ];
}
