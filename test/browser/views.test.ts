// The MCP Apps views in a real Chromium, from the real built server's results: a host built on the App SDK's
// AppBridge renders each view in a sandboxed iframe and answers its app-only tool calls through the
// server. Screenshots go to .screenshots/ (ignored by git). Without a Chromium these tests are skipped.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appsClient, chromiumPath, mount, openHost } from '../../scripts/host/harness.js';
import { hourlyGrid } from '../../src/format/heatmap.js';
import type { Simulator } from '../../src/simulator/server.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import { ids, startSim } from '../helpers.js';

const SHOTS = fileURLToPath(new URL('../../.screenshots/', import.meta.url));
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';
const executablePath = chromiumPath();
// .ci/run sets REQUIRE_BROWSER: there, a missing browser fails instead of skipping.
if (!executablePath && process.env.REQUIRE_BROWSER)
  throw new Error('REQUIRE_BROWSER is set, but no Chromium is installed');
if (!executablePath) {
  console.log(
    'Browser tests skipped: no Chromium. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run does.',
  );
}

let sim: Simulator;
let client: Client;
let browser: Browser;
let html: string;
const toolCalls: string[] = [];

beforeAll(async () => {
  if (!executablePath) return;
  sim = await startSim();
  // A coin whose name is markup: the view must show it as text.
  const victim = sim.data.tokens.find((t) => t.platform === 'platform_a' && t.botting);
  if (victim) victim.coinName = HOSTILE;
  ({ client, html } = await appsClient('browser-host', {
    STREAMER_ANALYTICS_API_KEY: sim.apiKey,
    STREAMER_ANALYTICS_BASE_URL: sim.url,
  }));
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await client?.close();
  await sim?.close();
});

const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => {
  toolCalls.push(params.name);
  return client.callTool(params);
};
const viewOf = (result: unknown) =>
  ((result as { _meta?: Record<string, unknown> })._meta?.[VIEW_DATA_KEY] ?? {}) as Record<string, unknown>;
const shoot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

/** Pixels of a canvas in the frame that are not transparent: a drawn chart has many. */
// (Page code as text: this file is typed for Node, without the DOM.)
const inkOf = (frame: Frame, selector: string): Promise<number> =>
  frame.evaluate(`(() => {
    const canvas = document.querySelector(${JSON.stringify(selector)});
    if (!canvas) return 0;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
    return ink;
  })()`);

