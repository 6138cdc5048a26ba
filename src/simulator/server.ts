// The embedded simulator: a deterministic fake of the whole interface on 127.0.0.1, with fault switches.
// It is the upstream of the tests, the benchmarks and --demo. Where the document says "not shown"
// (error bodies and statuses, /health, batch element fields), the choices here are the simulator's own.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bottingOver, createDataset, type Dataset, prng, SIM_NOW, type SimToken, viewersAt } from './data.js';
import { DIALECTS, type Dialect, type DialectName } from './dialect.js';

export type Fault =
  /** Answer with this status (and body, headers) instead of the real answer. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answer. */
  | { hang: true }
  /** Destroy the connection before any byte, or in the middle of the body. */
  | { drop: 'before' | 'during' }
  /** Send this text as the body (bad JSON, an HTML page). */
  | { raw: string; status?: number; contentType?: string }
  /** Wait, then answer normally. */
  | { delayMs: number }
  /**
   * Answer with a valid JSON body of about this many bytes, written piece by piece as the client reads;
   * `chunked` sends it without a Content-Length. Writing stops when the client goes away.
   */
  | { bodyBytes: number; chunked?: boolean }
  /** Send the real answer's body in pieces, `intervalMs` apart. */
  | { trickleMs: number };

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
  /** Added to every answer. */
  latencyMs?: number;
  /**
   * How it names what the document leaves unstated (src/simulator/dialect.ts): 'a' (the default, the
   * demo's) or 'b'. The tests run on both (SIM_DIALECT).
   */
  dialect?: DialectName;
}

export interface Simulator {
  url: string;
  apiKey: string;
  data: Dataset;
  /** The naming table in use. */
  dialect: DialectName;
  requests: RecordedRequest[];
  /** Requests whose client went away before the answer was complete (a cancelled or timed-out call). */
  abandoned: number;
  latencyMs: number;
  /** Queues faults; each request takes the next one. */
  inject(...faults: Fault[]): void;
  /** Queues faults for the requests that match: a path pattern, or a test of the whole request. */
  injectFor(match: RegExp | ((req: RecordedRequest) => boolean), ...faults: Fault[]): void;
  /** From now on, each request meets one of `faults` with probability `rate` (seeded, so repeatable). */
  randomFaults(rate: number, faults: Fault[], seed?: number): void;
  reset(): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Handler = (req: { query: Record<string, string>; body: Json; params: string[] }) => {
  status?: number;
  /** A failed request's message: the dialect names the error body. */
  error?: string;
  body: Json;
};

class BadRequest extends Error {}

const ALL_CHAINS = ['chain_a', 'chain_b', 'all'];
const ALL_PLATFORMS = ['platform_a', 'platform_b', 'platform_c', 'all'];
const NO_C = ['platform_a', 'platform_b', 'all'];
const stamp = () => new Date(SIM_NOW).toISOString();
const notFound = 'Token not found';

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const data = createDataset(options.seed);
  const dialectName = options.dialect ?? 'a';
  const dialect = DIALECTS[dialectName];
  const apiKey = options.apiKey ?? 'sim-key';
  const requests: RecordedRequest[] = [];
  let queue: Array<{ match?: (req: RecordedRequest) => boolean; fault: Fault }> = [];
  let random: { rate: number; faults: Fault[]; next: () => number } | undefined;

