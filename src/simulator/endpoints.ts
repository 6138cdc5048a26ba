// The simulator's endpoints: the document's limits enforced as a real upstream would, each answer built
// from the dataset, and what the document leaves unstated named by the dialect.
import { bottingOver, type Dataset, SIM_NOW, type SimToken, viewersAt } from './data.js';
import type { Dialect } from './dialect.js';

type Json = Record<string, unknown>;
type Request = { query: Record<string, string>; body: Json; mint: string };
/** An answer; `error` is a failed request's message (the dialect names the error body). */
export type Handler = (req: Request) => { status?: number; error?: string; body: Json };

/** A request the document's limits refuse: a 400 with this message. */
export class BadRequest extends Error {}

const ALL_CHAINS = ['chain_a', 'chain_b', 'all'];
const ALL_PLATFORMS = ['platform_a', 'platform_b', 'platform_c', 'all'];
const NO_C = ['platform_a', 'platform_b', 'all'];
const stamp = () => new Date(SIM_NOW).toISOString();
const notFound = 'Token not found';
const missing = { status: 404, error: notFound, body: {} };
/** A successful answer: `success`, `data`, then the rest in order. */
const ok = (data: unknown, more: Json = {}) => ({ body: { success: true, data, ...more } });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function oneOf(value: unknown, allowed: string[], name: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new BadRequest(`Invalid ${name}`);
  return value;
}

function intIn(value: unknown, name: string, fallback: number, min = -Infinity, max = Infinity): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new BadRequest(`${name} must be an integer`);
  if (n < min || n > max) throw new BadRequest(`${name} out of range`);
  return n;
}

function ids(value: unknown, name: string, max: number): string[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > max)
    throw new BadRequest(`${name} must hold 1 to ${max} items`);
  if (value.some((id) => typeof id !== 'string' || id.length < 32 || id.length > 44))
    throw new BadRequest(`Invalid id in ${name}`);
  return value as string[];
}

type Scope = { chain: string; platform: string };
const scopeOf = (source: Json, platforms: string[], chains = ALL_CHAINS): Scope => ({
  chain: oneOf(source.chain, chains, 'chain', 'chain_a'),
  platform: oneOf(source.platform, platforms, 'platform', 'platform_a'),
});
const inScope = (t: SimToken, s: Scope) =>
  (s.chain === 'all' || t.chain === s.chain) && (s.platform === 'all' || t.platform === s.platform);

const CORE = `mintId coinName coinSymbol currentViewers tokenMarketCap tokenPrice isCurrentlyLive
  totalStreamingTime chain platform`.split(/\s+/) as Array<keyof SimToken>;
const coreRecord = (t: SimToken) => Object.fromEntries(CORE.map((k) => [k, t[k]]));

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

const SORT_KEYS = {
  viewers: 'currentViewers',
  time: 'totalStreamingTime',
  averageViewers: 'averageViewers',
  marketCap: 'tokenMarketCap',
} as const;
const SPANS: Record<string, number> = { '1h': 1, '6h': 6, '12h': 12, '1d': 24, '7d': 168, '30d': 720 };

