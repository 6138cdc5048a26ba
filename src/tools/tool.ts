// A tool is data (name, schema, endpoint, renderer); `defineTool` turns it into what the server runs.
// Most tools are one endpoint (request + render); a composite tool runs its own requests (`run`).
import { setMaxListeners } from 'node:events';
import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { batches } from '../api/endpoints.js';
import type { Rendered } from '../format/result.js';
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
  /** The answer's full data for the tool's MCP Apps view, if it has one (from the body alone: no request of its own). */
  view?: (body: Record<string, unknown>, args: Args<S>) => ViewData;
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
            if (ctx.view && spec.view) ctx.view(spec.view(body, args));
            rendered = spec.render(body, args, { budget, format });
          }
          return note ? note.add(rendered) : rendered;
        },
      };
    },
  };
}

export { describeAllowed, PROTO_ARGUMENT } from './allowed.js';
