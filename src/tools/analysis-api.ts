// The host side of run_analysis's `api.<tool>(args)`: the tools' own validation and requests, each counted.
import type { ApiRequest } from '../api/client.js';
import { describeError } from '../format/errors.js';
import { Limiter } from '../limits/places.js';
import { Switch } from '../limits/switch.js';
import { NAMES } from '../untrusted/names.js';
import { isRecord } from '../untrusted/series.js';
import { cleanDeep } from '../untrusted/text.js';
import { API_MAX_IDS, type CallContext, type Tool } from './tool.js';

/** A run's upstream requests in flight at once (the client's limiter shares them among callers). */
const IN_FLIGHT = 8;

/** How far a run got: the upstream requests it made, and whether it reached the request limit. */
export interface ApiUsage {
  calls: number;
  limitReached: boolean;
  /** api calls refused before anything was sent, and whether there were more than requests allowed. */
  refused: number;
  refusedLimitReached: boolean;
}

export type LocalRead = { error: string } | { read: () => Promise<unknown> };

/** The engine's `api` call over the tools; rejects with what the program sees (the request limit also `stop`s). */
export function apiHost(
  tools: ReadonlyMap<string, Tool>,
  ctx: Pick<CallContext, 'send' | 'progress' | 'signal' | 'redact'>,
  limits: { maxRequests: number },
  stop: (reason: string) => void,
  /** Calls this server answers (history reads): counted, queued and limited as upstream requests are. */
  read?: (name: string, args: unknown) => LocalRead,
  readNames: readonly string[] = [],
) {
  const usage: ApiUsage = { calls: 0, limitReached: false, refused: 0, refusedLimitReached: false };
  const gate = new Limiter({ limit: IN_FLIGHT });
  const redact = ctx.redact ?? (<T>(v: T) => v);
  /** One request (or history read), counted before it is queued: the one past the limit never is. */
  const dispatch = async <T>(what: string, make: () => Promise<T>, run?: AbortSignal): Promise<T> => {
    if (usage.calls >= limits.maxRequests) {
      usage.limitReached = true;
      const message = `request limit reached: ${limits.maxRequests} upstream requests made`;
      stop(message);
      throw new Error(message);
    }
    usage.calls++;
    ctx.progress(usage.calls, limits.maxRequests, what.replace('#', String(usage.calls)));
    return gate.run(async () => {
      // A program that returned (or was ended) with requests still queued: never sent.
      if (ctx.signal.aborted || run?.aborted || usage.limitReached)
        throw new Error('The run was stopped before this request was sent.');
      try {
        return await make();
      } catch (error) {
        throw new Error(redact(describeError(error)));
      }
    }, new Switch());
  };
  /** An api call refused before anything was sent; past as many refusals as requests, the run ends. */
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
      return redact(cleanDeep(await dispatch(`history read # (${name})`, plan.read, run?.signal)));
    }
    const tool = tools.get(name);
    if (!tool?.requests) return refuse(`api.${String(name).slice(0, 60)} is not a function`);
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      const params = Object.keys(tool.entry().inputSchema.properties ?? {}).filter(
        (p) => p !== 'response_format',
      );
      return refuse(
        `api.${name} takes one object of named parameters (${params.join(', ') || 'none'}), e.g. api.${name}({ ${params[0] ?? ''} }); got ${Array.isArray(args) ? 'a list' : typeof args}. Nothing was sent.`,
      );
    }
    // An id list far past the limit is checked only up to the limit's next id (main-thread time).
    const checked = Object.fromEntries(
      Object.entries(args ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, API_MAX_IDS + 1) : v]),
    );
    const plan = tool.requests(checked);
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

export const mergeBodies = (bodies: readonly unknown[]): unknown => bodies.reduce((a, b) => merge(a, b, ''));

/** Two answers merged: counts added (`summary`, `pagination.total`), averages weighted, else the first's. */
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
      const [x, y] = [wa as number, wb as number];
      return x + y > 0 ? (a * x + b * y) / (x + y) : a;
    }
    return inSummary ? a + b : a;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean' && key === 'hasNext') return a || b;
  return a;
}
