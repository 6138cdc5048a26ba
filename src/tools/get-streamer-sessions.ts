import { extremes, numericStats } from '../format/aggregate.js';
import { asArray, asRecord } from '../format/batch.js';
import { type Field, jsonTable, textTable } from '../format/columns.js';
import { describeObject } from '../format/generic.js';
import type { Report } from '../format/result.js';
import { approx, num, plural, utcMinute } from '../format/text.js';
import { exact } from '../untrusted/numbers.js';
import { clean } from '../untrusted/text.js';
import { utcIso } from '../untrusted/times.js';
import { object, table } from './batch-output.js';
import { bounded, mintId, otherPairs, page, pick, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

type Session = Record<string, unknown>;
const FIELDS: Array<Field<Session>> = [
  { key: 'startTime', header: 'start', text: (s) => when(s.startTime) },
  { key: 'endTime', header: 'end', text: (s) => when(s.endTime) },
  { key: 'duration', header: 'duration', align: 'right', text: (s) => num(s.duration) },
  { key: 'peakViewers', header: 'peak', align: 'right', text: (s) => num(s.peakViewers) },
  { key: 'averageViewers', header: 'avg', align: 'right', text: (s) => num(s.averageViewers) },
];

/** `2025-05-01T06:00:00-05:00` → `2025-05-01 11:00Z` (UTC); a time without a zone as it came. */
const when = (v: unknown) => utcMinute(v).text;
/** A time for JSON: UTC ISO where it states its zone, else as sent, null when absent. */
const whenJson = (v: unknown) => utcIso(v) ?? (clean(v, 40) || null);

const inUtc = (s: Record<string, unknown>) => ({
  ...s,
  ...(utcIso(s.startTime) ? { startTime: utcIso(s.startTime) } : {}),
  ...(utcIso(s.endTime) ? { endTime: utcIso(s.endTime) } : {}),
});

/** What the table's times are: UTC only when every time shown stated its zone. */
function timesNote(rows: ReadonlyArray<Record<string, unknown>>): string {
  const times = rows.flatMap((s) => [s.startTime, s.endTime]).filter((t) => t != null && t !== '');
  const unzoned = times.filter((t) => !utcMinute(t).utc).length;
  return unzoned === 0
    ? 'Times in UTC'
    : unzoned === times.length
      ? 'Times as sent (no time zone stated)'
      : `Times in UTC where the upstream stated a zone; ${plural(unzoned, 'time')} without one shown as sent`;
}

/** The session with the highest number in `field` (the first listed among ties), and how many tie with it. */
function highest(sessions: Array<Record<string, unknown>>, field: string) {
  const numbered = sessions.flatMap((s) =>
    exact(s[field]) === null ? [] : [{ s, value: exact(s[field]) as number }],
  );
  const { peak, peakTies } = extremes(numbered, (x) => x.value);
  return peak && { ...peak, ties: peakTies - 1 };
}

// The duration's unit (the document states none): the one unit in which every duration is exactly
// end − start; undefined when a time is missing or no single unit agrees.
export function durationUnit(sessions: ReadonlyArray<Record<string, unknown>>) {
  let rows = 0;
  let elapsed = false;
  const possible = DURATION_UNITS.map((u) => ({ ...u, agrees: true }));
  for (const row of sessions) {
    const d = exact(row.duration);
    if (d === null) continue;
    const diff = span(row.startTime, row.endTime);
    if (diff === undefined) return undefined;
    if (diff > 0) elapsed = true;
    for (const u of possible) u.agrees &&= Math.abs(d * u.factor - diff) < 1e-6;
    rows++;
  }
  const agreeing = possible.filter((u) => u.agrees);
  const only = agreeing.length === 1 ? agreeing[0] : undefined;
  if (!rows || !elapsed || !only) return undefined;
  return {
    unit: only.unit,
    evidence: `duration equals end − start in ${only.name} for all ${plural(rows, 'row')} with a duration`,
    perHour: 3_600_000 / only.factor,
  };
}

const DURATION_UNITS = [
  { unit: 'ms', name: 'ms', factor: 1 },
  { unit: 's', name: 'seconds', factor: 1000 },
  { unit: 'min', name: 'minutes', factor: 60_000 },
] as const;

/** A time without a zone ("2026-11-20 06:13:00"): read as if UTC, only to subtract it from another such. */
const ZONELESS = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/** end − start in ms: both times stating their zone, or both none (then in one zone); else undefined. */
function span(start: unknown, end: unknown): number | undefined {
  const a = utcIso(start);
  const b = utcIso(end);
  if (a && b) return Date.parse(b) - Date.parse(a);
  if (a || b || typeof start !== 'string' || typeof end !== 'string') return undefined;
  if (!ZONELESS.test(start) || !ZONELESS.test(end)) return undefined;
  const diff = Date.parse(`${end.replace(' ', 'T')}Z`) - Date.parse(`${start.replace(' ', 'T')}Z`);
  return Number.isNaN(diff) ? undefined : diff;
}

/** Page figures over every session returned (before any budget cut). */
function sessionFigures(sessions: Array<Record<string, unknown>>) {
  const peak = highest(sessions, 'peakViewers');
  const longest = highest(sessions, 'duration');
  const averages = numericStats(sessions.map((s) => s.averageViewers));
  const durations = numericStats(sessions.map((s) => s.duration));
  const unit = durationUnit(sessions);
  const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);
  const started = sessions.filter((s) => !Number.isNaN(time(s.startTime)));
  const ended = sessions.filter((s) => !Number.isNaN(time(s.endTime)));
  const starts = started.map((s) => time(s.startTime));
  const earliest = extremes(started, (s) => time(s.startTime)).low;
  const latest = extremes(ended, (s) => time(s.endTime)).peak;
  const steps = starts.slice(1).map((s, i) => Math.sign(s - (starts[i] as number)));
  const [down, up] = [!steps.includes(1), !steps.includes(-1)];
  const order =
    starts.length < 2 || (down && up)
      ? undefined
      : down
        ? 'newest first'
        : up
          ? 'oldest first'
          : 'not ordered by start time';
  const top = <V extends string, T extends string>(b: typeof peak, field: V, ties: T) =>
    b && {
      ...({ [field]: b.value } as Record<V, number>),
      sessionId: clean(b.s.sessionId, 64) || null,
      startTime: whenJson(b.s.startTime),
      ...((b.ties ? { [ties]: b.ties + 1 } : {}) as Partial<Record<T, number>>),
    };
  return {
    ...(peak ? { peak: top(peak, 'peakViewers', 'sessionsWithSamePeak') } : {}),
    ...(longest ? { longest: top(longest, 'duration', 'sessionsWithSameDuration') } : {}),
    ...(averages && {
      averageViewers: {
        mean: averages.mean,
        median: averages.median,
        sessions: averages.count,
        ...(averages.ignored ? { withoutNumber: averages.ignored } : {}),
      },
    }),
    ...(durations && {
      totalDuration: Number(durations.sum),
      ...(durations.ignored ? { durationMissing: durations.ignored } : {}),
      ...(unit && {
        durationUnit: unit.unit,
        durationUnitEvidence: unit.evidence,
        totalDurationHours: Number(durations.sum) / unit.perHour,
      }),
    }),
    ...(earliest ? { earliestStart: whenJson(earliest.startTime) ?? '' } : {}),
    ...(latest ? { latestEnd: whenJson(latest.endTime) ?? '' } : {}),
    ...(order ? { order } : {}),
  };
}

