// How the simulator names and nests what the document leaves unstated: A is the first guess (the demo's); B
// names and nests every such field otherwise, so that nothing in the server can lean on either guess.
import type { SimSession } from './data.js';

export type DialectName = 'a' | 'b';

/** One analytics point, before it is named: its time (ms), viewers and market cap. */
export type SimPoint = { at: number; viewers: number; marketCap: number };

type Json = Record<string, unknown>;

/** Each answer's part: an analytics and a complete element of `data.results`, overview's `liveMetrics`. */
export interface Dialect {
  analytics(mintId: string, period: string, points: SimPoint[], stats: { peak: number; mean: number }): Json;
  complete(mintId: string, core: Json, sessions: { count: number; recent: SimSession[] }, fees?: Json): Json;
  liveMetrics(
    livePerPlatform: Record<string, number>,
    top: Array<{ mintId: string; currentViewers: number }>,
  ): Json;
  errorBody(status: number, message: string): Json;
  health(now: string): Json;
}

const A: Dialect = {
  analytics: (mintId, period, points, stats) => ({
    mintId,
    period,
    dataPoints: points.map(({ at, ...rest }) => ({ timestamp: new Date(at).toISOString(), ...rest })),
    stats: { peakViewers: stats.peak, averageViewers: stats.mean },
  }),
  complete: (mintId, core, sessions, fees) => ({
    mintId,
    core,
    sessionCount: sessions.count,
    recentSessions: sessions.recent,
    ...(fees ? { creatorFees: fees } : {}),
  }),
  liveMetrics: (livePerPlatform, top) => ({ byPlatform: livePerPlatform, topViewers: top }),
  errorBody: (_status, message) => ({ success: false, error: message }),
  health: (now) => ({ success: true, status: 'ok', uptime: 86_400, timestamp: now }),
};

/** Snake case, nested one level deeper, times as epoch seconds, lists where A has maps. */
const B: Dialect = {
  analytics: (mintId, period, points, stats) => ({
    token_address: mintId,
    span: period,
    readings: {
      timeline: points.map((p) => ({
        sampled_at: Math.round(p.at / 1000),
        watchers: p.viewers,
        cap_usd: p.marketCap,
      })),
    },
    rollup: { watchers_peak: stats.peak, watchers_mean: stats.mean },
  }),
  complete: (mintId, core, sessions, fees) => ({
    token_address: mintId,
    identity: core,
    activity: { session_total: sessions.count, last_sessions: sessions.recent },
    ...(fees ? { earnings: fees } : {}),
  }),
  liveMetrics: (livePerPlatform, top) => ({
    live_split: Object.entries(livePerPlatform).map(([platform_name, live_now]) => ({
      platform_name,
      live_now,
    })),
    top_live: top.map((t) => ({ token_address: t.mintId, watchers: t.currentViewers })),
  }),
  errorBody: (status, message) => ({
    success: false,
    failure_info: { http_status: status, explanation: message },
  }),
  health: (now) => ({ success: true, service_state: 'healthy', uptime_s: 86_400, checked_at: now }),
};

export const DIALECTS: Record<DialectName, Dialect> = { a: A, b: B };

export const dialectName = (value: string | undefined): DialectName =>
  value?.toLowerCase() === 'b' ? 'b' : 'a';
