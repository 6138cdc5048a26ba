// What comes back from the upstream, made safe before anything reads it: parsed within bounds, checked
// against the documented shape, the API key removed, non-JSON bodies described.
import { redactor } from '../redact.js';
import { grouped } from '../untrusted/numbers.js';
import { clean, looksBinary } from '../untrusted/text.js';

/** Nesting and size past which a body is refused (the documented answers stay far below). */
export const BODY_BOUNDS = { depth: 64, entries: 250_000 };

type FieldShape = 'object' | 'array' | 'object?' | 'array?' | Shape;
export interface Shape {
  [field: string]: FieldShape;
}

export type Parsed =
  | { ok: true; value: unknown }
  | { ok: false; problem: 'not JSON' | 'nested too deep' | 'too many fields' };

/** Parses a body and bounds its nesting and size without recursion (a deep body must not overflow the stack). */
export function parseBody(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const stack: Array<[unknown, number]> = [[value, 0]];
  let entries = 0;
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= BODY_BOUNDS.depth) return { ok: false, problem: 'nested too deep' };
    const children = Array.isArray(node) ? node : Object.values(node);
    entries += children.length;
    if (entries > BODY_BOUNDS.entries) return { ok: false, problem: 'too many fields' };
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return { ok: true, value };
}

const typeName = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** Where `body` departs from `shape`, in words; undefined when it fits. */
export function shapeProblem(body: unknown, shape: Shape, path = ''): string | undefined {
  const record = body as Record<string, unknown>;
  for (const [field, expected] of Object.entries(shape)) {
    const name = path + field;
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    const nested = typeof expected === 'object';
    if (value === undefined && !nested && expected.endsWith('?')) continue;
    const wantArray = !nested && expected.startsWith('array');
    const fits = wantArray
      ? Array.isArray(value)
      : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!fits)
      return `${name} is ${value === undefined ? 'missing' : typeName(value)} where ${wantArray ? 'an array' : 'an object'} is documented`;
    const inner = nested ? shapeProblem(value, expected, `${name}.`) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/** Characters that JSON lets stand unescaped in a string and that cleaning removes or folds. */
const RAW_DISGUISE =
  /[\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff\ufff9-\ufffb]/;

// Removes `secret` from what the upstream sent, on decoded values (escapes undone, disguises folded: see
// src/redact.ts). A key of 8 characters or more goes wherever it stands; a shorter one only as a whole token.
export function scrubber(secret: string) {
  if (!secret) return { json: (_raw: string, v: unknown) => v, text: (s: string) => s };
  const redact = redactor([secret]);
  return {
    json(raw: string, value: unknown): unknown {
      // Without an escape, a disguise or the key in the raw text, no decoded string can hold it.
      if (!raw.includes('\\') && !raw.includes(secret) && !RAW_DISGUISE.test(raw)) return value;
      return redact.deep(value);
    },
    text: (s: string) => redact.text(undoEscapes(s)),
  };
}

/** Undoes JSON-style escapes (`\u0074`, `\/`, `\n`) so that what is checked is what a reader would see. */
function undoEscapes(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\u([0-9a-fA-F]{4})|\\(.)/g, (_m, hex: string | undefined, c: string | undefined) => {
    if (hex) return String.fromCharCode(Number.parseInt(hex, 16));
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[c ?? ''] ?? c ?? '';
  });
}

/** A body that is not the expected JSON, for an error message: binary by size, HTML by kind, text cleaned and quoted. */
export function describeBody(text: string, bytes: number, contentType: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (looksBinary(trimmed)) return `binary data (${grouped(bytes)} bytes)`;
  if (/^<(!doctype|html)/i.test(trimmed) || /^text\/html\b/i.test(contentType)) return 'an HTML page';
  return JSON.stringify(clean(trimmed, 120));
}

export const cleanContentType = (value: string | undefined) => clean(value ?? '', 80) || undefined;
