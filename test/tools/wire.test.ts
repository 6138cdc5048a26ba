// Each tool against the simulator over real HTTP: the exact request sent (method, path, query or body,
// headers), the documented defaults, and the chain/platform inference.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { call, type Harness, ids, SIM_KEY, useSimulator } from '../helpers.js';

let sim: Simulator;
let h: Harness;
let a: string[];
useSimulator((s, harness) => {
  sim = s;
  h = harness;
  a = ids(sim, 'platform_a', 5);
});

function only() {
  expect(sim.requests).toHaveLength(1);
  return sim.requests[0] as Simulator['requests'][number];
}

describe('requests on the wire', () => {
  it('list_streamers: POST /streamers with every documented default in the body', async () => {
    const out = await call(h.client, 'list_streamers', { tokenAddresses: a });
    expect(out.isError).toBe(false);
    const req = only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/streamers');
    expect(req.body).toEqual({
      tokenAddresses: a,
      sortBy: 'viewers',
      sortOrder: 'desc',
      limit: 100,
      page: 1,
      chain: 'chain_a',
      platform: 'platform_a',
    });
    expect(req.headers['x-api-key']).toBe(SIM_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.accept).toBe('application/json');
  });

  it('list_streamers: given arguments pass through unchanged', async () => {
    await call(h.client, 'list_streamers', {
      tokenAddresses: a,
      sortBy: 'marketCap',
      sortOrder: 'asc',
      limit: 2,
      page: 3,
      chain: 'all',
      platform: 'platform_b',
    });
    expect(only().body).toMatchObject({
      sortBy: 'marketCap',
      sortOrder: 'asc',
      limit: 2,
      page: 3,
      chain: 'all',
      platform: 'platform_b',
    });
  });

  it('get_streamer_core: GET with the mint percent-encoded in the path and chain/platform in the query', async () => {
    const out = await call(h.client, 'get_streamer_core', { mint: a[0] });
    expect(out.isError).toBe(false);
    const req = only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/streamers/${a[0]}/core`);
    expect(req.query).toEqual({ chain: 'chain_a', platform: 'platform_a' });
    expect(req.headers['x-api-key']).toBe(SIM_KEY);
    expect(req.headers['content-type']).toBeUndefined();
    expect(req.body).toBeUndefined();
  });

  it('get_streamer_core: a mint with reserved characters is encoded, not interpreted as a path', async () => {
    const odd = `ab/../..?x=1#${'Z'.repeat(24)}`;
    await call(h.client, 'get_streamer_core', { mint: odd });
    expect(only().path).toBe(`/streamers/${encodeURIComponent(odd)}/core`);
  });

  it('get_streamer_sessions: limit 20 and page 1 by default, in the query', async () => {
    await call(h.client, 'get_streamer_sessions', { mint: a[0] });
    const req = only();
    expect(req.path).toBe(`/streamers/${a[0]}/sessions`);
    expect(req.query).toEqual({ limit: '20', page: '1', chain: 'chain_a', platform: 'platform_a' });
  });

  it('get_streamers_analytics: period 1d and 100 points by default', async () => {
    await call(h.client, 'get_streamers_analytics', { mintIds: a.slice(0, 2) });
    expect(only()).toMatchObject({
      method: 'POST',
      path: '/streamers/analytics',
      body: { mintIds: a.slice(0, 2), period: '1d', points: 100, chain: 'chain_a', platform: 'platform_a' },
    });
  });

  it('get_streamers_complete: mintIds and the scope', async () => {
    await call(h.client, 'get_streamers_complete', { mintIds: a.slice(0, 2), chain: 'chain_b' });
    expect(only()).toMatchObject({
      method: 'POST',
      path: '/streamers/complete',
      body: { mintIds: a.slice(0, 2), chain: 'chain_b', platform: 'all' },
    });
  });

  it('analyze_botting: 24 hours by default', async () => {
    await call(h.client, 'analyze_botting', { mintIds: a });
    expect(only()).toMatchObject({
      method: 'POST',
      path: '/botting/bulk',
      body: { mintIds: a, hours: 24, chain: 'chain_a', platform: 'platform_a' },
    });
  });

  it('get_creator_fees: tokenAddresses only', async () => {
    await call(h.client, 'get_creator_fees', { tokenAddresses: a });
    const req = only();
    expect(req).toMatchObject({ method: 'POST', path: '/stats/creator-fees/bulk' });
    expect(req.body).toEqual({ tokenAddresses: a });
  });

  it.each([
    ['get_analytics_overview', '/analytics/overview'],
    ['get_activity_heatmap', '/analytics/heatmap'],
  ])('%s: GET %s with the scope in the query', async (tool, path) => {
    await call(h.client, tool, { chain: 'all' });
    expect(only()).toMatchObject({ method: 'GET', path, query: { chain: 'all', platform: 'all' } });
  });

  it('check_health: GET /health with the key and no query', async () => {
    const out = await call(h.client, 'check_health');
    expect(out.isError).toBe(false);
    expect(only()).toMatchObject({ method: 'GET', path: '/health', query: {} });
    expect(only().headers['x-api-key']).toBe(SIM_KEY);
  });

  it('sends duplicate ids once and says so in both channels', async () => {
    const out = await call(h.client, 'analyze_botting', { mintIds: [a[0], a[1], a[0], a[0]] });
    expect((only().body as { mintIds: string[] }).mintIds).toEqual([a[0], a[1]]);
    expect(out.text).toContain(`Duplicate ids sent once: ${a[0]}`);
    expect(out.structured?.duplicates).toEqual([a[0]]);
    expect(out.text).toContain('2 requested');
  });
});

