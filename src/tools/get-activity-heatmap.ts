import * as z from 'zod';
import { asRecord } from '../format/batch.js';
import { describeObject } from '../format/generic.js';
import { dailySeries, gridLines, hourlyGrid, seriesLine } from '../format/heatmap.js';
import { result } from '../format/result.js';
import { cleanDeep, num } from '../format/text.js';
import { heatmapData } from '../view-data.js';
import { SCOPES, SHAPES } from './shared.js';
import { defineTool } from './tool.js';

const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

export const getActivityHeatmap = defineTool({
  name: 'get_activity_heatmap',
  title: 'Activity heatmap',
  description:
    'When streaming happens, service-wide: the busiest day and hour cell, an hourly grid, days of this month, consistency. detailed: every value.',
  input: {},
  scope: SCOPES.any,
  output: {
    busiest: z.object({}).loose().optional(),
    hourly: z.object({}).loose().optional(),
    monthly: z.object({}).loose().optional(),
    consistency: z.object({}).loose().optional(),
    upstream: z.object({}).loose().optional(),
  },
  request: ({ chain, platform }) => ({
    method: 'GET',
    path: '/analytics/heatmap',
    shape: SHAPES.heatmap,
    query: { chain, platform },
  }),
  view: (body, { chain, platform }) => ({
    kind: 'heatmap',
    scope: { chain, platform },
    ...heatmapData(body.data),
  }),
  render(body, args, ctx) {
    const data = asRecord(body.data);
    const detailed = ctx.format === 'detailed';
    const daily = asRecord(data.daily);
    const monthly = asRecord(data.monthly);
    const calendar = asRecord(monthly.calendar);
    const grid = hourlyGrid(asRecord(daily.hourlyActivity));
    const month = dailySeries(asRecord(monthly.dailyActivity));
    const consistency = dailySeries(asRecord(asRecord(data.consistency).consistencyData));
    const maxHourly = int(daily.maxActivity) ?? grid?.max;
    const year = int(calendar.year);
    const monthNo = int(calendar.month);
    const monthLabel =
      year !== undefined && monthNo !== undefined
        ? `${year}-${String(monthNo).padStart(2, '0')}`
        : 'this month';

    const busiest = [
      ...(month?.peak ? [`busiest day ${month.peak.date} (${num(month.peak.value)})`] : []),
      ...(grid?.peak
        ? [`busiest hour cell a=${grid.peak.a}, b=${grid.peak.b} (${num(grid.peak.value)})`]
        : []),
    ];
    const headline = `Activity heatmap (${args.chain} / ${args.platform})${busiest.length ? `: ${busiest.join('; ')}` : ': no activity returned'}`;
    const lines = [
      ...(grid
        ? [
            `Hourly activity (keys "a-b"; a = ${grid.a[0]}..${grid.a[1]}, b = ${grid.b[0]}..${grid.b[1]}; what a and b mean is not stated by the API; darker = more, max ${num(maxHourly)})`,
            ...gridLines(grid),
            ...(grid.ignoredKeys ? [`(${grid.ignoredKeys} keys not of the form "a-b" left out)`] : []),
          ]
        : ['Hourly activity: none returned.']),
      month
        ? `Month ${monthLabel}: ${seriesLine(month)}`
        : `Month ${monthLabel}: no daily activity returned.`,
      ...(consistency
        ? [`Consistency: ${seriesLine(consistency, 60)}, total ${num(consistency.total)}`]
        : []),
      // Detailed: every value the upstream sent, as the structured channel has it.
      ...(detailed ? [`All fields: ${describeObject(data, [], true).parts.join('; ')}`] : []),
    ];

    return result({
      headline,
      lines,
      query: { chain: args.chain, platform: args.platform },
      data: {
        busiest: {
          day: month?.peak ?? null,
          hourCell: grid?.peak ?? null,
        },
        ...(grid
          ? {
              hourly: {
                key: 'a-b',
                a: grid.a,
                b: grid.b,
                max: maxHourly ?? grid.max,
                peak: grid.peak,
                rows: grid.rows,
              },
            }
          : {}),
        ...(month
          ? {
              monthly: {
                ...asRecord(cleanDeep(calendar)),
                from: month.from,
                max: int(monthly.maxActivity) ?? month.max,
                peak: month.peak,
                activeDays: month.active,
                values: month.values,
              },
            }
          : {}),
        ...(consistency
          ? {
              consistency: {
                from: consistency.from,
                to: consistency.to,
                days: consistency.values.length,
                activeDays: consistency.active,
                total: consistency.total,
                max: consistency.max,
                ...(detailed ? { values: consistency.values } : {}),
              },
            }
          : {}),
        ...(detailed ? { upstream: asRecord(cleanDeep(data)) } : {}),
      },
    });
  },
});
