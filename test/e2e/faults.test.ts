// The fault matrix: each upstream fault, injected into the simulator, against a real tool call.
// Every case states the exact outcome: answer or error tag, upstream requests made, a time bound, the message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fault, Simulator } from '../../src/simulator/server.js';
import { call, connect, FIRST_CHANNEL, type Harness, ids, startSim } from '../helpers.js';

// Per attempt. Wide enough that a loaded 2-core machine answers a normal request well within it (at 300 ms
// a stalled moment timed out an answer on its way, and the retry changed the case's outcome).
const TIMEOUT_MS = 1_000;
/**
 * Added to every case's upper bound: what a loaded machine may add to a call. The bounds are there to catch
 * waits of a second or more (a Retry-After honoured, a backoff, a timeout too many); the count of upstream
 * requests says which attempts were made.
 */
const SLACK_MS = 1_000;

interface Case {
  name: string;
  faults: Fault[];
  /** `ok`, or the error tag the text must end with. */
  outcome: 'ok' | string;
  requests: number;
  /** Upper bound on the call's duration, ms. */
  within: number;
  /** Lower bound, where a wait is the point (Retry-After). */
  atLeast?: number;
  says?: RegExp;
}

const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';

const CASES: Case[] = [
  { name: '500 then answer', faults: [{ status: 500 }], outcome: 'ok', requests: 2, within: 500 },
  { name: '502 then answer', faults: [{ status: 502 }], outcome: 'ok', requests: 2, within: 500 },
  {
    name: '503, 503 then answer',
    faults: [{ status: 503 }, { status: 503 }],
    outcome: 'ok',
    requests: 3,
    within: 500,
  },
  {
    name: '504 three times',
    faults: [{ status: 504 }, { status: 504 }, { status: 504 }],
    outcome: '[error: upstream_error · retryable]',
    requests: 3,
    within: 500,
    says: /failed \(HTTP 504\) after 3 attempts: "Simulated HTTP 504"/,
  },
  { name: '429 without Retry-After', faults: [{ status: 429 }], outcome: 'ok', requests: 2, within: 500 },
  {
    name: '429 Retry-After: 1 (seconds)',
    faults: [{ status: 429, headers: { 'retry-after': '1' } }],
    outcome: 'ok',
    requests: 2,
    atLeast: 950,
    within: 1_600,
  },
  {
    name: '429 Retry-After as an HTTP date',
    faults: [{ status: 429, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } }],
    outcome: '[error: rate_limited · retryable · retry_after_s=',
    requests: 1,
    within: 300,
    says: /Wait \d+ s before trying again/,
  },
  {
    name: '429 Retry-After: 120 (beyond the 30 s cap)',
    faults: [{ status: 429, headers: { 'retry-after': '120' } }],
    outcome: '[error: rate_limited · retryable · retry_after_s=120]',
    requests: 1,
    within: 300,
  },
  {
    name: 'hang, three times',
    faults: [{ hang: true }, { hang: true }, { hang: true }],
    outcome: '[error: timeout · retryable]',
    requests: 3,
    within: 3 * TIMEOUT_MS + 600,
    says: new RegExp(`did not answer within ${TIMEOUT_MS} ms after 3 attempts`),
  },
  {
    name: 'hang once, then answer',
    faults: [{ hang: true }],
    outcome: 'ok',
    requests: 2,
    within: TIMEOUT_MS + 500,
  },
  { name: 'reset before the answer', faults: [{ drop: 'before' }], outcome: 'ok', requests: 2, within: 500 },
  { name: 'reset during the body', faults: [{ drop: 'during' }], outcome: 'ok', requests: 2, within: 500 },
  {
    name: 'reset, three times',
    faults: [{ drop: 'before' }, { drop: 'before' }, { drop: 'before' }],
    outcome: '[error: network · retryable]',
    requests: 3,
    within: 500,
  },
  {
    name: 'slow body within the timeout',
    faults: [{ trickleMs: 100 }],
    outcome: 'ok',
    requests: 1,
    within: 600,
  },
  {
    name: 'slow body past the timeout, then answer',
    faults: [{ trickleMs: 700 }],
    outcome: 'ok',
    requests: 2,
    within: TIMEOUT_MS + 500,
  },
  {
    name: 'truncated JSON',
    faults: [{ raw: '{"success":true,"data":{"results":[' }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 300,
  },
  {
    name: 'invalid JSON',
    faults: [{ raw: "{success: true, data: 'x'}" }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 300,
  },
  {
    name: 'HTML error page with 200',
    faults: [{ raw: html, contentType: 'text/html' }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 300,
    says: /got an HTML page, Content-Type "text\/html"\).*STREAMER_ANALYTICS_BASE_URL/s,
  },
  {
    name: 'HTML error page with 502, three times',
    faults: [1, 2, 3].map(() => ({ raw: html, status: 502, contentType: 'text/html' })),
    outcome: '[error: upstream_error · retryable]',
    requests: 3,
    within: 500,
    says: /HTTP 502\) after 3 attempts: an HTML page\./,
  },
  {
    name: 'body too large',
    faults: [{ bodyBytes: 17 * 1024 * 1024 }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 2_000,
    says: /larger than 16 MiB/,
  },
  {
    name: 'success: false',
    faults: [{ status: 200, body: { success: false, error: 'Analysis temporarily disabled' } }],
    outcome: '[error: api_error · final]',
    requests: 1,
    within: 300,
    says: /reported a failure \(HTTP 200\): "Analysis temporarily disabled"/,
  },
  {
    name: 'a body without data',
    faults: [{ status: 200, body: { success: true } }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 300,
    says: /data is missing where an object is documented/,
  },
  {
    name: 'data of the wrong type',
    faults: [{ status: 200, body: { success: true, data: 'ok' } }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 300,
    says: /data is a string where an object is documented/,
  },
  {
    name: 'results of the wrong type',
    faults: [{ status: 200, body: { success: true, data: { results: { a: 1 } } } }],
    outcome: '[error: invalid_response · final]',
    requests: 1,
    within: 300,
    says: /data\.results is an object where an array is documented/,
  },
  {
    name: '401',
    faults: [{ status: 401, body: { success: false, error: 'Invalid API key' } }],
    outcome: '[error: auth · final]',
    requests: 1,
    within: 300,
    says: /Check STREAMER_ANALYTICS_API_KEY/,
  },
  {
    name: '404',
    faults: [{ status: 404, body: { success: false, error: 'Route not found' } }],
    outcome: '[error: not_found · final]',
    requests: 1,
    within: 300,
    says: /"Route not found"/,
  },
  {
    name: '400',
    faults: [{ status: 400, body: { success: false, message: 'mintIds invalid' } }],
    outcome: '[error: api_error · final]',
    requests: 1,
    within: 300,
    says: /"mintIds invalid"/,
  },
];

let sim: Simulator;
let h: Harness;
let mintIds: string[];
const matrix: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  sim = await startSim();
  // A breaker threshold above the matrix's longest run of outages, so each case stands alone.
  h = await connect(sim, { config: { timeoutMs: TIMEOUT_MS }, api: { breaker: { threshold: 100 } } });
  mintIds = ids(sim, 'platform_a', 2);
  // The first call loads what later calls reuse (undici, the tool's modules): not part of any case's time.
  await call(h.client, 'analyze_botting', { mintIds });
});
afterAll(async () => {
  if (process.env.FAULT_MATRIX) console.table(matrix);
  await h.close();
  await sim.close();
});
beforeEach(() => sim.reset());

// A case whose upstream answers with an error status sends the dialect's error body (src/simulator/dialect.ts
// errorBody): it runs in both channel projects. The others (hangs, resets, slow and raw bodies) meet nothing
// of the dialect, and what they check is the upstream client's retries and time limits, which the channel
// does not change (test/tools/channels.test.ts meets every channel with a tool error): they run once, on the
// first channel (a hang three times is 3 s of its timeouts; these cases were 7 s of the legacy-http-b run).
const meetsDialect = (c: Case) => c.faults.some((f) => 'status' in f && !('raw' in f));

describe('fault matrix (analyze_botting, timeout 1 s, 2 retries)', () => {
  it.for(CASES.map((c) => [c.name, c] as const))('%s', async ([, c], { skip }) => {
    if (!FIRST_CHANNEL && !meetsDialect(c)) skip();
    sim.inject(...c.faults);
    const started = performance.now();
    const out = await call(h.client, 'analyze_botting', { mintIds });
    const ms = performance.now() - started;
    matrix.push({
      case: c.name,
      outcome: out.isError ? out.text.split('\n').at(-1) : 'answer',
      requests: sim.requests.length,
      ms: Math.round(ms),
    });

    if (c.outcome === 'ok') {
      expect(out.isError, out.text).toBe(false);
      expect(out.structured?.summary).toMatch(/^Botting analysis/);
    } else {
      expect(out.isError).toBe(true);
      expect(out.structured).toBeUndefined();
      expect(out.text.split('\n').at(-1)?.startsWith(c.outcome), out.text).toBe(true);
    }
    expect(sim.requests).toHaveLength(c.requests);
    expect(ms).toBeLessThan(c.within + SLACK_MS);
    if (c.atLeast) expect(ms).toBeGreaterThanOrEqual(c.atLeast);
    if (c.says) expect(out.text).toMatch(c.says);
    expect(out.text).not.toContain(sim.apiKey);
  });
});

// A 404 on a path that names one token: the token's not-found when the upstream says so in its own words,
// JSON or plain text; the base address's when the body says nothing about a token (HTML, empty, a reason
// phrase, a word about the route).
describe('404 on a token path (get_streamer_core)', () => {
  const TOKEN =
    /^Not found \(HTTP 404\)[^\n]*\nCheck the mint id, and the chain and platform: the token may be on the other chain or platform; chain all with platform all looks on every one\.\nIf every tool answers 404, check STREAMER_ANALYTICS_BASE_URL/;
  const BASE =
    /^The streamer analytics service has no \/streamers\/\S+\/core \(HTTP 404\)[^\n]*: the base address is probably wrong\.\nCheck STREAMER_ANALYTICS_BASE_URL/;
  const cases: Array<[string, Fault, RegExp]> = [
    [
      'plain text "streamer not found" is the token\'s',
      { status: 404, raw: 'streamer not found', contentType: 'text/plain; charset=utf-8' },
      TOKEN,
    ],
    [
      "a JSON message is the token's",
      { status: 404, body: { success: false, error: 'Token not found' } },
      TOKEN,
    ],
    [
      "an HTML page is the address's",
      { status: 404, raw: '<html><body>404</body></html>', contentType: 'text/html' },
      BASE,
    ],
    ["an empty body is the address's", { status: 404, raw: '', contentType: 'text/plain' }, BASE],
    [
      "a reason phrase is the address's",
      { status: 404, raw: '404 page not found', contentType: 'text/plain' },
      BASE,
    ],
    ["a JSON reason phrase is the address's", { status: 404, body: { detail: 'Not Found' } }, BASE],
    [
      "a JSON message about the route is the address's",
      { status: 404, body: { success: false, error: 'Route not found' } },
      BASE,
    ],
    [
      "a word about the route is the address's",
      { status: 404, raw: 'no route GET /x', contentType: 'text/plain' },
      BASE,
    ],
  ];
  it.each(cases)('%s', async (_name, fault, says) => {
    sim.inject(fault);
    const out = await call(h.client, 'get_streamer_core', { mint: mintIds[0], chain: 'chain_b' });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(says);
    expect(out.text.split('\n').at(-1)).toBe('[error: not_found · final]');
    expect(sim.requests).toHaveLength(1);
  });
});