describe('chain and platform: what is sent', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['nothing', {}, 'chain_a', 'platform_a'],
    ['chain_a', { chain: 'chain_a' }, 'chain_a', 'platform_a'],
    ['chain_b', { chain: 'chain_b' }, 'chain_b', 'all'],
    ['chain all', { chain: 'all' }, 'all', 'all'],
    ['platform_b alone (read as chain_b)', { platform: 'platform_b' }, 'chain_b', 'platform_b'],
    ['platform_c alone (read as chain_b)', { platform: 'platform_c' }, 'chain_b', 'platform_c'],
    ['platform all alone', { platform: 'all' }, 'chain_a', 'all'],
    ['chain all with platform_a', { chain: 'all', platform: 'platform_a' }, 'all', 'platform_a'],
    ['chain_b with platform_c', { chain: 'chain_b', platform: 'platform_c' }, 'chain_b', 'platform_c'],
  ];
  it.each(cases)('get_streamer_core with %s', async (_label, scope, chain, platform) => {
    await call(h.client, 'get_streamer_core', { mint: a[0], ...scope });
    expect(only().query).toEqual({ chain, platform });
  });

  it('analyze_botting: chain_b alone sends platform_b, since botting takes no `all`', async () => {
    await call(h.client, 'analyze_botting', { mintIds: a, chain: 'chain_b' });
    const botting = sim.requests.filter((r) => r.path === '/botting/bulk');
    expect(botting).toHaveLength(1);
    expect(botting[0]?.body).toMatchObject({ chain: 'chain_b', platform: 'platform_b' });
    // The one coverage lookup: chain_b across its platforms, every id in one request.
    const lookup = sim.requests.filter((r) => r.path === '/streamers');
    expect(lookup.map((r) => r.body)).toEqual([
      { tokenAddresses: a, limit: 100, page: 1, chain: 'chain_b', platform: 'all' },
    ]);
  });

  it.each([
    ['get_streamer_core', { chain: 'chain_a', platform: 'platform_b' }],
    ['get_streamer_core', { chain: 'chain_a', platform: 'platform_c' }],
    ['get_streamer_core', { chain: 'chain_b', platform: 'platform_a' }],
    ['list_streamers', { chain: 'chain_a', platform: 'platform_b' }],
    ['analyze_botting', { chain: 'chain_b', platform: 'platform_a' }],
  ])('%s refuses the contradictory pair %j and sends nothing', async (tool, scope) => {
    const base =
      tool === 'get_streamer_core'
        ? { mint: a[0] }
        : tool === 'list_streamers'
          ? { tokenAddresses: a }
          : { mintIds: a };
    const out = await call(h.client, tool, { ...base, ...scope });
    expect(out.isError).toBe(true);
    expect(out.text).toContain('contradict');
    expect(out.text).toMatch(/Valid pairs: chain_a with platform_a/);
    expect(out.structured).toBeUndefined();
    expect(sim.requests).toHaveLength(0);
  });
});
