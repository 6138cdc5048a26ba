// Property tests of the input schemas, driven by the document's limits (test/tools/limits.ts):
// random valid arguments always become a valid upstream request; random invalid ones never do, and the
// refusal names the parameter. The oracle below is written from the document, not from the code.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/api/client.js';
import type { Simulator } from '../../src/simulator/server.js';
import { TOOLS } from '../../src/tools/index.js';
import type { PreparedCall } from '../../src/tools/tool.js';
import { literal } from '../../src/untrusted/text.js';
import { call, FIRST_CHANNEL, type Harness, useSimulator } from '../helpers.js';
import { LIMITS, type Param } from './limits.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const mint = fc.string({ unit: fc.constantFrom(...BASE58), minLength: 32, maxLength: 44 });
const tools = new Map(TOOLS.map((t) => [t.name, t]));

function arbitraryFor(p: Param): fc.Arbitrary<unknown> {
  switch (p.kind) {
    case 'ids':
      return fc.array(mint, { minLength: p.min, maxLength: p.max });
    case 'id':
      return mint;
    case 'int': {
      // A number sent as a numeric string is that number.
      const n = fc.integer({ min: p.min ?? -1_000, max: p.max ?? 1_000_000 });
      return fc.oneof(n, n.map(String));
    }
    case 'enum':
      return fc.constantFrom(...p.values);
    case 'bool':
      return fc.boolean();
    case 'strings':
      return fc.array(fc.string({ minLength: 1, maxLength: p.itemMax }), {
        minLength: p.min,
        maxLength: p.max,
      });
    case 'code':
      return fc.string({ maxLength: 200 });
    case 'someIds':
      return fc.array(mint, { minLength: p.min, maxLength: p.max });
    case 'text':
      return fc.string({ unit: fc.constantFrom(...BASE58), minLength: p.min ?? 0, maxLength: p.max });
  }
}

/** Valid arguments: required ones always, optional ones sometimes; chain and platform never contradictory. */
function validArgs(tool: string): fc.Arbitrary<Record<string, unknown>> {
  const params = LIMITS[tool]?.params ?? {};
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(params)) {
    // null for an optional parameter means omitted (strict-mode clients send it).
    shape[name] = 'required' in p ? arbitraryFor(p) : fc.oneof(arbitraryFor(p), fc.constant(null));
    if ('required' in p) required.push(name);
  }
  return fc.record(shape, { requiredKeys: required }).filter((a) => !contradictory(a.chain, a.platform));
}

const contradictory = (chain: unknown, platform: unknown) =>
  (chain === 'chain_a' && (platform === 'platform_b' || platform === 'platform_c')) ||
  (chain === 'chain_b' && platform === 'platform_a');

/** What the document says the request must be, for these arguments (null meaning omitted). */
function checkRequest(tool: string, given: Record<string, unknown>, req: ApiRequest) {
  const args = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null));
  const endpoint = LIMITS[tool];
  if (!endpoint) throw new Error(tool);
  expect(req.method).toBe(endpoint.method);
  const sent: Record<string, unknown> =
    req.method === 'POST' ? { ...(req.body as Record<string, unknown>) } : { ...req.query };
  if (endpoint.path.includes('{mint}')) {
    expect(req.path).toBe(endpoint.path.replace('{mint}', encodeURIComponent(String(args.mint))));
    sent.mint = args.mint;
  } else {
    expect(req.path).toBe(endpoint.path);
  }
  const documented = Object.keys(endpoint.params).filter((k) => k !== 'response_format');
  expect(Object.keys(sent).sort()).toEqual(documented.sort());
  for (const [name, p] of Object.entries(endpoint.params)) {
    if (name === 'response_format') continue;
    const value = sent[name];
    if (p.kind === 'ids') {
      const list = value as string[];
      expect(list.length).toBeGreaterThanOrEqual(p.min);
      expect(list.length).toBeLessThanOrEqual(p.max);
      expect(new Set(list).size).toBe(list.length);
      expect(new Set(list)).toEqual(new Set(args[name] as string[]));
    }
    if (p.kind === 'int') {
      expect(Number.isInteger(value)).toBe(true);
      if (p.min !== undefined) expect(value).toBeGreaterThanOrEqual(p.min);
      if (p.max !== undefined) expect(value).toBeLessThanOrEqual(p.max);
      expect(value).toBe(args[name] === undefined ? p.default : Number(args[name]));
    }
    if (p.kind === 'enum') expect(p.values).toContain(value);
    if (p.kind === 'enum' && name !== 'chain' && name !== 'platform')
      expect(value).toBe(args[name] ?? p.default);
  }
  if ('chain' in endpoint.params) {
    const { chain, platform } = sent;
    expect(contradictory(chain, platform)).toBe(false);
    const concrete = args.platform === 'platform_b' || args.platform === 'platform_c';
    expect(chain).toBe(args.chain ?? (concrete ? 'chain_b' : 'chain_a'));
    if (args.platform !== undefined) expect(platform).toBe(args.platform);
    else if (chain === 'chain_a') expect(platform).toBe('platform_a');
    else if (chain === 'all') expect(platform).toBe('all');
    else
      expect(platform).toBe(
        (endpoint.params.platform as { values: readonly string[] }).values.includes('all')
          ? 'all'
          : 'platform_b',
      );
  }
}

