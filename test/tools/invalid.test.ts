// Every documented bound, one past each side: refused with the parameter and its range named, nothing
// sent. The bound itself is accepted.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, type Harness, useSimulator } from '../helpers.js';
import { idOfLength, LIMITS, minimalArgs } from './limits.js';

let sim: Simulator;
let h: Harness;
useSimulator((s, harness) => {
  sim = s;
  h = harness;
});

interface Probe {
  tool: string;
  param: string;
  value: unknown;
  ok: boolean;
}

const uniqueIds = (n: number) =>
  Array.from({ length: n }, (_, i) => `${String(i).padStart(4, '0')}${'B'.repeat(40)}`);

const probes: Probe[] = [];
for (const [tool, endpoint] of Object.entries(LIMITS)) {
  for (const [param, p] of Object.entries(endpoint.params)) {
    if (p.kind === 'ids') {
      probes.push({ tool, param, value: [], ok: false });
      probes.push({ tool, param, value: uniqueIds(p.max), ok: true });
      probes.push({ tool, param, value: uniqueIds(p.max + 1), ok: false });
      probes.push({ tool, param, value: [idOfLength(31)], ok: false });
      probes.push({ tool, param, value: [idOfLength(32)], ok: true });
      probes.push({ tool, param, value: [idOfLength(44)], ok: true });
      probes.push({ tool, param, value: [idOfLength(45)], ok: false });
      probes.push({ tool, param, value: 'not-a-list', ok: false });
    }
    if (p.kind === 'id') {
      probes.push({ tool, param, value: idOfLength(31), ok: false });
      probes.push({ tool, param, value: idOfLength(32), ok: true });
      probes.push({ tool, param, value: idOfLength(44), ok: true });
      probes.push({ tool, param, value: idOfLength(45), ok: false });
    }
    if (p.kind === 'int') {
      if (p.min !== undefined)
        probes.push({ tool, param, value: p.min - 1, ok: false }, { tool, param, value: p.min, ok: true });
      if (p.max !== undefined)
        probes.push({ tool, param, value: p.max + 1, ok: false }, { tool, param, value: p.max, ok: true });
      probes.push({ tool, param, value: 1.5, ok: false });
      // A number sent as a numeric string is that number (README: "Inputs"); any other string is refused.
      probes.push({ tool, param, value: String(p.max ?? p.min ?? 10), ok: true });
      probes.push({ tool, param, value: 'ten', ok: false });
      probes.push({ tool, param, value: null, ok: true });
    }
    if (p.kind === 'enum') {
      probes.push({ tool, param, value: 'bogus', ok: false });
      for (const v of p.values)
        if (param !== 'platform' || v === 'all' || v === 'platform_a')
          probes.push({ tool, param, value: v, ok: true });
    }
  }
}

describe('documented bounds', () => {
  it.each(
    probes.map(
      (p) =>
        [p.tool, p.param, JSON.stringify(p.value).slice(0, 40), p.ok ? 'accepted' : 'refused', p] as const,
    ),
  )('%s %s=%s is %s', async (_t, _p, _v, _o, probe) => {
    const out = await call(h.client, probe.tool, { ...minimalArgs(probe.tool), [probe.param]: probe.value });
    if (probe.ok) {
      expect(out.text).not.toContain('Invalid arguments');
      expect(sim.requests.length).toBeGreaterThan(0);
      return;
    }
    expect(out.isError).toBe(true);
    expect(out.structured).toBeUndefined();
    expect(out.text).toContain(`Invalid arguments for ${probe.tool} (nothing was sent)`);
    expect(out.text).toMatch(new RegExp(`- ${probe.param}(\\[\\d+\\])?: `));
    expect(out.text).toMatch(/allowed: /);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('what the refusal says', () => {
  it('names the range and the default of an integer', async () => {
    const out = await call(h.client, 'analyze_botting', { mintIds: [idOfLength(44)], hours: 169 });
    expect(out.text).toContain('- hours: got 169; allowed: a whole number 1 to 168 (default 24)');
  });

  it('names the list bounds and the element length', async () => {
    const out = await call(h.client, 'get_streamers_complete', { mintIds: uniqueIds(26) });
    expect(out.text).toContain(
      '- mintIds: got a list of 26; allowed: a list of 1 to 25 items, each a string of 32 to 44 characters',
    );
  });

  it('points at the bad element of a list', async () => {
    const out = await call(h.client, 'get_creator_fees', { tokenAddresses: [idOfLength(44), 'short'] });
    expect(out.text).toContain(
      '- tokenAddresses[1]: got "short" (5 characters); allowed: a string of 32 to 44 characters',
    );
  });

  it('says a required parameter is missing', async () => {
    const out = await call(h.client, 'get_streamer_core', {});
    expect(out.text).toContain('- mint: is required; allowed: a string of 32 to 44 characters');
  });

  it('lists the enum values', async () => {
    const out = await call(h.client, 'list_streamers', {
      tokenAddresses: [idOfLength(44)],
      platform: 'platform_c',
    });
    expect(out.text).toContain(
      '- platform: got "platform_c" (10 characters); allowed: one of platform_a, platform_b, all',
    );
  });

  it('refuses an unknown parameter rather than dropping it silently', async () => {
    const out = await call(h.client, 'list_streamers', { tokenAddresses: [idOfLength(44)], sort_by: 'time' });
    expect(out.text).toContain('unknown parameter "sort_by"; parameters are: tokenAddresses, sortBy');
    expect(sim.requests).toHaveLength(0);
  });

  it('80,000 unknown parameters: the first five named, the rest counted, in work linear in the keys', async () => {
    const args: Record<string, unknown> = {};
    for (let i = 0; i < 80_000; i++) args[`k${i}`] = 0;
    // Over --http the transport refuses such a call before the SDK checks each field (no tool takes 64).
    if (process.env.MCP_CHANNEL?.endsWith('http')) {
      await expect(call(h.client, 'check_health', args)).rejects.toThrow(
        /Invalid params: a tool call's arguments hold at most 64 fields, this one 80000/,
      );
      return;
    }
    const out = await call(h.client, 'check_health', args);
    // It listed every key (949 KB, past what a call's answer is reserved).
    expect(out.text).toContain(
      '- unknown parameter "k0", "k1", "k2", "k3", "k4", and 79,995 more; parameters are: response_format',
    );
    expect(out.text.length).toBeLessThan(400);
    // With the schema's own issues beside them.
    const both = await call(h.client, 'get_streamer_core', { mint: 'x', a: 1, b: 2 });
    expect(both.text).toContain('unknown parameter "a", "b"; parameters are:');
    expect(both.text).toContain('- mint: got "x"');
    expect(sim.requests).toHaveLength(0);
  });

  it('does not echo a huge value back', async () => {
    const out = await call(h.client, 'get_streamer_core', { mint: 'x'.repeat(10_000) });
    expect(out.text).toContain('got a 10000-character string');
    expect(out.text.length).toBeLessThan(400);
  });
});

describe('arguments a client should not send', () => {
  it('an unknown parameter sent as null is refused like any other', async () => {
    const out = await call(h.client, 'get_activity_heatmap', { window: null });
    expect(out.text).toContain('unknown parameter "window"');
  });

  it('a nested bad argument gets one error line', async () => {
    const out = await call(h.client, 'analyze_botting', { mintIds: [['x'.repeat(40)]] });
    expect(out.text.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- mintIds[0]: got a list of 1; allowed: a string of 32 to 44 characters',
    ]);
  });
});
