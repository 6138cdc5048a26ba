// get_token_history: what this key's history holds of up to 50 tokens over a number of days, one row per day.
import * as z from 'zod';
import { type Finding, flagging, rankFindings } from '../format/botting.js';
import { fitRows, type Rendered, result } from '../format/result.js';
import { num, plural, shortener, sparkline, table } from '../format/text.js';
import type { BoardData, HistoryDay, LevelEntry, ViewHistory } from '../report/view-types.js';
import type { LevelDay, Seen, Store, StreamDay } from '../store/types.js';
import { clean } from '../untrusted/text.js';
import type { LocalRead } from './analysis-api.js';
import { idList } from './shared.js';
import { type CallContext, defineTool, type RenderContext, type ViewData } from './tool.js';
import { controlProblem, watchlist, withStore } from './watchlist.js';

export interface DayRow {
  date: string;
  /** The level of the day's most confident verdict; null on a day with streamer records only. */
  level: string | null;
  confidence: number | null;
  score: number | null;
  verdicts: number;
  peakViewers: number | null;
  live: boolean | null;
}

export interface TokenHistory {
  mintId: string;
  firstSeen: string;
  lastSeen: string;
  daysRecorded: number;
  flaggedDays: string[];
  levelChanges: Array<{ date: string; from: string; to: string }>;
  peakViewers: number | null;
  /** Days it was seen live; null when no record said whether it was live. */
  liveDays: number | null;
  days: DayRow[];
}

const dateOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const minuteIso = (m: number) => new Date(m * 60_000).toISOString().replace(/:\d\d\.\d+Z$/, 'Z');

