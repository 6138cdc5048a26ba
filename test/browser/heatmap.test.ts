// The activity heatmap in a real Chromium, from the real built server's results (test/browser/helpers.ts: a host on the
// App SDK's AppBridge renders each view in a sandboxed iframe and answers its app-only tool calls through
// the server). Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mount } from '../../scripts/host/harness.js';
import { HOST_BACKGROUND } from '../../scripts/host/theme.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import {
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
describeViews(env, 'heat', (m) => {
  let heat: Result;
  beforeAll(async () => {
    heat = await m.client.callTool({ name: 'get_activity_heatmap', arguments: {} });
  });

  it('gets the view data with the result', () => {
    expect(m.client.getProtocolEra()).toBe(m.mode.era === '2025' ? 'legacy' : 'modern');
    expect(m.html).toContain('<html');
    expect(viewOf(heat).kind).toBe('heatmap');
  });

  for (const width of [400, 960])
    for (const theme of ['light', 'dark'] as Theme[]) {
      const tag = `${m.mode.era}-${m.mode.transport}-${m.dialect}-${width}-${theme}`;
      const hostBg = HOST_BACKGROUND[theme];

      it(`heatmap at ${width} px, ${theme}: every cell, fitting the panel`, async () => {
        const page = await env.host(m.callTool, width);
        const frame = await mount(page, m.html, heat, theme);
        const [grid] = viewOf(heat).grids as Array<{ rows: number[][] }>;
        const cells = (grid?.rows.length ?? 0) * (grid?.rows[0]?.length ?? 0);
        expect(cells).toBe(7 * 24);
        expect(await frame.locator('.heat').first().locator('.cell').count()).toBe(cells);
        // 24 columns fit 400 px: no scrolling box, no hint; every cell inside the frame.
        const fit = (await frame.evaluate(`(() => {
            const box = document.querySelector('.scroll-x');
            const cells = [...document.querySelectorAll('.heat .cell')].map((c) => c.getBoundingClientRect().right);
            return { scroll: box.scrollWidth, client: box.clientWidth, right: Math.max(...cells),
              hint: !document.querySelector('.scroll-hint').hidden };
          })()`)) as { scroll: number; client: number; right: number; hint: boolean };
        expect(fit.scroll).toBeLessThanOrEqual(fit.client);
        expect(fit.right).toBeLessThanOrEqual(width);
        expect(fit.hint).toBe(false);
        // The ranges' line breaks between its ranges, never inside one.
        for (const lines of await frame
          .locator('section .nowrap')
          .evaluateAll((spans) => spans.map((x) => x.getClientRects().length)))
          expect(lines).toBe(1);
        // The lowest cells still stand out from the surface: a minimum tint and an outline.
        const low = (await frame.evaluate(`(() => {
            const cell = [...document.querySelectorAll('.heat .cell')].find((c) => c.style.getPropertyValue('--v') === '0');
            if (!cell) return null;
            const s = getComputedStyle(cell);
            return { bg: s.backgroundColor, surface: getComputedStyle(document.getElementById('root')).backgroundColor, outline: s.boxShadow };
          })()`)) as { bg: string; surface: string; outline: string } | null;
        if (low) {
          expect(low.bg).not.toBe(low.surface);
          expect(low.outline).not.toBe('none');
        }
        const worst = await textContrast(frame, hostBg);
        expect(worst.ratio, `lowest contrast: "${worst.text}"`).toBeGreaterThanOrEqual(4.5);
        const o = await overflow(frame);
        expect(o.scroll).toBeLessThanOrEqual(o.client);
        await shoot(page, `heatmap-${tag}`);
      });
    }
});

describe.skipIf(!executablePath)('a heatmap wider than the panel', () => {
  it('scrolls inside its own box, with a visible hint, and the page does not', async () => {
    const { client, html } = await env.apps();
    const page = await env.host((params) => client.callTool(params), 400);
    // 60 columns (the widest grid the server builds), as a result would carry it.
    const rows = Array.from({ length: 7 }, (_, a) => Array.from({ length: 60 }, (_, b) => a * b));
    const wide = {
      content: [{ type: 'text', text: 'heatmap' }],
      _meta: {
        [VIEW_DATA_KEY]: {
          kind: 'heatmap',
          scope: { chain: 'chain_a', platform: 'platform_a' },
          grids: [
            { title: 'wide', a: [0, 6], b: [0, 59], max: 354, rows, peak: { a: 6, b: 59, value: 354 } },
          ],
        },
      },
    };
    const frame = await mount(page, html, wide, 'dark');
    // The hint follows the box's size, measured once it is laid out.
    await frame.waitForSelector('.scroll-hint:not([hidden])');
    const box = (await frame.evaluate(`(() => {
      const box = document.querySelector('.scroll-x');
      return { scroll: box.scrollWidth, client: box.clientWidth, hint: !document.querySelector('.scroll-hint').hidden,
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    })()`)) as { scroll: number; client: number; hint: boolean; page: number };
    expect(box.scroll).toBeGreaterThan(box.client);
    expect(box.hint).toBe(true);
    expect(box.page).toBeLessThanOrEqual(0);
    const worst = await textContrast(frame, HOST_BACKGROUND.dark);
    expect(worst.ratio, `lowest contrast: "${worst.text}"`).toBeGreaterThanOrEqual(4.5);
  });
});
describe.skipIf(!executablePath)('the heatmap says what it shows', () => {
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

  it('heads the heatmap with the facts the text gives, in plain words, labels readable', async () => {
    const result = await callTool({ name: 'get_activity_heatmap', arguments: {} });
    const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
    const day = /busiest day (\d{4}-\d\d-\d\d) \(([\d,]+)\)/.exec(text);
    const total = /Consistency: .*, total ([\d,]+)/.exec(text);
    expect(day && total).toBeTruthy();
    const frame = await mount(page, html, result);
    const facts = await frame.locator('dl.facts').textContent();
    expect(facts).toContain(`Busiest day${day?.[1]} (${day?.[2]})`);
    expect(facts).toContain(`total ${total?.[1]}`);
    expect(await frame.locator('.days .cell').count()).toBeGreaterThan(27);
    // No JSON path for a title, no "a\\b" corner: plain words (a and b stay unnamed, as the document leaves them).
    const titles = await frame.locator('h2').allTextContents();
    expect(titles.some((t) => t.includes('.') || t.includes('key "'))).toBe(false);
    expect(await frame.locator('.heat [role="columnheader"]').first().textContent()).not.toBe('a\\b');
    const size = await frame.evaluate(
      "parseFloat(getComputedStyle(document.querySelector('.heat [role=columnheader]')).fontSize)",
    );
    expect(size).toBeGreaterThanOrEqual(11);
  });
});
