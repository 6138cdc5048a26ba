// The engine's limits, through the built worker: each runaway program ends with its own kind, with what it
// had logged, while the main thread goes on; the pool replaces what it had to end, and shares its workers
// fairly between callers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisHost, RunOptions, RunOutcome } from '../../src/analysis/index.js';
import { createSandboxPool } from '../../src/analysis/index.js';
import type { SandboxPool } from '../../src/analysis/pool.js';

const API = ['get_streamer_core', 'list_streamers'];
const never: AnalysisHost = { call: () => new Promise(() => {}) };
const echo: AnalysisHost = { call: async (_name, args) => args };

let pool: SandboxPool;
beforeAll(async () => {
  pool = await createSandboxPool({ maxWorkers: 2, warm: 2 });
  await pool.warmUp();
});
afterAll(() => pool.close());

const run = (code: string, opts: Partial<RunOptions> & { host?: AnalysisHost } = {}) =>
  pool.run(code, opts.host ?? echo, { apiNames: API, timeoutMs: 10_000, ...opts });

function failure(outcome: RunOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome;
}

/** Resolves when `test` holds, checking on every turn of the event loop. */
function until(test: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (test() ? resolve() : setImmediate(check));
    check();
  });
}

describe('time', () => {
  it('an endless loop ends as timeout at the limit, with its logs, while the main thread keeps ticking', async () => {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 10);
    const started = performance.now();
    const outcome = failure(
      await run("console.log('before the loop');\nwhile (true) {}", { timeoutMs: 1_500 }),
    );
    const elapsed = performance.now() - started;
    clearInterval(interval);
    expect(outcome.kind).toBe('timeout');
    expect(outcome.message).toBe('the program ran past its 1.5 s limit (it had made no api call)');
    expect(outcome.logs).toEqual(['before the loop']);
    expect(elapsed).toBeGreaterThanOrEqual(1_490);
    expect(elapsed).toBeLessThan(5_000);
    // A blocked main thread would have ticked once or not at all; a free one about 150 times (a loaded
    // machine fewer, so the bar is low).
    expect(ticks).toBeGreaterThan(10);
    expect(await run('return 2')).toMatchObject({ ok: true, value: 2 });
  });

  it('an await that never settles ends as timeout, saying the program was waiting on the api', async () => {
    const outcome = failure(
      await run("await api.list_streamers({});\nawait api.get_streamer_core({ mintId: 'x' })", {
        timeoutMs: 800,
        host: {
          call: (name) => (name === 'list_streamers' ? Promise.resolve({}) : new Promise(() => {})),
        },
      }),
    );
    expect(outcome.kind).toBe('timeout');
    expect(outcome.message).toBe(
      'the program ran past its 0.8 s limit (it had made 2 api calls, 1 still waiting for an answer)',
    );
  });

  it('one long builtin (a string of a billion characters) ends too, as timeout or memory', async () => {
    const outcome = failure(await run("return new Array(1e9).join('x')", { timeoutMs: 1_500 }));
    expect(['timeout', 'memory']).toContain(outcome.kind);
    expect(await run('return 3')).toMatchObject({ ok: true, value: 3 });
  });
});

describe('the answer', () => {
  it('past 1 MiB of JSON is refused in the worker, so the main thread never parses more', async () => {
    // The tool's limit and the worker's agree: 8 MB answers crossed, to be parsed, walked and measured on
    // the main thread only to be refused there.
    const over = failure(await run("return 'x'.repeat(1024 * 1024)"));
    expect(over).toMatchObject({ kind: 'answer_too_large', message: '1,048,578 characters of JSON' });
    expect(failure(await run('return new Array(400000).fill(0.12345678901234567)')).kind).toBe(
      'answer_too_large',
    );
    expect(await run("return 'x'.repeat(1024 * 1024 - 2).length")).toMatchObject({ ok: true });
    expect((await run("return 'x'.repeat(1024 * 1024 - 2)")).ok).toBe(true);
  });
});

