// The simulator's endpoints: the document's limits enforced as a real upstream would, each answer built
// from the dataset, and what the document leaves unstated named by the dialect.
import { bottingOver, type Dataset, SIM_NOW, type SimToken, viewersAt } from './data.js';
import type { Dialect } from './dialect.js';

type Json = Record<string, unknown>;
export type Handler = (req: { query: Record<string, string>; body: Json; params: string[] }) => {
  status?: number;
  /** A failed request's message: the dialect names the error body. */
  error?: string;
  body: Json;
};

/** A request the document's limits refuse: a 400 with this message. */
export class BadRequest extends Error {}

const ALL_CHAINS = ['chain_a', 'chain_b', 'all'];
const ALL_PLATFORMS = ['platform_a', 'platform_b', 'platform_c', 'all'];
const NO_C = ['platform_a', 'platform_b', 'all'];
const stamp = () => new Date(SIM_NOW).toISOString();
const notFound = 'Token not found';
/** A successful answer: `success`, `data`, then the rest in order. */
const ok = (data: unknown, more: Json = {}) => ({ body: { success: true, data, ...more } });

/** The route table: method, path pattern (its groups are the handler's params) and handler. */
export function routes(data: Dataset, dialect: Dialect): Array<[string, RegExp, Handler]> {
  return [
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
}

// ---- request checks ----

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

const found = (data: Dataset, id: string, scope: { chain: string; platform: string }) => {
  const token = data.byMint.get(id);
  return token && inScope(token, scope) ? token : undefined;
};

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
  const pagination = {
    page,
    limit,
    total: matched.length,
    totalPages,
    hasNext: page < totalPages,
    hasPrev: page > 1,
  };
  return ok(matched.slice((page - 1) * limit, page * limit).map(coreRecord), {
    pagination,
    timestamp: stamp(),
  });
}

function tokenFor(data: Dataset, mint: string, query: Record<string, string>) {
  if (mint.length < 32 || mint.length > 44) throw new BadRequest('Invalid mint');
  return found(data, mint, scopeOf(query, ALL_PLATFORMS));
}

function core(data: Dataset, mint: string, query: Record<string, string>) {
  const token = tokenFor(data, mint, query);
  if (!token) return { status: 404, error: notFound, body: {} };
  return ok(coreRecord(token), { timestamp: stamp() });
}

function sessions(data: Dataset, mint: string, query: Record<string, string>) {
  const limit = intIn(query.limit, 'limit', 20, undefined, 100);
  const page = intIn(query.page, 'page', 1);
  const token = tokenFor(data, mint, query);
  if (!token) return { status: 404, error: notFound, body: {} };
  const start = Math.max(0, (page - 1) * limit);
  return ok(token.sessions.slice(start, start + Math.max(0, limit)));
}

/** Each id's element, or its error message: `results` and `errors` as a bulk endpoint answers them. */
function collect(ids: string[], key: string, element: (id: string) => Json | string) {
  const results: Json[] = [];
  const errors: Json[] = [];
  for (const id of ids) {
    const value = element(id);
    if (typeof value === 'string') errors.push({ [key]: id, error: value });
    else results.push(value);
  }
  return { results, errors };
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
  const { results, errors } = collect(mintIds, 'mintId', (id) => {
    const token = found(data, id, scope);
    return token ? element(token) : notFound;
  });
  const summary = {
    total: mintIds.length,
    successful: results.length,
    failed: errors.length,
    processingTime: 12,
  };
  return ok({ results, errors, summary });
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
  const { results, errors } = collect(mintIds, 'mintId', (mintId) => {
    const token = found(data, mintId, scope);
    if (!token) return notFound;
    if (!token.botting) return 'No data available for analysis';
    return { mintId, ...bottingOver(token, hours), processingTime: 35, timestamp: stamp() };
  });
  const confidences = results.map((r) => r.confidence as number);
  const summary = {
    totalRequested: mintIds.length,
    successful: results.length,
    failed: errors.length,
    processingTime: 35 * mintIds.length,
    averageConfidence: confidences.length
      ? Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 100) / 100
      : 0,
  };
  return ok({ results, errors, summary }, { timestamp: stamp() });
}

function creatorFees(data: Dataset, body: Json) {
  const addresses = ids(body.tokenAddresses, 'tokenAddresses', 100);
  const { results, errors } = collect(addresses, 'tokenAddress', (tokenAddress) => {
    const token = data.byMint.get(tokenAddress);
    if (!token) return notFound;
    return token.fees ? { tokenAddress, ...token.fees } : 'No fee data available';
  });
  const summary = { totalRequested: addresses.length, successful: results.length, failed: errors.length };
  return ok(results, { errors, summary, timestamp: stamp() });
}

function overview(data: Dataset, query: Record<string, string>, dialect: Dialect) {
  const scope = scopeOf(query, ALL_PLATFORMS);
  const tokens = data.tokens.filter((t) => inScope(t, scope));
  const live = tokens.filter((t) => t.isCurrentlyLive);
  const sessionsAll = tokens.flatMap((t) => t.sessions);
  return ok(
    {
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
    { cached: true, precomputed: false },
  );
}

function heatmap(data: Dataset, query: Record<string, string>) {
  scopeOf(query, ALL_PLATFORMS);
  const max = (o: Record<string, number>) => Math.max(...Object.values(o));
  return ok(
    {
      daily: { hourlyActivity: data.hourlyActivity, maxActivity: max(data.hourlyActivity) },
      monthly: {
        dailyActivity: data.dailyActivity,
        maxActivity: max(data.dailyActivity),
        calendar: { year: 2026, month: 11, daysInMonth: 30, startDayOfWeek: 0 },
      },
      consistency: { consistencyData: data.consistencyData },
    },
    { timestamp: stamp() },
  );
}
