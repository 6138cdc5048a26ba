// The run_analysis engine through its real parts: the built worker (dist/server/analysis-worker.js, from
// `npm run build`) running QuickJS, with a fake AnalysisHost standing in for the tool's api.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisHost, RunOptions, RunOutcome } from '../../src/analysis/index.js';
import { createSandboxPool } from '../../src/analysis/index.js';
import type { SandboxPool } from '../../src/analysis/pool.js';

const API = ['list_streamers', 'get_streamer_core', 'get_streamer_sessions', 'check_health'];
const echo: AnalysisHost = {
  async call(name, args) {
    if (name === 'check_health') throw new Error('check_health failed: HTTP 503 (the service is down)');
    return { name, args };
  },
};

let pool: SandboxPool;
beforeAll(async () => {
  // One worker: consecutive runs share it, which is what "a fresh context per run" must survive.
  pool = await createSandboxPool({ maxWorkers: 1, warm: 1, maxAnswerChars: 64 * 1024 });
  await pool.warmUp();
});
afterAll(() => pool.close());

const run = (code: string, host: AnalysisHost = echo, opts: Partial<RunOptions> = {}) =>
  pool.run(code, host, { apiNames: API, timeoutMs: 10_000, ...opts });

async function value(code: string, host?: AnalysisHost): Promise<unknown> {
  const outcome = await run(code, host);
  if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`);
  return outcome.value;
}

function failure(outcome: RunOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome;
}

describe('helpers', () => {
  it('sum adds exactly, at the digits each number has', async () => {
    expect(await value('return sum([0.1, 0.2])')).toBe(0.3);
    expect(await value('return 0.1 + 0.2')).toBe(0.30000000000000004);
    expect(await value('return sum([1234.567891, 0.000001, 2.5, 100.1001, 0.333333, 17.000007])')).toBe(
      1354.501332,
    );
    expect(await value('return sum([1e-7, 2e21, -5])')).toBe(2e21 - 5 + 1e-7);
    expect(await value('return sum(["12.345678", 0.000002, null, undefined])')).toBe(12.34568);
    expect(await value('return sum([])')).toBe(0);
  });

  it('sum, mean and median take rows and a field (a name, a dotted path or a function)', async () => {
    const rows = '[{ fee: 0.1, m: { v: 1 } }, { fee: 0.2, m: { v: 2 } }, { fee: null }, { other: 1 }]';
    expect(await value(`return sum(${rows}, 'fee')`)).toBe(0.3);
    expect(await value(`return sum(${rows}, 'm.v')`)).toBe(3);
    expect(await value(`return mean(${rows}, (r) => r.fee)`)).toBe(0.15);
  });

  it('mean divides the exact total; median of an even count halves the exact middle sum', async () => {
    expect(await value('return mean([0.1, 0.2, 0.3])')).toBe(0.2);
    expect(await value('return mean([1, 2])')).toBe(1.5);
    expect(await value('return mean([1, 1, 2])')).toBe(4 / 3);
    expect(await value('return median([5, 1, 3])')).toBe(3);
    expect(await value('return median([4, 1, 3, 2])')).toBe(2.5);
    expect(await value('return median([0.1, 0.2])')).toBe(0.15);
    expect(await value('return median([0.000001, 0.000002, 7, -1])')).toBe(0.0000015);
    expect(await value('return [mean([]), median([null])]')).toEqual([null, null]);
  });

  it('a value that is not a number is an error that names it, not a silent NaN', async () => {
    const outcome = failure(await run('const rows = [1, 2, "three"];\nreturn sum(rows)'));
    expect(outcome.kind).toBe('runtime');
    expect(outcome.message).toBe('TypeError: sum: item 2 is "three", not a number');
    // QuickJS places a call at its opening parenthesis.
    expect([outcome.line, outcome.column]).toEqual([2, 11]);
    expect(failure(await run('return mean({})')).message).toContain('mean expects an array');
  });

  it('maxBy and minBy return the first row on ties and skip rows without a number', async () => {
    const rows =
      "[{ id: 'a' }, { id: 'b', v: 3 }, { id: 'c', v: '7' }, { id: 'd', v: 7 }, { id: 'e', v: 1 }, { id: 'f', v: 1 }]";
    expect(await value(`return maxBy(${rows}, 'v').id`)).toBe('c');
    expect(await value(`return minBy(${rows}, 'v').id`)).toBe('e');
    expect(await value("return [maxBy([], 'v'), minBy([{ v: null }], 'v')]")).toEqual([null, null]);
  });

  it('sortBy is stable, puts rows without a number last either way, and leaves its input alone', async () => {
    const rows =
      "[{ id: 1, v: 2 }, { id: 2 }, { id: 3, v: 1 }, { id: 4, v: 2 }, { id: 5, v: 'x' }, { id: 6, v: 1 }]";
    expect(await value(`return sortBy(${rows}, 'v').map((r) => r.id)`)).toEqual([3, 6, 1, 4, 2, 5]);
    expect(await value(`return sortBy(${rows}, 'v', 'desc').map((r) => r.id)`)).toEqual([1, 4, 3, 6, 2, 5]);
    expect(await value(`const rows = ${rows}; sortBy(rows, 'v'); return rows[0].id`)).toBe(1);
    expect(failure(await run(`return sortBy(${rows}, 'v', 'descending')`)).message).toContain(
      "order must be 'asc' or 'desc'",
    );
  });
});

describe('a field that no row has', () => {
  const rows =
    "[{ mintId: 'a', tokenMarketCap: 5, marketCapRank: 2 }, { mintId: 'b', tokenMarketCap: 9, currentViewers: 1 }]";
  it.each([
    ["sortBy(ROWS, 'marketCap', 'desc')", 'sortBy'],
    ["maxBy(ROWS, 'marketCap')", 'maxBy'],
    ["minBy(ROWS, 'marketCap')", 'minBy'],
    ["sum(ROWS, 'marketCap')", 'sum'],
    ["mean(ROWS, 'marketCap')", 'mean'],
    ["median(ROWS, 'marketCap')", 'median'],
  ])('%s throws a TypeError naming it and the fields the rows have, closest first', async (expr, fn) => {
    const outcome = failure(await run(`return ${expr.replace('ROWS', rows)}`));
    expect(outcome.kind).toBe('runtime');
    expect(outcome.message).toBe(
      `TypeError: ${fn}: field "marketCap" is absent from every row; did you mean "marketCapRank"? The rows have: marketCapRank, tokenMarketCap, mintId, currentViewers`,
    );
  });

  it('a nested path that no row has is named too; one that some rows have keeps the rule', async () => {
    expect(failure(await run("return sum([{ m: { v: 1 } }, { m: {} }], 'm.w')")).message).toContain(
      'sum: field "m.w" is absent from every row; did you mean "m"?',
    );
    expect(await value("return sum([{ m: { v: 1 } }, { m: {} }, {}], 'm.v')")).toBe(1);
    expect(await value("return sortBy([{ id: 1 }, { id: 2, v: 1 }], 'v').map((r) => r.id)")).toEqual([2, 1]);
    expect(await value("return [maxBy([], 'v'), sum([], 'v'), maxBy([{ v: null }], 'v')]")).toEqual([
      null,
      0,
      null,
    ]);
  });

  it('a field over values that are not objects says so', async () => {
    expect(failure(await run("return sum([1, 2], 'fee')")).message).toBe(
      'TypeError: sum: field "fee" is absent from every row; the rows are not objects (the first: 1); pass no field for a list of numbers',
    );
  });
});

describe('console', () => {
  it('keeps lines within the bound and counts what it cut; values are shown as JSON', async () => {
    const outcome = await run(
      "console.log('n', 1, { a: [1] }, null, undefined);\nconsole.error(new Error('bad'));\nfor (let i = 0; i < 250; i++) console.log('line', i);\nreturn 1",
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.logs.slice(0, 3)).toEqual(['n 1 {"a":[1]} null undefined', 'Error: bad', 'line 0']);
    expect(outcome.logs).toHaveLength(200);
    expect(outcome.logsCut).toBe(52);
  });

  it('keeps 16 KiB in all and shortens a line past 2,000 characters', async () => {
    const outcome = await run(
      "console.log('x'.repeat(5000)); for (let i = 0; i < 20; i++) console.log('y'.repeat(1000)); return 1",
    );
    expect(outcome.logs[0]).toBe(`${'x'.repeat(2000)}… (3000 more characters)`);
    expect(outcome.logs.join('').length).toBeLessThanOrEqual(16 * 1024);
    expect(outcome.logs.length + outcome.logsCut).toBe(21);
    expect(outcome.logsCut).toBeGreaterThan(0);
  });
});

describe('isolation', () => {
  it('gives each run a fresh context: nothing a run sets is there in the next', async () => {
    await value("globalThis.leftover = 42; Array.prototype.sneaky = 1; sum = () => 'patched'; return 1");
    expect(await value('return [typeof leftover, [].sneaky, sum([1, 2]), typeof globalThis.sneaky]')).toEqual(
      ['undefined', null, 3, 'undefined'],
    );
  });

  it('shows nothing of the host: no process, require, fetch, timers, file system or module loading', async () => {
    const names = [
      'process',
      'require',
      'module',
      'fetch',
      'setTimeout',
      'setInterval',
      'Buffer',
      'WebAssembly',
      'XMLHttpRequest',
      'os',
      'std',
    ];
    expect(await value(`return [${names.map((n) => `typeof ${n}`).join(', ')}]`)).toEqual(
      names.map(() => 'undefined'),
    );
    const imported = failure(await run("return await import('node:fs')"));
    expect(imported.kind).toBe('runtime');
    expect(imported.message).toMatch(/could not load module/);
    // eval is the guest's own: it reaches nothing more.
    expect(await value("return eval('typeof process') + new Function('return typeof require')()")).toBe(
      'undefinedundefined',
    );
  });
});

describe('the api bridge', () => {
  it('passes a JSON copy of the arguments and hands back a parsed copy of the answer', async () => {
    const seen: unknown[] = [];
    const host: AnalysisHost = {
      async call(name, args) {
        seen.push([name, args]);
        return { data: [{ v: 0.1 }, { v: 0.2 }], when: '2026-11-25' };
      },
    };
    const code = `
      const r = await api.list_streamers({ limit: 2, skip: undefined, f: () => 1, d: new Date(0), n: 10n });
      const bare = await api.get_streamer_core();
      r.data.push('mutated');
      return { total: sum(r.data.slice(0, 2), 'v'), rows: r.data.length };`;
    expect(await value(code, host)).toEqual({ total: 0.3, rows: 3 });
    expect(seen).toEqual([
      ['list_streamers', { limit: 2, d: '1970-01-01T00:00:00.000Z', n: '10' }],
      ['get_streamer_core', {}],
    ]);
  });

  it('refuses arguments too large to be an api call, in the guest', async () => {
    let calls = 0;
    const host: AnalysisHost = { call: async () => calls++ };
    const outcome = failure(await run("return await api.list_streamers({ ids: 'x'.repeat(300000) })", host));
    expect(outcome.message).toBe(
      'TypeError: api.list_streamers: its arguments are 300010 characters of JSON, over the 65536 an api call takes',
    );
    expect(calls).toBe(0);
  });

  it('runs calls concurrently with Promise.all', async () => {
    // Each call is answered only once all four are in: calls made one after another would never finish.
    const waiting: Array<() => void> = [];
    const host: AnalysisHost = {
      call(_name, args) {
        return new Promise((resolve) => {
          waiting.push(() => resolve(args));
          if (waiting.length === 4) for (const go of waiting) go();
        });
      },
    };
    const code =
      'const rs = await Promise.all([1, 2, 3, 4].map((i) => api.get_streamer_core({ i }))); return rs.map((r) => r.i)';
    const outcome = await run(code, host, { timeoutMs: 5_000 });
    expect(outcome).toMatchObject({ ok: true, value: [1, 2, 3, 4] });
  });

  it("a host rejection is an Error the program can catch, with the host's message", async () => {
    const code = 'try { await api.check_health(); } catch (e) { return [e instanceof Error, e.message]; }';
    expect(await value(code)).toEqual([true, 'check_health failed: HTTP 503 (the service is down)']);
  });

  it('an uncaught host rejection ends the run at the line and column of the api call', async () => {
    const outcome = failure(await run('const a = 1;\n\n  const h = await api.check_health({});\nreturn h'));
    expect(outcome.kind).toBe('runtime');
    expect(outcome.message).toBe('Error: check_health failed: HTTP 503 (the service is down)');
    expect([outcome.line, outcome.column]).toEqual([3, 35]);
  });

  it('tells the host when the run is over, for a call the program left behind', async () => {
    let signal: AbortSignal | undefined;
    const host: AnalysisHost = {
      call(_name, _args, run) {
        signal = run.signal;
        return new Promise(() => {});
      },
    };
    expect(await run("api.list_streamers({}); return 'did not wait'", host)).toMatchObject({ ok: true });
    expect(signal?.aborted).toBe(true);
  });

  it('a program that replaces JSON changes its own data, not what crosses to the host', async () => {
    const seen: unknown[] = [];
    const host: AnalysisHost = {
      async call(_name, args) {
        seen.push(args);
        return { a: 1 };
      },
    };
    const code =
      "JSON.stringify = () => 'not json'; JSON.parse = () => 'forged'; return await api.list_streamers({ limit: 1 })";
    expect(await value(code, host)).toEqual({ a: 1 });
    expect(seen).toEqual([{ limit: 1 }]);
  });

  it('an unknown api name throws with the closest names first', async () => {
    const outcome = failure(await run('return await api.getStreamerSession({ mintId: "x" })'));
    expect(outcome.message).toBe(
      'TypeError: api.getStreamerSession is not a function; did you mean api.get_streamer_sessions? The api functions: get_streamer_sessions, get_streamer_core, list_streamers, check_health',
    );
    // A name that starts what was typed comes before one closer by edit distance alone.
    const ten = [
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
    const typed = failure(await run('return await api.get_streamer({ mint: "x" })', echo, { apiNames: ten }));
    expect(typed.message).toMatch(
      /^TypeError: api\.get_streamer is not a function; did you mean api\.get_streamer_core\?/,
    );
    const botting = failure(await run('return await api.botting({})', echo, { apiNames: ten }));
    expect(botting.message).toContain('did you mean api.analyze_botting?');
    // Reading a known name, `in`, and awaiting the namespace do not throw.
    expect(await value("return [typeof api.list_streamers, 'nope' in api, (await api) === api]")).toEqual([
      'function',
      false,
      true,
    ]);
  });
});

describe('a huge thrown value', () => {
  it('crosses to the main thread as its start only', async () => {
    const out = await run("let t = 'x'.repeat(1 << 20); for (let i = 0; i < 3; i++) t = t + t; throw t");
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.message.length).toBeLessThan(2_100);
    expect(out.message).toMatch(/… \(\d+ characters in all\)$/);
  });
});

describe('answers', () => {
  it('is the return value as JSON gives it', async () => {
    expect(await value('return')).toBe(null);
    // Infinity and NaN as what they are (JSON would write null).
    expect(
      await value('return { a: undefined, f() {}, n: NaN, i: -1 / 0, big: 2n ** 70n, d: [1, undefined] }'),
    ).toEqual({
      n: 'NaN',
      i: '-Infinity',
      big: '1180591620717411303424',
      d: [1, null],
    });
    expect(await value('return 1 / 0')).toBe('Infinity');
    expect(await value("return '\\u2028 é 🦊'")).toBe('\u2028 é 🦊');
  });

  it('refuses an answer past the hard cap in the worker, saying its size', async () => {
    const outcome = failure(await run("return 'x'.repeat(100 * 1024)"));
    expect(outcome.kind).toBe('answer_too_large');
    expect(outcome.message).toBe('102,402 characters of JSON');
  });

  it('a value JSON cannot hold is a runtime error that says what to return', async () => {
    const outcome = failure(await run('const o = {}; o.self = o; return o'));
    expect(outcome.kind).toBe('runtime');
    expect(outcome.message).toContain('the returned value cannot be made JSON');
  });
});

describe('errors carry the position in the program as written', () => {
  it('a syntax error: its line and column; on the first line too (the wrapper is not counted)', async () => {
    const deep = failure(await run('const a = 1;\nconst b = 2;\nconst c = a +* b;\nreturn c'));
    expect(deep).toMatchObject({ kind: 'syntax', line: 3, column: 14 });
    expect(deep.message).toMatch(/^SyntaxError: /);
    expect(failure(await run('return )'))).toMatchObject({ kind: 'syntax', line: 1, column: 8 });
  });

  it('an unclosed brace is placed at the end of the program, not past it', async () => {
    expect(failure(await run('if (true) {\n  return 1;\n'))).toMatchObject({ kind: 'syntax', line: 3 });
  });

  it('a runtime error: its line and column, the call stack inside', async () => {
    const outcome = failure(await run('function f(row) {\n  return row.missing.field;\n}\nreturn f({})'));
    expect(outcome).toMatchObject({ kind: 'runtime', line: 2, column: 21 });
    expect(outcome.message).toBe("TypeError: cannot read property 'field' of undefined");
  });

  it('an uncaught throw of a non-Error value', async () => {
    expect(failure(await run("throw 'plain'"))).toMatchObject({ kind: 'runtime', message: 'Uncaught plain' });
    expect(failure(await run("throw { code: 7, reason: 'no' }"))).toMatchObject({
      kind: 'runtime',
      message: 'Uncaught {"code":7,"reason":"no"}',
    });
  });

  it('TypeScript gets a hint to write plain JavaScript', async () => {
    for (const code of [
      'const rows: any[] = [];\nreturn rows',
      'function f(x: number) { return x }\nreturn f(1)',
      'interface Row { a: number }\nreturn 1',
      'const n = (1 as number);\nreturn n',
    ]) {
      const outcome = failure(await run(code));
      expect(outcome.kind).toBe('syntax');
      expect(outcome.message).toContain('write plain JavaScript: no type annotations');
    }
    expect(failure(await run('return 1 +'))).not.toHaveProperty(
      'message',
      expect.stringContaining('plain JavaScript'),
    );
  });

  it('an unknown global lists the globals that exist', async () => {
    const outcome = failure(await run("\nconst r = await fetch('https://example.com')"));
    expect(outcome).toMatchObject({ kind: 'runtime', line: 2, column: 17 });
    expect(outcome.message).toBe(
      "ReferenceError: 'fetch' is not defined. The globals here: api, sum, mean, median, maxBy, minBy, sortBy, console and the JavaScript built-ins; no fetch, require, process, timers or file system (reach the API through api.*)",
    );
  });
});