/** What the figures cover: this page only, or the whole history (page 1 not full, or the total met). */
function coverage(sessions: number, page: number, limit: number, total: number | null) {
  const whole =
    sessions > 0 && (total !== null ? total === sessions && page === 1 : page === 1 && sessions < limit);
  return {
    json: { page, sessions, ...(total !== null ? { total } : {}), wholeHistory: whole },
    text: whole
      ? `Figures over all ${plural(sessions, 'session')} (${total !== null ? "the upstream's total" : `page 1 is not full`})`
      : `Figures over page ${page} only (${sessions}${total !== null ? ` of ${num(total)}` : ''} ${sessions === 1 ? 'session' : 'sessions'})`,
  };
}

function figureLines(f: ReturnType<typeof sessionFigures>, total: number, cover: string): string[] {
  const parts = [
    f.peak &&
      `peak ${plural(f.peak.peakViewers, 'viewer')} in session ${f.peak.sessionId ?? '(no id)'}, started ${when(f.peak.startTime)}${f.peak.sessionsWithSamePeak ? ` (${f.peak.sessionsWithSamePeak} sessions share this peak; the first listed is named)` : ''}`,
    f.longest &&
      `longest ${num(f.longest.duration)}${f.durationUnit ? ` ${f.durationUnit}` : ''} in session ${f.longest.sessionId ?? '(no id)'}, started ${when(f.longest.startTime)}${f.longest.sessionsWithSameDuration ? ` (${f.longest.sessionsWithSameDuration} sessions share this duration; the first listed is named)` : ''}`,
    f.averageViewers &&
      `averageViewers: mean ${approx(f.averageViewers.mean)}, median ${approx(f.averageViewers.median)}${f.averageViewers.sessions < total ? ` (over ${f.averageViewers.sessions} of ${total} sessions; the rest have no number)` : ''}`,
    f.totalDuration !== undefined &&
      `total duration ${num(f.totalDuration)}${f.durationUnit ? ` ${f.durationUnit} (${approx(f.totalDurationHours, (f.totalDurationHours ?? 0) < 10 ? 2 : 1)} h` : ' (unit not stated by the API'}${f.durationMissing ? `; ${plural(f.durationMissing, 'session')} without a duration` : ''})`,
  ].filter(Boolean);
  const span =
    f.earliestStart || f.latestEnd
      ? [`From ${when(f.earliestStart ?? '–')} to ${when(f.latestEnd ?? '–')} (earliest start, latest end)`]
      : [];
  return [...(parts.length ? [`${cover}: ${parts.join(' · ')}`] : []), ...span];
}

export const getStreamerSessions = defineTool({
  name: 'get_streamer_sessions',
  title: 'Streaming sessions',
  description:
    "One token's past streaming sessions, with the page's peak and longest session, mean and median averageViewers, total duration, time span (UTC). detailed: session ids.",
  endpoint: 'sessions',
  input: {
    mint: mintId.describe('Token mint id'),
    limit: bounded('sessions', 'limit', 'Sessions per page'),
    page,
  },
  output: { ...table, aggregates: object },
  render(body, args, ctx): Report<Session> {
    const sessions = asArray(body.data).map(asRecord);
    const figures = sessionFigures(sessions);
    // The document gives no pagination here; an upstream that sends a total is believed.
    const total = exact(asRecord(body.pagination).total);
    const cover = coverage(sessions.length, args.page, args.limit, total);
    const peakText = figures.peak ? `, peak ${plural(figures.peak.peakViewers, 'viewer')}` : '';
    // An empty first page is not a zero: the token may have no sessions, or be another chain's or platform's.
    const unsure = sessions.length === 0 && args.page === 1 && total === null;
    const elsewhere =
      args.chain === 'all' && args.platform === 'all'
        ? []
        : otherPairs('get_streamer_sessions', args.chain, args.platform, SCOPES.any);
    const why =
      elsewhere.length === 0
        ? 'no sessions, or a token the service does not know'
        : `no sessions, or not a ${args.chain} / ${args.platform} token`;
    const headline = unsure
      ? `Sessions of ${args.mint}: none on page 1 with ${args.chain} / ${args.platform} (${why}: an empty page does not say which)`
      : `Sessions of ${args.mint}: ${num(sessions.length)} on page ${args.page}${total !== null ? ` (${num(total)} in all)` : ''}${peakText} (${figures.order ? `${figures.order}; ` : ''}${args.chain} / ${args.platform})`;
    const more = total !== null ? args.page * args.limit < total : sessions.length >= args.limit;
    const next = more
      ? `page ${args.page + 1} ${total !== null ? 'holds more' : 'may hold more (this page is full)'}${args.limit < 100 ? '; limit 100 (the most per page) needs fewer pages' : ''}. These figures cover this page only: run_analysis totals a whole history (peak, longest, sums) in one call.`
      : sessions.length === 0 && args.page > 1
        ? 'no sessions on this page; earlier pages (page 1 first) may have some.'
        : unsure
          ? `to tell which, try ${[...elsewhere, "get_streamer_core with chain all to find the token's chain and platform"].join(', or ')}.`
          : undefined;
    return {
      headline,
      query: pick(args, 'mint', 'limit', 'page', 'chain', 'platform'),
      lines: figureLines(figures, sessions.length, cover.text),
      data: sessions.length ? { aggregates: { covers: cover.json, ...figures } } : {},
      rows: {
        items: sessions,
        cut: { what: 'sessions', how: (shown) => `Ask with limit ${Math.max(1, shown)}.` },
        text: (rows) => (rows.length ? textTable(FIELDS, rows.map(inUtc)) : unsure ? [] : ['No sessions.']),
        after: (rows) => [
          rows.length > 0 &&
            `${timesNote(rows)}; ${figures.durationUnitEvidence ? `durations in ${figures.durationUnit}: ${figures.durationUnitEvidence} (computed here; the API states no unit)` : 'durations as returned (unit not stated by the API)'}.`,
          ...(ctx.format === 'detailed'
            ? rows.map(
                (s) =>
                  `  ${when(s.startTime)}: ${describeObject(s, [...FIELDS.map((f) => f.key), 'mintId'], true).parts.join('; ') || 'no other fields'}`,
              )
            : []),
        ],
        json: (rows) => jsonTable(FIELDS, rows.map(inUtc), ctx.format === 'detailed'),
      },
      next,
    };
  },
});
