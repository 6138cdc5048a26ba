// How the pieces of one split api call are merged: lists concatenated, counts added, averages weighted,
// nothing renamed.
import { describe, expect, it } from 'vitest';
import { mergeBodies } from '../../src/tools/analysis-api.js';

describe('mergeBodies', () => {
  it('concatenates the lists and adds the summary counts of a batch answer', () => {
    const piece = (ids: string[], failed: string[], averageConfidence: number) => ({
      success: true,
      data: {
        results: ids.map((mintId) => ({ mintId })),
        errors: failed.map((mintId) => ({ mintId, error: 'Token not found' })),
        summary: {
          totalRequested: ids.length + failed.length,
          successful: ids.length,
          failed: failed.length,
          averageConfidence,
          processingTime: 10,
        },
      },
      timestamp: 'first',
    });
    const merged = mergeBodies([
      piece(['a', 'b', 'c'], ['x'], 0.5),
      { ...piece(['d'], [], 0.9), timestamp: 'second' },
    ]);
    expect(merged).toEqual({
      success: true,
      data: {
        results: [{ mintId: 'a' }, { mintId: 'b' }, { mintId: 'c' }, { mintId: 'd' }],
        errors: [{ mintId: 'x', error: 'Token not found' }],
        // Weighted by the items each piece analysed: (3 × 0.5 + 1 × 0.9) / 4.
        summary: { totalRequested: 5, successful: 4, failed: 1, averageConfidence: 0.6, processingTime: 20 },
      },
      timestamp: 'first',
    });
  });

  it('adds pagination totals, keeps the page asked, and says whether any piece has more', () => {
    const page = (n: number, total: number, hasNext: boolean) => ({
      data: Array.from({ length: n }, (_, i) => ({ i })),
      pagination: { page: 1, limit: 100, total, totalPages: Math.ceil(total / 100), hasNext, hasPrev: false },
    });
    expect(mergeBodies([page(100, 150, true), page(20, 20, false)])).toEqual({
      data: [...page(100, 150, true).data, ...page(20, 20, false).data],
      pagination: { page: 1, limit: 100, total: 170, totalPages: 2, hasNext: true, hasPrev: false },
    });
  });

  it('concatenates the fee list and its errors, top level', () => {
    const merged = mergeBodies([
      {
        data: [{ tokenAddress: 'a' }],
        errors: [],
        summary: { totalRequested: 100, successful: 1, failed: 0 },
      },
      {
        data: [{ tokenAddress: 'b' }],
        errors: [{ tokenAddress: 'c' }],
        summary: { totalRequested: 20, successful: 1, failed: 1 },
      },
    ]);
    expect(merged).toEqual({
      data: [{ tokenAddress: 'a' }, { tokenAddress: 'b' }],
      errors: [{ tokenAddress: 'c' }],
      summary: { totalRequested: 120, successful: 2, failed: 1 },
    });
  });
});
