// The board's failures in a real Chromium, from the real built server's results (test/browser/helpers.ts: a host on the
// App SDK's AppBridge renders each view in a sandboxed iframe and answers its app-only tool calls through
// the server). Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mount } from '../../scripts/host/harness.js';
import { num } from '../../src/format/text.js';
import { ids } from '../helpers.js';
import { executablePath, type Result, useBrowser, viewOf } from './helpers.js';

const env = useBrowser();

describe.skipIf(!executablePath)('the failures of a board', () => {
  let client: Client;
  let html: string;
  let page: Page;
  let board: Frame;
  let result: Result;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => {
    env.toolCalls.push(params.name);
    return client.callTool(params);
  };
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    page = await env.page(callTool);
    result = await client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(env.sim, 'platform_a', 150) },
    });
    board = await mount(page, html, result);
  });

  it('says why tokens failed, grouped by reason, in the summary of the failures', async () => {
    const failures = viewOf(result).failures as Array<{ error: string }>;
    expect(failures.length).toBeGreaterThan(0);
    const counts = new Map<string, number>();
    for (const f of failures) counts.set(f.error, (counts.get(f.error) ?? 0) + 1);
    // (One reason: its count is the total already, said once; issue 32's "5 failed: … (5)".)
    const groups = [...counts].sort((a, b) => b[1] - a[1]);
    expect(await board.locator('details > summary').textContent()).toBe(
      `${num(failures.length)} failed: ${
        groups.length === 1 ? groups[0]?.[0] : groups.map(([why, c]) => `${why} (${num(c)})`).join('; ')
      }`,
    );
  });
});

describe.skipIf(!executablePath)('the failures when ids are unknown', () => {
  let client: Client;
  let html: string;
  let page: Page;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params);
  const unknown = (count: number) =>
    Array.from({ length: count }, (_, i) => `Fk${String(i).padStart(4, '9')}${'Z'.repeat(38)}`);
  const _shown = (frame: Frame) => frame.locator('p[aria-live]').textContent();
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    page = await env.page(callTool, 960);
  });

  it('counts the failures in the header, folds their ids away, and gives the hint when all fail', async () => {
    const mixed = await callTool({
      name: 'investigate_botting',
      arguments: { mintIds: [...ids(env.sim, 'platform_a', 20), ...unknown(60)] },
    });
    let frame = await mount(page, html, mixed);
    const counts = (mixed.structuredContent as { counts: { requested: number; failed: number } }).counts;
    expect(await frame.locator('h1 + p').textContent()).toContain(
      `${counts.requested} requested, ${counts.failed} failed`,
    );
    expect(await frame.locator('details.failures').getAttribute('open')).toBeNull();
    // The failures come before the table, not after every row.
    const order = await frame.evaluate(
      "document.querySelector('details.failures').compareDocumentPosition(document.querySelector('table.board'))",
    );
    expect(Number(order) & 4).toBe(4);

    const all = await callTool({ name: 'investigate_botting', arguments: { mintIds: unknown(3) } });
    frame = await mount(page, html, all);
    const text = await frame.locator('#root').innerText();
    expect(text).not.toContain('No token matches these filters');
    expect(text).toContain('No token could be analysed: 3 of 3 tokens failed.');
    expect(await frame.locator('p.hint').textContent()).toContain('chain_b');
    // Advice to a person, not a tool call to type.
    expect(await frame.locator('p.hint').textContent()).not.toMatch(/\b[a-z]+_[a-z_]+ with chain/);
    expect(await frame.locator('table.board').count()).toBe(0);

    const series = await callTool({ name: 'get_streamers_analytics', arguments: { mintIds: unknown(2) } });
    frame = await mount(page, html, series);
    expect(await frame.locator('select[aria-label="Field"]').count()).toBe(0);
    const said = await frame.locator('.failures').textContent();
    for (const id of unknown(2)) expect(said).toContain(id);
    expect(said).toContain('Hint:');
    expect(await frame.locator('#root').innerText()).not.toContain('No numeric series');
  });
});
