// The analytics chart in a real Chromium, from the real built server's results (test/browser/helpers.ts: a host on the
// App SDK's AppBridge renders each view in a sandboxed iframe and answers its app-only tool calls through
// the server). Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mount } from '../../scripts/host/harness.js';
import { HOST_BACKGROUND } from '../../scripts/host/theme.js';
import { ids } from '../helpers.js';
import {
  axisPixels,
  CAP_FIELD,
  describeViews,
  executablePath,
  overflow,
  type Result,
  shoot,
  type Theme,
  textContrast,
  useBrowser,
  viewOf,
} from './helpers.js';

const env = useBrowser();

// Each client mode meets one dialect, so that both dialects are drawn at every width and theme.
describeViews(env, 'chart', (m) => {
  let chart: Result;
  beforeAll(async () => {
    chart = await m.client.callTool({
      name: 'get_streamers_analytics',
      arguments: { mintIds: ids(m.up, 'platform_a', 8), points: 200 },
    });
  });

  it('gets the view data with the result', () => {
    expect(m.client.getProtocolEra()).toBe(m.mode.era === '2025' ? 'legacy' : 'modern');
    expect(m.html).toContain('<html');
    expect(viewOf(chart).kind).toBe('series');
    // Points in every series, whatever the m.dialect names them.
    const series = viewOf(chart).series as Array<{
      t: number[];
      values: Record<string, unknown[]>;
      primary: string;
    }>;
    expect(series).toHaveLength(8);
    for (const s of series) {
      expect(s.t).toHaveLength(200);
      expect(Object.keys(s.values)).toContain(CAP_FIELD[m.dialect]);
      expect(s.values[s.primary]?.filter((v) => typeof v === 'number')).toHaveLength(200);
    }
  });

  for (const width of [400, 960])
    for (const theme of ['light', 'dark'] as Theme[]) {
      const tag = `${m.mode.era}-${m.mode.transport}-${m.dialect}-${width}-${theme}`;
      const hostBg = HOST_BACKGROUND[theme];

      it(`chart at ${width} px, ${theme}: axes drawn in the theme's colours, labels whole, series by symbol`, async () => {
        const page = await env.host(m.callTool, width);
        const frame = await mount(page, m.html, chart, theme);
        expect(await frame.locator('body').innerText()).not.toContain('No numeric series');
        await frame.locator('select[aria-label="Field"]').selectOption(CAP_FIELD[m.dialect]);
        await frame.waitForSelector('.chart canvas');
        const pixels = await axisPixels(frame, hostBg, '.chart canvas');
        expect(pixels.yAxis).toBeGreaterThanOrEqual(4.5);
        expect(pixels.xAxis).toBeGreaterThanOrEqual(4.5);
        // 16,000,000 and the last time are drawn whole: nothing touches the canvas's left or right edge.
        expect(pixels.edgeInk).toBe(0);
        // The plot runs to the panel's right edge (no margin of its own beyond a few pixels).
        const edges = (await frame.evaluate(`(() => {
            const box = document.querySelector('.chart').getBoundingClientRect();
            const plot = document.querySelector('.chart .u-over').getBoundingClientRect();
            return { box: box.right, plot: plot.right };
          })()`)) as { box: number; plot: number };
        expect(edges.box - edges.plot).toBeLessThanOrEqual(12);
        const worst = await textContrast(frame, hostBg);
        expect(worst.ratio, `lowest contrast: "${worst.text}"`).toBeGreaterThanOrEqual(4.5);
        const o = await overflow(frame);
        expect(o.scroll).toBeLessThanOrEqual(o.client);
        const series = viewOf(chart).series as Array<{ mintId: string; symbol: string }>;
        const legend = frame.locator('.u-legend .u-series');
        // A series that is 0 throughout is named under the chart, not drawn: every series is in one or
        // the other, by its symbol, its id on hover.
        const named = frame.locator('.u-legend .u-series[title], .flat-series span[title]');
        const first = named.and(frame.locator(`[title="${series[0]?.mintId}"]`));
        expect(await first.count()).toBe(1);
        expect(await first.textContent()).toContain(series[0]?.symbol);
        expect(series.map((s) => s.mintId)).toContain(env.rich);
        expect(await legend.nth(0).textContent()).toContain('UTC');
        // Two series with one symbol are told apart in the legend; every series has its own colour.
        const labels = (await legend.locator('.u-label').allTextContents()).slice(1);
        const flat = await frame.locator('.flat-series span[title]').allTextContents();
        expect(labels.length + flat.length).toBe(series.length);
        expect(new Set([...labels, ...flat]).size).toBe(series.length);
        const strokes = (await frame.evaluate(
          `[...document.querySelectorAll('.u-legend .u-series .u-marker')].slice(1).map((m) => getComputedStyle(m).borderColor)`,
        )) as string[];
        expect(new Set(strokes).size).toBe(labels.length);
        await shoot(page, `analytics-${tag}`);
        // When the panel is resized, the plot follows it, wider and back.
        const gap = async () =>
          (await frame.evaluate(`(() => {
              const box = document.querySelector('.chart').getBoundingClientRect();
              const plot = document.querySelector('.chart .u-over').getBoundingClientRect();
              return Math.round(box.right) + ':' + (box.right - plot.right <= 12);
            })()`)) as string;
        const size = page.viewportSize() ?? { width, height: 1000 };
        await page.setViewportSize({ width: width + 120, height: size.height });
        await expect.poll(gap).toBe(`${Math.round(edges.box) + 120}:true`);
        await page.setViewportSize(size);
        await expect.poll(gap).toBe(`${Math.round(edges.box)}:true`);
        const twin = structuredClone(chart) as Result;
        const twins = viewOf(twin).series as Array<{ symbol: string }>;
        if (twins[1] && twins[0]) twins[1].symbol = twins[0].symbol;
        const again = await mount(page, m.html, twin, theme);
        const all = [
          ...(await again.locator('.u-legend .u-label').allTextContents()).slice(1),
          ...(await again.locator('.flat-series span[title]').allTextContents()),
        ];
        const [a, b] = all.filter((l) => l.startsWith(String(twins[0]?.symbol)));
        expect(a).toBeDefined();
        expect(a).not.toBe(b);
        expect(b?.startsWith(String(twins[0]?.symbol))).toBe(true);
      });
    }
});

describe.skipIf(!executablePath)('the chart says what it draws', () => {
  let client: Client;
  let html: string;
  let page: Page;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params);
  const _unknown = (count: number) =>
    Array.from({ length: count }, (_, i) => `Fk${String(i).padStart(4, '9')}${'Z'.repeat(38)}`);
  const _shown = (frame: Frame) => frame.locator('p[aria-live]').textContent();
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    page = await env.page(callTool, 960);
  });

  it('tells 25 series apart: past the palette each series is dashed', async () => {
    const frame = await mount(
      page,
      html,
      await callTool({
        name: 'get_streamers_analytics',
        arguments: { mintIds: ids(env.sim, 'platform_a', 25) },
      }),
    );
    const styles = await frame.evaluate(
      "[...document.querySelectorAll('.u-legend .u-series .u-marker')].map((m) => getComputedStyle(m).borderStyle + ' ' + getComputedStyle(m).borderColor)",
    );
    expect(new Set(styles as string[]).size).toBe((styles as string[]).length);
  });
});
