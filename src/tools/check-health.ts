import { described } from '../format/generic.js';
import { num } from '../format/text.js';
import { NAMES } from '../untrusted/names.js';
import { clean, quote } from '../untrusted/text.js';
import { object, objects, text } from './batch-output.js';
import { defineTool } from './tool.js';

// /health's body is not documented: any field whose value reads as a state that is not ok is reported.
const BAD = new Set(
  `degraded down error errored errors fail failed failing failure unhealthy outage critical
  unavailable offline warn warning`.split(/\s+/),
);
const NEGATION = new Set(['no', 'not', 'non', 'none', 'without']);

function notOkState(key: string, value: unknown): string | false | undefined {
  if (value === false && NAMES.ok(key)) return false;
  if (typeof value !== 'string' || value.length > 40) return undefined;
  const words = value
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 3 || words.some((w) => NEGATION.has(w))) return undefined;
  return words.some((w) => BAD.has(w)) ? clean(value, 40) : undefined;
}

interface NotOk {
  field: string;
  state: string | false;
  /** The other scalar fields of the object it sits in (a note, a lag), as sent; none at the top level. */
  with?: Record<string, unknown>;
}

/** Every field of the body whose value reads as a state that is not ok, with the fields beside it. */
function notOkFields(body: unknown): NotOk[] {
  const found: NotOk[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > 6 || found.length >= 10 || !v || typeof v !== 'object') return;
    const entries = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      const key = k.startsWith('[') ? `${path}${k}` : path ? `${path}.${clean(k, 40)}` : clean(k, 40);
      const state = notOkState(k, x);
      if (state !== undefined) {
        const scalars = depth > 0 && !Array.isArray(v);
        const beside = entries
          .filter(([k2, x2]) => k2 !== k && isScalar(x2) && notOkState(k2, x2) === undefined)
          .map(([k2, x2]) => [clean(k2, 40), typeof x2 === 'string' ? clean(x2, 120) : x2])
          .slice(0, 4);
        found.push({
          field: key,
          state,
          ...(scalars && beside.length ? { with: Object.fromEntries(beside) } : {}),
        });
      } else walk(x, key, depth + 1);
    }
  };
  walk(body, '', 0);
  return found;
}

const isScalar = (v: unknown) => ['string', 'number', 'boolean'].includes(typeof v);
const scalar = (v: unknown) =>
  typeof v === 'string' ? quote(v, 120) : typeof v === 'number' ? num(v) : String(v);
/** `checks.ingest.state="degraded" (lagSeconds=420, note="poller behind")` */
const notOkText = (n: NotOk) =>
  `${n.field}=${scalar(n.state)}${
    n.with
      ? ` (${Object.entries(n.with)
          .map(([k, v]) => `${k}=${scalar(v)}`)
          .join(', ')})`
      : ''
  }`;

export const checkHealth = defineTool({
  name: 'check_health',
  title: 'Service health',
  description:
    'Checks that the service is reachable, with the status it reports. Use first when other tools fail. detailed: every field.',
  endpoint: 'health',
  input: {},
  output: { health: object, notOk: objects, detail: text },
  render(body, _args, ctx) {
    const health = described(body, ['success'], ctx.format === 'detailed');
    const notOk = notOkFields(body);
    return {
      headline: notOk.length
        ? `Service reachable; not ok: ${notOk.map(notOkText).join('; ')}`
        : 'Service reachable: GET /health answered',
      query: {},
      lines: [health.parts.length > 0 && `reported: ${health.parts.join('; ')}`],
      data: { health: health.json, ...(notOk.length ? { notOk } : {}) },
      nothingMore: health.same,
    };
  },
});