/** One parameter made invalid: past a bound, the wrong type, an unknown value or name. */
function invalidArgs(tool: string): fc.Arbitrary<{ args: Record<string, unknown>; param: string }> {
  const params = Object.entries(LIMITS[tool]?.params ?? {});
  const broken = params.map(([name, p]) => {
    let bad: fc.Arbitrary<unknown>;
    switch (p.kind) {
      case 'ids':
        bad = fc.oneof(
          fc.constant([]),
          fc.array(mint, { minLength: p.max + 1, maxLength: p.max + 5 }),
          fc.tuple(mint, fc.string({ maxLength: 31 })).map(([a, b]) => [a, b]),
          fc.tuple(mint, fc.string({ minLength: 45, maxLength: 80 })).map(([a, b]) => [`x${b}x`, a]),
          fc.string(),
          fc.integer(),
        );
        break;
      case 'id':
        bad = fc.oneof(
          fc.string({ maxLength: 31 }),
          fc.string({ minLength: 45, maxLength: 200 }).map((b) => `x${b}x`),
          fc.integer(),
          fc.constant(null),
        );
        break;
      case 'int':
        bad = fc.oneof(
          ...(p.min !== undefined ? [fc.integer({ min: -1e9, max: p.min - 1 })] : []),
          ...(p.max !== undefined ? [fc.integer({ min: p.max + 1, max: 1e9 })] : []),
          fc.double({ noInteger: true, noNaN: true }),
          ...(p.max !== undefined ? [fc.integer({ min: p.max + 1, max: 1e9 }).map(String)] : []),
          fc.string().filter((v) => !/^\s*-?\d+(\.\d+)?\s*$/.test(v)),
        );
        break;
      case 'enum':
        bad = fc.oneof(
          fc.string().filter((s) => !p.values.includes(s)),
          fc.integer(),
          fc.boolean(),
        );
        break;
      case 'bool':
        bad = fc.oneof(
          fc.string().filter((v) => !/^\s*(true|false)\s*$/.test(v)),
          fc.integer(),
        );
        break;
      case 'strings':
        bad = fc.oneof(fc.constant([]), fc.string(), fc.integer());
        break;
      case 'code':
        bad = fc.oneof(fc.integer(), fc.constant('x'.repeat(p.max + 1)));
        break;
      case 'someIds':
        bad = fc.oneof(fc.constant([]), fc.string(), fc.integer());
        break;
      case 'text':
        bad = fc.oneof(fc.integer(), fc.constant('x'.repeat(p.max + 1)));
        break;
    }
    return fc
      .tuple(validArgs(tool), bad)
      .map(([args, value]) => ({ args: { ...args, [name]: value }, param: name }));
  });
  const unknownKey = fc
    .tuple(
      validArgs(tool),
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((k) => !(k in (LIMITS[tool]?.params ?? {})) && k !== '__proto__'),
    )
    .map(([args, key]) => ({ args: { ...args, [key]: 1 }, param: key }));
  return fc.oneof(...broken, unknownKey);
}

