// run_analysis's answer in both channels: a headline, records as a compact table, scalars as lines, the
// program's log apart with its own bound; over the budget, whole rows are cut and both channels say so.

import { grouped } from '../untrusted/numbers.js';
import { isRecord } from '../untrusted/series.js';
import { clean } from '../untrusted/text.js';
import { extremes } from './aggregate.js';
import { fitRows, type Rendered } from './result.js';
import { namedNum, num, plural, table } from './text.js';

export interface Answer {
  value: unknown;
  logs: readonly string[];
  /** Log lines the engine dropped past its own bound. */
  logsCut: number;
  calls: number;
}

const COLUMNS = 12;
/** Fields past the table's columns named in the text (the rest counted). */
const MORE_FIELDS_NAMED = 20;
const CELL = 60;
const LOG_SHARE = 0.25;
const HOW = 'Return fewer rows (.slice(0, n)), or aggregate first (sum, mean, maxBy) and return the figures.';

/** The program's float noise (0.1 + 0.2 = 0.30000000000000004) read at 15 significant digits. */
function denoise(value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Number.isInteger(value)) return value;
    return significant(value) > 15 ? Number(value.toPrecision(15)) : value;
  }
  if (Array.isArray(value)) return value.map(denoise);
  // fromEntries defines each key, so `__proto__` is kept as a key.
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, denoise(v)]));
  return value;
}

/** Significant digits of a number's shortest round-trip text (15 when too short to hold more). */
function significant(value: number): number {
  const text = String(value);
  if (text.length <= 16 && !text.includes('e')) return 15;
  const mantissa = String(Math.abs(value)).split('e')[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/, '').length;
}

export function renderAnswer(answer: Answer, budget: number): Rendered {
  const value = denoise(answer.value === undefined ? null : answer.value);
  const calls = plural(answer.calls, 'upstream request');
  const log = logPart(answer.logs, answer.logsCut, Math.floor(budget * LOG_SHARE));
  // The rows to cut over the budget: the answer itself if it is a list, else its longest list field.
  const field = isRecord(value) ? longestList(value) : undefined;
  const rows = Array.isArray(value) ? value : field ? (value as Record<string, unknown[]>)[field] : undefined;
  const noun = rows?.length && rows.every(isRecord) ? 'rows' : 'values';
  const build = (shown: unknown): Rendered => {
    const v = field ? { ...(value as Record<string, unknown>), [field]: shown } : shown;
    // A cut answer says so first: how many rows are shown of how many.
    const part =
      rows && Array.isArray(shown) && shown.length < rows.length
        ? `${grouped(shown.length)} of ${grouped(rows.length)} ${noun}${field ? ` of ${JSON.stringify(clean(field, 40))}` : ''} shown, cut to fit the result budget`
        : undefined;
    const headline = `Analysis answer: ${part ? `${field ? `${gist(value)}; ` : ''}${part}` : gist(value)} (${calls})`;
    return {
      summary: headline,
      text: [headline, ...bodyLines(v), ...log.lines].join('\n'),
      structured: { value: v, ...(log.logs.length ? { logs: log.logs } : {}), calls: answer.calls },
    };
  };
  if (!rows) return build(value);
  const what = field ? `rows of the answer's ${JSON.stringify(field)}` : 'rows of the answer';
  // Each attempt is measured with the log in it, and renders no more rows than structuredContent can hold.
  const rest = field ? JSON.stringify({ ...(value as Record<string, unknown>), [field]: [] }).length : 2;
  return fitRows(
    rows,
    { budget, format: 'concise' },
    { what, how: () => HOW, most: rowsWithin(rows, budget - rest) },
    build,
  );
}

/** How many of the first rows' JSON (with a comma each) fits in `room` characters. */
function rowsWithin(rows: readonly unknown[], room: number): number {
  let used = 0;
  let count = 0;
  for (const row of rows) {
    used += (JSON.stringify(row) ?? 'null').length + 1;
    if (used > room) break;
    count++;
  }
  return count;
}

