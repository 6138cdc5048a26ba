// Arguments as the tools read them, the argument error, and the tools/list JSON Schema from zod.
import * as z from 'zod';
import { errorTag } from '../format/errors.js';
import type { Rendered } from '../format/result.js';
import { plural } from '../format/text.js';
import { literal } from '../untrusted/text.js';
import { describeAllowed, type JsonProp, PROTO_ARGUMENT } from './allowed.js';
import type { ToolListEntry } from './tool.js';

/** Arguments whose prototype is neither Object's nor none: a `__proto__` key was applied, not kept. */
export const hasForeignPrototype = (raw: unknown) =>
  typeof raw === 'object' &&
  raw !== null &&
  !Array.isArray(raw) &&
  ![Object.prototype, null].includes(Object.getPrototypeOf(raw));
const unknownKeys = (keys: string[], total: number) =>
  ({ code: 'unrecognized_keys', keys, total, path: [], message: '' }) as UnknownKeys;
export const PROTO_ISSUE = unknownKeys(['__proto__'], 1);

const NUMERIC = /^-?\d+(\.\d+)?$/;

const UNKNOWN_NAMED = 5;

type UnknownKeys = z.core.$ZodIssue & { code: 'unrecognized_keys'; keys: string[]; total?: number };

// As real clients mean them: `null` omitted (strict-mode clients send it), "25" and "true" a number and a
// boolean, ids trimmed. Unknown keys are left out and returned as one issue.
export function normalize(
  raw: unknown,
  props: Record<string, JsonProp>,
): { given: unknown; unknown?: UnknownKeys } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { given: raw };
  const out: Record<string, unknown> = {};
  const keys: string[] = [];
  let total = 0;
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(props, key)) {
      if (total++ < UNKNOWN_NAMED) keys.push(key);
      continue;
    }
    let v = (raw as Record<string, unknown>)[key];
    if (v === null) continue;
    const prop = props[key];
    const type = prop?.type;
    if (typeof v === 'string' && (type === 'integer' || type === 'number') && NUMERIC.test(v.trim()))
      v = Number(v);
    else if (typeof v === 'string' && type === 'boolean' && /^(true|false)$/.test(v.trim()))
      v = v.trim() === 'true';
    else if (typeof v === 'string' && prop?.minLength !== undefined) v = v.trim();
    else if (Array.isArray(v) && type === 'array') v = v.map((x) => (typeof x === 'string' ? x.trim() : x));
    out[key] = v;
  }
  return total ? { given: out, unknown: unknownKeys(keys, total) } : { given: out };
}

export function dedupe(args: unknown, key: string): string[] {
  const ids = (args as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(ids)) return [];
  const unique = new Set<unknown>();
  const repeated = new Set<unknown>();
  for (const id of ids) (unique.has(id) ? repeated : unique).add(id);
  if (repeated.size === 0) return [];
  (args as Record<string, unknown>)[key] = [...unique];
  return [...repeated].map(String);
}

const DUPLICATES_SHOWN = 25;

/** The note on repeated ids, in both channels, and the characters it costs either channel at most. */
export function duplicatesNote(all: string[]) {
  const duplicates = all.slice(0, DUPLICATES_SHOWN);
  const more = all.length - duplicates.length;
  if (more > 0) duplicates.push(`and ${more} more`);
  const line = `Duplicate ids sent once: ${duplicates.join(', ')}`;
  return {
    cost: Math.max(line.length + 1, JSON.stringify({ duplicates }).length),
    add(r: Rendered): Rendered {
      const [headline, ...rest] = r.text.split('\n');
      return {
        ...r,
        text: [headline, line, ...rest].join('\n'),
        structured: { ...r.structured, duplicates },
      };
    },
  };
}

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
  delete json.$schema;
  return JSON.parse(JSON.stringify(json), compact) as ToolListEntry['inputSchema'];
}

/**
 * zod's `.int()` states ±(2^53 - 1) as bounds; the document states no such limit, so they are left out.
 * A loose object's `"properties":{},"additionalProperties":{}` says what `{"type":"object"}` already does.
 */
function compact(key: string, value: unknown) {
  if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
    return undefined;
  const node = value as { properties?: object; additionalProperties?: unknown } | null;
  if (isEmpty(node?.properties) && isEmpty(node?.additionalProperties)) {
    const { properties: _, additionalProperties: __, ...rest } = node as Record<string, unknown>;
    return rest;
  }
  return value;
}

const isEmpty = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length === 0;

function received(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string')
    return value.length > 48
      ? `a ${value.length}-character string`
      : `${literal(value)} (${plural(value.length, 'character')})`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : typeof value;
}

export function argumentError(
  name: string,
  issues: z.core.$ZodIssue[],
  raw: unknown,
  schema: ToolListEntry['inputSchema'],
) {
  const props = (schema.properties ?? {}) as Record<string, JsonProp>;
  const lines = issues.slice(0, 8).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const named = issue.keys.slice(0, UNKNOWN_NAMED);
      const more = ((issue as UnknownKeys).total ?? issue.keys.length) - named.length;
      const keys = named.map((k) => literal(k === PROTO_ARGUMENT ? '__proto__' : k, 40));
      if (more > 0) keys.push(`and ${more.toLocaleString('en-US')} more`);
      return `- unknown parameter ${keys.join(', ')}; parameters are: ${Object.keys(props).join(', ')}`;
    }
    const [key, index] = issue.path;
    const label = index === undefined ? String(key) : `${String(key)}[${String(index)}]`;
    let value: unknown = raw;
    for (const step of issue.path)
      value = (value as Record<PropertyKey, unknown> | undefined)?.[step as PropertyKey];
    const prop = props[String(key)];
    const allowed = index === undefined ? describeAllowed(prop) : describeAllowed(prop?.items);
    const what = value === undefined && index === undefined ? 'is required' : `got ${received(value)}`;
    return `- ${label}: ${what}; allowed: ${allowed}`;
  });
  if (issues.length > 8) lines.push(`- and ${issues.length - 8} more`);
  // A nested value can fail one rule in several ways (zod reports each); the caller needs it said once.
  return invalid(name, [...new Set(lines)]);
}

export function invalid(name: string, lines: string[]): string {
  const head = `Invalid arguments for ${name} (nothing was sent):`;
  const body = lines.length === 1 && !lines[0]?.startsWith('- ') ? [`${head} ${lines[0]}`] : [head, ...lines];
  return [...body, errorTag('invalid_arguments', false)].join('\n');
}
