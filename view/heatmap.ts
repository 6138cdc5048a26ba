// The activity heatmap: the text's headline facts, then one grid per "a-b" keyed object; a 7 × 24 grid is
// labelled day × hour (saying the API names neither), any other keeps a and b. Wide grids scroll in a box.
import type { HeatmapGrid as Grid } from '../src/report/view-types.js';
import { asArray, asRecord, el, type Json, n, plural, put } from './dom.js';

const weekOfHours = (g: Pick<Grid, 'a' | 'b'>) =>
  g.a[0] === 0 && g.a[1] === 6 && g.b[0] === 0 && g.b[1] === 23;
/** A cell's place in words: "day 0, hour 12" on a week of hours, else "a = 0, b = 12". */
const place = (g: Pick<Grid, 'a' | 'b'>, a: number, b: number) =>
  weekOfHours(g) ? `day ${a}, hour ${b}` : `a = ${a}, b = ${b}`;
/** A date (or any value) that never breaks inside. */
const unbroken = (text: string) => el('span', { class: 'heatmap-date' }, text);
const between = (from: unknown, to: string) => [unbroken(String(from)), ' to ', unbroken(to)];
/** A shaded cell, its value in words on hover and for screen readers; `shade` from 0 to 1. */
const shaded = (role: string, label: string, shade: number) => {
  const cell = el('span', { class: 'cell', role, title: label, 'aria-label': label });
  cell.style.setProperty('--v', String(shade));
  return cell;
};

/** A container's name in words: "daily.hourlyActivity" → "Hourly activity" (the path on hover). */
const words = (path: string) => {
  const last = path.split('.').at(-1) ?? '';
  const spaced = last
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return spaced ? spaced[0]?.toUpperCase() + spaced.slice(1) : 'Grid';
};

export function heatmap(root: HTMLElement, data: Json) {
  const scope = asRecord(data.scope);
  const grids = asArray(data.grids) as Grid[];
  const month = data.month ? asRecord(data.month) : undefined;
  const consistency = data.consistency ? asRecord(data.consistency) : undefined;
  const where = `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}`;
  root.append(el('h1', {}, 'Activity heatmap'), el('p', { class: 'muted' }, where));
  const facts = el('dl', { class: 'facts' });
  const fact = (term: string, ...value: Array<string | HTMLElement>) =>
    facts.append(el('dt', {}, term), el('dd', {}, ...value));
  const dayPeak = asRecord(month?.peak);
  if (typeof dayPeak.date === 'string') fact('Busiest day', unbroken(dayPeak.date), ` (${n(dayPeak.value)})`);
  const peaked = grids.find((g) => g.peak);
  const cell = peaked?.peak;
  if (peaked && cell)
    fact('Busiest hour cell', unbroken(place(peaked, cell.a, cell.b)), ` (${n(cell.value)})`);
  if (consistency) {
    const { total, days, from, to, active } = consistency;
    const over = `total ${n(total)} over ${plural(Number(days), 'day')} (`;
    fact('Consistency', over, ...between(from, String(to)), `), ${n(active)} active`);
  }
  put(root, facts.childElementCount > 0 && facts, month && monthStrip(month), ...grids.map(grid));
  if (!grids.length && !month && !consistency)
    root.append(el('p', { class: 'muted' }, 'No activity in this answer.'));
}

