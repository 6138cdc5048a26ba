// check_watchlist: runs the investigation on a watchlist's tokens now, keeps what it found as the list's last
// check, and says exactly what changed since the previous one.
import * as z from 'zod';
import type { ApiRequest, Upstream } from '../api/client.js';
import { type Finding, rankFindings } from '../format/botting.js';
import { ToolFailure } from '../format/errors.js';
import { fitRows, type Rendered, result } from '../format/result.js';
import { num, plural, shortener, table } from '../format/text.js';
import type { Logger } from '../log.js';
import type { BoardData, LevelEntry } from '../report/view-types.js';
import type { History } from '../store/index.js';
import type { Store, TokenState } from '../store/types.js';
import { clean, quote } from '../untrusted/text.js';
import { NOT_COVERED_CELL, notCoveredCount } from './coverage.js';
// The investigation itself: the one seam to repoint when investigate_botting exports its runner.
import { investigateBotting } from './investigate-botting.js';
import type { CallContext, RenderContext, ViewData } from './tool.js';
import { defineTool } from './tool.js';
import { type StateRow, stateRow, statesOf } from './watch-states.js';
import { controlProblem, listName, missing, withStore } from './watchlist.js';

export const CHANGE_KINDS = ['new', 'level', 'live', 'offline', 'viewers', 'failed', 'recovered'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export interface Change {
  mintId: string;
  kind: ChangeKind;
  from: string | number | boolean | null;
  to: string | number | boolean | null;
}

/** Viewer bands: 0, 1–9, 10–99, 100–999, ... (a change is reported when a token's viewers cross one). */
export const viewerBand = (v: number) => (v <= 0 ? 0 : Math.floor(Math.log10(v)) + 1);
const bandName = (b: number) => (b === 0 ? '0' : `${num(10 ** (b - 1))}–${num(10 ** b - 1)}`);

/** The changes from one check to the next: by kind (PRIORITY), in the watchlist's order within a kind. */
export function changesBetween(
  ids: readonly string[],
  before: Record<string, TokenState> | undefined,
  now: Record<string, TokenState>,
): Change[] {
  const out: Change[] = [];
  for (const mintId of ids) {
    const cur = now[mintId];
    if (!cur) continue;
    const prev = before?.[mintId];
    const add = (kind: ChangeKind, from: Change['from'], to: Change['to']) =>
      out.push({ mintId, kind, from, to });
    if (!prev) {
      add('new', null, cur.notCovered ? NOT_COVERED_CELL : cur.error ? 'failed' : (cur.level ?? null));
      continue;
    }
    if (prev.level && cur.level && prev.level !== cur.level) add('level', prev.level, cur.level);
    if (prev.live === false && cur.live === true) add('live', false, true);
    if (prev.live === true && cur.live === false) add('offline', true, false);
    if (
      typeof prev.viewers === 'number' &&
      typeof cur.viewers === 'number' &&
      viewerBand(prev.viewers) !== viewerBand(cur.viewers)
    )
      add('viewers', prev.viewers, cur.viewers);
    if (!prev.error && cur.error) add('failed', prev.level ?? null, 'failed');
    if (prev.error && !cur.error) add('recovered', 'failed', cur.level ?? null);
  }
  // What an analyst acts on first: level moves, failures and recoveries, then live status, viewers, and
  // new tokens last (a cut list loses new tokens first; their state is in the counts and in history).
  return out.sort((a, b) => PRIORITY.indexOf(a.kind) - PRIORITY.indexOf(b.kind));
}
const PRIORITY: readonly ChangeKind[] = ['level', 'failed', 'recovered', 'live', 'offline', 'viewers', 'new'];

const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
const shown = (v: Change['from']) =>
  v === null ? '–' : typeof v === 'number' ? `${num(v)} (${bandName(viewerBand(v))})` : String(v);

/** A change in words for the board: a level's move up or down the report's order (most suspicious first). */
function changeText(c: Change, levels: readonly LevelEntry[]): string {
  const rank = (v: Change['from']) => levels.findIndex((l) => l.level === v);
  if (c.kind === 'level') {
    const [from, to] = [rank(c.from), rank(c.to)];
    const way = from < 0 || to < 0 ? '' : to < from ? ' up' : ' down';
    return `level${way} ${shown(c.from)}→${shown(c.to)}`;
  }
  if (c.kind === 'viewers') return `viewers ${shown(c.from)}→${shown(c.to)}`;
  if (c.kind === 'new' || c.kind === 'recovered') return `${c.kind}: ${shown(c.to)}`;
  if (c.kind === 'failed') return `failed (was ${shown(c.from)})`;
  return c.kind;
}

/** check_watchlist's board: the investigation's, titled for the list, with every change to mark. */
function watchBoard(board: BoardData, name: string, previous: number | undefined, changes: Change[]) {
  const h = board.history;
  const levels = h && 'levels' in h ? h.levels : board.levels;
  const data: BoardData = {
    ...board,
    title: `Watchlist ${quote(name, 64)}`,
    changes: {
      previousCheck: previous === undefined ? null : iso(previous),
      list: changes.map((c) => ({ mintId: c.mintId, kind: c.kind, text: clean(changeText(c, levels), 80) })),
    },
  };
  return data as unknown as ViewData;
}

/**
 * Checks one watchlist of `owner`: the investigation over its tokens (through `ctx.send`, so every answer is
 * recorded), compared with the previous check, which it then replaces. Used by the tool and the schedule.
 */
export async function checkWatchlist(
  store: Store,
  owner: string,
  name: string,
  hours: number,
  ctx: CallContext & RenderContext,
): Promise<Rendered> {
  const list = (await store.watchlist(owner, name)) ?? (await missing(store, owner, name));
  const answers: Array<{ req: ApiRequest; body?: Record<string, unknown>; error?: unknown }> = [];
  const prepared = investigateBotting.prepare({ mintIds: list.mintIds, hours, chain: list.chain });
  if ('error' in prepared) throw new ToolFailure(prepared.error);
  const { caller: _caller, view, ...rest } = ctx;
  let board: BoardData | undefined;
  await prepared.run({
    ...rest,
    ...(view ? { view: (d: ViewData) => (board = d as unknown as BoardData) } : {}),
    send: async (req, also) => {
      try {
        const body = await ctx.send(req, also);
        answers.push({ req, body });
        return body;
      } catch (error) {
        answers.push({ req, error });
        throw error;
      }
    },
  });
  const at = Date.now();
  const states = statesOf(list.mintIds, answers);
  const previous = await store.lastCheck(owner, name);
  const changes = changesBetween(list.mintIds, previous?.tokens, states);
  await store.putCheck(owner, name, { at, hours, tokens: states });
  if (view && board) view(watchBoard(board, name, previous?.at, changes));

  const byKind: Record<string, number> = {};
  for (const c of changes) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
  // The levels now, most suspicious first (the botting tools' order); failures grouped by their reason.
  const verdicts = list.mintIds.flatMap((id) => {
    const s = states[id];
    if (!s?.level || s.error) return [];
    const f: Finding = {
      mintId: id,
      level: s.level,
      confidence: s.confidence ?? null,
      score: null,
      reasons: [],
      raw: {},
      covered: true,
    };
    return [f];
  });
  const levels: Record<string, number> = {};
  for (const f of rankFindings(verdicts)) levels[f.level] = (levels[f.level] ?? 0) + 1;
  const reasons = new Map<string, number>();
  let live = 0;
  let notCovered = 0;
  for (const id of list.mintIds) {
    const s = states[id];
    if (s?.error) reasons.set(s.error, (reasons.get(s.error) ?? 0) + 1);
    if (s?.notCovered) notCovered++;
    if (s?.live) live++;
  }
  const failures = [...reasons].sort((a, b) => b[1] - a[1]).map(([reason, count]) => ({ reason, count }));
  const failed = failures.reduce((n, f) => n + f.count, 0);
  const since = previous
    ? `since the previous check at ${iso(previous.at)}`
    : 'first check: every token is new';
  const windowLine =
    previous && previous.hours !== hours
      ? `The previous check analysed the last ${previous.hours} h, this one the last ${hours} h: a level change may come from the window, not the token.`
      : undefined;
  const headline = `Watchlist ${quote(name, 64)} checked (${list.chain}, last ${hours} h): ${plural(list.mintIds.length, 'token')}, ${plural(changes.length, 'change')} ${since}`;
  const countsLine = `Changes: ${
    CHANGE_KINDS.filter((k) => byKind[k])
      .map((k) => `${k} ${byKind[k]}`)
      .join(', ') || 'none'
  }`;
  const nowLine = `Now: ${
    Object.entries(levels)
      .map(([l, c]) => `${l} ${c}`)
      .join(', ') || 'no verdicts'
  }${failed ? `; failed ${failed}` : ''}${notCovered ? `; ${notCoveredCount(notCovered)}` : ''}; live ${live}`;
  const failuresLine = failures.length
    ? `Failed ${failed}: ${failures.map((f) => `${quote(f.reason, 120)} (${f.count})`).join('; ')}`
    : undefined;
  // detailed: every token's state now as well (after the changes, which are never cut for it).
  const now = ctx.format === 'detailed' ? list.mintIds.map((id) => stateRow(id, states[id])) : [];
  const short = shortener([...changes.map((c) => c.mintId), ...now.map((t) => t.mintId)]);
  const query = { name, hours, chain: list.chain };
  const render = (rows: readonly Change[], tokens: readonly StateRow[]) =>
    result({
      headline,
      lines: [
        countsLine,
        nowLine,
        failuresLine,
        windowLine,
        ...(rows.length
          ? table(
              [{ header: 'change' }, { header: 'mint' }, { header: 'from' }, { header: 'to' }],
              rows.map((c) => [c.kind, short(c.mintId), shown(c.from), shown(c.to)]),
            )
          : []),
        ...(tokens.length
          ? [
              `Each token now (${tokens.length}):`,
              ...table(
                [
                  { header: 'mint' },
                  { header: 'level' },
                  { header: 'conf' },
                  { header: 'live' },
                  { header: 'viewers' },
                ],
                tokens.map((t) => [
                  short(t.mintId),
                  t.failed
                    ? `failed: ${quote(t.failed, 80)}`
                    : t.notCovered
                      ? NOT_COVERED_CELL
                      : (t.level ?? '–'),
                  t.confidence == null ? '–' : num(t.confidence),
                  t.live == null ? '–' : t.live ? 'yes' : 'no',
                  t.viewers == null ? '–' : num(t.viewers),
                ]),
              ),
            ]
          : []),
      ],
      query,
      data: {
        previousCheck: previous ? iso(previous.at) : null,
        ...(previous ? { previousHours: previous.hours } : {}),
        checkedAt: iso(at),
        counts: {
          tokens: list.mintIds.length,
          changes: changes.length,
          byKind,
          levels,
          failed,
          ...(notCovered ? { notCovered } : {}),
          live,
        },
        ...(failures.length ? { failures } : {}),
        changes: rows,
        ...(tokens.length ? { tokens } : {}),
      },
      next: 'get_token_history for what was recorded of a token over the days.',
    });
  const withChanges = fitRows(
    changes,
    ctx,
    {
      what: 'changes',
      how: () =>
        "The list is cut from its end (new tokens first): every change is counted above, and each token's state now is recorded (get_token_history).",
    },
    (rows) => render(rows, []),
  );
  if (!now.length || 'truncated' in withChanges.structured) return withChanges;
  return fitRows(
    now,
    ctx,
    {
      what: 'tokens now',
      how: () => 'Every change is listed above; get_token_history reads any token recorded here.',
    },
    (tokens) => render(changes, tokens),
  );
}

export const checkWatchlistTool = defineTool({
  name: 'check_watchlist',
  title: 'Check a watchlist',
  description:
    'Runs the botting investigation on a watchlist now and lists exactly what changed since its last check.',
  input: {
    name: listName,
    hours: z.number().int().min(1).max(168).default(24).describe('Hours analysed'),
  },
  annotations: { readOnlyHint: false, idempotentHint: false },
  check: ({ name }) => controlProblem('name', name),
  output: {
    previousCheck: z.string().nullable().optional(),
    previousHours: z.number().optional(),
    checkedAt: z.string().optional(),
    counts: z.object({}).loose().optional(),
    changes: z
      .array(
        z.object({
          mintId: z.string(),
          kind: z.enum(CHANGE_KINDS),
          from: z.union([z.string(), z.number(), z.boolean(), z.null()]),
          to: z.union([z.string(), z.number(), z.boolean(), z.null()]),
        }),
      )
      .optional(),
    failures: z.array(z.object({ reason: z.string(), count: z.number() })).optional(),
    tokens: z.array(z.object({ mintId: z.string() }).loose()).optional(),
    shown: z.object({}).loose().optional(),
  },
  run: (args, ctx) =>
    withStore(ctx, (store, owner) => checkWatchlist(store, owner, args.name, args.hours, ctx)),
});

/**
 * --http with STREAMER_ANALYTICS_WATCH_INTERVAL_MINUTES: re-checks every watchlist of the server key once per
 * interval, whichever replica gets there first (the store hands each interval to one claimant). Each
 * replica looks four times an interval, so no interval is missed; the checks run one after another, as one
 * caller of the upstream, so they take their turn with everyone else's requests.
 */
export function startWatchSchedule(options: {
  history: History;
  client: Upstream;
  key: string;
  intervalMs: number;
  logger: Logger;
}): () => void {
  const { history, client, key, intervalMs, logger } = options;
  const stop = new AbortController();
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const store = await history.store();
      if ('unavailable' in store) {
        logger.warn('scheduled watchlist check skipped', { reason: store.unavailable });
        return;
      }
      const owner = await store.owner(key);
      const slot = Math.floor(Date.now() / intervalMs);
      if (!(await store.claimSlot(owner, slot))) return;
      for (const list of await store.watchlists(owner)) {
        if (stop.signal.aborted) return;
        const call = history.call(key);
        const hours = (await store.lastCheck(owner, list.name))?.hours ?? 24;
        const ctx = {
          send: async (req: ApiRequest) => {
            const { body } = await client.request(req, stop.signal, 'watchlist schedule');
            call.observe(req, body);
            return body;
          },
          progress: () => {},
          signal: stop.signal,
          budget: 24_000,
          format: 'concise' as const,
          history: call,
        };
        try {
          const done = await checkWatchlist(store, owner, list.name, hours, ctx);
          logger.info('scheduled watchlist check', { slot, summary: done.summary });
        } catch (error) {
          logger.warn('scheduled watchlist check failed', { error });
        }
        await call.flush();
      }
    } catch (error) {
      logger.warn('scheduled watchlist check failed', { error });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, Math.max(250, Math.floor(intervalMs / 4)));
  timer.unref();
  void tick();
  return () => {
    clearInterval(timer);
    stop.abort();
  };
}
