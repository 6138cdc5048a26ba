// Rendering of objects whose fields the interface document does not show: every field, compactly.
import { clean, dict, num, quote, sparkline } from './text.js';

export interface SeriesSummary {
  count: number;
  min?: number;
  max?: number;
  last?: unknown;
  first?: unknown;
}

export interface Described {
  /** `key=value` parts for the text channel, in field order. */
  parts: string[];
  /** The same facts for `structuredContent`: scalars as they are, series as summaries. */
  fields: Record<string, unknown>;
}

const MAX_FIELDS = 40;
const MAX_DEPTH = 3;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The identifier an element of a batch answer is known by. */
export function idOf(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  for (const key of ['mintId', 'mint', 'tokenAddress', 'address', 'id']) {
    if (typeof item[key] === 'string') return item[key];
  }
  return undefined;
}

function summariseSeries(values: unknown[]): { text: string; summary: SeriesSummary } {
  const nums = values.filter(isNum);
  if (nums.length === values.length && nums.length > 0) {
    const summary = { count: nums.length, min: Math.min(...nums), max: Math.max(...nums), last: nums.at(-1) };
    return {
      text: `${num(summary.count)} points, min ${num(summary.min)}, max ${num(summary.max)}, last ${num(summary.last)} ${sparkline(nums, 24)}`,
      summary,
    };
  }
  const first = values[0];
  const last = values.at(-1);
  const show = (v: unknown) => (typeof v === 'string' ? quote(v, 40) : num(v));
  return {
    text: `${num(values.length)} values, first ${show(first)}, last ${show(last)}`,
    summary: {
      count: values.length,
      first: typeof first === 'string' ? clean(first, 60) : first,
      last: typeof last === 'string' ? clean(last, 60) : last,
    },
  };
}

/**
 * Flattens an object into dotted fields. Scalars stay; short scalar lists are joined; long lists and
 * lists of objects become per-key series summaries (count, min, max, last, sparkline).
 */
export function describeObject(value: Record<string, unknown>, skip: readonly string[] = []): Described {
  const parts: string[] = [];
  const fields = dict<unknown>();
  let omitted = 0;
  const add = (key: string, text: string, structured: unknown) => {
    if (parts.length >= MAX_FIELDS) {
      omitted++;
      return;
    }
    parts.push(`${key}=${text}`);
    fields[key] = structured;
  };
  const walk = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [rawKey, v] of Object.entries(obj)) {
      const key = prefix + clean(rawKey, 40);
      if (depth === 0 && skip.includes(rawKey)) continue;
      if (v === null || v === undefined) continue;
      if (typeof v === 'string') add(key, quote(v, 80), clean(v, 200));
      else if (typeof v === 'number' || typeof v === 'boolean')
        add(key, typeof v === 'number' ? num(v) : String(v), v);
      else if (Array.isArray(v)) walkArray(key, v, depth);
      else if (isRecord(v) && depth < MAX_DEPTH) walk(v, `${key}.`, depth + 1);
      else if (isRecord(v))
        add(key, `{${Object.keys(v).length} fields}`, `{${Object.keys(v).length} fields}`);
    }
  };
  const walkArray = (key: string, list: unknown[], depth: number) => {
    if (list.length === 0) return;
    if (list.every(isRecord)) {
      const keys = [...new Set(list.flatMap((item) => Object.keys(item)))];
      for (const k of keys) {
        const column = list.map((item) => item[k]).filter((x) => x !== undefined && x !== null);
        if (column.length === 0 || column.some((x) => typeof x === 'object')) continue;
        const s = summariseSeries(column);
        add(`${key}[].${clean(k, 40)}`, s.text, s.summary);
      }
      return;
    }
    const scalars = list.every((x) => typeof x !== 'object' || x === null);
    if (scalars && list.length <= 8 && !list.every(isNum)) {
      const shown = list.map((x) => (typeof x === 'string' ? clean(x, 60) : x));
      add(key, shown.map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x))).join(', '), shown);
    } else if (scalars && list.length <= 8) {
      add(key, list.map(num).join(', '), list);
    } else if (scalars) {
      const s = summariseSeries(list);
      add(key, s.text, s.summary);
    } else if (depth < MAX_DEPTH) {
      add(key, `${list.length} mixed items`, `${list.length} mixed items`);
    }
  };
  walk(value, '', 0);
  if (omitted) parts.push(`(+${omitted} more fields; response_format "detailed" has them all)`);
  return { parts, fields };
}
