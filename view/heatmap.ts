// The activity heatmap: one grid per "a-b" keyed object in the answer (the keys' meaning is not documented,
// so the axes are labelled by the integers' ranges). A day's 24 columns fit a 360 px panel; a wider grid
// scrolls sideways inside its own box, with a visible hint, never the page.
import { asArray, asRecord, el, type Json, n } from './dom.js';

interface Grid {
  title: string;
  a: [number, number];
  b: [number, number];
  max: number;
  rows: number[][];
  peak: { a: number; b: number; value: number } | null;
}

export function heatmap(root: HTMLElement, data: Json) {
  const scope = asRecord(data.scope);
  root.append(
    el('h1', {}, 'Activity heatmap'),
    el('p', { class: 'muted' }, `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}`),
  );
  const grids = asArray(data.grids) as Grid[];
  for (const g of grids) root.append(grid(g));
  if (!grids.length) root.append(el('p', { class: 'muted' }, 'No grid in this answer.'));
}

function grid(g: Grid) {
  const width = g.b[1] - g.b[0] + 1;
  // Every third column labelled: a day's hours stay readable at 360 px.
  const every = width > 12 ? 3 : 1;
  const table = el('div', {
    class: 'heat',
    role: 'table',
    'aria-label': `${g.title}: key "a-b"`,
    'data-cells': String(g.rows.length * width),
  });
  table.style.setProperty('--cols', String(width));
  const head = el('div', { class: 'heat-row', role: 'row' }, el('span', { role: 'columnheader' }, 'a\\b'));
  for (let b = g.b[0]; b <= g.b[1]; b++)
    head.append(el('span', { role: 'columnheader' }, (b - g.b[0]) % every === 0 ? String(b) : ''));
  table.append(head);
  g.rows.forEach((row, i) => {
    const a = g.a[0] + i;
    const line = el('div', { class: 'heat-row', role: 'row' }, el('span', { role: 'rowheader' }, String(a)));
    row.forEach((v, j) => {
      const label = `a=${a}, b=${g.b[0] + j}: ${n(v)}`;
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
  return el(
    'section',
    {},
    // Each range on one line: the title wraps between its parts, never inside "a = 0…6".
    el(
      'h2',
      {},
      `${g.title || 'grid'}: key "a-b", `,
      el('span', { class: 'nowrap' }, `a = ${g.a[0]}…${g.a[1]},`),
      ' ',
      el('span', { class: 'nowrap' }, `b = ${g.b[0]}…${g.b[1]}`),
      ' ',
      el('span', { class: 'nowrap' }, '(as the API returns them)'),
    ),
    box,
    hint,
    el(
      'div',
      { class: 'scale', 'aria-label': 'Colour scale' },
      el('span', {}, '0'),
      el('span', { class: 'ramp' }),
      el('span', {}, n(g.max)),
      g.peak ? el('span', {}, `· peak a=${g.peak.a}, b=${g.peak.b} (${n(g.peak.value)})`) : null,
    ),
  );
}
