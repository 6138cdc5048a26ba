// A tool is data (name, schema, endpoint, renderer); `defineTool` turns it into what the server runs.
// Most tools are one endpoint (request + render); a composite tool runs its own requests (`run`).
import { setMaxListeners } from 'node:events';
import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { batches } from '../api/endpoints.js';
import { errorTag } from '../format/errors.js';
import type { Rendered } from '../format/result.js';
import { plural } from '../format/text.js';
import type { HistoryCall } from '../store/index.js';
import { literal } from '../untrusted/text.js';
import { prebuiltEntry } from './entries.js';
import {
  type Chain,
  mintId,
  type Platform,
  resolveScope,
  responseFormat,
  type Scope,
  scopeShape,
} from './shared.js';

export type ResponseFormat = 'concise' | 'detailed';

export interface RenderContext {
  format: ResponseFormat;
  /** Characters each channel may use. */
  budget: number;
}

type Args<S extends z.ZodRawShape> = z.output<z.ZodObject<S>> & {
  chain: Chain;
  platform: Platform;
  response_format: ResponseFormat;
};

/** What the server gives a call: the upstream, progress reporting, cancellation, the budget. */
export interface CallContext {
  /**
   * Sends one upstream request (retries, limits, breaker included) and returns its JSON body; ended by the
   * call's signal, or sooner by `also` (a run_analysis program's run, which may end before the call).
   */
  send(req: ApiRequest, also?: AbortSignal): Promise<Record<string, unknown>>;
  /** Reports progress, when the client asked for it. */
  progress(done: number, total: number, message: string): void;
  signal: AbortSignal;
  /** Characters each channel may use. */
  budget: number;
  /** Who is calling, one opaque value whatever the transport. Absent: nothing is kept per caller. */
  caller?: Caller;
  /**
   * Takes the call's full data for an MCP Apps view (never budgeted, never shown to the model); present
   * only when the client declared the MCP Apps extension, so nothing is built for other clients.
   */
  view?: (data: ViewData) => void;
  /** Removes the API key from a value: run_analysis hands upstream bodies to the program. */
  redact?: <T>(value: T) => T;
  /** run_analysis's limits, from the configuration (over --http, what is left of the request's allowance). */
  analysis?: { timeoutMs: number; maxRequests: number; limitName?: string };
  /** History kept for this call's key (src/store); absent when the server keeps none. */
  history?: HistoryCall;
}

/**
 * A caller, stable per caller and opaque: over --http `key` is its anchor (verified session, else address)
 * and its key, hashed (never the key), and `turns` its address; over stdio both name the upstream client.
 * What a tool keeps per caller is keyed by `key` (investigate_botting's cache); `turns` is its place in the
 * sandbox's fair turns.
 */
export interface Caller {
  readonly key: string;
  readonly turns: string;
}

/** What a view draws: a board of botting findings, series over time, or the activity heatmap. */
export type ViewData = { kind: 'board' | 'series' | 'heatmap' | 'evidence' } & Record<string, unknown>;

interface SpecCommon<S extends z.ZodRawShape> {
  name: string;
  title: string;
  /** A function where the text is built from other tools (run_analysis's api lines): built on first listing. */
  description: string | (() => string);
  /** Parameters, named as the upstream fields; chain and platform come from `scope`. */
  input: S;
  /** The chain and platform values the endpoint accepts; absent when it takes neither. */
  scope?: Scope;
  /** The batch id parameter, de-duplicated before sending. */
  ids?: keyof S & string;
  /** Fields of `structuredContent` beside `summary`, `next`, `truncated` and `duplicates`. */
  output: z.ZodRawShape;
  /** A rule between parameters the schema cannot state; returns the argument error's line. */
  check?: (args: Args<S>) => string | undefined;
  /** Hints beside the read-only default (a tool that writes the history store says so). */
  annotations?: Partial<typeof ANNOTATIONS>;
}

/** A tool over one endpoint: the request its arguments make, and how its answer reads. */
interface EndpointSpec<S extends z.ZodRawShape> extends SpecCommon<S> {
  request: (args: Args<S>) => ApiRequest;
  render: (body: Record<string, unknown>, args: Args<S>, ctx: RenderContext) => Rendered;
  /** The answer's full data for the tool's MCP Apps view, if it has one (it may ask the upstream for more). */
  view?: (
    body: Record<string, unknown>,
    args: Args<S>,
    send: CallContext['send'],
  ) => ViewData | Promise<ViewData>;
}