describe('memory and stack', () => {
  it('a memory bomb ends as memory, with its logs; the next run is served', async () => {
    const outcome = failure(
      await run(
        "console.log('allocating');\nconst keep = [];\nwhile (true) keep.push(new Array(10000).fill(1.5));",
      ),
    );
    expect(outcome.kind).toBe('memory');
    expect(outcome.message).toBe('InternalError: out of memory: the program went past its memory limit');
    expect(outcome.logs).toEqual(['allocating']);
    expect(await run('return 4')).toMatchObject({ ok: true, value: 4 });
  });

  it('one huge string is refused by QuickJS at once: the program threw; its worker is not trusted again', async () => {
    const started = performance.now();
    const before = pool.started;
    const outcome = failure(await run("const s = 'x'.repeat(2 ** 28);\nreturn s.length"));
    expect(outcome).toMatchObject({ kind: 'runtime', line: 1, message: 'InternalError: out of memory' });
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(await run('return 5')).toMatchObject({ ok: true, value: 5 });
    // QuickJS's own out-of-memory can leave its state broken: the worker is replaced, not reused.
    expect(pool.started).toBeGreaterThan(before);
  });

  it('a thrown value that names a limit is the program’s error, never a limit (it costs only a worker restart)', async () => {
    for (const thrown of [
      "{ name: 'InternalError', message: 'out of memory' }",
      "new InternalError('out of memory')",
      "new InternalError('stack overflow')",
      "new RangeError('Maximum call stack size exceeded')",
    ]) {
      const outcome = failure(await run(`throw ${thrown}`));
      expect(outcome.kind).toBe('runtime');
    }
    expect(await run('return 6')).toMatchObject({ ok: true, value: 6 });
  });

  it('a smaller memory limit is the run’s own', async () => {
    // About 40 MiB kept: past a 16 MiB limit, within the default 64.
    const code =
      'const s = []; for (let i = 0; i < 50; i++) s.push(new Array(100000).fill(i)); return s.length';
    expect(failure(await run(code, { memoryBytes: 16 * 1024 * 1024 })).kind).toBe('memory');
    expect(await run(code)).toMatchObject({ ok: true, value: 50 });
  });

  it('deep recursion ends at QuickJS’s stack bound, at the recursing line; ordinary recursion is fine', async () => {
    const outcome = failure(await run('function down(n) {\n  return down(n + 1) + 1;\n}\nreturn down(0)'));
    // QuickJS refused the next frame itself: the program threw (the host observed no limit of its own).
    expect(outcome).toMatchObject({ kind: 'runtime', line: 2 });
    expect(outcome.message).toBe('InternalError: stack overflow');
    // Through builtins too (QuickJS reports JSON.parse's own overflow as a SyntaxError).
    const viaParse =
      'const f = (n) => JSON.parse(\'{"n":1}\', (k, v) => (k === "n" ? f(v) : v));\nreturn f(0)';
    expect(failure(await run(viaParse)).message).toMatch(/stack overflow/);
    expect(failure(await run('const f = (n) => [n].map((x) => f(x + 1));\nreturn f(0)')).message).toMatch(
      /stack overflow/,
    );
    expect(await run('function d(n) { return n ? d(n - 1) + 1 : 0 }\nreturn d(2000)')).toMatchObject({
      ok: true,
      value: 2000,
    });
  });
});

describe('cancellation', () => {
  it('mid-await: ends at once as cancelled, saying how far the program got; the host is never answered', async () => {
    const controller = new AbortController();
    let calls = 0;
    const host: AnalysisHost = {
      call: () => {
        calls++;
        return new Promise(() => {});
      },
    };
    const running = run("console.log('asking');\nreturn await api.list_streamers({})", {
      host,
      signal: controller.signal,
    });
    await until(() => calls === 1);
    const aborted = performance.now();
    controller.abort();
    const outcome = failure(await running);
    expect(performance.now() - aborted).toBeLessThan(2_000);
    expect(outcome).toMatchObject({
      kind: 'cancelled',
      message: 'the run was cancelled (it had made 1 api call, 1 still waiting for an answer)',
      logs: ['asking'],
    });
  });

  it('mid-loop: the busy worker is ended, and a spare serves the next run', async () => {
    const controller = new AbortController();
    let looping = false;
    const host: AnalysisHost = {
      call: async () => {
        looping = true;
        return {};
      },
    };
    const running = run('await api.list_streamers({});\nfor (;;) {}', { host, signal: controller.signal });
    await until(() => looping);
    controller.abort();
    expect(failure(await running).kind).toBe('cancelled');
    expect(await run('return 5')).toMatchObject({ ok: true, value: 5 });
  });

  it('an aborted signal before the start never runs the program', async () => {
    let calls = 0;
    const outcome = failure(
      await run('await api.list_streamers({})', {
        signal: AbortSignal.abort(),
        host: { call: async () => calls++ },
      }),
    );
    expect(outcome).toMatchObject({ kind: 'cancelled', message: 'the run was cancelled before it started' });
    expect(calls).toBe(0);
  });
});

