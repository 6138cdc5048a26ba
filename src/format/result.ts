import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { clean, cleanDeep, exact, grouped } from './text.js';

/** What a tool renders: the headline, the text channel, and the structured channel (summary added later). */
export interface Rendered {
  summary: string;
  text: string;
  structured: Record<string, unknown>;
}

export const DEFAULT_BUDGET_CHARS = 24_000;

const size = (r: Rendered) => ({
  text: r.text.length,
  json: JSON.stringify(r.structured).length + r.summary.length + 16,
});

export interface Cut {
  /** What the rows are, for the note: "rows of this page", "sessions". */
  what: string;
  /** How to get the rest, given how many rows fit. */
  how: (shown: number) => string;
}

/**
 * Renders the longest prefix of `items` whose text and JSON both stay within `budget` characters; when
 * rows are cut, both channels end with the same note saying how many and how to get the rest.
 */
export function fitRows<T>(
  items: readonly T[],
  budget: number,
  cut: Cut,
  render: (rows: readonly T[]) => Rendered,
): Rendered {
  const attempt = (shown: number): Rendered => {
    const rendered = render(items.slice(0, shown));
    if (shown >= items.length) return rendered;
    const note = cutNote(shown, items.length, cut.what, cut.how(shown));
    return {
      ...rendered,
      text: `${rendered.text}\n${note}`,
      structured: { ...rendered.structured, truncated: note },
    };
  };
  const fits = (r: Rendered) => {
    const s = size(r);
    return s.text <= budget && s.json <= budget;
  };
  const full = attempt(items.length);
  if (fits(full)) return full;
  let low = 0;
  let high = items.length - 1;
  let best = attempt(0);
  while (low <= high) {
    const mid = (low + high) >> 1;
    const candidate = attempt(mid);
    if (fits(candidate)) {
      best = candidate;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** The sentence both channels carry when rows were cut to fit the budget. */
const cutNote = (shown: number, total: number, what: string, how: string) =>
  `Showing ${grouped(shown)} of ${grouped(total)} ${what}. ${how}`;

/** Last-resort guard for results whose size the renderer could not bound (detailed passthrough). */
export function enforceBudget(r: Rendered, budget: number): Rendered {
  const s = size(r);
  if (s.text <= budget && s.json <= budget) return r;
  const note = `Result cut to the ${grouped(budget)}-character budget; ask with response_format "concise" or a narrower query.`;
  const text = s.text <= budget ? r.text : `${r.text.slice(0, budget - note.length - 2)}\n${note}`;
  const structured = s.json <= budget ? r.structured : { truncated: note };
  return { summary: r.summary, text, structured };
}

/**
 * Records for structuredContent: in detailed mode every upstream field, as cleaned objects; in concise mode
 * the given columns once and the rows as arrays (the keys are not repeated per row).
 */
export function tabular(
  records: readonly Record<string, unknown>[],
  columns: readonly string[],
  detailed: boolean,
) {
  return detailed
    ? { items: records.map((r) => cleanDeep(r) as Record<string, unknown>) }
    : { columns: [...columns], rows: records.map((r) => columns.map((k) => cell(r[k]))) };
}

const cell = (v: unknown) => (typeof v === 'string' ? clean(v, 80) : typeof v === 'boolean' ? v : exact(v));

export function toolResult(r: Rendered): CallToolResult {
  return {
    content: [{ type: 'text', text: r.text }],
    structuredContent: { summary: r.summary, ...r.structured },
  };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
