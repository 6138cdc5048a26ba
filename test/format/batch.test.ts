import { describe, expect, it } from 'vitest';
import { accountFor } from '../../src/format/batch.js';
import type { Simulator } from '../../src/simulator/server.js';
import { call, failedOf, type Harness, sc, useSimulator } from '../helpers.js';

const id = (c: string) => c.repeat(40);
const [A, B, C, D, X] = ['A', 'B', 'C', 'D', 'X'].map(id) as [string, string, string, string, string];

describe('accountFor', () => {
  it('reconciles every oddity and says so', () => {
    const found = [{ id: A }, { id: A }, { id: B }, { id: X }];
    const errors = [
      { mintId: B, error: 'also failed' },
      { mintId: C, error: 'Token not found' },
      { mintId: C, error: 'again' },
    ];
    const out = accountFor(found, (f) => f.id, errors, [A, B, C, D], { successful: 9, failed: 9 });
    expect(out.results.map((r) => r.id)).toEqual([A, B, X]);
    expect(out.errors).toEqual([
      { id: C, error: 'Token not found' },
      { id: D, error: 'no result returned' },
    ]);
    expect(out.notes).toEqual([
      `The upstream returned 1 duplicate results (first kept): ${A}.`,
      `The upstream reported both a result and an error for: ${B} (result kept).`,
      `The upstream returned results for ids that were not requested: ${X}.`,
      'The upstream summary says 9 successful / 9 failed; its lists hold 4 / 3.',
    ]);
  });

  it('says nothing when all adds up', () => {
    const out = accountFor([{ id: A }], (f) => f.id, [{ mintId: B, error: 'x' }], [A, B], {
      successful: 1,
      failed: 1,
    });
    expect(out.notes).toEqual([]);
    expect(out.errors).toEqual([{ id: B, error: 'x' }]);
  });
});

describe('every batch tool accounts for every requested id exactly once', () => {
  let sim: Simulator;
  let h: Harness;
  useSimulator((s, harness) => {
    sim = s;
    h = harness;
  });

  const messy = {
    results: [{ mintId: A }, { mintId: A }, { mintId: B }],
    errors: [{ mintId: B, error: 'x' }],
  };
  const cases: Array<[string, string, unknown]> = [
    [
      'analyze_botting',
      'mintIds',
      { success: true, data: { ...messy, summary: { successful: 3, failed: 1 } } },
    ],
    [
      'get_streamers_analytics',
      'mintIds',
      { success: true, data: { ...messy, summary: { successful: 3, failed: 1 } } },
    ],
    [
      'get_streamers_complete',
      'mintIds',
      { success: true, data: { ...messy, summary: { successful: 3, failed: 1 } } },
    ],
    [
      'get_creator_fees',
      'tokenAddresses',
      {
        success: true,
        data: [{ tokenAddress: A }, { tokenAddress: A }, { tokenAddress: B }],
        errors: [{ tokenAddress: B, error: 'x' }],
        summary: { successful: 3, failed: 1 },
      },
    ],
  ];
  it.each(cases)('%s', async (tool, param, body) => {
    sim.inject({ status: 200, body });
    const out = await call(h.client, tool, { [param]: [A, B, C] });
    const key = param === 'mintIds' ? 'mintId' : 'tokenAddress';
    const resultIds = (sc(out).results as Array<Record<string, unknown>>).map((r) => r[key] ?? r.mintId);
    const errorIds = failedOf(out).map((e) => e.id);
    expect([...resultIds, ...errorIds].sort()).toEqual([A, B, C]);
    expect(failedOf(out)).toContainEqual({ id: C, error: 'no result returned' });
    expect(sc(out).integrity).toHaveLength(2);
    expect(out.text).toContain('Note: The upstream returned 1 duplicate results (first kept)');
    expect(out.text).toContain(`Note: The upstream reported both a result and an error for: ${B}`);
    expect(out.text).toContain(`"no result returned" (1): ${C}`);
  });
});
