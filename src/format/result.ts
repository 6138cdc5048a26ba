import type { CallToolResult } from '@modelcontextprotocol/server';
import { grouped } from '../untrusted/numbers.js';

export type Rendered = { summary: string; text: string; structured: Record<string, unknown> };

export const DEFAULT_BUDGET_CHARS = 24_000;

const size = (r: Rendered) => ({
  text: r.text.length,
  json: JSON.stringify(r.structured).length + r.summary.length + 16,
});
const fitsIn = (r: Rendered, budget: number) => {
  const s = size(r);
  return s.text <= budget && s.json <= budget;
};

/** The call's budget, and its format: a cut detailed answer also offers the concise one. */
type Fit = { budget: number; format: 'concise' | 'detailed' };

export interface Cut {
  what: string;
  how: (shown: number) => string;
  /** Where `items` start in a longer ranking (investigate_botting's offset): the note counts from there. */
  offset?: number;
  /** More rows than this cannot fit (computed cheaply): no attempt renders past it. */
  most?: number;
}

/** The longest prefix of `items` that fits `budget`; cut, both channels end with one note on the rest. */
export function fitRows<T>(
  items: readonly T[],
  { budget, format }: Fit,
  cut: Cut,
  render: (rows: readonly T[]) => Rendered,
): Rendered {
  const { offset, what } = cut;
  const total = items.length;
  const attempt = (shown: number): Rendered => {
    const rendered = render(items.slice(0, shown));
    const cutHere = shown < total;
    // A ranking read from an offset (investigate_botting) says where its rows stand, cut or not.
    if (!cutHere && (offset === undefined || total === 0)) return rendered;
    const how = () =>
      cut.how(shown) + (format === 'detailed' ? ' Or ask with response_format "concise".' : '');
    const from = offset ?? 0;
    const line = !cutHere
      ? from === 0
        ? `All ${grouped(total)} ${what} shown.`
        : `Showing ${grouped(from + 1)}–${grouped(from + total)} of ${grouped(from + total)} ${what}: the end of the ranking.`
      : offset === undefined
        ? `Showing ${grouped(shown)} of ${grouped(total)} ${what}. ${how()}`
        : `Showing ${shown ? `${grouped(from + 1)}–${grouped(from + shown)}` : 'none'} of ${grouped(from + total)} ${what}. ${how()}`;
    const place = {
      from: shown ? from + 1 : null,
      to: shown ? from + shown : null,
      of: from + total,
      ...(cutHere ? { nextOffset: from + shown } : {}),
    };
    return {
      ...rendered,
      text: `${rendered.text}\n${line}`,
      structured: {
        ...rendered.structured,
        ...(offset === undefined ? {} : { shown: place }),
        ...(cutHere ? { truncated: line } : {}),
      },
    };
  };
  const most = Math.min(total, Math.max(0, cut.most ?? total));
  if (most === total) {
    const full = attempt(total);
    if (fitsIn(full, budget)) return full;
  }
  let best = attempt(0);
  for (let low = 1, high = Math.min(most, total - 1); low <= high; ) {
    const mid = (low + high) >> 1;
    const candidate = attempt(mid);
    if (fitsIn(candidate, budget)) [best, low] = [candidate, mid + 1];
    else high = mid - 1;
  }
  return best;
}

type ResultParts = Required<Pick<Report, 'headline' | 'query' | 'lines' | 'data'>> & Pick<Report, 'next'>;

export function result({ headline, lines, query, data, next }: ResultParts): Rendered {
  return {
    summary: headline,
    text: [
      headline,
      ...lines.filter((l): l is string => typeof l === 'string'),
      ...(next ? [`Next: ${next}`] : []),
    ].join('\n'),
    structured: { query, ...data, ...(next ? { next } : {}) },
  };
}

/** A detailed answer that held nothing beyond the concise one says so once, in both channels. */
export const NOTHING_MORE = 'detailed: the upstream sent nothing beyond what concise shows.';

type Lines = ReadonlyArray<string | false | undefined>;

