// "Did you mean" leads with the right name, and an answer JSON cannot carry as it is comes back as what it
// holds: the ranking alone, then through the built worker (dist/server/analysis-worker.js, `npm run build`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closestFirst } from '../../src/analysis/closest.js';
import type { AnalysisHost, RunOptions, RunOutcome } from '../../src/analysis/index.js';
import { createSandboxPool } from '../../src/analysis/index.js';
import type { SandboxPool } from '../../src/analysis/pool.js';

const TEN = [
  'list_streamers',
  'get_streamer_core',
  'get_streamer_sessions',
  'get_streamers_analytics',
  'get_streamers_complete',
  'analyze_botting',
  'get_creator_fees',
  'get_analytics_overview',
  'get_activity_heatmap',
  'check_health',
];
const FIELDS = ['mintId', 'tokenName', 'tokenSymbol', 'currentViewers', 'marketCap', 'isLive'];

describe('closestFirst', () => {
  it.each([
    ['viewerz', FIELDS, 'currentViewers'],
    ['getCore', TEN, 'get_streamer_core'],
    ['get_streamer', TEN, 'get_streamer_core'],
    ['getStreamerSession', TEN, 'get_streamer_sessions'],
    ['botting', TEN, 'analyze_botting'],
    ['fees', TEN, 'get_creator_fees'],
    ['HEATMAP', TEN, 'get_activity_heatmap'],
    ['market-cap', FIELDS, 'marketCap'],
    ['symbol', FIELDS, 'tokenSymbol'],
  ])('%s → %s first', (typed, names, first) => {
    expect(closestFirst(typed, names)[0]).toBe(first);
  });
  it('keeps every candidate once, and their order on a tie', () => {
    expect(closestFirst('zzz', ['b', 'a'])).toEqual(['b', 'a']);
    expect([...closestFirst('x', TEN)].sort()).toEqual([...TEN].sort());
    expect(closestFirst('', TEN)).toHaveLength(TEN.length);
  });
});

const echo: AnalysisHost = {
  async call(name, args) {
    return { name, args };
  },
};
let pool: SandboxPool;
beforeAll(async () => {
  pool = await createSandboxPool({ maxWorkers: 1, warm: 1, maxAnswerChars: 64 * 1024 });
  await pool.warmUp();
});
afterAll(() => pool.close());
const run = (code: string, opts: Partial<RunOptions> = {}) =>
  pool.run(code, echo, { apiNames: TEN, timeoutMs: 10_000, ...opts });
function failure(outcome: RunOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome;
}
async function answer(code: string) {
  const outcome = await run(code);
  if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`);
  return outcome;
}

describe('in the sandbox', () => {
  it("sortBy(rows, 'viewerz') suggests currentViewers first", async () => {
    const rows = JSON.stringify([
      { mintId: 'a', tokenName: 'A', currentViewers: 3, marketCap: 1 },
      { mintId: 'b', tokenName: 'B', currentViewers: 5, marketCap: 2 },
    ]);
    const outcome = failure(await run(`return sortBy(${rows}, 'viewerz')`));
    expect(outcome.message).toContain(
      'sortBy: field "viewerz" is absent from every row; did you mean "currentViewers"?',
    );
  });
  it('api.getCore suggests api.get_streamer_core first', async () => {
    const outcome = failure(await run('return await api.getCore({ mint: "x" })'));
    expect(outcome.message).toMatch(
      /^TypeError: api\.getCore is not a function; did you mean api\.get_streamer_core\?/,
    );
  });
});

describe('an answer JSON cannot carry as it is', () => {
  it('a Map comes back as its entries, a Set as its members, a Symbol as its description, and says so', async () => {
    const map = await answer("return new Map([['a', 1], ['b', { c: 2 }]])");
    expect(map.value).toEqual({ a: 1, b: { c: 2 } });
    expect(map.logs.join('\n')).toContain('a Map as an object of its entries');
    const keyed = await answer("return new Map([[1, 'one'], [2, 'two']])");
    expect(keyed.value).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    const set = await answer('return { ids: new Set(["x", "y", "x"]) }');
    expect(set.value).toEqual({ ids: ['x', 'y'] });
    expect(set.logs.join('\n')).toContain('a Set as the list of its members');
    const symbol = await answer("return Symbol('marker')");
    expect(symbol.value).toBe('Symbol(marker)');
    expect(symbol.logs.join('\n')).toContain('a Symbol as its description');
  });
  it('a plain answer carries no such note, and a function is a clear error', async () => {
    const plain = await answer('console.log(new Set([1])); return { a: 1 }');
    expect(plain.value).toEqual({ a: 1 });
    expect(plain.logs).toEqual(['[1]']);
    const fn = failure(await run('return () => 1'));
    expect(fn.message).toContain('the program returned a function');
  });
});