/** The cases whose arguments survive a JSON round trip unchanged, as every MCP transport sends them. */
const onTheWire = <T extends { args: Record<string, unknown> }>(cases: fc.Arbitrary<T>) =>
  cases.filter(({ args }) => isDeepStrictEqual(JSON.parse(JSON.stringify(args)), args));

/** Runs a prepared call against an upstream that answers `{}`, and returns the requests it made. */
async function requestsOf(prepared: PreparedCall): Promise<ApiRequest[]> {
  const sent: ApiRequest[] = [];
  await prepared.run({
    send: async (req) => {
      sent.push(req);
      return {};
    },
    progress: () => {},
    signal: new AbortController().signal,
    budget: 24_000,
  });
  return sent;
}

// These two call the tools' own code, not the server: the same in every channel, so run in one.
describe.runIf(FIRST_CHANNEL)('random valid arguments always make a valid upstream request', () => {
  for (const name of Object.keys(LIMITS)) {
    it(name, async () => {
      const tool = tools.get(name);
      await fc.assert(
        fc.asyncProperty(validArgs(name), async (args) => {
          const prepared = tool?.prepare(args);
          if (!prepared || 'error' in prepared)
            throw new Error(`refused valid arguments: ${prepared?.error}`);
          const [own, ...more] = await requestsOf(prepared);
          // One request to the tool's endpoint; analyze_botting on chain_b adds its coverage lookup.
          const lookup =
            name === 'analyze_botting' && (own?.body as { chain?: string } | undefined)?.chain === 'chain_b';
          expect(more.map((r) => r.path)).toEqual(lookup ? ['/streamers'] : []);
          checkRequest(name, args, own as ApiRequest);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe.runIf(FIRST_CHANNEL)(
  'random invalid arguments never reach the upstream, and name the parameter',
  () => {
    for (const name of Object.keys(LIMITS)) {
      it(name, () => {
        const tool = tools.get(name);
        fc.assert(
          fc.property(invalidArgs(name), ({ args, param }) => {
            const prepared = tool?.prepare(args);
            expect(prepared && 'error' in prepared).toBe(true);
            const text = (prepared as { error: string }).error;
            expect(text).toContain(`Invalid arguments for ${name} (nothing was sent)`);
            const named =
              text.includes(`- ${param}`) || text.includes(`unknown parameter ${literal(param, 40)}`);
            expect(named, text).toBe(true);
          }),
          { numRuns: 300 },
        );
      });
    }
  },
);

describe('through the MCP client and the simulator (which enforces the limits too)', () => {
  let sim: Simulator;
  let h: Harness;
  useSimulator((s, harness) => {
    sim = s;
    h = harness;
  });

  it('valid arguments are never refused upstream; invalid ones send nothing', async () => {
    for (const name of Object.keys(LIMITS)) {
      await fc.assert(
        fc.asyncProperty(validArgs(name), async (args) => {
          const out = await call(h.client, name, args);
          // Unknown ids may be "not found"; the upstream never calls the request itself invalid.
          expect(out.text).not.toMatch(/HTTP 400|Invalid arguments/);
        }),
        { numRuns: 15 },
      );
      sim.reset();
      await fc.assert(
        // Only what JSON can carry: on a real wire ±Infinity arrives as null, which means "omitted".
        // (The in-process property above still refuses ±Infinity.)
        fc.asyncProperty(onTheWire(invalidArgs(name)), async ({ args }) => {
          const out = await call(h.client, name, args);
          expect(out.isError).toBe(true);
        }),
        { numRuns: 15 },
      );
      expect(sim.requests, name).toHaveLength(0);
    }
    // 300 calls through the real client: a loaded 2-core machine takes longer than the default 20 s.
  }, 90_000);
});
