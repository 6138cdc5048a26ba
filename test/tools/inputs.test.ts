// Arguments as real clients send them: nulls from strict-mode clients, ids pasted with whitespace and
// repeats, numbers as strings. Each is read as meant, or refused before anything is sent.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, type Harness, ids, sc, useSimulator } from '../helpers.js';

let sim: Simulator;
let h: Harness;
useSimulator((s, harness) => {
  sim = s;
  h = harness;
});

const sentBody = () => sim.requests[0]?.body as Record<string, unknown>;

describe('inputs that real clients send', () => {
  it('null for an optional parameter means omitted', async () => {
    const mintIds = ids(sim, 'platform_a', 2);
    const out = await call(h.client, 'analyze_botting', {
      mintIds,
      hours: null,
      chain: null,
      platform: null,
      response_format: null,
    });
    expect(out.isError).toBe(false);
    expect(sentBody()).toEqual({ mintIds, hours: 24, chain: 'chain_a', platform: 'platform_a' });
  });

  it('null for a required parameter is refused as missing', async () => {
    const out = await call(h.client, 'get_streamer_core', { mint: null });
    expect(out.isError).toBe(true);
    expect(out.text).toContain('- mint: is required');
    expect(sim.requests).toHaveLength(0);
  });

  it('trims ids, and counts distinct ids against the maximum (26 given, 25 distinct)', async () => {
    const distinct = ids(sim, 'platform_a', 25);
    const given = [...distinct.map((id, i) => (i % 2 ? ` ${id}\n` : id)), `\t${distinct[0]} `];
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: given });
    expect(out.isError).toBe(false);
    expect(sentBody().mintIds).toEqual(distinct);
    expect(sc(out).duplicates).toEqual([distinct[0]]);
    expect(out.text).toContain(`Duplicate ids sent once: ${distinct[0]}`);
    const one = await call(h.client, 'get_streamer_core', { mint: `  ${distinct[1]}  ` });
    expect(one.isError).toBe(false);
    expect(sim.requests.at(-1)?.path).toBe(`/streamers/${distinct[1]}/core`);
  });

  it('thousands of copies of one id are one id', async () => {
    const [id] = ids(sim, 'platform_a', 1) as [string];
    const out = await call(h.client, 'analyze_botting', {
      mintIds: Array.from({ length: 20_000 }, () => id),
    });
    expect(out.isError).toBe(false);
    expect(sentBody().mintIds).toEqual([id]);
    expect(sc(out).duplicates).toEqual([id]);
  });

  it('still refuses 26 distinct ids', async () => {
    const out = await call(h.client, 'get_streamers_analytics', { mintIds: ids(sim, 'platform_a', 26) });
    expect(out.text).toContain('- mintIds: got a list of 26; allowed: a list of 1 to 25 items');
    expect(sim.requests).toHaveLength(0);
  });

  it('get_streamer_sessions refuses a limit or page below 1 before sending', async () => {
    const mint = ids(sim, 'platform_a', 1)[0];
    for (const [param, value] of [
      ['limit', 0],
      ['limit', -5],
      ['page', 0],
      ['page', -1],
    ] as const) {
      const out = await call(h.client, 'get_streamer_sessions', { mint, [param]: value });
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(
        new RegExp(`- ${param}: got ${value}; allowed: a whole number (1 to 100|at least 1)`),
      );
    }
    expect(sim.requests).toHaveLength(0);
  });

  it('a number or boolean sent as a string is that value; other strings are refused', async () => {
    const mintIds = ids(sim, 'platform_a', 2);
    const out = await call(h.client, 'investigate_botting', {
      mintIds,
      hours: '48',
      includeCreatorFees: 'true',
    });
    expect(out.isError).toBe(false);
    expect(sc(out).query).toMatchObject({ hours: 48, includeCreatorFees: true });
    sim.reset();
    const bad = await call(h.client, 'analyze_botting', { mintIds, hours: 'forty' });
    expect(bad.text).toContain('- hours: got "forty" (5 characters); allowed: a whole number 1 to 168');
    expect(sim.requests).toHaveLength(0);
  });
});
