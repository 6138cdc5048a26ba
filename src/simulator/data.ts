// A deterministic dataset for the simulator: the same seed always yields the same tokens and numbers.

export const SIM_NOW = Date.parse('2026-11-20T12:00:00.000Z');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const WORDS = 'Moon Pepe Doge Cat Frog Rocket Laser Based Giga Turbo Shiba Wojak Chad Bonk Pixel Neon'
  .concat(' Degen Alpha Sigma Zen')
  .split(' ');
const SUFFIXES = ['Inu', 'Coin', 'AI', 'Stream', 'Live', 'Club', 'Cult', 'Army', 'Verse', 'Party'];
const REASONS = [
  'viewer count flat while chat is idle',
  'sudden 10x viewer jump at stream start',
  'low chat-to-viewer ratio',
  'viewers drop to zero the moment the stream ends',
  'identical viewer counts across consecutive samples',
  'viewer peaks not matched by trading activity',
];

type SimPlatform = 'platform_a' | 'platform_b' | 'platform_c';

export interface SimSession {
  sessionId: string;
  mintId: string;
  startTime: string;
  endTime: string;
  duration: number;
  peakViewers: number;
  averageViewers: number;
}

export interface SimToken {
  mintId: string;
  coinName: string;
  coinSymbol: string;
  currentViewers: number;
  tokenMarketCap: number;
  tokenPrice: number;
  isCurrentlyLive: boolean;
  totalStreamingTime: number;
  chain: 'chain_a' | 'chain_b';
  platform: SimPlatform;
  averageViewers: number;
  sessions: SimSession[];
  /** undefined: the botting endpoint reports "no data" for this token. */
  botting?: { confidence: number; confidenceLevel: string; score: number; reasons: string[] };
  /** undefined: the creator-fees endpoint reports an error for this token. */
  fees?: { creatorAddress: string; totalFees: number; currency: string; feesInNativeCoin: number };
}

const shapes = new WeakMap<SimSession, number>();
/** The k of a session's curve, peak · sin(πx)^k, whose mean over the span is its averageViewers. */
function shapeOf(s: SimSession): number {
  const known = shapes.get(s);
  if (known !== undefined) return known;
  const target = s.peakViewers > 0 ? Math.min(0.99, s.averageViewers / s.peakViewers) : 1;
  const mean = (k: number) => {
    let sum = 0;
    for (let i = 0; i < 64; i++) sum += Math.sin(Math.PI * ((i + 0.5) / 64)) ** k;
    return sum / 64;
  };
  let [lo, hi] = [0.01, 40];
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (mean(mid) > target) lo = mid;
    else hi = mid;
  }
  shapes.set(s, (lo + hi) / 2);
  return (lo + hi) / 2;
}

/** A token's viewers at a moment (ms): its session's curve with a little deterministic jitter; else none. */
export function viewersAt(token: SimToken, at: number): number {
  for (const s of token.sessions) {
    const start = Date.parse(s.startTime);
    const end = Date.parse(s.endTime);
    if (at < start || at > end || end <= start) continue;
    // A live token's session under way has not come down yet: its curve stops at 80% of the arc.
    const x = ((at - start) / (end - start)) * (token.isCurrentlyLive && end === SIM_NOW ? 0.8 : 1);
    const jitter = 0.94 + 0.06 * Math.abs(Math.sin(at / 611_000));
    return Math.round(s.peakViewers * Math.sin(Math.PI * x) ** shapeOf(s) * jitter);
  }
  return 0;
}

const sessionsWithin = (token: SimToken, hours: number) =>
  token.sessions.filter((s) => Date.parse(s.endTime) >= SIM_NOW - hours * 3_600_000).length;

// A token's botting verdict over the last `hours` hours: the dataset's is the 24-hour one; more sessions in
// the window raise confidence and score, fewer lower them (CONTRIBUTING.md), and the level follows.
export function bottingOver(token: SimToken, hours: number): SimToken['botting'] {
  const base = token.botting;
  if (!base) return undefined;
  const ratio = (sessionsWithin(token, hours) + 1) / (sessionsWithin(token, 24) + 1);
  if (ratio === 1) return base;
  const factor = Math.max(0, 1 + 0.1 * Math.log(ratio));
  const confidence = Math.min(0.99, Math.round(base.confidence * factor * 100) / 100);
  const confidenceLevel = confidence >= 0.75 ? 'HIGH' : confidence >= 0.4 ? 'MEDIUM' : 'LOW';
  return { ...base, confidence, confidenceLevel, score: Math.min(100, Math.round(base.score * factor)) };
}

