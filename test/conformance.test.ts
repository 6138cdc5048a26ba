// The baseline rules scripts/conformance.ts applies to the suite's results, the scenarios the suite runs
// without scoring included (the conformance run itself is in .ci/run, against the built server).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baselineEntries, judge } from '../scripts/conformance.js';

const ok = (id: string) => ({ id, status: 'SUCCESS' as const });
const failed = (id: string) => ({ id, status: 'FAILURE' as const });

describe('the conformance baseline', () => {
  it('reads entries, wholesale and per check, without their comments', () => {
    expect(
      baselineEntries('server:\n  # why\n  - tasks-lifecycle # extension\n  - server-stateless:sep-2575-x\n'),
    ).toEqual(['tasks-lifecycle', 'server-stateless:sep-2575-x']);
  });

  it('fails a failure it does not list, even in a scenario the suite does not score', () => {
    expect(judge('http-header-validation', [ok('a'), failed('b')], [])).toEqual([
      'http-header-validation:b: fails, and the baseline does not list it',
    ]);
    expect(judge('x', [{ id: 'w', status: 'WARNING' }], [])).toHaveLength(1);
  });

  it('excuses a listed scenario or check, and no other check of that scenario', () => {
    expect(judge('tasks-lifecycle', [failed('a'), failed('b')], ['tasks-lifecycle'])).toEqual([]);
    expect(judge('s', [failed('a'), failed('b')], ['s:a'])).toEqual([
      's:b: fails, and the baseline does not list it',
    ]);
    // A scenario that stopped before a listed check: tolerated.
    expect(judge('s', [failed('a'), { id: 'b', status: 'SKIPPED' }], ['s:a', 's:b'])).toEqual([]);
  });

  it('fails a listed scenario or check that passes (a stale entry)', () => {
    expect(judge('s', [ok('a')], ['s'])).toEqual(['s: passes, yet the baseline lists it (remove the entry)']);
    expect(judge('s', [ok('a'), failed('b')], ['s:a', 's:b'])).toEqual([
      's:a: passes, yet the baseline lists it (remove the entry)',
    ]);
  });

  it.each(['scripts/conformance-baseline.yml', 'scripts/conformance-baseline-2026-07-28.yml'])(
    '%s lists no entry twice',
    (file) => {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      const entries = baselineEntries(text);
      expect(entries.length).toBeGreaterThan(10);
      expect(new Set(entries).size).toBe(entries.length);
    },
  );
});