/** A tool that joins several requests itself. */
interface CompositeSpec<S extends z.ZodRawShape> extends SpecCommon<S> {
  run: (args: Args<S>, ctx: CallContext & RenderContext) => Promise<Rendered>;
  /** Its main endpoint's request, for run_analysis's `api` (analyze_botting: /botting/bulk alone). */
  request?: (args: Args<S>) => ApiRequest;
  /**
   * For run_analysis's `api`: what the tool knows beyond that endpoint, added to its merged body as new
   * fields (nothing renamed or removed), with further requests sent through `send` (counted as the api's).
   */
  annotate?: (body: unknown, args: Args<S>, send: CallContext['send']) => Promise<unknown>;
}

/** run_analysis's `api` call, validated: its upstream requests, and what is added to their merged body. */
export interface ApiPlan {
  requests: ApiRequest[];
  annotate?: (body: unknown, send: CallContext['send']) => Promise<unknown>;
}

export type ToolSpec<S extends z.ZodRawShape> = EndpointSpec<S> | CompositeSpec<S>;

export interface ToolListEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: Record<string, unknown>;
}

/** A call whose arguments passed validation, ready to run. */
export interface PreparedCall {
  /** The response format asked for. */
  format: ResponseFormat;
  run(ctx: CallContext): Promise<Rendered>;
}

export interface Tool {
  name: string;
  /** The tools/list entry, built once on first use. */
  entry(): ToolListEntry;
  /** Validates raw arguments; an error names the parameter and its allowed range. */
  prepare(raw: unknown): PreparedCall | { error: string };
  /**
   * For an endpoint tool: the same validation, then the upstream requests, with no rendering
   * (run_analysis's `api`). The id list may hold up to `maxIds` ids, split by the endpoint's limit.
   */
  requests?(raw: unknown, maxIds: number): ApiPlan | { error: string };
}

