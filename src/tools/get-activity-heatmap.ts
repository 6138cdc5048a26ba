import { asRecord } from '../format/batch.js';
import { describeObject } from '../format/generic.js';
import {
  cellText,
  type DailySeries,
  dailySeries,
  gridLines,
  hourlyGrid,
  seriesLine,
} from '../format/heatmap.js';
import { num, plural } from '../format/text.js';
import { numberOf } from '../untrusted/numbers.js';
import { cleanDeep } from '../untrusted/text.js';
import { heatmapGrids, VIEW_LIMITS } from '../view-data.js';
import { object } from './batch-output.js';
import { pick } from './shared.js';
import { defineTool } from './tool.js';

const int = (v: unknown) => {
  const n = numberOf(v);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
};

/** A daily series for JSON: its span and the same figures as the text. */
function seriesJson(s: DailySeries, withValues: boolean) {
  const listed = withValues && s.values;
  return {
    from: s.from,
    to: s.to,
    ...(listed ? {} : { days: s.days }),
    // Only where some dates of the span were not sent (then `values` has nulls).
    ...(s.dated < s.days ? { datesWithValue: s.dated } : {}),
    activeDays: s.active,
    total: s.total,
    peak: s.peak,
    quietest: s.quietest,
    ...(withValues ? (s.values ? { values: s.values } : { dated: s.entries }) : {}),
  };
}

/** The heatmap answer's report (its grid, month and consistency series): the text, JSON and view draw it. */
function heatmapReport(body: Record<string, unknown>) {
  const data = asRecord(body.data);
  const daily = asRecord(data.daily);
  const monthly = asRecord(data.monthly);
  const calendar = asRecord(monthly.calendar);
  const year = int(calendar.year);
  const monthNo = int(calendar.month);
  return {
    data,
    daily,
    monthly,
    calendar,
    grid: hourlyGrid(asRecord(daily.hourlyActivity)),
    month: dailySeries(asRecord(monthly.dailyActivity)),
    consistency: dailySeries(asRecord(asRecord(data.consistency).consistencyData)),
    calendarMonth:
      year !== undefined && monthNo !== undefined ? `${year}-${String(monthNo).padStart(2, '0')}` : undefined,
  };
}

export const getActivityHeatmap = defineTool({
  name: 'get_activity_heatmap',
  title: 'Activity heatmap',
  description:
    'When streaming happens, service-wide: the busiest day and hour cell, an hourly grid, days of this month, consistency. detailed: every value.',
  endpoint: 'heatmap',
  input: {},
  output: { busiest: object, hourly: object, monthly: object, consistency: object, upstream: object },
  view: (body, { chain, platform }) => {
    const { month, consistency, calendarMonth } = heatmapReport(body);
    return {
      kind: 'heatmap',
      scope: { chain, platform },
      grids: heatmapGrids(body.data),
      month: month
        ? {
            label: calendarMonth ?? null,
            ...pick(month, 'from', 'to', 'max', 'peak', 'active'),
            days: month.entries.slice(-VIEW_LIMITS.days).map(([date, value]) => ({ date, value })),
          }
        : null,
      consistency: consistency
        ? pick(consistency, 'from', 'to', 'days', 'active', 'total', 'max', 'peak')
        : null,
    };
  },
  render(body, args, ctx) {
    const { data, daily, monthly, calendar, grid, month, consistency, calendarMonth } = heatmapReport(body);
    const detailed = ctx.format === 'detailed';
    const maxHourly = int(daily.maxActivity) ?? grid?.max;
    const busiest = [
      month?.peak && `busiest day ${month.peak.date} (${num(month.peak.value)})`,
      grid?.peak && `busiest hour cell ${cellText(grid.peak)}`,
      grid?.quietest &&
        `quietest ${grid.returned < grid.cells ? 'returned cell' : 'cell'} ${cellText(grid.quietest)}`,
    ].filter(Boolean);
    const headline = `Activity heatmap (${args.chain} / ${args.platform})${busiest.length ? `: ${busiest.join('; ')}` : ': no activity returned'}`;
    const lines = [
      ...(grid
        ? [
            `Hourly activity (keys "a-b"; a = ${grid.a[0]}..${grid.a[1]}, b = ${grid.b[0]}..${grid.b[1]}; what a and b mean is not stated by the API; darker = more, max ${num(maxHourly)})`,
            ...gridLines(grid),
            grid.returned < grid.cells &&
              `${plural(grid.returned, 'cell')} of the ${grid.cells} in these ranges returned; the other ${grid.cells - grid.returned} not sent (drawn ·, as 0).`,
            grid.ignoredKeys > 0 && `(${plural(grid.ignoredKeys, 'key')} not of the form "a-b" left out)`,
          ]
        : ['Hourly activity: none returned.']),
      `Month ${calendarMonth ?? 'this month'}: ${month ? seriesLine(month) : 'no daily activity returned.'}`,
      consistency && `Consistency: ${seriesLine(consistency, 60)}, total ${num(consistency.total)}`,
      detailed && `All fields: ${describeObject(data, [], true).parts.join('; ')}`,
    ];
    return {
      headline,
      lines,
      query: { chain: args.chain, platform: args.platform },
      data: {
        ...(grid && {
          hourly: {
            key: 'a-b',
            ...pick(grid, 'a', 'b'),
            max: maxHourly ?? grid.max,
            ...pick(grid, 'peak', 'quietest'),
            // Only where the upstream left cells out (drawn as 0).
            ...(grid.returned < grid.cells ? { cellsReturned: grid.returned, cells: grid.cells } : {}),
            rows: grid.rows,
          },
        }),
        ...(month && {
          monthly: {
            ...asRecord(cleanDeep(calendar)),
            ...seriesJson(month, true),
            max: int(monthly.maxActivity) ?? month.max,
          },
        }),
        ...(consistency ? { consistency: seriesJson(consistency, detailed) } : {}),
        ...(detailed ? { upstream: asRecord(cleanDeep(data)) } : {}),
      },
    };
  },
});
