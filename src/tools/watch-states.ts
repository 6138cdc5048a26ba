// What a watchlist check read of each token: its state in the investigation's answers (the verdict, the
// failure, live and viewers), kept as the list's last check and listed by detailed mode.
import type { ApiRequest } from '../api/client.js';
import { asArray, asRecord } from '../format/batch.js';
import { parseFindings } from '../format/botting.js';
import { describeError } from '../format/errors.js';
import type { TokenState } from '../store/types.js';
import { clean } from '../untrusted/text.js';
import { UNCOVERED_PLATFORM } from './coverage.js';

/** Each token's state in the answers the investigation received (and the requests that failed). */
export function statesOf(
  ids: readonly string[],
  answers: Array<{ req: ApiRequest; body?: Record<string, unknown>; error?: unknown }>,
): Record<string, TokenState> {
  const states: Record<string, TokenState> = Object.create(null);
  const at = (id: string) => {
    states[id] ??= {};
    return states[id] as TokenState;
  };
  const wanted = new Set(ids);
  for (const { req, body, error } of answers) {
    if (req.path === '/botting/bulk') {
      const asked = asArray(asRecord(req.body).mintIds).map(String);
      if (!body) {
        const reason = describeError(error).split('\n')[0] ?? 'failed';
        for (const id of asked) if (wanted.has(id)) at(id).error = reason;
        continue;
      }
      const data = asRecord(body.data);
      for (const f of parseFindings(data.results))
        if (wanted.has(f.mintId)) Object.assign(at(f.mintId), { level: f.level, confidence: f.confidence });
      for (const e of asArray(data.errors).map(asRecord)) {
        const id = clean(e.mintId, 64);
        if (wanted.has(id)) at(id).error = clean(e.error, 200) || 'failed';
      }
    } else if (req.path === '/streamers' && body) {
      for (const r of asArray(body.data).map(asRecord)) {
        const id = clean(r.mintId, 64);
        if (!wanted.has(id)) continue;
        const s = at(id);
        if (typeof r.isCurrentlyLive === 'boolean') s.live = r.isCurrentlyLive;
        if (typeof r.currentViewers === 'number') s.viewers = r.currentViewers;
        if (r.platform === UNCOVERED_PLATFORM) s.notCovered = true;
      }
    }
  }
  // A platform_c token is not covered by botting analysis: neither a verdict nor a failure (as the
  // investigation shows it). A covered token the botting answers did not mention at all failed.
  for (const id of ids) {
    const s = states[id];
    if (s?.notCovered) {
      delete s.level;
      delete s.confidence;
      delete s.error;
    } else if (!s?.level && !s?.error) at(id).error = 'not in the answer';
  }
  return states;
}

/** A token's state now, as detailed mode lists it. */
export interface StateRow {
  mintId: string;
  level: string | null;
  confidence: number | null;
  live: boolean | null;
  viewers: number | null;
  failed?: string;
  notCovered?: true;
}
export const stateRow = (mintId: string, s: TokenState | undefined): StateRow => ({
  mintId,
  level: s?.level ?? null,
  confidence: s?.confidence ?? null,
  live: s?.live ?? null,
  viewers: s?.viewers ?? null,
  ...(s?.error ? { failed: s.error } : {}),
  ...(s?.notCovered ? { notCovered: true as const } : {}),
});