const FAN_OUT_LISTENERS = 200;
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export function defineTool<S extends z.ZodRawShape>(spec: ToolSpec<S>): Tool {
  const shape = {
    ...spec.input,
    ...(spec.scope ? scopeShape(spec.scope) : {}),
    response_format: responseFormat,
  };
  const input = z.strictObject(shape);
  const output = z.object({
    summary: z.string(),
    // What was asked, as sent (src/format/result.ts `result`): every result carries it.
    query: z.object({}).loose().optional(),
    ...spec.output,
    ...(spec.ids ? { duplicates: z.array(z.string()).optional() } : {}),
    next: z.string().optional(),
    truncated: z.string().optional(),
  });
  let entry: ToolListEntry | undefined;
  // The bundle's entry was computed at build time by this same `build` (src/tools/entries.ts).
  const getEntry = () => {
    entry ??= prebuiltEntry(spec.name) ?? build();
    return entry;
  };
  const build = (): ToolListEntry => ({
    name: spec.name,
    title: spec.title,
    description: typeof spec.description === 'function' ? spec.description() : spec.description,
    inputSchema: jsonSchema(input, 'input'),
    outputSchema: jsonSchema(output, 'output'),
    annotations: { ...ANNOTATIONS, ...spec.annotations },
  });

  /** The arguments as the tool reads them (defaults, scope resolved, checks made), or the argument error. */
  const validate = (
    raw: unknown,
    schema: z.ZodType,
    json: () => ToolListEntry['inputSchema'],
  ): { error: string } | { args: Args<S>; duplicates: string[] } => {
    const props = (json().properties ?? {}) as Record<string, JsonProp>;
    // A `__proto__` key that reached us as an object's prototype (a JSON parse or copy that assigned it)
    // is an unknown parameter like any other.
    if (hasForeignPrototype(raw)) return { error: argumentError(spec.name, [PROTO_ISSUE], raw, json()) };
    const { given, unknown } = normalize(raw ?? {}, props);
    // Repeated ids are sent once, and the per-call maximum counts distinct ids.
    const duplicates = spec.ids ? dedupe(given, spec.ids) : [];
    // Unknown keys never reach the schema (a caller may send 80,000): they are one issue of their own,
    // naming the first few, beside the schema's issues with the rest.
    const parsed = schema.safeParse(given);
    if (unknown || !parsed.success)
      return {
        error: argumentError(
          spec.name,
          [...(unknown ? [unknown] : []), ...(parsed.success ? [] : parsed.error.issues)],
          given,
          json(),
        ),
      };
    const args = parsed.data as Args<S>;
    if (spec.scope) {
      const scope = resolveScope(args.chain, args.platform, spec.scope);
      if ('error' in scope) return { error: invalid(spec.name, [scope.error]) };
      Object.assign(args, scope);
    }
    const problem = spec.check?.(args);
    if (problem) return { error: invalid(spec.name, [problem]) };
    return { args, duplicates };
  };
  // run_analysis's variant: the id list longer (up to maxIds), sent in pieces of the endpoint's limit.
  const wide = new Map<number, { schema: z.ZodType; json: () => ToolListEntry['inputSchema'] }>();
  const request = spec.request;
  const requests = request
    ? (raw: unknown, maxIds: number): ApiPlan | { error: string } => {
        const key = spec.ids;
        const plan = (args: Args<S>, pieces: ApiRequest[]): ApiPlan => {
          const annotate = 'annotate' in spec ? spec.annotate : undefined;
          return annotate
            ? { requests: pieces, annotate: (body, send) => annotate(body, args, send) }
            : { requests: pieces };
        };
        if (!key) {
          const valid = validate(raw, input, () => getEntry().inputSchema);
          return 'error' in valid ? { error: valid.error } : plan(valid.args, [request(valid.args)]);
        }
        let variant = wide.get(maxIds);
        if (!variant) {
          const schema = input.extend({ [key]: z.array(mintId).min(1).max(maxIds) });
          let json: ToolListEntry['inputSchema'] | undefined;
          variant = { schema, json: () => (json ??= jsonSchema(schema, 'input')) };
          wide.set(maxIds, variant);
        }
        const valid = validate(raw, variant.schema, variant.json);
        if ('error' in valid) return { error: valid.error };
        const limit = (getEntry().inputSchema.properties as Record<string, JsonProp>)[key]
          ?.maxItems as number;
        const ids = (valid.args as Record<string, unknown>)[key] as string[];
        const pieces = batches(ids, limit).map((piece) => request({ ...valid.args, [key]: piece }));
        return plan(valid.args, pieces);
      }
    : undefined;

  return {
    name: spec.name,
    entry: getEntry,
    ...(requests ? { requests } : {}),
    prepare(raw) {
      const valid = validate(raw, input, () => getEntry().inputSchema);
      if ('error' in valid) return { error: valid.error };
      const { args, duplicates } = valid;
      return {
        format: args.response_format,
        async run(ctx) {
          const format = args.response_format;
          // A composite call fans out to many upstream requests (investigate_botting: up to 20), each
          // listening for cancellation; that is by design, so Node's leak warning at 10 does not apply.
          if ('run' in spec) setMaxListeners(FAN_OUT_LISTENERS, ctx.signal);
          // The duplicates note is added after rendering, so the rows are fitted to what it leaves.
          const note = duplicates.length ? duplicatesNote(duplicates) : undefined;
          const budget = ctx.budget - (note?.cost ?? 0);
          let rendered: Rendered;
          if ('run' in spec) rendered = await spec.run(args, { ...ctx, budget, format });
          else {
            const body = await ctx.send(spec.request(args));
            if (ctx.view && spec.view) ctx.view(await spec.view(body, args, ctx.send));
            rendered = spec.render(body, args, { budget, format });
          }
          return note ? note.add(rendered) : rendered;
        },
      };
    },
  };
}

/** What the transports rename an argument named `__proto__` to (src/transports/proto.ts). */
export const PROTO_ARGUMENT = '__proto__\u0000';

/** Arguments whose prototype is neither Object's nor none: a `__proto__` key was applied, not kept. */
const hasForeignPrototype = (raw: unknown) =>
  typeof raw === 'object' &&
  raw !== null &&
  !Array.isArray(raw) &&
  ![Object.prototype, null].includes(Object.getPrototypeOf(raw));
const PROTO_ISSUE = {
  code: 'unrecognized_keys',
  keys: ['__proto__'],
  path: [],
  message: '',
} as z.core.$ZodIssue;

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Unknown parameters named in an argument error; the rest are counted. */
const UNKNOWN_NAMED = 5;

/** zod's issue for unknown keys, with how many there were in all (`keys` holds the first few). */
type UnknownKeys = z.core.$ZodIssue & { code: 'unrecognized_keys'; keys: string[]; total?: number };

