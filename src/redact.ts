// The one place that removes a secret from text (results, errors, log lines): found as it stands and in the
// text a reader sees (`readerView`): a key disguised by invisible, control or fullwidth characters goes too.
import { readerView } from './untrusted/text.js';

export const REDACTED = '[redacted]';
/** Shorter secrets are matched only as whole tokens, so that ids and field names containing them stay whole. */
export const SUBSTRING_MIN = 8;

export interface Redactor {
  text(s: string): string;
  deep<T>(value: T): T;
  found(s: string): boolean;
}

/** Printable ASCII: reads as it stands (but for runs of spaces, which no secret here holds). */
const ASCII = /^[ -~]*$/;
// Printable ASCII, line breaks, tabs and the server's own symbols: a reader's view differs only where spaces
// fold and `…` reads `...`, so a solid secret (dotless, where `…` is allowed) is found there as in the text.
const PLAIN_TEXT = /^[ -~\t\n\r·–—≈≤≥→×▁-█░-▓]*$/;
const PLAIN_TEXT_ELLIPSIS = /^[ -~\t\n\r·–—≈≤≥→×▁-█░-▓…]*$/;
/** The same, as a JSON text (line breaks and tabs escaped there). */
const PLAIN_JSON = /^[ -~·–—≈≤≥→×▁-█░-▓]*$/;
const PLAIN_JSON_ELLIPSIS = /^[ -~·–—≈≤≥→×▁-█░-▓…]*$/;
/** A letter or digit just before or after a span: a short secret there is part of a longer word. */
const WORD_BEFORE = /[\p{L}\p{N}]$/u;
const WORD_AFTER = /^[\p{L}\p{N}]/u;

export function redactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const list = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length > 0))];
  /** Every secret is printable ASCII without whitespace: then PLAIN_TEXT needs no reader's view (see there). */
  const solid = list.every((secret) => ASCII.test(secret) && !/\s/.test(secret));
  const dotless = list.every((secret) => !secret.includes('.'));
  const plainText = dotless ? PLAIN_TEXT_ELLIPSIS : PLAIN_TEXT;
  const plainJson = dotless ? PLAIN_JSON_ELLIPSIS : PLAIN_JSON;
  /** [start, end) pairs, in order, overlaps merged. */
  const spans = (s: string): Array<[number, number]> => {
    const found: Array<[number, number]> = [];
    for (const secret of list) {
      for (let at = s.indexOf(secret); at >= 0; at = s.indexOf(secret, at + 1)) {
        const end = at + secret.length;
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
    // Such text's reader's view only folds whitespace runs: a second look at the text itself finds the same.
    if (solid && plainText.test(out)) {
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
  // A value cleared at once from its JSON: a solid secret without quote or backslash stands there as it is,
  // and a PLAIN_JSON text escaping only \n, \r, \t, \" and \\ holds PLAIN_TEXT strings. Else the walk.
  const viaJson = solid && list.every((secret) => !/["\\]/.test(secret));
  const clear = (value: unknown): boolean => {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      return false;
    }
    return (
      json !== undefined &&
      plainJson.test(json) &&
      !OTHER_ESCAPE.test(json) &&
      !list.some((s) => json.includes(s))
    );
  };
  return {
    text,
    deep: <T>(value: T) => (!list.length || (viaJson && clear(value)) ? value : (deep(value) as T)),
    found: (s) => text(s) !== s,
  };
}

/** A JSON escape other than \n, \r, \t, \" and \\ (\u, \b, \f; or \\ before one of those letters). */
const OTHER_ESCAPE = /\\[ubf]/;