/** The month's days, one cell each, darker = more; each day's value on hover. */
function monthStrip(month: Json) {
  const days = asArray(month.days).map(asRecord);
  const max = typeof month.max === 'number' ? month.max : 0;
  const strip = el('div', { class: 'days', role: 'list', 'aria-label': 'Activity per day' });
  // Day numbers under the strip, every seventh day from the first: readable at 360 px.
  const labels = el('div', { class: 'days day-labels', 'aria-hidden': 'true' });
  for (const box of [strip, labels]) box.style.setProperty('--days', String(Math.max(1, days.length)));
  days.forEach((d, i) => {
    const shade = max > 0 && typeof d.value === 'number' ? d.value / max : 0;
    strip.append(shaded('listitem', `${String(d.date)}: ${n(d.value)}`, shade));
    const day = /^\d{4}-\d{2}-(\d{2})$/.exec(String(d.date))?.[1];
    labels.append(el('span', {}, i % 7 === 0 && day ? String(Number(day)) : ''));
  });
  const title = `Days of ${typeof month.label === 'string' ? month.label : 'this month'}`;
  const active = ` ${n(month.active)} of ${plural(days.length, 'day')} active, max ${n(max)}`;
  const scale = el('p', { class: 'muted scale' }, ...between(month.from, `${String(month.to)}:`), active);
  return el('section', {}, el('h2', {}, title), strip, labels, scale);
}

function grid(g: Grid) {
  const width = g.b[1] - g.b[0] + 1;
  // Every third column labelled: a day's hours stay readable at 360 px.
  const every = width > 12 ? 3 : 1;
  const name = words(g.title);
  const week = weekOfHours(g);
  const table = el('div', {
    class: 'heat',
    role: 'table',
    'aria-label': week ? `${name}: rows day of week, columns hour` : `${name}: rows a, columns b`,
    'data-cells': String(g.rows.length * width),
  });
  table.style.setProperty('--cols', String(width));
  const corner = week
    ? el('span', { role: 'columnheader', title: 'rows: day of week (a); columns: hour (b)' }, 'day')
    : el('span', { role: 'columnheader', title: 'rows: a; columns: b' }, 'a · b');
  const head = el('div', { class: 'heat-row', role: 'row' }, corner);
  for (let b = g.b[0]; b <= g.b[1]; b++)
    head.append(el('span', { role: 'columnheader' }, (b - g.b[0]) % every === 0 ? String(b) : ''));
  table.append(head);
  const shade = (v: number) => (g.max > 0 ? v / g.max : 0);
  g.rows.forEach((row, i) => {
    const a = g.a[0] + i;
    const cells = row.map((v, j) => shaded('cell', `${place(g, a, g.b[0] + j)}: ${n(v)}`, shade(v)));
    const rowHeader = el('span', { role: 'rowheader' }, String(a));
    table.append(el('div', { class: 'heat-row', role: 'row' }, rowHeader, ...cells));
  });
  const box = el('div', { class: 'scroll-x' }, table);
  const hint = el('p', { class: 'muted scroll-hint', hidden: '' }, 'Scroll sideways for more columns →');
  new ResizeObserver(() => {
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    box.classList.toggle('overflowing', !hint.hidden);
  }).observe(box);
  // Each range on one line: the line wraps between its parts, never inside "a = 0…6".
  const [cls, before, rows, columns, after] = week
    ? [
        'muted axes-note',
        '',
        'Rows: day of week (0…6),',
        'columns: hour (0…23),',
        ' as the shape reads; the API names neither, nor which day 0 is.',
      ]
    : [
        'muted',
        'Keys "a-b": ',
        `a = ${g.a[0]}…${g.a[1]} (rows),`,
        `b = ${g.b[0]}…${g.b[1]} (columns);`,
        ' what a and b mean is not stated by the API.',
      ];
  const nowrap = (text: string) => el('span', { class: 'nowrap' }, text);
  const axes = el('p', { class: cls }, before || null, nowrap(rows), ' ', nowrap(columns), after);
  const peak = g.peak && el('span', {}, `· busiest ${place(g, g.peak.a, g.peak.b)} (${n(g.peak.value)})`);
  const ramp = [el('span', {}, '0'), el('span', { class: 'ramp' }), el('span', {}, n(g.max)), peak];
  const scale = el('div', { class: 'scale', 'aria-label': 'Colour scale' }, ...ramp);
  return el('section', {}, el('h2', { title: g.title }, name), axes, box, hint, scale);
}
