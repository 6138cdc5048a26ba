// A tool is data (name, schema, endpoint, renderer, or `run` for its own requests); `defineTool` runs it.
import { setMaxListeners } from 'node:events';
import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { batches, ENDPOINTS, type EndpointName, idLimit, requestFor } from '../api/endpoints.js';
import { project, type Rendered, type Report } from '../format/result.js';
import type { HistoryCall } from '../store/index.js';
import type { JsonProp } from './allowed.js';
import {
  argumentError,
  dedupe,
  duplicatesNote,
  hasForeignPrototype,
  invalid,
  jsonSchema,
  normalize,
  PROTO_ISSUE,
} from './arguments.js';
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
  budget: number;
}

type Args<S extends z.ZodRawShape> = z.output<z.ZodObject<S>> & {
  chain: Chain;
  platform: Platform;
  response_format: ResponseFormat;
};

export interface CallContext {
  /** One upstream request's JSON body; ended by the call's signal, or sooner by `also` (a run_analysis run). */
  send(req: ApiRequest, also?: AbortSignal): Promise<Record<string, unknown>>;
  progress(done: number, total: number, message: string): void;
  signal: AbortSignal;
  budget: number;
  /** Who is calling, one opaque value whatever the transport. Absent: nothing is kept per caller. */
  caller?: Caller;
  /** Takes the call's data for an MCP Apps view; present only when the client declared MCP Apps. */
  view?: (data: ViewData) => void;
  /** Removes the API key from a value: run_analysis hands upstream bodies to the program. */
  redact?: <T>(value: T) => T;
  /** run_analysis's limits (over --http, what is left of the request's allowance). */
  analysis?: { timeoutMs: number; maxRequests: number; limitName?: string };
  /** History kept for this call's key (src/store); absent when the server keeps none. */
  history?: HistoryCall;
}

/** A caller: kept data is keyed by `key` (over --http anchor and hashed key); `turns` is its sandbox turn. */
export interface Caller {
  readonly key: string;
  readonly turns: string;
}

export type ViewData = { kind: 'board' | 'series' | 'heatmap' | 'evidence' } & Record<string, unknown>;

interface SpecCommon<S extends z.ZodRawShape> {
  name: string;
  title: string;
  /** A function where the text is built from other tools (run_analysis's api lines): built on first listing. */
  description: string | (() => string);
  /** Parameters, named as the upstream fields; chain and platform come from `scope`. */
  input: S;
  /** The upstream endpoint its arguments are sent to: its scope and id list are the tool's defaults. */
  endpoint?: EndpointName;
  scope?: Scope;
  ids?: keyof S & string;
  /** Fields of `structuredContent` beside `summary`, `next`, `truncated` and `duplicates`. */
  output: z.ZodRawShape;
  /** A rule between parameters the schema cannot state; returns the argument error's line. */
  check?: (args: Args<S>) => string | undefined;
  /** Hints beside the read-only default (a tool that writes the history store says so). */
  annotations?: Partial<typeof ANNOTATIONS>;
}

interface EndpointSpec<S extends z.ZodRawShape, R> extends SpecCommon<S> {
  endpoint: EndpointName;
  render: (body: Record<string, unknown>, args: Args<S>, ctx: RenderContext) => Report<R> | Rendered;
  view?: (body: Record<string, unknown>, args: Args<S>) => ViewData;
}

/** A tool that joins several requests itself; with an `endpoint`, run_analysis's `api` sends to it alone. */
interface CompositeSpec<S extends z.ZodRawShape, R> extends SpecCommon<S> {
  run: (args: Args<S>, ctx: CallContext & RenderContext) => Promise<Report<R> | Rendered>;
  /** For `api`: what the tool knows beyond the endpoint, added to the merged body as new fields. */
  annotate?: (body: unknown, args: Args<S>, send: CallContext['send']) => Promise<unknown>;
}

/** run_analysis's `api` call, validated: its upstream requests, and what is added to their merged body. */
export interface ApiPlan {
  requests: ApiRequest[];
  annotate?: (body: unknown, send: CallContext['send']) => Promise<unknown>;
}

export type ToolSpec<S extends z.ZodRawShape, R = never> = EndpointSpec<S, R> | CompositeSpec<S, R>;

export interface ToolListEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: Record<string, unknown>;
}

export interface PreparedCall {
  format: ResponseFormat;
  run(ctx: CallContext): Promise<Rendered>;
}

export interface Tool {
  name: string;
  entry(): ToolListEntry;
  prepare(raw: unknown): PreparedCall | { error: string };
  /** An endpoint's `api` call: validated, the id list up to API_MAX_IDS split by the endpoint's limit. */
  requests?(raw: unknown): ApiPlan | { error: string };
}

