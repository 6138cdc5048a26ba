// MCP Apps: a client that declares the extension gets the view named on four tools, an app-only evidence
// tool and each result's full data for the view; a client that does not gets exactly what it got before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_CAPABILITIES } from '../../scripts/host/harness.js';
import type { Simulator } from '../../src/simulator/server.js';
import { VIEW_DATA_KEY, VIEW_URI } from '../../src/views.js';
import { call, connect, type Harness, ids, startSim } from '../helpers.js';

let sim: Simulator;
let plain: Harness;
let apps: Harness;
beforeAll(async () => {
  sim = await startSim();
  // A small budget: the model's channels are cut, the view's data is not.
  [plain, apps] = await Promise.all([
    connect(sim, { budgetChars: 4_000 }),
    connect(sim, { budgetChars: 4_000, capabilities: APPS_CAPABILITIES }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), apps?.close()]);
  await sim.close();
});

const meta = (r: { _meta?: unknown }) => (r._meta ?? {}) as Record<string, unknown>;

describe('MCP Apps', () => {
  it('lists the view on four tools and one app-only tool, only to a client that declares the extension', async () => {
    const before = (await plain.client.listTools()).tools;
    expect(before.map((t) => t.name)).not.toContain('get_token_evidence');
    expect(before.filter((t) => t._meta !== undefined)).toEqual([]);
    const tools = (await apps.client.listTools()).tools;
    const withView = tools.filter(
      (t) => (meta(t).ui as { resourceUri?: string } | undefined)?.resourceUri === VIEW_URI,
    );
    expect(withView.map((t) => t.name).sort()).toEqual([
      'analyze_botting',
      'get_activity_heatmap',
      'get_streamers_analytics',
      'investigate_botting',
    ]);
    const evidence = tools.find((t) => t.name === 'get_token_evidence');
    expect(meta(evidence ?? {}).ui).toEqual({ visibility: ['app'] });
    // Apart from _meta and the app-only tool, the same list.
    expect(tools.filter((t) => t.name !== 'get_token_evidence').map(({ _meta, ...t }) => t)).toEqual(before);
  });

  it('serves the view as one self-contained MCP App page, listed only to MCP Apps clients', async () => {
    expect((await plain.client.listResources()).resources.map((r) => r.uri)).not.toContain(VIEW_URI);
    expect((await apps.client.listResources()).resources.map((r) => r.uri)).toContain(VIEW_URI);
    const [page] = (await apps.client.readResource({ uri: VIEW_URI })).contents as Array<
      Record<string, unknown>
    >;
    expect(page?.mimeType).toBe('text/html;profile=mcp-app');
    const html = String(page?.text);
    expect(html.length).toBeLessThan(500 * 1024);
    // Nothing loaded from anywhere: no src= or href= to another place, a CSP that allows none.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
    expect(html).toContain("default-src 'none'");
  });

  it('gives the view every finding while the model channels keep their budget, the same as without the view', async () => {
    const mintIds = ids(sim, 'platform_a', 120);
    const [without, withView] = await Promise.all([
      plain.client.callTool({ name: 'investigate_botting', arguments: { mintIds } }),
      apps.client.callTool({ name: 'investigate_botting', arguments: { mintIds } }),
    ]);
    expect(meta(without)[VIEW_DATA_KEY]).toBeUndefined();
    expect(withView.content).toEqual(without.content);
    expect(withView.structuredContent).toEqual(without.structuredContent);
    const view = meta(withView)[VIEW_DATA_KEY] as { kind: string; rows: unknown[]; failures: unknown[] };
    const counts = (without.structuredContent as { counts: { analysed: number; failed: number } }).counts;
    expect(view.kind).toBe('board');
    expect(view.rows).toHaveLength(counts.analysed);
    expect(view.failures).toHaveLength(counts.failed);
    expect(JSON.stringify(without.structuredContent).length).toBeLessThan(4_000);
  });

  it('serves the evidence of one token to the view, and no one else', async () => {
    const [mint] = ids(sim, 'platform_a', 1);
    const out = await apps.client.callTool({ name: 'get_token_evidence', arguments: { mint } });
    const view = meta(out)[VIEW_DATA_KEY] as Record<string, unknown>;
    expect(view.kind).toBe('evidence');
    expect(Array.isArray(view.sessions)).toBe(true);
    expect((view.series as { results: unknown[] }).results).toHaveLength(1);
    const refused = await call(plain.client, 'get_token_evidence', { mint }).catch((e: Error) => e);
    expect(String((refused as Error).message)).toContain('Unknown tool: get_token_evidence');
  });
});
