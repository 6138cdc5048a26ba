// What an upstream answer says of tokens, as observations to keep: botting verdicts and failures
// (/botting/bulk), streamer records (/streamers, /streamers/{mint}/core) and creator fees. Read with the
// document's field names only; anything else in an answer is not kept.
import type { ApiRequest } from '../api/client.js';
import type { Observation } from './types.js';

type Json = Record<string, unknown>;

const record = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** Text kept of upstream strings: printable, bounded (they are data; the tools quote them when shown). */
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' ? v.replace(/[\p{Cc}\p{Cf}]/gu, '').slice(0, max) || null : null;
const mintOf = (v: unknown): string | undefined => {
  const id = typeof v === 'string' ? v.trim() : '';
  return /^[A-Za-z0-9]{32,44}$/.test(id) ? id : undefined;
};
const CHAINS = new Set(['chain_a', 'chain_b']);

/** The observations one successful upstream answer carries, at `now` (ms). */
export function observationsOf(req: ApiRequest, body: Json, now = Date.now()): Observation[] {
  const minute = Math.floor(now / 60_000);
  const asked = record(req.body);
  const askedChain = String(asked.chain ?? req.query?.chain ?? 'chain_a');
  const askedPlatform = String(asked.platform ?? req.query?.platform ?? '') || null;
  const out: Observation[] = [];
  const streamer = (r: Json) => {
    const mint = mintOf(r.mintId);
    if (!mint) return;
    const chain = typeof r.chain === 'string' && CHAINS.has(r.chain) ? r.chain : askedChain;
    if (!CHAINS.has(chain)) return;
    out.push({
      mint,
      chain,
      source: 'streamer',
      hours: 0,
      minute,
      platform: text(r.platform, 32) ?? askedPlatform,
      viewers: finite(r.currentViewers),
      live: typeof r.isCurrentlyLive === 'boolean' ? r.isCurrentlyLive : null,
      marketCap: finite(r.tokenMarketCap),
      price: finite(r.tokenPrice),
    });
  };
  if (req.path === '/botting/bulk') {
    const data = record(body.data);
    const hours = Number(asked.hours ?? 24);
    const base = { chain: askedChain, source: 'botting' as const, hours, minute, platform: askedPlatform };
    for (const r of array(data.results).map(record)) {
      const mint = mintOf(r.mintId);
      if (!mint) continue;
      out.push({
        ...base,
        mint,
        level: text(r.confidenceLevel, 32),
        confidence: finite(r.confidence),
        score: finite(r.score),
      });
    }
    for (const e of array(data.errors).map(record)) {
      const mint = mintOf(e.mintId);
      if (mint) out.push({ ...base, mint, error: text(e.error, 200) ?? 'failed' });
    }
  } else if (req.path === '/streamers') {
    for (const r of array(body.data)) streamer(record(r));
  } else if (/^\/streamers\/[^/]+\/core$/.test(req.path)) {
    streamer(record(body.data));
  } else if (req.path === '/stats/creator-fees/bulk') {
    for (const f of array(body.data).map(record)) {
      const mint = mintOf(f.tokenAddress);
      if (!mint) continue;
      out.push({
        mint,
        chain: '',
        source: 'fees',
        hours: 0,
        minute,
        fees: finite(f.totalFees),
        feesNative: finite(f.feesInNativeCoin),
        currency: text(f.currency, 16),
      });
    }
  }
  return out;
}