  const routes: Array<[string, RegExp, Handler]> = [
    ['POST', /^\/streamers$/, ({ body }) => listStreamers(data, body)],
    ['GET', /^\/streamers\/([^/]+)\/core$/, ({ query, params }) => core(data, params[0] ?? '', query)],
    [
      'GET',
      /^\/streamers\/([^/]+)\/sessions$/,
      ({ query, params }) => sessions(data, params[0] ?? '', query),
    ],
    ['POST', /^\/streamers\/analytics$/, ({ body }) => batch(data, body, 25, NO_C, analytics(body, dialect))],
    ['POST', /^\/streamers\/complete$/, ({ body }) => batch(data, body, 25, NO_C, complete(dialect))],
    ['POST', /^\/botting\/bulk$/, ({ body }) => botting(data, body)],
    ['POST', /^\/stats\/creator-fees\/bulk$/, ({ body }) => creatorFees(data, body)],
    ['GET', /^\/analytics\/overview$/, ({ query }) => overview(data, query, dialect)],
    ['GET', /^\/analytics\/heatmap$/, ({ query }) => heatmap(data, query)],
    ['GET', /^\/health$/, () => ({ body: dialect.health(stamp()) })],
  ];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
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
    if (req.method === 'POST' && !String(req.headers['content-type']).startsWith('application/json')) {
      return fail(415, 'Content-Type must be application/json');
    }
    const params = (route[1].exec(url.pathname) ?? []).slice(1).map(decodeURIComponent);
    try {
      const result = route[2]({ query, body: (body ?? {}) as Json, params });
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

  const sim: Simulator = {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    data,
    dialect: dialectName,
    requests,
    abandoned: 0,
    latencyMs: options.latencyMs ?? 0,
    inject: (...faults) => queue.push(...faults.map((fault) => ({ fault }))),
    injectFor(match, ...faults) {
      const test = match instanceof RegExp ? (r: RecordedRequest) => match.test(r.path) : match;
      queue.push(...faults.map((fault) => ({ match: test, fault })));
    },
    randomFaults(rate, faults, seed = 7) {
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
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return sim;
}

/** Carries out a fault; returns false when the request should go on to a normal answer. */
function applyFault(fault: Fault, res: ServerResponse, dialect: Dialect): boolean {
  if ('hang' in fault) return true;
  if ('drop' in fault) {
    if (fault.drop === 'before') res.socket?.destroy();
    else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"success":true,"data":[');
      setTimeout(() => res.socket?.destroy(), 10);
    }
    return true;
  }
  if ('raw' in fault) {
    res.writeHead(fault.status ?? 200, { 'content-type': fault.contentType ?? 'application/json' });
    res.end(fault.raw);
    return true;
  }
  if ('bodyBytes' in fault) {
    sendLarge(res, fault.bodyBytes, fault.chunked ?? false);
    return true;
  }
  if ('status' in fault) {
    send(
      res,
      fault.status,
      fault.body ?? dialect.errorBody(fault.status, `Simulated HTTP ${fault.status}`),
      fault.headers,
    );
    return true;
  }
  return false;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** `{"success":true,"data":{"padding":"xxx…"}}` of `bytes` bytes, 64 KiB at a time, as fast as it is read. */
function sendLarge(res: ServerResponse, bytes: number, chunked: boolean) {
  const head = '{"success":true,"data":{"padding":"';
  const tail = '"}}';
  const total = Math.max(bytes, head.length + tail.length);
  res.writeHead(200, { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': total }) });
  res.write(head);
  let left = total - head.length - tail.length;
  const piece = 'x'.repeat(64 * 1024);
  const more = () => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, piece.length);
      left -= n;
      if (!res.write(n === piece.length ? piece : piece.slice(0, n))) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(tail);
  };
  more();
}

function sendSlowly(res: ServerResponse, body: unknown, intervalMs: number) {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  const pieces = [
    text.slice(0, text.length / 3),
    text.slice(text.length / 3, (2 * text.length) / 3),
    text.slice((2 * text.length) / 3),
  ];
  const next = () => {
    const piece = pieces.shift();
    if (piece === undefined || res.destroyed) return;
    if (pieces.length === 0) res.end(piece);
    else {
      res.write(piece);
      setTimeout(next, intervalMs);
    }
  };
  next();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// ---- request checks: the document's limits, enforced as a real upstream would ----

function oneOf(value: unknown, allowed: string[], name: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new BadRequest(`Invalid ${name}`);
  return value;
}

function intIn(value: unknown, name: string, fallback: number, min?: number, max?: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new BadRequest(`${name} must be an integer`);
  if ((min !== undefined && n < min) || (max !== undefined && n > max))
    throw new BadRequest(`${name} out of range`);
  return n;
}

function ids(value: unknown, name: string, max: number): string[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > max) {
    throw new BadRequest(`${name} must hold 1 to ${max} items`);
  }
  for (const id of value) {
    if (typeof id !== 'string' || id.length < 32 || id.length > 44)
      throw new BadRequest(`Invalid id in ${name}`);
  }
  return value as string[];
}

function scopeOf(source: Json | Record<string, string>, platforms: string[], chains = ALL_CHAINS) {
  return {
    chain: oneOf(source.chain, chains, 'chain', 'chain_a'),
    platform: oneOf(source.platform, platforms, 'platform', 'platform_a'),
  };
}

const inScope = (t: SimToken, s: { chain: string; platform: string }) =>
  (s.chain === 'all' || t.chain === s.chain) && (s.platform === 'all' || t.platform === s.platform);

const coreRecord = (t: SimToken) => ({
  mintId: t.mintId,
  coinName: t.coinName,
  coinSymbol: t.coinSymbol,
  currentViewers: t.currentViewers,
  tokenMarketCap: t.tokenMarketCap,
  tokenPrice: t.tokenPrice,
  isCurrentlyLive: t.isCurrentlyLive,
  totalStreamingTime: t.totalStreamingTime,
  chain: t.chain,
  platform: t.platform,
});

// ---- endpoints ----

const SORT_KEYS = {
  viewers: 'currentViewers',
  time: 'totalStreamingTime',
  averageViewers: 'averageViewers',
  marketCap: 'tokenMarketCap',
} as const;

function listStreamers(data: Dataset, body: Json) {
  const wanted = new Set(ids(body.tokenAddresses, 'tokenAddresses', 100));
  const sortBy = oneOf(body.sortBy, Object.keys(SORT_KEYS), 'sortBy', 'viewers') as keyof typeof SORT_KEYS;
  const order = oneOf(body.sortOrder, ['asc', 'desc'], 'sortOrder', 'desc');
  const limit = intIn(body.limit, 'limit', 100, 1, 1000);
  const page = intIn(body.page, 'page', 1, 1);
  const scope = scopeOf(body, NO_C);
  const key = SORT_KEYS[sortBy];
  const matched = [...wanted]
    .map((id) => data.byMint.get(id))
    .filter((t): t is SimToken => !!t && inScope(t, scope))
    .sort((a, b) => (order === 'asc' ? a[key] - b[key] : b[key] - a[key]));
  const totalPages = Math.ceil(matched.length / limit);
  return {
    body: {
      success: true,
      data: matched.slice((page - 1) * limit, page * limit).map(coreRecord),
      pagination: {
        page,
        limit,
        total: matched.length,
        totalPages,
        hasNext: page < totalPages,
        hasPrev: page > 1,
      },
      timestamp: stamp(),
    },
  };
}

function tokenFor(data: Dataset, mint: string, query: Record<string, string>) {
  if (mint.length < 32 || mint.length > 44) throw new BadRequest('Invalid mint');
  const scope = scopeOf(query, ALL_PLATFORMS);
  const token = data.byMint.get(mint);
  return token && inScope(token, scope) ? token : undefined;
}

function core(data: Dataset, mint: string, query: Record<string, string>) {
  const token = tokenFor(data, mint, query);
  if (!token) return { status: 404, error: notFound, body: {} };
  return { body: { success: true, data: coreRecord(token), timestamp: stamp() } };
}

function sessions(data: Dataset, mint: string, query: Record<string, string>) {
  const limit = intIn(query.limit, 'limit', 20, undefined, 100);
  const page = intIn(query.page, 'page', 1);
  const token = tokenFor(data, mint, query);
  if (!token) return { status: 404, error: notFound, body: {} };
  const start = Math.max(0, (page - 1) * limit);
  return { body: { success: true, data: token.sessions.slice(start, start + Math.max(0, limit)) } };
}

function batch(
  data: Dataset,
  body: Json,
  max: number,
  platforms: string[],
  element: (t: SimToken) => Json | string,
) {
  const mintIds = ids(body.mintIds, 'mintIds', max);
  const scope = scopeOf(body, platforms);
  const results: Json[] = [];
  const errors: Json[] = [];
  for (const mintId of mintIds) {
    const token = data.byMint.get(mintId);
    const value = token && inScope(token, scope) ? element(token) : notFound;
    if (typeof value === 'string') errors.push({ mintId, error: value });
    else results.push(value);
  }
  return {
    body: {
      success: true,
      data: {
        results,
        errors,
        summary: {
          total: mintIds.length,
          successful: results.length,
          failed: errors.length,
          processingTime: 12,
        },
      },
    },
  };
}

function analytics(body: Json, dialect: Dialect) {
  const period = oneOf(body.period, ['1h', '6h', '12h', '1d', '7d', '30d'], 'period', '1d');
  const points = intIn(body.points, 'points', 100, 10, 500);
  const span = { '1h': 1, '6h': 6, '12h': 12, '1d': 24, '7d': 168, '30d': 720 }[period] ?? 24;
  return (t: SimToken): Json => {
    const step = (span * 3_600_000) / points;
    const series = Array.from({ length: points }, (_, i) => {
      const at = SIM_NOW - (points - 1 - i) * step;
      return {
        at,
        // The curve of the sessions in the period, so it agrees with what the sessions endpoint says.
        viewers: viewersAt(t, at),
        marketCap: Math.round(t.tokenMarketCap * (0.9 + 0.1 * Math.cos(at / 3_600_000 / 11))),
      };
    });
    const viewers = series.map((p) => p.viewers);
    return dialect.analytics(t.mintId, period, series, {
      peak: Math.max(...viewers),
      mean: Math.round((viewers.reduce((a, b) => a + b, 0) / viewers.length) * 10) / 10,
    });
  };
}

const complete =
  (dialect: Dialect) =>
  (t: SimToken): Json =>
    dialect.complete(
      t.mintId,
      coreRecord(t),
      { count: t.sessions.length, recent: t.sessions.slice(0, 5) },
      t.fees,
    );

function botting(data: Dataset, body: Json) {
  const mintIds = ids(body.mintIds, 'mintIds', 50);
  const hours = intIn(body.hours, 'hours', 24, 1, 168);
  const scope = scopeOf(body, ['platform_a', 'platform_b'], ['chain_a', 'chain_b']);
  const results: Json[] = [];
  const errors: Json[] = [];
  for (const mintId of mintIds) {
    const token = data.byMint.get(mintId);
    if (!token || !inScope(token, scope)) errors.push({ mintId, error: notFound });
    else if (!token.botting) errors.push({ mintId, error: 'No data available for analysis' });
    else results.push({ mintId, ...bottingOver(token, hours), processingTime: 35, timestamp: stamp() });
  }
  const confidences = results.map((r) => r.confidence as number);
  return {
    body: {
      success: true,
      data: {
        results,
        errors,
        summary: {
          totalRequested: mintIds.length,
          successful: results.length,
          failed: errors.length,
          processingTime: 35 * mintIds.length,
          averageConfidence: confidences.length
            ? Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 100) / 100
            : 0,
        },
      },
      timestamp: stamp(),
    },
  };
}

function creatorFees(data: Dataset, body: Json) {
  const addresses = ids(body.tokenAddresses, 'tokenAddresses', 100);
  const found: Json[] = [];
  const errors: Json[] = [];
  for (const tokenAddress of addresses) {
    const token = data.byMint.get(tokenAddress);
    if (!token) errors.push({ tokenAddress, error: notFound });
    else if (!token.fees) errors.push({ tokenAddress, error: 'No fee data available' });
    else found.push({ tokenAddress, ...token.fees });
  }
  return {
    body: {
      success: true,
      data: found,
      errors,
      summary: { totalRequested: addresses.length, successful: found.length, failed: errors.length },
      timestamp: stamp(),
    },
  };
}

function overview(data: Dataset, query: Record<string, string>, dialect: Dialect) {
  const scope = scopeOf(query, ALL_PLATFORMS);
  const tokens = data.tokens.filter((t) => inScope(t, scope));
  const live = tokens.filter((t) => t.isCurrentlyLive);
  const sessionsAll = tokens.flatMap((t) => t.sessions);
  return {
    body: {
      success: true,
      data: {
        globalStats: {
          totalStreamers: tokens.length,
          liveStreamers: live.length,
          totalViewers: live.reduce((s, t) => s + t.currentViewers, 0),
          avgSessionDuration: Math.round(
            sessionsAll.reduce((s, x) => s + x.duration, 0) / Math.max(1, sessionsAll.length),
          ),
          longestActiveSession: Math.max(0, ...sessionsAll.map((x) => x.duration)),
          sessionsToday: sessionsAll.filter((x) => Date.parse(x.startTime) > SIM_NOW - 86_400_000).length,
          totalStreamingTime: tokens.reduce((s, t) => s + t.totalStreamingTime, 0),
          currentActiveTime: live.length * 1_800,
          trackingStartDate: '2025-01-01T00:00:00.000Z',
          timestamp: stamp(),
        },
        liveMetrics: dialect.liveMetrics(
          Object.fromEntries(
            ['platform_a', 'platform_b', 'platform_c'].map((p) => [
              p,
              live.filter((t) => t.platform === p).length,
            ]),
          ),
          live
            .sort((a, b) => b.currentViewers - a.currentViewers)
            .slice(0, 3)
            .map((t) => ({ mintId: t.mintId, currentViewers: t.currentViewers })),
        ),
        timestamp: stamp(),
      },
      cached: true,
      precomputed: false,
    },
  };
}

function heatmap(data: Dataset, query: Record<string, string>) {
  scopeOf(query, ALL_PLATFORMS);
  const max = (o: Record<string, number>) => Math.max(...Object.values(o));
  return {
    body: {
      success: true,
      data: {
        daily: { hourlyActivity: data.hourlyActivity, maxActivity: max(data.hourlyActivity) },
        monthly: {
          dailyActivity: data.dailyActivity,
          maxActivity: max(data.dailyActivity),
          calendar: { year: 2026, month: 11, daysInMonth: 30, startDayOfWeek: 0 },
        },
        consistency: { consistencyData: data.consistencyData },
      },
      timestamp: stamp(),
    },
  };
}
