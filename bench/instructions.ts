// Instructions, not times: cold start, per call and the first call counted under valgrind's callgrind, each as
// a ratio against its floor. A shared machine slows every instruction alike when it is busy, so times drift
// by tens of percent between runs while these counts repeat to about 2% (GC and JIT threads vary a little).
//
// Every server runs under `valgrind --tool=callgrind` on the given Node; this process drives it over stdio
// with raw JSON-RPC lines (a 2025 `initialize`, as most clients send today) and counts nothing itself. The
// upstream is the simulator in a process of its own (bench/upstream.ts), never counted.
//   - cold start: spawn to the `tools/list` answer: the driver then ends the process with SIGUSR2 (handled
//     by neither Node nor the servers; valgrind still writes the counts), so neither the exit nor a timer
//     that fires during it is counted. `node -e 0` runs to its own exit. Floors: `node -e 0` and a bare SDK v2 server bundled as ours
//     is (bench/bare-start.ts: the same esbuild settings, the same compile cache).
//   - per call: get_streamer_core, by difference: a run of W calls and a run of W + N calls, each from spawn
//     to exit; (second − first) / N is what one call costs once the first W have warmed the JIT. Floor: the
//     bare server's `passthrough` tool (the same GET with undici, body returned as text).
//   - the first call: by difference too: handshake, idle for `idleMs`, exit; and the same with one call after
//     the idle time. Whatever the server loads while idle is in both runs, so it cancels out, as it does for
//     the user who asks the first question a few seconds after the client started the server.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface InstructionOptions {
  /** The Node binary to count on (an ELF file, not a wrapper script). */
  node: string;
  /** Our server's entry (dist/server/index.js). */
  entry: string;
  /** The bare SDK server's bundled entry (dist/bench/bare/index.js). */
  bare: string;
  /** bench/upstream.js, the simulator in its own process. */
  upstream: string;
  /** Counted runs per cold-start variant; the median is reported. */
  coldRuns: number;
  /** Calls before counting, and counted calls. */
  warmupCalls: number;
  countedCalls: number;
  /** How long the client stays idle after the handshake before its first call. */
  idleMs: number;
  /** Leave out the per-call section (a quick look at start and the first call). */
  skipPerCall?: boolean;
  /** Progress lines go here. */
  log?: (line: string) => void;
}

const MINIMAL_ENV = { PATH: process.env.PATH ?? '' };
const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
};

/** One process under callgrind, driven over stdio; resolves to its instructions (all threads). */
async function counted(
  node: string,
  args: string[],
  env: Record<string, string>,
  drive?: (rpc: Rpc) => Promise<void>,
  underValgrind = true,
  stopAtAnswer = false,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  const out = join(dir, 'callgrind.out');
  try {
    const valgrind = [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      // Node's JIT writes code it then runs; valgrind must see it (the default checks only the stack).
      '--smc-check=all',
      '--trace-children=no',
    ];
    const child = spawn(
      underValgrind ? 'valgrind' : node,
      underValgrind ? [...valgrind, node, ...args] : args,
      { env: { ...MINIMAL_ENV, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr = (stderr + String(chunk)).slice(-4000);
    });
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => resolve(code));
    });
    if (drive) {
      const rpc = new Rpc(child, child.pid as number);
      await drive(rpc);
    }
    // Cold start ends at the last answer: SIGUSR2, which neither Node nor the servers handle, ends the
    // process at once and valgrind still writes its counts. Ending stdin instead would count the exit and
    // whatever timers fire during it (our preload, 250 ms of wall time later, which a callgrind-slowed exit
    // on a loaded machine outlasts).
    if (stopAtAnswer) child.kill('SIGUSR2');
    else child.stdin?.end();
    const code = await exited;
    if (!underValgrind) return 0;
    const text = readFileSync(out, 'utf8');
    const total = /^(?:summary|totals):\s*(\d+)/m.exec(text)?.[1];
    if (total === undefined) throw new Error(`no callgrind total (exit ${code}): ${stderr}`);
    return Number(total);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** JSON-RPC over a child's stdin and stdout, one line each. */
