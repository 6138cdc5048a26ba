// The embedded simulator: a deterministic fake of the whole interface on 127.0.0.1, with fault switches,
// the upstream of the tests, the benchmarks and --demo.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDataset, prng } from './data.js';
import { DIALECTS, type DialectName } from './dialect.js';
import { BadRequest, routes as routesOver } from './endpoints.js';
import { applyFault, type Fault, send, sendSlowly } from './respond.js';

export type { Fault } from './respond.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface SimulatorOptions {
  apiKey?: string;
  port?: number;
  seed?: number;
  latencyMs?: number;
  /** How it names what the document leaves unstated (dialect.ts): 'a' (the default, the demo's) or 'b'. */
  dialect?: DialectName;
}

export type Simulator = Awaited<ReturnType<typeof startSimulator>>;

export async function startSimulator(options: SimulatorOptions = {}) {
  const data = createDataset(options.seed);
  const dialectName = options.dialect ?? 'a';
  const dialect = DIALECTS[dialectName];
  const apiKey = options.apiKey ?? 'sim-key';
  const requests: RecordedRequest[] = [];
  let queue: Array<{ match?: (req: RecordedRequest) => boolean; fault: Fault }> = [];
  let random: { rate: number; faults: Fault[]; next: () => number } | undefined;
  const routes = routesOver(data, dialect);

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {}
    const query = Object.fromEntries(url.searchParams);
    res.on('close', () => {
      if (!res.writableFinished) sim.abandoned++;
    });
    const recorded = { method: req.method ?? '', path: url.pathname, query, headers: req.headers, body };
    requests.push(recorded);
    const index = queue.findIndex((q) => !q.match || q.match(recorded));
    const fault = index >= 0 ? queue.splice(index, 1)[0]?.fault : randomFault();
    const delay = (sim.latencyMs ?? 0) + (fault && 'delayMs' in fault ? fault.delayMs : 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (fault && applyFault(fault, res, dialect)) return;
    const trickle = fault && 'trickleMs' in fault ? fault.trickleMs : 0;
    const fail = (status: number, message: string) => send(res, status, dialect.errorBody(status, message));
    if (req.headers['x-api-key'] !== apiKey) return fail(401, 'Invalid or missing API key');
    const route = routes.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
    if (!route) return fail(404, `No route ${req.method} ${url.pathname}`);
    if (req.method === 'POST' && !String(req.headers['content-type']).startsWith('application/json'))
      return fail(415, 'Content-Type must be application/json');
    const mint = decodeURIComponent(route[1].exec(url.pathname)?.[1] ?? '');
    try {
      const result = route[2]({ query, body: (body ?? {}) as Record<string, unknown>, mint });
      if (result.status && result.status >= 400) fail(result.status, result.error ?? 'Failed');
      else if (trickle) sendSlowly(res, result.body, trickle);
      else send(res, result.status ?? 200, result.body);
    } catch (error) {
      if (error instanceof BadRequest) fail(400, error.message);
      else fail(500, 'Internal simulator error');
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const randomFault = () => {
    if (!random || random.next() >= random.rate) return undefined;
    return random.faults[Math.floor(random.next() * random.faults.length)];
  };

  const sim = {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    data,
    dialect: dialectName,
    requests,
    /** Requests whose client went away before the answer was complete (a cancelled or timed-out call). */
    abandoned: 0,
    latencyMs: options.latencyMs ?? 0,
    inject(...faults: Fault[]) {
      queue.push(...faults.map((fault) => ({ fault })));
    },
    /** Queues faults for the requests that match: a path pattern, or a test of the whole request. */
    injectFor(match: RegExp | ((req: RecordedRequest) => boolean), ...faults: Fault[]) {
      const test = match instanceof RegExp ? (r: RecordedRequest) => match.test(r.path) : match;
      queue.push(...faults.map((fault) => ({ match: test, fault })));
    },
    /** From now on, each request meets one of `faults` with probability `rate` (seeded, so repeatable). */
    randomFaults(rate: number, faults: Fault[], seed = 7) {
      random = { rate, faults, next: prng(seed) };
    },
    reset() {
      requests.length = 0;
      queue = [];
      random = undefined;
      sim.abandoned = 0;
      sim.latencyMs = options.latencyMs ?? 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return sim;
}