/** Each token's days, its level changes and flagged days, from the store's daily groups. */
export function tokenHistories(
  ids: readonly string[],
  levels: readonly LevelDay[],
  streams: readonly StreamDay[],
  seen: readonly Seen[],
): { tokens: TokenHistory[]; flaggedLevels: string[]; flaggedRule?: string; levels: string[] } {
  const days = new Map<string, Map<number, DayRow>>();
  // A year of 50 tokens is 18,250 day rows over 365 dates: each date written once.
  const dates = new Map<number, string>();
  const dateOfDay = (day: number) => {
    let date = dates.get(day);
    if (date === undefined) {
      date = dateOf(day);
      dates.set(day, date);
    }
    return date;
  };
  const row = (mint: string, day: number) => {
    let byDay = days.get(mint);
    if (!byDay) {
      byDay = new Map();
      days.set(mint, byDay);
    }
    let r = byDay.get(day);
    if (!r) {
      r = {
        date: dateOfDay(day),
        level: null,
        confidence: null,
        score: null,
        verdicts: 0,
        peakViewers: null,
        live: null,
      };
      byDay.set(day, r);
    }
    return r;
  };
  for (const l of levels) {
    const r = row(l.mint, l.day);
    r.verdicts += l.count;
    // The day's level: its most confident verdict's, the first level by name on a tie (the set and order
    // of levels are not documented).
    const c = l.confidence ?? -1;
    const best = r.confidence ?? -1;
    if (r.level === null || c > best || (c === best && l.level < r.level)) {
      r.level = l.level;
      r.confidence = l.confidence;
      r.score = l.score;
    }
  }
  for (const s of streams) {
    const r = row(s.mint, s.day);
    r.peakViewers = s.peakViewers;
    r.live = s.live;
  }
  const dayLevels = [...days.values()].flatMap((m) => [...m.values()]).filter((r) => r.level !== null);
  const findings = dayLevels.map((r) => ({ level: r.level, confidence: r.confidence }) as Finding);
  const flag = flagging(findings);
  // Every recorded level, most suspicious first (the botting tools' order: by mean confidence).
  const levelOrder = [...new Set(rankFindings(findings).map((f) => f.level))];
  const seenOf = new Map(seen.map((s) => [s.mint, s]));
  const tokens: TokenHistory[] = [];
  for (const mintId of ids) {
    const byDay = days.get(mintId);
    const s = seenOf.get(mintId);
    if (!byDay || !s) continue;
    const sorted = [...byDay.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    const levelChanges: TokenHistory['levelChanges'] = [];
    let last: string | null = null;
    for (const r of sorted) {
      if (r.level === null) continue;
      if (last !== null && r.level !== last) levelChanges.push({ date: r.date, from: last, to: r.level });
      last = r.level;
    }
    const viewers = sorted.map((r) => r.peakViewers).filter((v): v is number => v !== null);
    tokens.push({
      mintId,
      firstSeen: minuteIso(s.first),
      lastSeen: minuteIso(s.last),
      daysRecorded: sorted.length,
      flaggedDays: sorted.filter((r) => r.level !== null && flag.levels.includes(r.level)).map((r) => r.date),
      levelChanges,
      peakViewers: viewers.length ? Math.max(...viewers) : null,
      liveDays: sorted.some((r) => r.live !== null) ? sorted.filter((r) => r.live).length : null,
      days: sorted,
    });
  }
  // Most flagged first (then most days recorded); the order asked on a tie.
  tokens.sort((a, b) => b.flaggedDays.length - a.flaggedDays.length || b.daysRecorded - a.daysRecorded);
  return {
    tokens,
    levels: levelOrder,
    flaggedLevels: flag.levels,
    ...(flag.rule ? { flaggedRule: flag.rule } : {}),
  };
}

/** Reads and renders the history of `ids`: shared by the tool and run_analysis's api. */
export async function readHistory(
  store: Store,
  owner: string,
  args: { mintIds: string[]; chain: string; days: number },
) {
  // The last `days` days, today (UTC) included.
  const since = (Math.floor(Date.now() / 86_400_000) - args.days + 1) * 1440;
  const [levels, streams, seen] = await Promise.all([
    store.levelDays(owner, args.mintIds, args.chain, since),
    store.streamDays(owner, args.mintIds, args.chain, since),
    store.seen(owner, args.mintIds, args.chain),
  ]);
  const read = tokenHistories(args.mintIds, levels, streams, seen);
  const found = new Set(read.tokens.map((t) => t.mintId));
  return { ...read, notRecorded: args.mintIds.filter((id) => !found.has(id)) };
}

/** The days of history a view shows beside the upstream's window. */
export const VIEW_DAYS = 30;

/**
 * The recorded levels of `ids` for a view, read by the tool during its call (the view asks for nothing).
 * The report's levels come first, as they are; any other recorded level after, flagged as history flags it.
 */
export async function viewHistory(
  ctx: Pick<CallContext, 'history'>,
  ids: readonly string[],
  chain: string,
  report: readonly LevelEntry[] = [],
): Promise<ViewHistory> {
  const read = ctx.history
    ? await ctx.history.use((store, owner) =>
        readHistory(store, owner, { mintIds: [...ids], chain, days: VIEW_DAYS }),
      )
    : { unavailable: 'this server keeps no history' };
  if ('unavailable' in read) return { unavailable: clean(read.unavailable, 200) };
  const levels = [...report];
  const tokens = read.value.tokens.map((t): [string, HistoryDay[]] => [
    t.mintId,
    t.days.map((d) => ({ date: d.date, level: d.level === null ? null : clean(d.level, 16) })),
  ]);
  for (const [, days] of tokens)
    for (const { level } of days) {
      if (level === null) continue;
      const entry = levels.find((l) => l.level === level);
      if (entry && !report.includes(entry)) entry.count++;
      else if (!entry)
        levels.push({
          level,
          count: 1,
          flagged: read.value.flaggedLevels.some((f) => clean(f, 16) === level),
        });
    }
  return { days: VIEW_DAYS, levels, tokens: Object.fromEntries(tokens) };
}

/** Runs a board's tool with the board it hands the view held back, then hands it on with the rows' history. */
export async function withViewHistory<C extends CallContext, T>(
  ctx: C,
  chain: string,
  fn: (ctx: C) => T,
): Promise<T> {
  const { view } = ctx;
  if (!view) return fn(ctx);
  let board: BoardData | undefined;
  const out = fn({ ...ctx, view: (d: ViewData) => (board = d as unknown as BoardData) });
  if (board) {
    const { rows, levels } = board as BoardData;
    const history = await viewHistory(ctx, [...new Set(rows.map((r) => r.mintId))], chain, levels);
    view({ ...(board as BoardData), history } as unknown as ViewData);
  }
  return out;
}

function render(
  args: { mintIds: string[]; chain: string; days: number },
  read: Awaited<ReturnType<typeof readHistory>>,
  ctx: RenderContext,
): Rendered {
  const { tokens, notRecorded, flaggedLevels, levels } = read;
  const flaggedName = flaggedLevels.length ? flaggedLevels.join(' or ') : 'HIGH';
  const headline = tokens.length
    ? `Token history (${args.chain}, last ${plural(args.days, 'day')}): ${plural(tokens.length, 'token')} recorded of ${args.mintIds.length} asked, most flagged first`
    : `Token history (${args.chain}, last ${plural(args.days, 'day')}): nothing was recorded of the ${plural(args.mintIds.length, 'token')} asked`;
  const short = shortener(tokens.map((t) => t.mintId));
  const query = { mintIds: args.mintIds, chain: args.chain, days: args.days };
  // The strip's scale is one for every row: the least suspicious level lowest, the most suspicious highest.
  const height = (level: string | null) =>
    level === null ? null : levels.length - 1 - levels.indexOf(level);
  const range = { min: 0, max: Math.max(1, levels.length - 1) };
  const bar = (level: string) => sparkline([height(level)], 1, range);
  const legend = `Levels by day (oldest left; · no verdict): ${levels.map((l) => `${bar(l)} ${l}`).join(', ')}`;
  return fitRows(
    tokens,
    ctx,
    {
      what: 'tokens',
      how: (n) => `Ask again for the other ${tokens.length - n} recorded ids.`,
    },
    (rows) =>
      result({
        headline,
        lines: [
          rows.length
            ? `Flagged: ${flaggedName}; a day's level is its most confident verdict's, whatever window (hours) was analysed.`
            : undefined,
          rows.length && levels.length ? legend : undefined,
          ...(rows.length
            ? table(
                [
                  { header: 'mint' },
                  { header: 'days', align: 'right' },
                  { header: 'flagged', align: 'right' },
                  { header: 'latest' },
                  { header: 'peak viewers', align: 'right' },
                  { header: 'live days', align: 'right' },
                  { header: 'first seen' },
                  { header: 'last seen' },
                  { header: 'levels by day' },
                ],
                rows.map((t) => {
                  const latest = [...t.days].reverse().find((d) => d.level !== null);
                  return [
                    short(t.mintId),
                    String(t.daysRecorded),
                    String(t.flaggedDays.length),
                    latest ? `${latest.level} ${num(latest.confidence)} (${latest.date})` : '–',
                    t.peakViewers === null ? '–' : num(t.peakViewers),
                    t.liveDays === null ? '–' : String(t.liveDays),
                    t.firstSeen,
                    t.lastSeen,
                    sparkline(
                      t.days.map((d) => height(d.level)),
                      30,
                      range,
                    ),
                  ];
                }),
              )
            : []),
          ...rows
            .filter((t) => t.levelChanges.length)
            .map(
              (t) =>
                `Level changes ${short(t.mintId)}: ${t.levelChanges.map((c) => `${c.date} ${c.from}→${c.to}`).join(', ')}`,
            ),
          ...rows
            .filter((t) => t.flaggedDays.length)
            .map((t) => `Flagged days ${short(t.mintId)}: ${t.flaggedDays.join(', ')}`),
          notRecorded.length
            ? `Never recorded (${notRecorded.length}): ${notRecorded.join(', ')}. History holds what this server received with this key: analyse them first.`
            : undefined,
        ],
        query,
        data: {
          counts: { asked: args.mintIds.length, recorded: tokens.length, notRecorded: notRecorded.length },
          flaggedLevels,
          tokens: rows,
          notRecorded,
        },
        next: tokens.length
          ? 'analyze_botting for the upstream window now; check_watchlist to follow them.'
          : 'analyze_botting or investigate_botting records a verdict; history keeps it from then on.',
      }),
  );
}

export const getTokenHistory = defineTool({
  name: 'get_token_history',
  title: 'Token history',
  description:
    'Per-day record of tokens seen with your key, past the upstream 168 h: level, confidence, flags, changes, viewers, live.',
  input: {
    mintIds: idList(50),
    chain: z.enum(['chain_a', 'chain_b']).default('chain_a'),
    days: z.number().int().min(1).max(3650).default(30).describe('Days back'),
  },
  ids: 'mintIds',
  check: ({ mintIds }) => controlProblem('mintIds', mintIds),
  output: {
    counts: z.object({}).loose().optional(),
    flaggedLevels: z.array(z.string()).optional(),
    tokens: z.array(z.object({}).loose()).optional(),
    notRecorded: z.array(z.string()).optional(),
    shown: z.object({}).loose().optional(),
  },
  run: (args, ctx: CallContext & RenderContext) =>
    withStore(ctx, async (store, owner) => render(args, await readHistory(store, owner, args), ctx)),
});

/** run_analysis's history calls, read only: what the tools' structuredContent says, for the call's key. */
export const HISTORY_API = {
  line: 'api.get_token_history({mintIds,chain?,days}), api.watchlist({action:list|show,name?}) → structuredContent',
  names: ['get_token_history', 'watchlist'],
  /** The read for one api name, or an argument error (nothing read); the host counts the read it makes. */
  reader(ctx: Pick<CallContext, 'history' | 'signal'>) {
    return (name: string, args: unknown): LocalRead => {
      const tool = name === 'watchlist' ? watchlist : getTokenHistory;
      const action = (args as { action?: unknown } | null)?.action;
      if (name === 'watchlist' && action !== 'list' && action !== 'show')
        return { error: "api.watchlist only reads: action 'list' or 'show' (programs do not write)." };
      const prepared = tool.prepare(args);
      if ('error' in prepared) return { error: prepared.error };
      return {
        read: async () => {
          const rendered = await prepared.run({
            send: () => Promise.reject(new Error('history reads make no upstream request')),
            progress: () => {},
            signal: ctx.signal,
            budget: 1_000_000,
            ...(ctx.history ? { history: ctx.history } : {}),
          });
          return { summary: rendered.summary, ...rendered.structured };
        },
      };
    };
  },
};