describe.skipIf(!executablePath)('MCP Apps views in Chromium', () => {
  let page: Page;
  let board: Frame;
  let result: Awaited<ReturnType<Client['callTool']>>;
  beforeAll(async () => {
    page = await openHost(browser, callTool);
    result = await client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(sim, 'platform_a', 150) },
    });
    board = await mount(page, html, result);
  });
  afterAll(() => page?.close());

  it('the board has one row per finding, with every finding the model did not get', async () => {
    const rows = viewOf(result).rows as Array<{ level: string }>;
    const counts = (result.structuredContent as { counts: { analysed: number } }).counts;
    expect(rows).toHaveLength(counts.analysed);
    expect(await board.locator('table.board tbody tr').count()).toBe(rows.length);
    await shoot(page, 'board');
  });

  it('sorts by viewers and filters by level, live and search', async () => {
    await board.locator('th button[data-sort="viewers"]').click();
    const viewers = await board
      .locator('table.board tbody tr td:nth-child(5)')
      .allTextContents()
      .then((t) => t.map((x) => Number(x.replace(/[^\d.]/g, ''))).filter((x) => !Number.isNaN(x)));
    expect(viewers.length).toBeGreaterThan(5);
    expect(viewers).toEqual([...viewers].sort((a, b) => b - a));
    const rows = viewOf(result).rows as Array<{ level: string; live: boolean | null }>;
    await board.locator('select[aria-label="Level"]').selectOption('HIGH');
    expect(await board.locator('table.board tbody tr').count()).toBe(
      rows.filter((r) => r.level === 'HIGH').length,
    );
    await board.locator('#live-only').check();
    expect(await board.locator('table.board tbody tr').count()).toBe(
      rows.filter((r) => r.level === 'HIGH' && r.live === true).length,
    );
    await board.locator('#live-only').uncheck();
    await board.locator('select[aria-label="Level"]').selectOption('');
    await board.locator('input[type="search"]').fill(ids(sim, 'platform_a', 150)[3]?.slice(0, 12) ?? '');
    expect(await board.locator('table.board tbody tr').count()).toBe(1);
    await board.locator('input[type="search"]').fill('');
  });

  it('keeps a hostile coin name inert: shown as text, nothing run', async () => {
    await board.locator('input[type="search"]').fill('<img');
    expect(await board.locator('table.board tbody tr').count()).toBe(1);
    expect(await board.locator('table.board tbody tr button.token').first().textContent()).toContain(HOSTILE);
    expect(await board.locator('table.board img').count()).toBe(0);
    expect(await board.evaluate('document.title')).not.toBe('pwned');
    await board.locator('input[type="search"]').fill('');
  });

  it('selecting a token calls the app-only evidence tool and draws its viewer curve', async () => {
    const before = toolCalls.length;
    await board.locator('table.board tbody tr button.token').first().click();
    await board.waitForSelector('.evidence canvas');
    expect(toolCalls.slice(before)).toEqual(['get_token_evidence']);
    expect(await inkOf(board, '.evidence canvas')).toBeGreaterThan(500);
    expect(await board.locator('.evidence table tbody tr').count()).toBeGreaterThan(0);
    await shoot(page, 'board-evidence');
    // Another period: the evidence is fetched again for it.
    await board.locator('.evidence select[aria-label="Period"]').selectOption('7d');
    await board.waitForSelector('.evidence canvas');
    expect(await board.locator('.evidence select[aria-label="Period"]').inputValue()).toBe('7d');
    expect(toolCalls.slice(before)).toEqual(['get_token_evidence', 'get_token_evidence']);
  });

  it('shows a failed evidence call in place, not as a blank', async () => {
    sim.injectFor(/\/sessions|\/streamers\/analytics|\/botting\/bulk/, {
      status: 401,
      body: { error: 'bad key' },
    });
    await board.locator('table.board tbody tr button.token').nth(1).click();
    await board.waitForSelector('.evidence .error');
    expect(await board.locator('.evidence .error').first().textContent()).toMatch(/unavailable|Could not/);
    sim.reset();
  });
});

describe.skipIf(!executablePath)('the analytics chart and the heatmap in Chromium', () => {
  let page: Page;
  beforeEach(async () => {
    page = await openHost(browser, callTool);
  });
  afterEach(() => page?.close());

  it('draws 25 series of 500 points on one chart, with a legend entry per token', async () => {
    const result = await client.callTool({
      name: 'get_streamers_analytics',
      arguments: { mintIds: ids(sim, 'platform_a', 25), points: 500 },
    });
    const chart = await mount(page, html, result);
    // uPlot's legend: one row for time, one per series.
    expect(await chart.locator('.u-legend .u-series').count()).toBe(26);
    expect(await inkOf(chart, '.chart canvas')).toBeGreaterThan(2_000);
    // A click on a legend entry hides that token's series.
    await chart.locator('.u-legend .u-series').nth(1).click();
    expect(await chart.locator('.u-legend .u-series.u-off').count()).toBe(1);
    await shoot(page, 'analytics');
  });

  it('draws one cell per heatmap key, in the dark theme when the host is dark', async () => {
    const result = await client.callTool({ name: 'get_activity_heatmap', arguments: {} });
    const heat = await mount(page, html, result, 'dark');
    const data = viewOf(result).data as { daily?: { hourlyActivity?: Record<string, unknown> } };
    const grid = hourlyGrid(data.daily?.hourlyActivity ?? {});
    const cells = (grid?.rows.length ?? 0) * (grid?.rows[0]?.length ?? 0);
    expect(cells).toBeGreaterThan(0);
    expect(await heat.locator('table.heat').first().locator('td').count()).toBe(cells);
    const cell = heat.locator('table.heat td').first();
    expect(await cell.getAttribute('title')).toMatch(/^a=-?\d+, b=-?\d+: /);
    expect(await heat.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    const background = String(await heat.evaluate('getComputedStyle(document.body).backgroundColor'));
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(3 * 90);
    await shoot(page, 'heatmap-dark');
  });
});
