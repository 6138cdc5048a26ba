// The host side of run_analysis's `api.<tool>(args)`: the tools' own validation and requests, split by the
// endpoint's limit, each request counted before it is sent, the pieces merged, cleaned and key-redacted.
import type { ApiRequest } from '../api/client.js';
import { describeError } from '../format/errors.js';
import { Limiter } from '../limits/places.js';
import { Switch } from '../limits/switch.js';
import { NAMES } from '../untrusted/names.js';
import { isRecord } from '../untrusted/series.js';
import { cleanDeep } from '../untrusted/text.js';
import { API_MAX_IDS } from './run-analysis.js';
import type { CallContext, Tool } from './tool.js';

/** A run's upstream requests in flight at once (the client's limiter shares them among callers). */
const IN_FLIGHT = 8;

export interface ApiLimits {
  maxRequests: number;
}

/** How far a run got: the upstream requests it made, and whether it reached the request limit. */
export interface ApiUsage {
  calls: number;
  limitReached: boolean;
  /** api calls refused before anything was sent (bad arguments, unknown names). */
  refused: number;
  /** Whether the run was ended for making more refused calls than it may make requests. */
  refusedLimitReached: boolean;
}

/** A call the server answers itself (a history read): its argument error, or the read to make. */
export type LocalRead = { error: string } | { read: () => Promise<unknown> };

/** The engine's `api` call over the tools; rejects with what the program sees (the request limit also `stop`s). */
export function apiHost(
  tools: ReadonlyMap<string, Tool>,
  ctx: Pick<CallContext, 'send' | 'progress' | 'signal' | 'redact'>,
  limits: ApiLimits,
  stop: (reason: string) => void,
  /**
   * Calls answered by this server, not the upstream (history, read only): validated as the tools' calls are,
   * then counted, queued and limited exactly as an upstream request is.
   */
  read?: (name: string, args: unknown) => LocalRead,
  readNames: readonly string[] = [],
) {
  const usage: ApiUsage = { calls: 0, limitReached: false, refused: 0, refusedLimitReached: false };
  const gate = new Limiter({ limit: IN_FLIGHT });
  const redact = ctx.redact ?? (<T>(v: T) => v);
  /** One request (or history read), counted before it is made (or queued): the one past the limit never is. */
  const dispatch = async <T>(what: string, make: () => Promise<T>, run?: AbortSignal): Promise<T> => {
    if (usage.calls >= limits.maxRequests) {
      usage.limitReached = true;
      const message = `request limit reached: ${limits.maxRequests} upstream requests made`;
      stop(message);
      throw new Error(message);
    }
    usage.calls++;
    ctx.progress(usage.calls, limits.maxRequests, `${what.replace('#', String(usage.calls))}`);
    return gate.run(async () => {
      // A program that returned (or was ended) with requests still queued: they are never sent.
      if (ctx.signal.aborted || run?.aborted || usage.limitReached)
        throw new Error('The run was stopped before this request was sent.');
      try {
        return await make();
      } catch (error) {
        throw new Error(redact(describeError(error)));
      }
    }, new Switch());
  };
  /** An api call refused before anything was sent; past as many refusals as requests allowed, the run ends. */
  const refuse = (message: string): never => {
    if (++usage.refused > limits.maxRequests) {
      usage.refusedLimitReached = true;
      const limit = `refused-call limit reached: ${limits.maxRequests} api calls refused`;
      stop(limit);
      throw new Error(limit);
    }
    throw new Error(message);
  };
  const call = async (name: string, args: unknown, run?: { signal?: AbortSignal }): Promise<unknown> => {
    if (read && readNames.includes(name)) {
      const plan = read(name, args);
      if ('error' in plan) return refuse(redact(plan.error));
      const value = await dispatch(`history read # (${name})`, plan.read, run?.signal);
      // Cleaned, then redacted: cleaning could otherwise join a key split by an invisible character.
      return redact(cleanDeep(value));
    }
    const tool = tools.get(name);
    // A guard: the guest's api and the pool pass on only the names given.
    if (!tool?.requests) return refuse(`api.${String(name).slice(0, 60)} is not a function`);
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      const params = Object.keys(tool.entry().inputSchema.properties ?? {}).filter(
        (p) => p !== 'response_format',
      );
      return refuse(
        `api.${name} takes one object of named parameters (${params.join(', ') || 'none'}), e.g. api.${name}({ ${params[0] ?? ''} }); got ${Array.isArray(args) ? 'a list' : typeof args}. Nothing was sent.`,
      );
    }
    // An id list far past the limit is checked only up to the limit's next id (the main thread's time).
    const checked = Object.fromEntries(
      Object.entries(args ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, API_MAX_IDS + 1) : v]),
    );
    const plan = tool.requests(checked, API_MAX_IDS);
    if ('error' in plan) return refuse(redact(plan.error));
    const send = (req: ApiRequest) =>
      dispatch(`upstream request # (${req.path})`, () => ctx.send(req, run?.signal), run?.signal);
    const bodies = await Promise.all(plan.requests.map(send));
    const body = bodies.length === 1 ? bodies[0] : mergeBodies(bodies);
    // Cleaned, then redacted: cleaning could otherwise join a key split by an invisible character.
    return redact(cleanDeep(plan.annotate ? await plan.annotate(body, send) : body));
  };
  return { call, usage };
}

/** Pieces of one split call, merged: lists concatenated, counts added, nothing renamed. */
export function mergeBodies(bodies: readonly unknown[]): unknown {
  return bodies.reduce((a, b) => merge(a, b, ''));
}

/**
 * Two answers of one endpoint merged: lists concatenated, counts added (`summary`, `pagination.total`),
 * averages weighted, `totalPages` the larger, `hasNext` either; anything else the first piece's.
 */
function merge(a: unknown, b: unknown, key: string, parent?: [unknown, unknown], inSummary = false): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (isRecord(a) && isRecord(b)) {
    const out: Record<string, unknown> = { ...a };
    const summary = inSummary || key === 'summary';
    for (const [k, v] of Object.entries(b))
      out[k] = k in a ? merge(a[k], v, k, [a, b], summary || (key === 'pagination' && k === 'total')) : v;
    return out;
  }
  if (typeof a === 'number' && typeof b === 'number') {
    if (key === 'totalPages') return Math.max(a, b);
    if (NAMES.average(key) && parent) {
      const [wa, wb] = parent.map((p) =>
        isRecord(p) && typeof p.successful === 'number' ? p.successful : 1,
      );
      return (wa as number) + (wb as number) > 0
        ? (a * (wa as number) + b * (wb as number)) / ((wa as number) + (wb as number))
        : a;
    }
    if (inSummary) return a + b;
    return a;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean' && key === 'hasNext') return a || b;
  return a;
}