/** The route table: method, path pattern (its group is the mint) and handler. */
export function routes(data: Dataset, dialect: Dialect): Array<[string, RegExp, Handler]> {
  const found = (id: string, scope: Scope) => {
    const token = data.byMint.get(id);
    return token && inScope(token, scope) ? token : undefined;
  };
  const tokenFor = ({ mint, query }: Request) => {
    if (mint.length < 32 || mint.length > 44) throw new BadRequest('Invalid mint');
    return found(mint, scopeOf(query, ALL_PLATFORMS));
  };

  const listStreamers: Handler = ({ body }) => {
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
    const total = matched.length;
    const totalPages = Math.ceil(total / limit);
    const pagination = { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
    const rows = matched.slice((page - 1) * limit, page * limit).map(coreRecord);
    return ok(rows, { pagination, timestamp: stamp() });
  };

  const core: Handler = (req) => {
    const token = tokenFor(req);
    return token ? ok(coreRecord(token), { timestamp: stamp() }) : missing;
  };

  const sessions: Handler = (req) => {
    const limit = intIn(req.query.limit, 'limit', 20, undefined, 100);
    const page = intIn(req.query.page, 'page', 1);
    const token = tokenFor(req);
    const start = Math.max(0, (page - 1) * limit);
    return token ? ok(token.sessions.slice(start, start + Math.max(0, limit))) : missing;
  };

  /** A bulk endpoint over up to 25 tokens; `prepare` reads the body's own parameters first. */
  const batch =
    (prepare: (body: Json) => (t: SimToken) => Json): Handler =>
    ({ body }) => {
      const element = prepare(body);
      const mintIds = ids(body.mintIds, 'mintIds', 25);
      const scope = scopeOf(body, NO_C);
      const { results, errors } = collect(mintIds, 'mintId', (id) => {
        const token = found(id, scope);
        return token ? element(token) : notFound;
      });
      const total = mintIds.length;
      const summary = { total, successful: results.length, failed: errors.length, processingTime: 12 };
      return ok({ results, errors, summary });
    };

  const analytics = (body: Json) => {
    const period = oneOf(body.period, Object.keys(SPANS), 'period', '1d');
    const points = intIn(body.points, 'points', 100, 10, 500);
    const step = ((SPANS[period] ?? 24) * 3_600_000) / points;
    return (t: SimToken) => {
      const series = Array.from({ length: points }, (_, i) => {
        const at = SIM_NOW - (points - 1 - i) * step;
        // The curve of the sessions in the period, so it agrees with what the sessions endpoint says.
        const marketCap = Math.round(t.tokenMarketCap * (0.9 + 0.1 * Math.cos(at / 3_600_000 / 11)));
        return { at, viewers: viewersAt(t, at), marketCap };
      });
      const viewers = series.map((p) => p.viewers);
      const mean = Math.round((sum(viewers) / viewers.length) * 10) / 10;
      return dialect.analytics(t.mintId, period, series, { peak: Math.max(...viewers), mean });
    };
  };

  const complete = () => (t: SimToken) => {
    const sessions = { count: t.sessions.length, recent: t.sessions.slice(0, 5) };
    return dialect.complete(t.mintId, coreRecord(t), sessions, t.fees);
  };

  const botting: Handler = ({ body }) => {
    const mintIds = ids(body.mintIds, 'mintIds', 50);
    const hours = intIn(body.hours, 'hours', 24, 1, 168);
    const scope = scopeOf(body, ['platform_a', 'platform_b'], ['chain_a', 'chain_b']);
    const { results, errors } = collect(mintIds, 'mintId', (mintId) => {
      const token = found(mintId, scope);
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
        ? Math.round((sum(confidences) / confidences.length) * 100) / 100
        : 0,
    };
    return ok({ results, errors, summary }, { timestamp: stamp() });
  };

  const creatorFees: Handler = ({ body }) => {
    const addresses = ids(body.tokenAddresses, 'tokenAddresses', 100);
    const { results, errors } = collect(addresses, 'tokenAddress', (tokenAddress) => {
      const token = data.byMint.get(tokenAddress);
      if (!token) return notFound;
      return token.fees ? { tokenAddress, ...token.fees } : 'No fee data available';
    });
    const summary = { totalRequested: addresses.length, successful: results.length, failed: errors.length };
    return ok(results, { errors, summary, timestamp: stamp() });
  };

  const overview: Handler = ({ query }) => {
    const scope = scopeOf(query, ALL_PLATFORMS);
    const tokens = data.tokens.filter((t) => inScope(t, scope));
    const live = tokens.filter((t) => t.isCurrentlyLive);
    const sessions = tokens.flatMap((t) => t.sessions);
    const durations = sessions.map((s) => s.duration);
    const globalStats = {
      totalStreamers: tokens.length,
      liveStreamers: live.length,
      totalViewers: sum(live.map((t) => t.currentViewers)),
      avgSessionDuration: Math.round(sum(durations) / Math.max(1, durations.length)),
      longestActiveSession: Math.max(0, ...durations),
      sessionsToday: sessions.filter((x) => Date.parse(x.startTime) > SIM_NOW - 86_400_000).length,
      totalStreamingTime: sum(tokens.map((t) => t.totalStreamingTime)),
      currentActiveTime: live.length * 1_800,
      trackingStartDate: '2025-01-01T00:00:00.000Z',
      timestamp: stamp(),
    };
    const perPlatform = ['platform_a', 'platform_b', 'platform_c'].map((p) => [
      p,
      live.filter((t) => t.platform === p).length,
    ]);
    const top = live
      .sort((a, b) => b.currentViewers - a.currentViewers)
      .slice(0, 3)
      .map((t) => ({ mintId: t.mintId, currentViewers: t.currentViewers }));
    const liveMetrics = dialect.liveMetrics(Object.fromEntries(perPlatform), top);
    return ok({ globalStats, liveMetrics, timestamp: stamp() }, { cached: true, precomputed: false });
  };

  const heatmap: Handler = ({ query }) => {
    scopeOf(query, ALL_PLATFORMS);
    const max = (o: Record<string, number>) => Math.max(...Object.values(o));
    const { hourlyActivity, dailyActivity, consistencyData } = data;
    const calendar = { year: 2026, month: 11, daysInMonth: 30, startDayOfWeek: 0 };
    return ok(
      {
        daily: { hourlyActivity, maxActivity: max(hourlyActivity) },
        monthly: { dailyActivity, maxActivity: max(dailyActivity), calendar },
        consistency: { consistencyData },
      },
      { timestamp: stamp() },
    );
  };

  return [
    ['POST', /^\/streamers$/, listStreamers],
    ['GET', /^\/streamers\/([^/]+)\/core$/, core],
    ['GET', /^\/streamers\/([^/]+)\/sessions$/, sessions],
    ['POST', /^\/streamers\/analytics$/, batch(analytics)],
    ['POST', /^\/streamers\/complete$/, batch(complete)],
    ['POST', /^\/botting\/bulk$/, botting],
    ['POST', /^\/stats\/creator-fees\/bulk$/, creatorFees],
    ['GET', /^\/analytics\/overview$/, overview],
    ['GET', /^\/analytics\/heatmap$/, heatmap],
    ['GET', /^\/health$/, () => ({ body: dialect.health(stamp()) })],
  ];
}