describe('sharing the workers', () => {
  it('takes turns between callers: one caller’s queue does not keep another waiting', async () => {
    const one = await createSandboxPool({ maxWorkers: 1, warm: 1, maxWaitingPerCaller: 10 });
    try {
      await one.warmUp();
      const order: string[] = [];
      const runAs = (caller: string, label: string) =>
        one
          .run(`return '${label}'`, echo, { apiNames: API, timeoutMs: 10_000, caller })
          .then((o) => order.push(String(o.ok && o.value)));
      const a = Array.from({ length: 6 }, (_, i) => runAs('a', `a${i}`));
      const b = runAs('b', 'b0');
      await Promise.all([...a, b]);
      expect(order).toHaveLength(7);
      // a0 was running and a1 first in line when b0 came: b0 goes next but one, not after all of a.
      expect(order.indexOf('b0')).toBeLessThanOrEqual(2);
    } finally {
      await one.close();
    }
  });

  it('answers busy at once past a caller’s share of waiting runs, and past the wait', async () => {
    const one = await createSandboxPool({ maxWorkers: 1, warm: 1, maxWaitingPerCaller: 2 });
    try {
      await one.warmUp();
      const controller = new AbortController();
      const opts = { apiNames: API, timeoutMs: 10_000, caller: 'greedy', signal: controller.signal };
      const held = [
        one.run('for (;;) {}', never, opts),
        one.run('return 1', never, opts),
        one.run('return 1', never, opts),
      ];
      const started = performance.now();
      const refused = failure(await one.run('return 1', never, opts));
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(refused.kind).toBe('busy');
      expect(refused.message).toBe(
        'the sandbox is busy: this caller already has 2 runs waiting; try again in a moment, or combine questions into one program',
      );
      // Another caller still gets in line, and waits as long as its turn can take: one caller ahead of it on
      // one worker, two runs of its time limit and a worker's restart; the loop holds the worker past that.
      const other = failure(
        await one.run('return 1', never, { apiNames: API, timeoutMs: 300, caller: 'other' }),
      );
      expect(other).toMatchObject({
        kind: 'busy',
        message: expect.stringContaining('no sandbox came free within 1.6 s'),
      });
      controller.abort();
      expect((await Promise.all(held)).map((o) => !o.ok && o.kind)).toEqual([
        'cancelled',
        'cancelled',
        'cancelled',
      ]);
    } finally {
      await one.close();
    }
  });

  it('holds one caller to half the workers: its endless loops leave another caller a worker', async () => {
    const two = await createSandboxPool({ maxWorkers: 2, warm: 2 });
    try {
      await two.warmUp();
      const controller = new AbortController();
      const greedy = { apiNames: API, timeoutMs: 20_000, caller: 'greedy', signal: controller.signal };
      const loops = Array.from({ length: 3 }, () => two.run('for (;;) {}', never, greedy));
      const started = performance.now();
      const victim = await two.run('return 1', never, { apiNames: API, timeoutMs: 20_000, caller: 'victim' });
      expect(victim).toMatchObject({ ok: true, value: 1 });
      // Served while every loop still runs or waits, not after one of them timed out.
      expect(performance.now() - started).toBeLessThan(5_000);
      controller.abort();
      expect((await Promise.all(loops)).map((o) => !o.ok && o.kind)).toEqual([
        'cancelled',
        'cancelled',
        'cancelled',
      ]);
    } finally {
      await two.close();
    }
  });

  it('a caller with nothing running waits its turn behind loops from many callers, not refused', async () => {
    // Three callers' endless loops on one worker: the newcomer's turn comes after each of theirs, each
    // ended by its clock, so past one time limit; it used to be refused busy after one.
    const one = await createSandboxPool({ maxWorkers: 1, warm: 1 });
    try {
      await one.warmUp();
      const loops = ['a', 'b', 'c'].map((caller) =>
        one.run('for (;;) {}', never, { apiNames: API, timeoutMs: 600, caller }),
      );
      const victim = await one.run('return 1 + 1', never, {
        apiNames: API,
        timeoutMs: 600,
        caller: 'victim',
      });
      expect(victim).toMatchObject({ ok: true, value: 2 });
      expect((await Promise.all(loops)).map((o) => !o.ok && o.kind)).toEqual([
        'timeout',
        'timeout',
        'timeout',
      ]);
    } finally {
      await one.close();
    }
  });

  it('keeps its workers bounded under many concurrent runs from two callers', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        pool.run(`return ${i} * 2`, echo, { apiNames: API, timeoutMs: 10_000, caller: i % 2 ? 'x' : 'y' }),
      ),
    );
    expect(outcomes.map((o) => o.ok && o.value)).toEqual(Array.from({ length: 16 }, (_, i) => i * 2));
    expect(pool.workers).toBeLessThanOrEqual(2);
  });
});