/** Ids one run_analysis `api` call may pass; split by the endpoint's own limit. */
export const API_MAX_IDS = 500;
const FAN_OUT_LISTENERS = 200;
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export function defineTool<S extends z.ZodRawShape, R = never>(spec: ToolSpec<S, R>): Tool {
  const endpoint = spec.endpoint && (ENDPOINTS[spec.endpoint] as { scope?: Scope; ids?: { field: string } });
  const scope = spec.scope ?? endpoint?.scope;
  const idsKey = spec.ids ?? endpoint?.ids?.field;
  const shape = { ...spec.input, ...(scope ? scopeShape(scope) : {}), response_format: responseFormat };
  const input = z.strictObject(shape);
  const output = z.object({
    summary: z.string(),
    query: z.object({}).loose().optional(),
    ...spec.output,
    ...(idsKey ? { duplicates: z.array(z.string()).optional() } : {}),
    next: z.string().optional(),
    truncated: z.string().optional(),
  });
  let entry: ToolListEntry | undefined;
  // The bundle's entry was computed at build time by this same code (src/tools/entries.ts).
  const getEntry = (): ToolListEntry =>
    (entry ??= prebuiltEntry(spec.name) ?? {
      name: spec.name,
      title: spec.title,
      description: typeof spec.description === 'function' ? spec.description() : spec.description,
      inputSchema: jsonSchema(input, 'input'),
      outputSchema: jsonSchema(output, 'output'),
      annotations: { ...ANNOTATIONS, ...spec.annotations },
    });
  const request = (args: Args<S>): ApiRequest => {
    const { response_format: _, chain, platform, ...rest } = args;
    return requestFor(spec.endpoint as EndpointName, { ...rest, ...(scope ? { chain, platform } : {}) });
  };
  const validate = (
    raw: unknown,
    schema: z.ZodType,
    json: () => ToolListEntry['inputSchema'],
  ): { error: string } | { args: Args<S>; duplicates: string[] } => {
    const props = (json().properties ?? {}) as Record<string, JsonProp>;
    // A `__proto__` key applied as the prototype (by a JSON parse or copy) is an unknown parameter too.
    if (hasForeignPrototype(raw)) return { error: argumentError(spec.name, [PROTO_ISSUE], raw, json()) };
    const { given, unknown } = normalize(raw ?? {}, props);
    const duplicates = idsKey ? dedupe(given, idsKey) : [];
    // Unknown keys never reach the schema (a caller may send 80,000): they are one issue of their own.
    const parsed = schema.safeParse(given);
    if (unknown || !parsed.success) {
      const issues = [...(unknown ? [unknown] : []), ...(parsed.success ? [] : parsed.error.issues)];
      return { error: argumentError(spec.name, issues, given, json()) };
    }
    const args = parsed.data as Args<S>;
    if (scope) {
      const pair = resolveScope(args.chain, args.platform, scope);
      if ('error' in pair) return { error: invalid(spec.name, [pair.error]) };
      Object.assign(args, pair);
    }
    const problem = spec.check?.(args);
    return problem ? { error: invalid(spec.name, [problem]) } : { args, duplicates };
  };
  // run_analysis's variant: the id list up to API_MAX_IDS, sent in pieces of the endpoint's limit.
  let wide: { schema: z.ZodType; json: () => ToolListEntry['inputSchema'] } | undefined;
  const requests = (raw: unknown): ApiPlan | { error: string } => {
    if (!wide) {
      const schema = idsKey ? input.extend({ [idsKey]: z.array(mintId).min(1).max(API_MAX_IDS) }) : input;
      let json: ToolListEntry['inputSchema'] | undefined;
      wide = { schema, json: () => (json ??= idsKey ? jsonSchema(schema, 'input') : getEntry().inputSchema) };
    }
    const valid = validate(raw, wide.schema, wide.json);
    if ('error' in valid) return { error: valid.error };
    const { args } = valid;
    const ids = idsKey && ((args as Record<string, unknown>)[idsKey] as string[]);
    const pieces = ids
      ? batches(ids, idLimit(spec.endpoint as EndpointName)).map((piece) =>
          request({ ...args, [idsKey]: piece }),
        )
      : [request(args)];
    const annotate = 'annotate' in spec ? spec.annotate : undefined;
    return {
      requests: pieces,
      ...(annotate ? { annotate: (body, send) => annotate(body, args, send) } : {}),
    };
  };
  return {
    name: spec.name,
    entry: getEntry,
    ...(spec.endpoint ? { requests } : {}),
    prepare(raw) {
      const valid = validate(raw, input, () => getEntry().inputSchema);
      if ('error' in valid) return { error: valid.error };
      const { args, duplicates } = valid;
      const format = args.response_format;
      return {
        format,
        async run(ctx) {
          // A composite call's many requests each listen for cancellation: Node's leak warning does not apply.
          if ('run' in spec) setMaxListeners(FAN_OUT_LISTENERS, ctx.signal);
          // The duplicates note is added after rendering, so the rows are fitted to what it leaves.
          const note = duplicates.length ? duplicatesNote(duplicates) : undefined;
          const budget = ctx.budget - (note?.cost ?? 0);
          const projected = <T>(out: Report<T> | Rendered) =>
            'headline' in out ? project(out, { budget, format }) : out;
          let rendered: Rendered;
          if ('run' in spec) rendered = projected(await spec.run(args, { ...ctx, budget, format }));
          else {
            const body = await ctx.send(request(args));
            if (ctx.view && spec.view) ctx.view(spec.view(body, args));
            rendered = projected(spec.render(body, args, { budget, format }));
          }
          return note ? note.add(rendered) : rendered;
        },
      };
    },
  };
}

export { describeAllowed } from './allowed.js';
