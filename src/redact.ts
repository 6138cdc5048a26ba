// The one place that removes a secret (the API key) from text: in results, errors and log lines alike.
// A secret is looked for as it stands and in the folded form cleaning leaves (src/format/text.ts `fold`),
// so a key disguised with a zero-width space, a soft hyphen, a control character, an ANSI escape or a
// direction mark is found too: cleaning can never rebuild one that redaction let through.
import { fold } from './format/text.js';

export const REDACTED = '[redacted]';
/** Shorter secrets are matched only as whole tokens, so that ids and field names containing them stay whole. */
export const SUBSTRING_MIN = 8;

export interface Redactor {
  /** The text with every secret replaced (folded first when only its folded form shows one). */
  text(s: string): string;
  /** A copy of a JSON-like value with every string (object keys included) passed through `text`. */
  deep<T>(value: T): T;
  /** Whether any secret shows in the text, as it stands or folded. */
  found(s: string): boolean;
}

export function redactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const list = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length > 0))];
  const replacers = list.map((secret) => {
    if (secret.length >= SUBSTRING_MIN) return (s: string) => s.split(secret).join(REDACTED);
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const token = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu');
    return (s: string) => s.replace(token, REDACTED);
  });
  const has = (s: string) => list.some((secret) => s.includes(secret));
  const replaceAll = (s: string) => replacers.reduce((out, replace) => replace(out), s);
  const text = (s: string): string => {
    if (!list.length) return s;
    let out = has(s) ? replaceAll(s) : s;
    const folded = fold(out);
    if (folded !== out && has(folded)) out = replaceAll(folded);
    return out;
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
    found: (s) => list.length > 0 && (has(s) || has(fold(s))),
  };
}