/** A tool's report of one upstream body; `project` writes both channels from it, rows fitted to the budget. */
export interface Report<R = never> {
  /** The summary, and the text's first line. */
  headline: string;
  /** What was asked, as the server sent it (defaults and the chain's platform filled in). */
  query: Record<string, unknown>;
  /** Says which figures are the server's (text first, `legend`). */
  legend?: string | undefined;
  /** What did not add up (`Note:` lines, `integrity`). */
  notes?: readonly string[];
  /** Lines before the rows ('' a blank line, false and undefined left out), and structuredContent's leading fields. */
  lines?: Lines;
  data?: Record<string, unknown>;
  rows?: {
    items: readonly R[];
    cut: Cut;
    text: (rows: readonly R[]) => Lines;
    json: (rows: readonly R[]) => Record<string, unknown>;
    /** The sentence saying which ids were shortened in the rows shown (`idsShortened`). */
    shortened?: (rows: readonly R[]) => string | undefined;
    after?: (rows: readonly R[]) => Lines;
  };
  /** A detailed call whose answer held nothing more (NOTHING_MORE, `detail`). */
  nothingMore?: boolean;
  failed?: { lines: string[]; json: unknown[] };
  /** The step after this one: the text's `Next:` line and `next`, so that either channel alone has it. */
  next?: string | undefined;
}

export function project<R>(report: Report<R>, fit: Fit): Rendered {
  const { rows, notes = [], legend, failed } = report;
  const build = (shown: readonly R[]) => {
    const ids = rows?.shortened?.(shown);
    return result({
      headline: report.headline,
      lines: [
        legend,
        ...notes.map((n) => `Note: ${n}`),
        ...(report.lines ?? []),
        ...(rows?.text(shown) ?? []),
        ids,
        ...(rows?.after?.(shown) ?? []),
        report.nothingMore && NOTHING_MORE,
        ...(failed?.lines ?? []),
      ],
      query: report.query,
      data: {
        ...report.data,
        ...rows?.json(shown),
        ...(failed?.json.length ? { errors: failed.json } : {}),
        ...(notes.length ? { integrity: notes } : {}),
        ...(report.nothingMore ? { detail: NOTHING_MORE } : {}),
        ...(legend ? { legend } : {}),
        ...(ids ? { idsShortened: ids } : {}),
      },
      next: report.next,
    });
  };
  return rows ? fitRows(rows.items, fit, rows.cut, build) : build([]);
}

/** Fields that say what happened (never dropped to make room): the rest is data, cut first. */
const KEPT = new Set(
  `summary query counts totals aggregates detail calls errors notes integrity duplicates
  notFound notCovered dataAgeSeconds topReasons pagination next shown legend truncated`.split(/\s+/),
);

/** What to ask for instead, when a result had to be cut: never the format the call already used. */
export const narrower = (format: 'concise' | 'detailed') =>
  format === 'detailed'
    ? 'ask with response_format "concise", or a narrower query'
    : 'ask a narrower query (fewer ids, a smaller limit or period)';

/** Last resort for a result still over the budget (a renderer that could not bound it). */
export function enforceBudget(r: Rendered, budget: number, format: 'concise' | 'detailed'): Rendered {
  if (fitsIn(r, budget)) return r;
  const s = size(r);
  const note = `Result cut to the ${grouped(budget)}-character budget; ${narrower(format)}.`;
  // Both channels carry the note, whichever of them had to be cut.
  let text = `${r.text}\n${note}`;
  if (text.length > budget) {
    const lines = r.text.split('\n');
    let length = note.length;
    let kept = 0;
    while (kept < lines.length && length + (lines[kept]?.length ?? 0) + 1 <= budget)
      length += (lines[kept++]?.length ?? 0) + 1;
    text = [...lines.slice(0, kept), note].join('\n');
  }
  let structured = r.structured;
  if (s.json > budget) {
    structured = { ...r.structured, truncated: note };
    const over = () => size({ ...r, structured }).json > budget;
    const data = Object.keys(structured)
      .filter((k) => !KEPT.has(k))
      .sort((a, b) => JSON.stringify(structured[b]).length - JSON.stringify(structured[a]).length);
    for (const key of data) {
      if (!over()) break;
      const value = structured[key];
      if (Array.isArray(value)) {
        let low = 0;
        let high = value.length;
        while (low < high) {
          const mid = (low + high + 1) >> 1;
          structured[key] = value.slice(0, mid);
          if (over()) high = mid - 1;
          else low = mid;
        }
        structured[key] = value.slice(0, low);
      } else
        structured[key] = typeof value === 'string' ? '' : typeof value === 'object' && value ? {} : value;
    }
  }
  return { summary: r.summary, text, structured };
}

export function toolResult(r: Rendered): CallToolResult {
  return {
    content: [{ type: 'text', text: r.text }],
    structuredContent: { summary: r.summary, ...r.structured },
  };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