function gist(value: unknown): string {
  if (value === null) return 'nothing returned (end the program with `return <value>`)';
  if (Array.isArray(value))
    return plural(value.length, value.length && value.every(isRecord) ? 'row' : 'value');
  if (isRecord(value)) {
    const keys = Object.keys(value);
    return keys.length <= 4 && keys.every((k) => !isComposite(value[k]))
      ? keys.map((k) => `${clean(k, 40)} ${cell(value[k], CELL, k)}`).join(', ')
      : plural(keys.length, 'field');
  }
  if (typeof value === 'string' && isProse(value))
    return `a text of ${plural(value.split('\n').length, 'line')}`;
  return cell(value, 200);
}

/** A string answer that reads as text of its own (a report the program wrote): shown as its lines. */
const isProse = (s: string) => s.includes('\n') || s.length > 200;

/** Records as a table, lists of scalars on one line, other fields as `name: value` lines. */
function bodyLines(value: unknown, label?: string): string[] {
  const head = label === undefined ? [] : [`${label}:`];
  if (Array.isArray(value)) {
    if (value.length && value.every(isRecord)) {
      const lines = recordTable(value as Record<string, unknown>[]);
      return label === undefined ? ['', ...lines] : [`${label} (${plural(value.length, 'row')}):`, ...lines];
    }
    const line = value.map((v) => cell(v)).join(', ');
    return [label === undefined ? line : `${label}: ${line || '(empty list)'}`];
  }
  if (isRecord(value)) {
    const lines: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      const name = label === undefined ? clean(k, 60) : `${label}.${clean(k, 60)}`;
      if (isComposite(v) && (label === undefined || Array.isArray(v))) lines.push(...bodyLines(v, name));
      else lines.push(`${name}: ${cell(v, 400, k)}`);
    }
    return lines.length ? lines : [...head, `${label ?? 'answer'}: {} (empty object)`];
  }
  if (label === undefined && typeof value === 'string' && isProse(value))
    return ['', ...value.split('\n').map((line) => clean(line, 2_000))];
  return label === undefined ? [] : [`${label}: ${cell(value, 400)}`];
}

function recordTable(records: Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) keys.add(k);
  const all = [...keys];
  const shown = all.slice(0, COLUMNS);
  const numeric = (k: string) => records.every((r) => r[k] == null || typeof r[k] === 'number');
  const lines = table(
    shown.map((k) => ({ header: clean(k, 30), align: numeric(k) ? 'right' : 'left' })),
    records.map((r) => shown.map((k) => (r[k] === undefined ? '' : cell(r[k], CELL, k)))),
  );
  const more = all.slice(COLUMNS);
  if (more.length) {
    const named = more.slice(0, MORE_FIELDS_NAMED).map((k) => clean(k, 30));
    const rest = more.length - named.length;
    lines.push(
      `(${grouped(more.length)} more fields in structuredContent: ${named.join(', ')}${rest ? `, and ${grouped(rest)} more` : ''})`,
    );
  }
  return lines;
}

/** One value for the text: numbers as namedNum writes them, strings cleaned, lists and objects as compact JSON. */
function cell(value: unknown, max = CELL, name?: string): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number') return name === undefined ? num(value) : namedNum(name, value);
  if (typeof value === 'string') return clean(value, max);
  return clean(JSON.stringify(value), max);
}

/** The log, in both channels, within its share of the budget: the first lines, and how many were cut. */
function logPart(all: readonly string[], engineCut: number, share: number) {
  const logs: string[] = [];
  let used = 0;
  for (const line of all) {
    const shown = clean(line, 500);
    if (used + shown.length + 4 > share) break;
    logs.push(shown);
    used += shown.length + 4;
  }
  const cut = all.length - logs.length + engineCut;
  if (cut) logs.push(`(${grouped(cut)} more log lines not shown)`);
  const lines = logs.length
    ? ['', `Log (${plural(all.length + engineCut, 'line')}):`, ...logs.map((l) => `  ${l}`)]
    : [];
  return { logs, lines };
}

const isComposite = (v: unknown) => typeof v === 'object' && v !== null;

const longestList = (value: Record<string, unknown>) =>
  extremes(
    Object.entries(value).filter(([, v]) => Array.isArray(v)),
    ([, v]) => JSON.stringify(v).length,
  ).peak?.[0];
