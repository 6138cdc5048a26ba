// The interface document's limits, copied by hand from ../shared/seeds (the only truth about the upstream).
// The schema test holds every tool's JSON Schema to this table; the invalid-input test probes each bound.

export type Param =
  | { kind: 'ids'; min: number; max: number; required: true }
  | { kind: 'id'; required: true }
  | { kind: 'int'; min?: number; max?: number; default: number }
  | { kind: 'enum'; values: readonly string[]; default?: string; required?: true }
  | { kind: 'bool'; default: boolean }
  /** A list of free strings (investigate_botting's levels: whatever the upstream sends). */
  | { kind: 'strings'; min: number; max: number; itemMax: number }
  /** run_analysis's program: a string up to `max` characters. */
  | { kind: 'code'; max: number; required: true }
  /** History: a watchlist's name or note; the id list some of watchlist's actions take. */
  | { kind: 'text'; min?: number; max: number; required?: true }
  | { kind: 'someIds'; min: number; max: number };

const CHAIN_ALL = { kind: 'enum', values: ['chain_a', 'chain_b', 'all'], default: 'chain_a' } as const;
const PLATFORM_ANY = { kind: 'enum', values: ['platform_a', 'platform_b', 'platform_c', 'all'] } as const;
const PLATFORM_NO_C = { kind: 'enum', values: ['platform_a', 'platform_b', 'all'] } as const;
const FORMAT = { kind: 'enum', values: ['concise', 'detailed'], default: 'concise' } as const;

export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  params: Record<string, Param>;
}

export const LIMITS: Record<string, Endpoint> = {
  list_streamers: {
    method: 'POST',
    path: '/streamers',
    params: {
      tokenAddresses: { kind: 'ids', min: 1, max: 100, required: true },
      sortBy: {
        kind: 'enum',
        values: ['viewers', 'time', 'averageViewers', 'marketCap'],
        default: 'viewers',
      },
      sortOrder: { kind: 'enum', values: ['asc', 'desc'], default: 'desc' },
      limit: { kind: 'int', min: 1, max: 1000, default: 100 },
      page: { kind: 'int', min: 1, default: 1 },
      chain: CHAIN_ALL,
      platform: PLATFORM_NO_C,
      response_format: FORMAT,
    },
  },
  get_streamer_core: {
    method: 'GET',
    path: '/streamers/{mint}/core',
    params: {
      mint: { kind: 'id', required: true },
      chain: CHAIN_ALL,
      platform: PLATFORM_ANY,
      response_format: FORMAT,
    },
  },
  get_streamer_sessions: {
    method: 'GET',
    path: '/streamers/{mint}/sessions',
    params: {
      mint: { kind: 'id', required: true },
      // The document states no minimum; the upstream refuses 0 and negatives, so they are refused first.
      limit: { kind: 'int', min: 1, max: 100, default: 20 },
      page: { kind: 'int', min: 1, default: 1 },
      chain: CHAIN_ALL,
      platform: PLATFORM_ANY,
      response_format: FORMAT,
    },
  },
  get_streamers_analytics: {
    method: 'POST',
    path: '/streamers/analytics',
    params: {
      mintIds: { kind: 'ids', min: 1, max: 25, required: true },
      period: { kind: 'enum', values: ['1h', '6h', '12h', '1d', '7d', '30d'], default: '1d' },
      points: { kind: 'int', min: 10, max: 500, default: 100 },
      chain: CHAIN_ALL,
      platform: PLATFORM_NO_C,
      response_format: FORMAT,
    },
  },
  get_streamers_complete: {
    method: 'POST',
    path: '/streamers/complete',
    params: {
      mintIds: { kind: 'ids', min: 1, max: 25, required: true },
      chain: CHAIN_ALL,
      platform: PLATFORM_NO_C,
      response_format: FORMAT,
    },
  },
  analyze_botting: {
    method: 'POST',
    path: '/botting/bulk',
    params: {
      mintIds: { kind: 'ids', min: 1, max: 50, required: true },
      hours: { kind: 'int', min: 1, max: 168, default: 24 },
      chain: { kind: 'enum', values: ['chain_a', 'chain_b'], default: 'chain_a' },
      platform: { kind: 'enum', values: ['platform_a', 'platform_b'] },
      response_format: FORMAT,
    },
  },
  get_creator_fees: {
    method: 'POST',
    path: '/stats/creator-fees/bulk',
    params: { tokenAddresses: { kind: 'ids', min: 1, max: 100, required: true }, response_format: FORMAT },
  },
  get_analytics_overview: {
    method: 'GET',
    path: '/analytics/overview',
    params: { chain: CHAIN_ALL, platform: PLATFORM_ANY, response_format: FORMAT },
  },
  get_activity_heatmap: {
    method: 'GET',
    path: '/analytics/heatmap',
    params: { chain: CHAIN_ALL, platform: PLATFORM_ANY, response_format: FORMAT },
  },
  check_health: { method: 'GET', path: '/health', params: { response_format: FORMAT } },
};

/** A valid mint id of the given length (base58 alphabet). */
export const idOfLength = (n: number, fill = 'A') =>
  `${'7xKX'.slice(0, Math.min(4, n))}${fill.repeat(Math.max(0, n - 4))}`;

/** The smallest valid arguments for a tool. */
export function minimalArgs(tool: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(LIMITS[tool]?.params ?? {})) {
    if (p.kind === 'ids') args[name] = [idOfLength(44)];
    if (p.kind === 'id') args[name] = idOfLength(44);
  }
  return args;
}

/** Tools that join several endpoints; their parameters come from the issue that asked for them. */
export const COMPOSITE: Record<string, Record<string, Param>> = {
  investigate_botting: {
    mintIds: { kind: 'ids', min: 1, max: 500, required: true },
    hours: { kind: 'int', min: 1, max: 168, default: 24 },
    includeCreatorFees: { kind: 'bool', default: false },
    sortBy: {
      kind: 'enum',
      values: ['suspicion', 'viewers', 'marketCap', 'score', 'confidence', 'fees'],
      default: 'suspicion',
    },
    levels: { kind: 'strings', min: 1, max: 20, itemMax: 32 },
    liveOnly: { kind: 'bool', default: false },
    offset: { kind: 'int', min: 0, default: 0 },
    chain: { kind: 'enum', values: ['chain_a', 'chain_b'], default: 'chain_a' },
    platform: { kind: 'enum', values: ['platform_a', 'platform_b'] },
    response_format: FORMAT,
  },
  run_analysis: {
    code: { kind: 'code', max: 20_000, required: true },
    response_format: FORMAT,
  },
  // History (issue 31).
  watchlist: {
    action: { kind: 'enum', values: ['save', 'add', 'remove', 'delete', 'list', 'show'], required: true },
    name: { kind: 'text', min: 1, max: 64 },
    mintIds: { kind: 'someIds', min: 1, max: 500 },
    chain: { kind: 'enum', values: ['chain_a', 'chain_b'], default: 'chain_a' },
    note: { kind: 'text', max: 500 },
    response_format: FORMAT,
  },
  check_watchlist: {
    name: { kind: 'text', min: 1, max: 64, required: true },
    hours: { kind: 'int', min: 1, max: 168, default: 24 },
    response_format: FORMAT,
  },
  get_token_history: {
    mintIds: { kind: 'ids', min: 1, max: 50, required: true },
    chain: { kind: 'enum', values: ['chain_a', 'chain_b'], default: 'chain_a' },
    days: { kind: 'int', min: 1, max: 3650, default: 30 },
    response_format: FORMAT,
  },
};
