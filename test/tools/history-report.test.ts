// The history tools' reports from small inputs: get_token_history ranks tokens by days flagged and says when
// live status was never seen; check_watchlist lists the changes an analyst acts on first.
import { describe, expect, it } from 'vitest';
import { sparkline } from '../../src/format/text.js';
import type { LevelDay } from '../../src/store/types.js';
import { changesBetween } from '../../src/tools/check-watchlist.js';
import { tokenHistories } from '../../src/tools/get-token-history.js';

const day = (mint: string, d: number, level: string, confidence: number): LevelDay => ({
  mint,
  day: d,
  level,
  count: 1,
  confidence,
  score: null,
});

describe('get_token_history report', () => {
  it('ranks tokens by days flagged, the order asked on a tie; levels most suspicious first', () => {
    const levels = [
      day('a', 1, 'LOW', 0.2),
      day('b', 1, 'HIGH', 0.9),
      day('b', 2, 'HIGH', 0.9),
      day('c', 1, 'HIGH', 0.9),
      day('c', 2, 'MEDIUM', 0.5),
    ];
    const seen = ['a', 'b', 'c'].map((mint) => ({ mint, first: 0, last: 0 }));
    const read = tokenHistories(['a', 'c', 'b'], levels, [], seen);
    expect(read.tokens.map((t) => [t.mintId, t.flaggedDays.length])).toEqual([
      ['b', 2],
      ['c', 1],
      ['a', 0],
    ]);
    expect(read.levels).toEqual(['HIGH', 'MEDIUM', 'LOW']);
    // No streamer record: whether it was live is unknown, not "0 days".
    expect(read.tokens.every((t) => t.liveDays === null)).toBe(true);
    const withLive = tokenHistories(
      ['a'],
      levels,
      [{ mint: 'a', day: 1, peakViewers: 3, live: false, count: 1 }],
      seen,
    );
    expect(withLive.tokens[0]?.liveDays).toBe(0);
  });

  it('draws rows on one scale: all-HIGH and all-LOW do not look alike', () => {
    const range = { min: 0, max: 2 };
    expect(sparkline([2, 2, 2], 30, range)).toBe('███');
    expect(sparkline([0, 0, 0], 30, range)).toBe('▁▁▁');
    expect(sparkline([2, 2, 2])).toBe('▁▁▁');
  });
});

describe('check_watchlist changes', () => {
  it('lists level moves, failures and recoveries before live status, viewers and new tokens', () => {
    const before = { a: { level: 'LOW', live: false }, b: { level: 'LOW', viewers: 5 }, c: { error: 'x' } };
    const now = {
      a: { level: 'LOW', live: true },
      b: { level: 'HIGH', viewers: 50 },
      c: { level: 'LOW' },
      d: { level: 'LOW' },
    };
    expect(changesBetween(['d', 'a', 'b', 'c'], before, now).map((c) => `${c.kind} ${c.mintId}`)).toEqual([
      'level b',
      'recovered c',
      'live a',
      'viewers b',
      'new d',
    ]);
  });
});
