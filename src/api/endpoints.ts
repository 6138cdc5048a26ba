// Every upstream endpoint as data (the document's "Endpoints" and "Limits").
import type { Shape } from './body.js';
import type { ApiRequest } from './client.js';

export const CHAINS = ['chain_a', 'chain_b', 'all'] as const;
export const PLATFORMS = ['platform_a', 'platform_b', 'platform_c', 'all'] as const;
export type Chain = (typeof CHAINS)[number];
export type Platform = (typeof PLATFORMS)[number];
export const DEFAULT_CHAIN = 'chain_a';

export const PLATFORM_CHAIN = {
  platform_a: 'chain_a',
  platform_b: 'chain_b',
  platform_c: 'chain_b',
} as const;

export interface Scope {
  chains: readonly [Chain, ...Chain[]];
  platforms: readonly [Platform, ...Platform[]];
}

export const SCOPES = {
  /** core, sessions, overview, heatmap */
  any: { chains: CHAINS, platforms: PLATFORMS },
  /** /streamers, analytics, complete: no platform_c */
  noPlatformC: { chains: CHAINS, platforms: ['platform_a', 'platform_b', 'all'] },
  /** /botting/bulk: no `all` at all */
  botting: { chains: ['chain_a', 'chain_b'], platforms: ['platform_a', 'platform_b'] },
} as const satisfies Record<string, Scope>;

export const SHAPES = {
  streamers: { data: 'array', pagination: 'object?' },
  core: { data: 'object' },
  sessions: { data: 'array' },
  batch: { data: { results: 'array', errors: 'array?', summary: 'object?' } },
  fees: { data: 'array', errors: 'array?', summary: 'object?' },
  overview: { data: { globalStats: 'object?', liveMetrics: 'object?' } },
  heatmap: { data: { daily: 'object?', monthly: 'object?', consistency: 'object?' } },
} as const satisfies Record<string, Shape>;

export interface Bound {
  min: number;
  max?: number;
  default: number;
}

export const PERIODS = ['1h', '6h', '12h', '1d', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = '1d';
export const PERIOD_HOURS = { '1h': 1, '6h': 6, '12h': 12, '1d': 24, '7d': 168, '30d': 720 } as const;

export interface Endpoint {
  method: 'GET' | 'POST';
  /** Below the base URL; `{mint}` is the token's id, percent-encoded when the request is built. */
  path: string;
  shape?: Shape;
  scope?: Scope;
  ids?: { field: string; max: number };
  bounds?: Record<string, Bound>;
}

/** A POST of `mintIds` answered as a batch (`data.results`). */
const bulk = (path: string, scope: Scope, max: number) =>
  ({ method: 'POST', path, shape: SHAPES.batch, scope, ids: { field: 'mintIds', max } }) as const;

export const ENDPOINTS = {
  streamers: {
    method: 'POST',
    path: '/streamers',
    shape: SHAPES.streamers,
    scope: SCOPES.noPlatformC,
    ids: { field: 'tokenAddresses', max: 100 },
    bounds: { limit: { min: 1, max: 1000, default: 100 }, page: { min: 1, default: 1 } },
  },
  core: { method: 'GET', path: '/streamers/{mint}/core', shape: SHAPES.core, scope: SCOPES.any },
  sessions: {
    method: 'GET',
    path: '/streamers/{mint}/sessions',
    shape: SHAPES.sessions,
    scope: SCOPES.any,
    bounds: { limit: { min: 1, max: 100, default: 20 }, page: { min: 1, default: 1 } },
  },
  analytics: {
    ...bulk('/streamers/analytics', SCOPES.noPlatformC, 25),
    bounds: { points: { min: 10, max: 500, default: 100 } },
  },
  complete: bulk('/streamers/complete', SCOPES.noPlatformC, 25),
  botting: {
    ...bulk('/botting/bulk', SCOPES.botting, 50),
    bounds: { hours: { min: 1, max: 168, default: 24 } },
  },
  fees: {
    method: 'POST',
    path: '/stats/creator-fees/bulk',
    shape: SHAPES.fees,
    ids: { field: 'tokenAddresses', max: 100 },
  },
  overview: { method: 'GET', path: '/analytics/overview', shape: SHAPES.overview, scope: SCOPES.any },
  heatmap: { method: 'GET', path: '/analytics/heatmap', shape: SHAPES.heatmap, scope: SCOPES.any },
  health: { method: 'GET', path: '/health' },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

export const idLimit = (name: EndpointName): number =>
  (ENDPOINTS[name] as Endpoint).ids?.max ?? Number.POSITIVE_INFINITY;

/** A list in pieces of at most `size`, in order: how an id list longer than an endpoint's limit is sent. */
export function batches<T>(list: readonly T[], size: number): T[][] {
  const pieces: T[][] = [];
  for (let at = 0; at < list.length; at += size) pieces.push(list.slice(at, at + size));
  return pieces;
}

/** The request to one endpoint: `{mint}` filled in, the rest as the query (GET) or JSON body (POST). */
export function requestFor(name: EndpointName, params: Record<string, unknown> = {}): ApiRequest {
  const endpoint: Endpoint = ENDPOINTS[name];
  const { mint, ...rest } = params;
  const path =
    mint === undefined ? endpoint.path : endpoint.path.replace('{mint}', encodeURIComponent(String(mint)));
  const req: ApiRequest = { method: endpoint.method, path };
  if (endpoint.shape) req.shape = endpoint.shape;
  if (endpoint.method === 'POST') req.body = rest;
  else if (Object.keys(rest).length) req.query = rest as NonNullable<ApiRequest['query']>;
  return req;
}