/** mulberry32: a tiny seeded PRNG, enough for fake data. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createDataset(seed = 42, counts = { platform_a: 160, platform_b: 60, platform_c: 40 }) {
  const rand = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const address = (length: number) => Array.from({ length }, () => pick([...BASE58])).join('');

  const tokens: SimToken[] = [];
  for (const [platform, count] of Object.entries(counts) as Array<[SimPlatform, number]>) {
    const chain = platform === 'platform_a' ? 'chain_a' : 'chain_b';
    for (let i = 0; i < count; i++) {
      const mintId = address(chain === 'chain_a' ? 44 : int(32, 44));
      const word = pick(WORDS);
      const live = rand() < 0.4;
      const botted = rand() < 0.25;
      const sessions: SimSession[] = [];
      // A live token's latest session is the one under way (it ends now).
      const idle = int(0, 48);
      let end = SIM_NOW - (live ? 0 : idle) * 3_600_000;
      for (let s = int(0, 45); s > 0; s--) {
        const duration = int(600, 14_400);
        const start = end - duration * 1000;
        const peak = int(5, botted ? 9_000 : 2_500);
        sessions.push({
          sessionId: `${mintId.slice(0, 8)}-${s}`,
          mintId,
          startTime: new Date(start).toISOString(),
          endTime: new Date(end).toISOString(),
          duration,
          peakViewers: peak,
          averageViewers: Math.round(peak * (0.3 + rand() * 0.5) * 10) / 10,
        });
        end = start - int(1, 72) * 3_600_000;
      }
      const marketCap = Math.round(10 ** (3 + rand() * 5));
      const level = botted ? 'HIGH' : pick(['MEDIUM', 'LOW', 'LOW', 'LOW']);
      const confidence = botted
        ? 0.75 + rand() * 0.24
        : level === 'MEDIUM'
          ? 0.4 + rand() * 0.3
          : rand() * 0.35;
      tokens.push({
        mintId,
        coinName: `${word} ${pick(SUFFIXES)}`,
        coinSymbol: (word.slice(0, 3) + pick(SUFFIXES).slice(0, 2)).toUpperCase(),
        currentViewers: live ? int(1, botted ? 12_000 : 3_000) : 0,
        tokenMarketCap: marketCap,
        tokenPrice: marketCap / 1_000_000_000,
        isCurrentlyLive: live,
        totalStreamingTime: sessions.reduce((sum, s) => sum + s.duration, 0),
        chain,
        platform,
        averageViewers: sessions.length
          ? Math.round((sessions.reduce((sum, s) => sum + s.averageViewers, 0) / sessions.length) * 10) / 10
          : 0,
        sessions,
        ...(rand() < 0.92
          ? {
              botting: {
                confidence: Math.round(confidence * 100) / 100,
                confidenceLevel: level,
                score: Math.round(confidence * 100 * (0.85 + rand() * 0.15)),
                reasons: botted
                  ? REASONS.filter(() => rand() < 0.5).slice(0, 4)
                  : level === 'MEDIUM'
                    ? [pick(REASONS)]
                    : [],
              },
            }
          : {}),
        ...(rand() < 0.9
          ? {
              fees: {
                creatorAddress: address(44),
                totalFees: Math.round(rand() * 50_000 * 100) / 100,
                currency: 'USD',
                feesInNativeCoin: Math.round(rand() * 300 * 1000) / 1000,
              },
            }
          : {}),
      });
    }
  }

  // A live token's viewers now are where its session's curve is now.
  for (const t of tokens)
    if (t.isCurrentlyLive && t.sessions.length) t.currentViewers = Math.max(1, viewersAt(t, SIM_NOW));

  // Hourly activity keyed "weekday-hour", busiest in the afternoon and on weekends.
  const hourlyActivity: Record<string, number> = {};
  for (let d = 0; d < 7; d++)
    for (let h = 0; h < 24; h++) {
      const wave = Math.max(0, Math.sin(((h - 6) / 24) * 2 * Math.PI));
      hourlyActivity[`${d}-${h}`] = Math.round(wave * (d === 0 || d === 6 ? 420 : 300) + rand() * 30);
    }
  const day = (offset: number) => new Date(SIM_NOW - offset * 86_400_000).toISOString().slice(0, 10);
  const dailyActivity: Record<string, number> = {};
  for (let d = 1; d <= 30; d++)
    dailyActivity[`2026-11-${String(d).padStart(2, '0')}`] = d <= 20 ? int(200, 1_300) : 0;
  const consistencyData: Record<string, number> = {};
  for (let offset = 89; offset >= 0; offset--) consistencyData[day(offset)] = rand() < 0.1 ? 0 : int(20, 400);

  const byMint = new Map(tokens.map((t) => [t.mintId, t]));
  return { tokens, byMint, hourlyActivity, dailyActivity, consistencyData };
}

export type Dataset = ReturnType<typeof createDataset>;

/** A list_streamers page of `rows` rows made from a real one, each with a distinct mint id (bench samples). */
export function widenPage(page: { data: Array<Record<string, unknown>> }, rows: number) {
  const data = Array.from({ length: rows }, (_, i) => {
    const row = page.data[i % page.data.length];
    return { ...row, mintId: `${String(i).padStart(4, 'x')}${String(row?.mintId).slice(4)}` };
  });
  const pagination = { page: 1, limit: rows, total: rows, totalPages: 1, hasNext: false, hasPrev: false };
  return { ...page, data, pagination };
}
