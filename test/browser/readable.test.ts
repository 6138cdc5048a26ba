// The chart and the heatmap read at a glance, in a real Chromium from the real built server's results (the
// same AppBridge host as views.test.ts), at 400 and 960 px, light and dark: no series ends at the plot's
// edge, the legend shows values with nothing hovered, series at 0 throughout are named apart, and no text
// breaks inside a date or a unit. Without a Chromium these tests are skipped (views.test.ts says how).
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsClient, mount } from '../../scripts/host/harness.js';
import { createDataset } from '../../src/simulator/data.js';
import { executablePath, type Result, useBrowser } from './helpers.js';

const env = useBrowser();
let apps: Awaited<ReturnType<typeof appsClient>>;
let chart: Result;
let heat: Result;

beforeAll(async () => {
  if (!executablePath) return;
  apps = await appsClient('readable');
  const onA = createDataset()
    .tokens.filter((t) => t.chain === 'chain_a' && t.platform === 'platform_a')
    .map((t) => t.mintId);
  // The preview's chart: eight tokens over a day, some rising at the end, some at 0 throughout.
  chart = await apps.client.callTool({
    name: 'get_streamers_analytics',
    arguments: { mintIds: onA.slice(0, 8), points: 200 },
  });
  heat = await apps.client.callTool({ name: 'get_activity_heatmap', arguments: {} });
}, 60_000);
afterAll(() => apps?.close());

/**
 * Text that a line break splits inside a date (2026-11-20, 2026-11-20 12:00 UTC), a time, or a number and
 * its unit (24 h, 14,283 s): each match's client rects must sit on one line.
 */
async function brokenInside(frame: Frame): Promise<string[]> {
  return (await frame.evaluate(`(() => {
    const pattern = /\\d{4}-\\d{2}-\\d{2}(?: \\d{2}:\\d{2}(?: UTC)?)?|\\d[\\d,.]* (?:h|s|ms|min|px|days?)\\b|\\(UTC\\)/g;
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(pattern)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  })()`)) as string[];
}

const cases = [400, 960].flatMap((width) => (['light', 'dark'] as const).map((theme) => ({ width, theme })));

describe.skipIf(!executablePath)('the chart, read at a glance', () => {
  it.each(cases)('at $width px, $theme', async ({ width, theme }) => {
    const page = await env.host((params) => apps.client.callTool(params), width);
    const frame = await mount(page, apps.html, chart, theme);
    await frame.waitForSelector('.chart canvas');
    // Room past the last point: it is drawn well inside the plot, not on its right edge.
    const { lastPointX, plotWidth } = (await frame.evaluate(
      `({ ...document.querySelector('.chart').dataset })`,
    )) as { lastPointX: string; plotWidth: string };
    expect(Number(plotWidth) - Number(lastPointX)).toBeGreaterThanOrEqual(8);
    // With nothing hovered, every drawn series' legend entry shows a value, not a dash.
    const values = (await frame.locator('.u-legend .u-series .u-value').allTextContents()).map((v) =>
      v.trim(),
    );
    expect(values.length).toBeGreaterThan(1);
    for (const v of values) expect(v).toMatch(/\d/);
    expect(values[0]).toContain('(last)');
    // Series at 0 throughout are named apart, not drawn over one another at the baseline.
    const flat = frame.locator('.flat-series');
    if (await flat.count()) {
      expect(await flat.textContent()).toMatch(/0 throughout, not drawn: \S/);
      const drawn = await frame.locator('.u-legend .u-series .u-label').allTextContents();
      for (const name of await flat.locator('span').allTextContents()) expect(drawn).not.toContain(name);
    }
    // The viewer field is not said to have no unit; another field is.
    expect(await frame.locator('.field-note').textContent()).not.toContain('no unit stated');
    expect(await brokenInside(frame)).toEqual([]);
  });
});

describe.skipIf(!executablePath)('the heatmap, read at a glance', () => {
  it.each(cases)('at $width px, $theme', async ({ width, theme }) => {
    const page = await env.host((params) => apps.client.callTool(params), width);
    const frame = await mount(page, apps.html, heat, theme);
    // Its 7 × 24 grid reads as day of week and hour, with one line saying the API names neither.
    expect(await frame.locator('.heat [role="columnheader"]').first().textContent()).toBe('day');
    expect(await frame.locator('.axes-note').textContent()).toMatch(
      /day of week .*hour .*the API names neither/,
    );
    expect(await frame.locator('.heat .cell').first().getAttribute('title')).toMatch(/^day 0, hour 0: /);
    // The month strip has its day numbers.
    const days = (await frame.locator('.day-labels span').allTextContents()).filter(Boolean);
    expect(days.slice(0, 2)).toEqual(['1', '8']);
    // The lowest cells are visible: not the surface's own colour.
    const [low, surface] = (await frame.evaluate(`(() => {
        const cells = [...document.querySelectorAll('.heat .cell')];
        const lowest = cells.find((c) => getComputedStyle(c).getPropertyValue('--v').trim() === '0') ?? cells[0];
        return [getComputedStyle(lowest).backgroundColor, getComputedStyle(document.querySelector('.surface') ?? document.body).backgroundColor];
      })()`)) as [string, string];
    expect(low).not.toBe(surface);
    expect(await brokenInside(frame)).toEqual([]);
  });
});