/**
 * Arguments as real clients send them, read the way they mean them: `null` for an optional parameter
 * means omitted (strict-mode clients send it); a number or boolean sent as a string ("25", "true") is
 * that number or boolean; ids lose surrounding whitespace. Keys the tool does not have are left out and
 * returned as one issue (the first few named, all counted); anything else is left for the schema to judge.
 */
function normalize(raw: unknown, props: Record<string, JsonProp>): { given: unknown; unknown?: UnknownKeys } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { given: raw };
  const out: Record<string, unknown> = {};
  const keys: string[] = [];
  let total = 0;
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(props, key)) {
      if (total++ < UNKNOWN_NAMED) keys.push(key);
      continue;
    }
    const value = (raw as Record<string, unknown>)[key];
    // null means omitted for a parameter the tool has.
    if (value === null) continue;
    const prop = props[key];
    const type = prop?.type;
    let v = value;
    if (typeof v === 'string' && (type === 'integer' || type === 'number') && NUMERIC.test(v.trim()))
      v = Number(v);
    else if (typeof v === 'string' && type === 'boolean' && /^(true|false)$/.test(v.trim()))
      v = v.trim() === 'true';
    else if (typeof v === 'string' && prop?.minLength !== undefined) v = v.trim();
    else if (Array.isArray(v) && type === 'array') v = v.map((x) => (typeof x === 'string' ? x.trim() : x));
    out[key] = v;
  }
  if (!total) return { given: out };
  return {
    given: out,
    unknown: { code: 'unrecognized_keys', keys, total, path: [], message: '' } as UnknownKeys,
  };
}

/** Keeps the first occurrence of each id in `args[key]`; returns the ids that were repeated. */
function dedupe(args: unknown, key: string): string[] {
  const ids = (args as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(ids)) return [];
  // One pass with sets: a caller may send thousands of copies of one id.
  const unique = new Set<unknown>();
  const repeated = new Set<unknown>();
  for (const id of ids) (unique.has(id) ? repeated : unique).add(id);
  if (repeated.size === 0) return [];
  (args as Record<string, unknown>)[key] = [...unique];
  return [...repeated].map(String);
}

const DUPLICATES_SHOWN = 25;

/** The note on repeated ids, in both channels, with the characters it costs either channel at most. */
function duplicatesNote(all: string[]) {
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

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
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

type JsonProp = Record<string, unknown> & { items?: JsonProp };

/** The allowed values of one parameter, in words, from its JSON Schema. */
export function describeAllowed(prop: JsonProp | undefined): string {
  if (!prop) return 'no such parameter';
  const range = (min: unknown, max: unknown, unit = '') =>
    min !== undefined && max !== undefined
      ? `${min} to ${max}${unit}`
      : min !== undefined
        ? `at least ${min}${unit}`
        : max !== undefined
          ? `at most ${max}${unit}`
          : '';
  let text: string;
  if (Array.isArray(prop.enum)) text = `one of ${prop.enum.join(', ')}`;
  else if (prop.type === 'array')
    text = `a list of ${range(prop.minItems, prop.maxItems)} items, each ${describeAllowed(prop.items)}`;
  else if (prop.type === 'string')
    text = `a string of ${range(prop.minLength, prop.maxLength, ' characters')}`;
  else if (prop.type === 'integer' || prop.type === 'number')
    text =
      `${prop.type === 'integer' ? 'a whole number' : 'a number'} ${range(prop.minimum, prop.maximum)}`.trim();
  else text = String(prop.type ?? 'any value');
  return prop.default !== undefined ? `${text} (default ${prop.default})` : text;
}

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

function argumentError(
  name: string,
  issues: z.core.$ZodIssue[],
  raw: unknown,
  schema: ToolListEntry['inputSchema'],
) {
  const props = (schema.properties ?? {}) as Record<string, JsonProp>;
  const lines = issues.slice(0, 8).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      // Named as far as a reader needs (the first few, each cut), whatever the caller sent.
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

/** The one shape of an argument error: what was wrong, then the machine-readable tag. */
function invalid(name: string, lines: string[]): string {
  const head = `Invalid arguments for ${name} (nothing was sent):`;
  const body = lines.length === 1 && !lines[0]?.startsWith('- ') ? [`${head} ${lines[0]}`] : [head, ...lines];
  return [...body, errorTag('invalid_arguments', false)].join('\n');
}
