// The activity heatmap: the facts the text channel heads with (busiest day, busiest cell, the month's days,
// consistency), then one grid per "a-b" keyed object in the answer (the keys' meaning is not documented,
// so the axes are labelled by the integers' ranges, never named). A day's 24 columns fit a 360 px panel;
// a wider grid scrolls sideways inside its own box, with a visible hint, never the page.
import { asArray, asRecord, el, type Json, n, plural, put } from './dom.js';

interface Grid {
  title: string;
  a: [number, number];
  b: [number, number];
  max: number;
  rows: number[][];
  peak: { a: number; b: number; value: number } | null;
}

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
  root.append(
    el('h1', {}, 'Activity heatmap'),
    el('p', { class: 'muted' }, `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}`),
  );
  // The headline facts, in plain words.
  const facts = el('dl', { class: 'facts' });
  const fact = (term: string, value: string) => facts.append(el('dt', {}, term), el('dd', {}, value));
  const dayPeak = asRecord(month?.peak);
  if (typeof dayPeak.date === 'string') fact('Busiest day', `${dayPeak.date} (${n(dayPeak.value)})`);
  const cell = grids.find((g) => g.peak)?.peak;
  if (cell) fact('Busiest hour cell', `a = ${cell.a}, b = ${cell.b} (${n(cell.value)})`);
  if (consistency)
    fact(
      'Consistency',
      `total ${n(consistency.total)} over ${plural(Number(consistency.days), 'day')} (${String(consistency.from)} to ${String(consistency.to)}), ${n(consistency.active)} active`,
    );
  if (facts.childElementCount) root.append(facts);
  if (month) root.append(monthStrip(month));
  for (const g of grids) root.append(grid(g));
  if (!grids.length && !month && !consistency)
    root.append(el('p', { class: 'muted' }, 'No activity in this answer.'));
}

/** The month's days, one cell each, darker = more; each day's value on hover. */
function monthStrip(month: Json) {
  const days = asArray(month.days).map(asRecord);
  const max = typeof month.max === 'number' ? month.max : 0;
  const strip = el('div', { class: 'days', role: 'list', 'aria-label': 'Activity per day' });
  strip.style.setProperty('--days', String(Math.max(1, days.length)));
  for (const d of days) {
    const label = `${String(d.date)}: ${n(d.value)}`;
    const c = el('span', { class: 'cell', role: 'listitem', title: label, 'aria-label': label });
    c.style.setProperty('--v', String(max > 0 && typeof d.value === 'number' ? d.value / max : 0));
    strip.append(c);
  }
  return el(
    'section',
    {},
    el('h2', {}, `Days of ${typeof month.label === 'string' ? month.label : 'this month'}`),
    strip,
    el(
      'p',
      { class: 'muted scale' },
      `${String(month.from)} to ${String(month.to)}: ${n(month.active)} of ${plural(days.length, 'day')} active, max ${n(max)}`,
    ),
  );
}

function grid(g: Grid) {
  const width = g.b[1] - g.b[0] + 1;
  // Every third column labelled: a day's hours stay readable at 360 px.
  const every = width > 12 ? 3 : 1;
  const name = words(g.title);
  const table = el('div', {
    class: 'heat',
    role: 'table',
    'aria-label': `${name}: rows a, columns b`,
    'data-cells': String(g.rows.length * width),
  });
  table.style.setProperty('--cols', String(width));
  const head = el(
    'div',
    { class: 'heat-row', role: 'row' },
    el('span', { role: 'columnheader', title: 'rows: a; columns: b' }, 'a · b'),
  );
  for (let b = g.b[0]; b <= g.b[1]; b++)
    head.append(el('span', { role: 'columnheader' }, (b - g.b[0]) % every === 0 ? String(b) : ''));
  table.append(head);
  g.rows.forEach((row, i) => {
    const a = g.a[0] + i;
    const line = el('div', { class: 'heat-row', role: 'row' }, el('span', { role: 'rowheader' }, String(a)));
    row.forEach((v, j) => {
      const label = `a = ${a}, b = ${g.b[0] + j}: ${n(v)}`;
      const cell = el('span', { class: 'cell', role: 'cell', title: label, 'aria-label': label });
      cell.style.setProperty('--v', String(g.max > 0 ? v / g.max : 0));
      line.append(cell);
    });
    table.append(line);
  });
  const box = el('div', { class: 'scroll-x' }, table);
  const hint = el('p', { class: 'muted scroll-hint', hidden: '' }, 'Scroll sideways for more columns →');
  new ResizeObserver(() => {
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    box.classList.toggle('overflowing', !hint.hidden);
  }).observe(box);
  const section = el('section', {});
  put(
    section,
    el('h2', { title: g.title }, name),
    // Each range on one line: the line wraps between its parts, never inside "a = 0…6".
    el(
      'p',
      { class: 'muted' },
      'Keys "a-b": ',
      el('span', { class: 'nowrap' }, `a = ${g.a[0]}…${g.a[1]} (rows),`),
      ' ',
      el('span', { class: 'nowrap' }, `b = ${g.b[0]}…${g.b[1]} (columns);`),
      ' what a and b mean is not stated by the API.',
    ),
    box,
    hint,
    el(
      'div',
      { class: 'scale', 'aria-label': 'Colour scale' },
      el('span', {}, '0'),
      el('span', { class: 'ramp' }),
      el('span', {}, n(g.max)),
      g.peak ? el('span', {}, `· busiest a = ${g.peak.a}, b = ${g.peak.b} (${n(g.peak.value)})`) : null,
    ),
  );
  return section;
}
