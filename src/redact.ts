// The one place that removes a secret (the API key) from text: in results, errors and log lines alike.
// A secret is looked for as it stands and in the form a reader may take the text for (src/format/text.ts
// `readerView`: what cleaning leaves, in NFKC compatibility form), and removed from the original spans that
// form came from: a key disguised with a zero-width space, a soft hyphen, a control character, an ANSI
// escape, a direction mark, a tag character, a variation selector or fullwidth letters is found too.
import { readerView } from './format/text.js';

export const REDACTED = '[redacted]';
/** Shorter secrets are matched only as whole tokens, so that ids and field names containing them stay whole. */
export const SUBSTRING_MIN = 8;

export interface Redactor {
  /** The text with every secret replaced (each span of the original that reads as one). */
  text(s: string): string;
  /** A copy of a JSON-like value with every string (object keys included) passed through `text`. */
  deep<T>(value: T): T;
  /** Whether any secret shows in the text, as it stands or as a reader may take it. */
  found(s: string): boolean;
}

/** Printable ASCII: reads as it stands (but for runs of spaces, which no secret here holds). */
const ASCII = /^[ -~]*$/;
/**
 * Printable ASCII with line breaks and tabs (a result's text): a reader's view of it differs only where
 * whitespace runs fold to one space, so a secret without whitespace is found in it exactly where it is
 * found in the text itself.
 */
const ASCII_LINES = /^[ -~\t\n\r]*$/;
/** A letter or digit just before or after a span: a short secret there is part of a longer word. */
const WORD_BEFORE = /[\p{L}\p{N}]$/u;
const WORD_AFTER = /^[\p{L}\p{N}]/u;

export function redactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const list = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length > 0))];
  /** No secret holds whitespace: then ASCII_LINES text needs no reader's view (see there). */
  const solid = list.every((secret) => !/\s/.test(secret));
  /** Where the secrets stand in `s`: [start, end) pairs, in order, overlaps merged. */
  const spans = (s: string): Array<[number, number]> => {
    const found: Array<[number, number]> = [];
    for (const secret of list) {
      for (let at = s.indexOf(secret); at >= 0; at = s.indexOf(secret, at + 1)) {
        const end = at + secret.length;
        // A short secret counts only as a whole token.
        if (
          secret.length < SUBSTRING_MIN &&
          (WORD_BEFORE.test(s.slice(0, at)) || WORD_AFTER.test(s.slice(end)))
        )
          continue;
        found.push([at, end]);
      }
    }
    found.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [a, b] of found) {
      const last = merged.at(-1);
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
    return merged;
  };
  const replace = (s: string, at: Array<[number, number]>) => {
    let out = '';
    let i = 0;
    for (const [a, b] of at) {
      out += s.slice(i, a) + REDACTED;
      i = b;
    }
    return out + s.slice(i);
  };
  const text = (s: string): string => {
    if (!list.length) return s;
    const plain = spans(s);
    const out = plain.length ? replace(s, plain) : s;
    if (ASCII.test(out)) return out;
    // The reader's view of such text is the text with its whitespace runs folded: what it finds there is
    // what a second look at the text itself finds (same spans, same word boundaries).
    if (solid && ASCII_LINES.test(out)) {
      const again = spans(out);
      return again.length ? replace(out, again) : out;
    }
    const view = readerView(out);
    const hidden = spans(view.text);
    if (!hidden.length) return out;
    return replace(
      out,
      hidden.map(([a, b]) => [view.from[a] as number, view.to[b - 1] as number]),
    );
  };
  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(deep);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = Object.create(
      Object.getPrototypeOf(value) === null ? null : Object.prototype,
    );
    for (const [k, x] of Object.entries(value)) out[text(k)] = deep(x);
    return out;
  };
  return {
    text,
    deep: <T>(value: T) => (list.length ? (deep(value) as T) : value),
    found: (s) => text(s) !== s,
  };
}