class Rpc {
  private id = 0;
  private buffer = '';
  private waiting = new Map<number, (message: Record<string, unknown>) => void>();
  constructor(
    private child: ChildProcess,
    readonly pid: number,
  ) {
    child.stdout?.on('data', (chunk) => {
      this.buffer += String(chunk);
      let at = this.buffer.indexOf('\n');
      while (at >= 0) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        at = this.buffer.indexOf('\n');
        if (!line.trim()) continue;
        const message = JSON.parse(line) as Record<string, unknown>;
        const resolve = this.waiting.get(message.id as number);
        if (resolve) {
          this.waiting.delete(message.id as number);
          resolve(message);
        }
      }
    });
  }
  request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = ++this.id;
    const answer = new Promise<Record<string, unknown>>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer.then((message) => {
      if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
      return message.result as Record<string, unknown>;
    });
  }
  notify(method: string) {
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }
  /** The 2025 handshake, then tools/list, as a client does at start. */
  async handshake() {
    await this.request('initialize', INITIALIZE);
    this.notify('notifications/initialized');
    await this.request('tools/list');
  }
}

/** Resolves once the process has used less than 20 ms of CPU in each of two consecutive seconds. */
async function quiet(pid: number): Promise<void> {
  const cpu = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  };
  let calm = 0;
  let last = cpu();
  while (calm < 2) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = cpu();
    calm = now - last < 2 ? calm + 1 : 0;
    last = now;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export async function instructionCounts(o: InstructionOptions) {
  const log = o.log ?? (() => {});
  const upstream = spawn(o.node, [o.upstream], {
    env: { ...MINIMAL_ENV, SIM_DIALECT: 'a' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { url, apiKey, mint } = await new Promise<{ url: string; apiKey: string; mint: string }>((resolve) =>
    upstream.stdout.once('data', (line) => resolve(JSON.parse(String(line)))),
  );
  try {
    const coreUrl = `${url}/streamers/${mint}/core?chain=chain_a&platform=platform_a`;
    // The history store off: what keeping history costs is its own issue's bar.
    const oursEnv = {
      STREAMER_ANALYTICS_API_KEY: apiKey,
      STREAMER_ANALYTICS_BASE_URL: url,
      STREAMER_ANALYTICS_DATABASE_URL: 'off',
    };
    const bareEnv = { UPSTREAM_URL: coreUrl, UPSTREAM_KEY: apiKey };
    const ours = { args: [o.entry], env: oursEnv, tool: 'get_streamer_core', arguments: { mint } };
    const bare = { args: [o.bare], env: bareEnv, tool: 'passthrough', arguments: {} };
    type Server = typeof ours | typeof bare;
    const calls = async (rpc: Rpc, s: Server, n: number) => {
      for (let i = 0; i < n; i++) {
        const result = await rpc.request('tools/call', { name: s.tool, arguments: s.arguments });
        if (result.isError) throw new Error(`${s.tool} failed: ${JSON.stringify(result).slice(0, 300)}`);
      }
    };
    // Each server twice outside callgrind first, so V8's compile cache (both turn it on) is written, as it
    // is after a client's first start of the day.
    for (let i = 0; i < 2; i++)
      for (const s of [ours, bare]) await counted(o.node, s.args, s.env, (rpc) => rpc.handshake(), false);

    log('instructions: cold start…');
    const cold = { nodeE0: [] as number[], bare: [] as number[], ours: [] as number[] };
    for (let i = 0; i < o.coldRuns; i++) {
      cold.nodeE0.push(await counted(o.node, ['-e', '0'], {}));
      cold.bare.push(await counted(o.node, bare.args, bare.env, (rpc) => rpc.handshake(), true, true));
      cold.ours.push(await counted(o.node, ours.args, ours.env, (rpc) => rpc.handshake(), true, true));
    }

    log(`instructions: cold start ${JSON.stringify(cold)}`);
    log('instructions: per call…');
    const perCall = async (s: Server) => {
      const run = (n: number) =>
        counted(o.node, s.args, s.env, async (rpc) => {
          await rpc.handshake();
          await calls(rpc, s, n);
        });
      const warm = await run(o.warmupCalls);
      const all = await run(o.warmupCalls + o.countedCalls);
      return (all - warm) / o.countedCalls;
    };
    const perCallBare = o.skipPerCall ? Number.NaN : await perCall(bare);
    const perCallOurs = o.skipPerCall ? Number.NaN : await perCall(ours);
    log(`instructions: per call ${Math.round(perCallOurs)} (bare tool ${Math.round(perCallBare)})`);

    log(`instructions: the first call, after ${o.idleMs / 1000} s idle…`);
    const firstCall = async (s: Server) => {
      const run = (n: number) =>
        counted(o.node, s.args, s.env, async (rpc) => {
          await rpc.handshake();
          await new Promise((resolve) => setTimeout(resolve, o.idleMs));
          // Under callgrind a process runs some 50 times slower: what the server does while idle may take
          // longer than the idle time. The call waits until it is done (the process uses no CPU for 2 s),
          // so both runs hold all of it, as a natively run server would have by then.
          await quiet(rpc.pid);
          await calls(rpc, s, n);
        });
      const [idle, called] = [await run(0), await run(1)];
      return called - idle;
    };
    const firstBare = await firstCall(bare);
    const firstOurs = await firstCall(ours);

    const m = (xs: number[]) => median(xs);
    return {
      node: o.node,
      method:
        'valgrind --tool=callgrind, all threads; 2025 initialize over stdio; cold start: spawn to the tools/list answer, then SIGUSR2 (median); per call and first call: by difference of two runs',
      coldStart: {
        runs: o.coldRuns,
        nodeE0: m(cold.nodeE0),
        bareServer: m(cold.bare),
        ours: m(cold.ours),
        samples: cold,
        xBareServer: round(m(cold.ours) / m(cold.bare), 3),
        xNodeE0: round(m(cold.ours) / m(cold.nodeE0), 2),
        bareXNodeE0: round(m(cold.bare) / m(cold.nodeE0), 2),
      },
      perCall: {
        warmupCalls: o.warmupCalls,
        countedCalls: o.countedCalls,
        bareTool: Math.round(perCallBare),
        ours: Math.round(perCallOurs),
        xBareTool: round(perCallOurs / perCallBare, 3),
      },
      firstCall: {
        idleMs: o.idleMs,
        bareTool: firstBare,
        ours: firstOurs,
        xBareTool: round(firstOurs / firstBare, 3),
      },
    };
  } finally {
    upstream.stdin.end();
  }
}

export type InstructionCounts = Awaited<ReturnType<typeof instructionCounts>>;

/** The targets of the instruction-count issue: cold start, per call, the first call, each against its floor. */
export const INSTRUCTION_TARGETS = { coldStartXBare: 1.15, perCallXBareTool: 1.3, firstCallXBareTool: 0.25 };

/** Report rows: measure, figure, target. */
export function instructionRows(c: InstructionCounts, tag = ''): string[][] {
  const t = INSTRUCTION_TARGETS;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const M = (n: number) => `${(n / 1e6).toFixed(1)}M`;
  const K = (n: number) => `${(n / 1e3).toFixed(0)}K`;
  return [
    [
      `${tag}instructions, cold start (to tools/list)`,
      `${M(c.coldStart.ours)}: ${c.coldStart.xBareServer}x bare SDK server (${M(c.coldStart.bareServer)}), ${c.coldStart.xNodeE0}x node -e 0 (${M(c.coldStart.nodeE0)})`,
      `≤ ${t.coldStartXBare}x: ${verdict(c.coldStart.xBareServer <= t.coldStartXBare)}`,
    ],
    [
      `${tag}instructions per call, steady state`,
      `${K(c.perCall.ours)}: ${c.perCall.xBareTool}x bare SDK tool (${K(c.perCall.bareTool)})`,
      `≤ ${t.perCallXBareTool}x: ${verdict(c.perCall.xBareTool <= t.perCallXBareTool)}`,
    ],
    [
      `${tag}instructions, first call after ${c.firstCall.idleMs / 1000} s idle`,
      `${M(c.firstCall.ours)}: ${c.firstCall.xBareTool}x bare SDK tool (${M(c.firstCall.bareTool)})`,
      `≤ ${t.firstCallXBareTool}x: ${verdict(c.firstCall.xBareTool <= t.firstCallXBareTool)}`,
    ],
  ];
}
