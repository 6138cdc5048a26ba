// The MCP Apps views in a real Chromium, from the real built server's results: a host built on the App SDK's
// AppBridge renders each view in a sandboxed iframe (sized to the view, on the host's own background) and
// answers its app-only tool calls through the server. Every view is looked at as a person would, at 400 and
// 960 px, light and dark, for a 2025 client over --http and a 2026-07-28 client: contrast (from computed
// styles, and from the chart's drawn pixels), row heights, no page overflow, labels not clipped, evidence
// placement. With SCREENSHOTS=1, screenshots go to .screenshots/ (ignored by git; they are for people and
// cost a fifth of the file's time, so they are not taken by default). Without a Chromium these tests are skipped.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsClient, chromiumPath, MODES, mount, openHost } from '../../scripts/host/harness.js';
import { HOST_BACKGROUND } from '../../scripts/host/theme.js';
import { money, num } from '../../src/format/text.js';
import type { DialectName } from '../../src/simulator/dialect.js';
import { type Simulator, startSimulator } from '../../src/simulator/server.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import { ids, SIM_KEY, startSim } from '../helpers.js';

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

type Theme = 'light' | 'dark';
type Result = Awaited<ReturnType<Client['callTool']>>;
let sim: Simulator;
/** The same data named the other way (src/simulator/dialect.ts): each client mode meets one dialect. */
let simB: Simulator;
let browser: Browser;
const toolCalls: string[] = [];
/** A token worth 16,000,000: its market-cap axis labels are the widest the charts draw here. */
let rich: string;

beforeAll(async () => {
  if (!executablePath) return;
  sim = await startSim();
  simB = await startSimulator({ apiKey: SIM_KEY, dialect: sim.dialect === 'b' ? 'a' : 'b' });
  for (const s of [sim, simB]) {
    // A coin whose name is markup: the view must show it as text.
    const victim = s.data.tokens.find((t) => t.platform === 'platform_a' && t.botting);
    if (victim) victim.coinName = HOSTILE;
    const big = s.data.tokens.filter((t) => t.platform === 'platform_a')[2];
    if (big) {
      big.tokenMarketCap = 16_000_000;
      rich = big.mintId;
    }
  }
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await sim?.close();
  await simB?.close();
});

/** The market-cap field of each dialect's analytics points (the document does not name it). */
const CAP_FIELD: Record<DialectName, string> = { a: 'marketCap', b: 'cap_usd' };

const viewOf = (result: unknown) =>
  ((result as { _meta?: Record<string, unknown> })._meta?.[VIEW_DATA_KEY] ?? {}) as Record<string, unknown>;
/**
 * A screenshot of the whole host page. Chromium's full-page capture can miss a sandboxed frame's paint, so
 * the viewport is made as tall as the page for the shot (and restored after).
 */
async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  const size = page.viewportSize() ?? { width: 960, height: 1000 };
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  await page.setViewportSize({ width: size.width, height: Math.min(height, 8000) });
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}${name}.png` });
  await page.setViewportSize(size);
}

// Page code as text: this file is typed for Node, without the DOM.
const COLOR_FNS = `
  const rgba = (c) => {
    if (c.startsWith('#')) return { r: parseInt(c.slice(1, 3), 16), g: parseInt(c.slice(3, 5), 16), b: parseInt(c.slice(5, 7), 16), a: 1 };
    const m = (c.match(/[\\d.]+/g) || []).map(Number);
    const k = c.startsWith('color(') ? 255 : 1;
    return { r: m[0] * k, g: m[1] * k, b: m[2] * k, a: m.length > 3 ? m[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const contrast = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
`;

/** The lowest contrast of any visible text in the frame against what it is drawn on (the host page beneath). */
const textContrast = (frame: Frame, hostBg: string) =>
  frame.evaluate(`(() => {
    ${COLOR_FNS}
    const host = rgba(${JSON.stringify(hostBg)});
    const backdrop = (el) => {
      const chain = [];
      for (let e = el; e; e = e.parentElement) chain.unshift(e);
      return chain.reduce((bg, e) => over(rgba(getComputedStyle(e).backgroundColor), bg), host);
    };
    let worst = { ratio: 99, text: '' };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const el = t.parentElement;
      if (!el || !t.textContent.trim() || el.closest('option, .u-off, [hidden]')) continue;
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      const bg = backdrop(el);
      const ratio = contrast(over(rgba(getComputedStyle(el).color), bg), bg);
      // (A colour that does not parse counts as unreadable.)
      if (!(ratio >= worst.ratio)) worst = { ratio, text: t.textContent.trim().slice(0, 40) };
    }
    return worst;
  })()`) as Promise<{ ratio: number; text: string }>;

/**
 * What a chart's canvas shows in its axis areas: the highest contrast of a drawn pixel against the host's
 * background (the text's core reaches the full colour), and whether anything is drawn in its first or last
 * columns (a clipped label reaches the edge).
 */
const axisPixels = (frame: Frame, hostBg: string, selector: string) =>
  frame.evaluate(`(() => {
    ${COLOR_FNS}
    const host = rgba(${JSON.stringify(hostBg)});
    const canvas = document.querySelector(${JSON.stringify(selector)});
    const { width, height } = canvas;
    const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const dpr = devicePixelRatio;
    const best = (x0, x1, y0, y1) => {
      let top = 1;
      for (let y = Math.floor(y0); y < y1; y++)
        for (let x = Math.floor(x0); x < x1; x++) {
          const i = (y * width + x) * 4;
          if (!data[i + 3]) continue;
          const px = over({ r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3] / 255 }, host);
          top = Math.max(top, contrast(px, host));
        }
      return top;
    };
    let edgeInk = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < 2 * dpr; x++) {
        if (data[(y * width + x) * 4 + 3]) edgeInk++;
        if (data[(y * width + width - 1 - x) * 4 + 3]) edgeInk++;
      }
    return {
      yAxis: best(0, 40 * dpr, 0, height - 40 * dpr),
      xAxis: best(60 * dpr, width, height - 30 * dpr, height),
      edgeInk,
    };
  })()`) as Promise<{ yAxis: number; xAxis: number; edgeInk: number }>;

/** The colour a person sees at a point of the host page (from a screenshot, so the frame's paint included). */
async function seenAt(page: Page, x: number, y: number): Promise<string> {
  const png = (await page.screenshot({ clip: { x, y, width: 1, height: 1 } })).toString('base64');
  return (await page.evaluate(`(async () => {
    const img = new Image();
    img.src = 'data:image/png;base64,${png}';
    await img.decode();
    const c = document.createElement('canvas');
    c.width = c.height = 1;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
  })()`)) as string;
}

/** The frame's document is no wider than the frame: nothing scrolls sideways. */
const overflow = (frame: Frame) =>
  frame.evaluate(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  ) as Promise<{ scroll: number; client: number }>;

// Each client mode meets one dialect, so that both dialects are drawn at every width and theme.
for (const [index, [modeName, mode]] of Object.entries(MODES).entries()) {
  const dialect: DialectName = index % 2 === 0 ? 'a' : 'b';
  describe.skipIf(!executablePath)(`views for a ${modeName} client, dialect ${dialect.toUpperCase()}`, () => {
    let client: Client;
    let up: Simulator;
    let html: string;
    let close: () => Promise<void>;
    let board: Result;
    let chart: Result;
    let heat: Result;
    const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => {
      toolCalls.push(params.name);
      return client.callTool(params);
    };
    beforeAll(async () => {
      up = sim.dialect === dialect ? sim : simB;
      ({ client, html, close } = await appsClient(
        'browser-host',
        { STREAMER_ANALYTICS_API_KEY: up.apiKey, STREAMER_ANALYTICS_BASE_URL: up.url },
        mode,
      ));
      [board, chart, heat] = await Promise.all([
        client.callTool({ name: 'investigate_botting', arguments: { mintIds: ids(up, 'platform_a', 150) } }),
        client.callTool({
          name: 'get_streamers_analytics',
          arguments: { mintIds: ids(up, 'platform_a', 8), points: 200 },
        }),
        client.callTool({ name: 'get_activity_heatmap', arguments: {} }),
      ]);
    });
    afterAll(() => close?.());

    it('gets the view data with every result that has a view', () => {
      expect(client.getProtocolEra()).toBe(mode.era === '2025' ? 'legacy' : 'modern');
      expect(viewOf(board).kind).toBe('board');
      expect(viewOf(chart).kind).toBe('series');
      expect(viewOf(heat).kind).toBe('heatmap');
      expect(html).toContain('<html');
      // Points in every series, whatever the dialect names them.
      const series = viewOf(chart).series as Array<{
        t: number[];
        values: Record<string, unknown[]>;
        primary: string;
      }>;
      expect(series).toHaveLength(8);
      for (const s of series) {
        expect(s.t).toHaveLength(200);
        expect(Object.keys(s.values)).toContain(CAP_FIELD[dialect]);
        expect(s.values[s.primary]?.filter((v) => typeof v === 'number')).toHaveLength(200);
      }
    });

    for (const width of [400, 960])
      for (const theme of ['light', 'dark'] as Theme[]) {
        const tag = `${mode.era}-${mode.transport}-${dialect}-${width}-${theme}`;
        const hostBg = HOST_BACKGROUND[theme];

        it(`board at ${width} px, ${theme}: readable, no sideways scroll, short rows, evidence inline under its row`, async () => {
          const page = await openHost(browser, callTool, width);
          try {
            const frame = await mount(page, html, board, theme);
            const worst = await textContrast(frame, hostBg);
            expect(worst.ratio, `lowest contrast: "${worst.text}"`).toBeGreaterThanOrEqual(4.5);
            const o = await overflow(frame);
            expect(o.scroll).toBeLessThanOrEqual(o.client);
            // No background of its own: the host's page shows through the frame's empty corner.
            expect(await frame.evaluate('getComputedStyle(document.body).backgroundColor')).toBe(
              'rgba(0, 0, 0, 0)',
            );
            // (The content's own surface has rounded corners: the frame's very corner is the host's.)
            const corner = await page.locator('iframe').boundingBox();
            expect(await seenAt(page, (corner?.x ?? 0) + 1, (corner?.y ?? 0) + 1)).toBe(hostBg);
            // Every row: name, level, score and viewers inside the frame, none cut; at most 140 px tall.
            const rows =
              (await frame.evaluate(`[...document.querySelectorAll('table.board tbody tr')].map((tr) => {
              const box = (sel) => { const e = tr.querySelector(sel); const r = e.getBoundingClientRect();
                return { right: r.right, width: r.width, cut: e.scrollWidth > e.clientWidth + 1 }; };
              return { height: tr.getBoundingClientRect().height, token: box('td.token'), level: box('td.level'),
                score: box('td.score'), viewers: box('td.viewers'), text: tr.querySelector('td.score').textContent,
                mint: tr.dataset.mint };
            })`)) as Array<{
                height: number;
                mint: string;
                text: string;
                [cell: string]: unknown;
              }>;
            expect(rows.length).toBeGreaterThan(10);
            for (const row of rows) {
              expect(row.height, row.mint).toBeLessThanOrEqual(140);
              for (const cell of ['token', 'level', 'score', 'viewers']) {
                const c = row[cell] as { right: number; width: number; cut: boolean };
                expect(c.width, `${cell} of ${row.mint}`).toBeGreaterThan(0);
                expect(c.right, `${cell} of ${row.mint}`).toBeLessThanOrEqual(width);
                if (cell !== 'token') expect(c.cut, `${cell} of ${row.mint}`).toBe(false);
              }
            }
            // Numbers as the text channel writes them.
            const first = (viewOf(board).rows as Array<{ mintId: string; score: number }>)[0];
            const shownScore = rows.find((r) => r.mint === first?.mintId)?.text ?? '';
            expect(shownScore.replace(/^score\s*/, '')).toBe(num(first?.score));
            // Confidence always with two decimals (0.80 beside 0.96).
            for (const c of await frame.locator('table.board tbody td.confidence').allTextContents())
              expect(c.replace(/^conf\.\s*/, '')).toMatch(/^(\d\.\d\d|—)$/);
            // A live token says so in its row, stacked or not.
            const live = (viewOf(board).rows as Array<{ mintId: string; live: boolean | null }>).filter(
              (r) => r.live && rows.some((x) => x.mint === r.mintId),
            );
            expect(live.length).toBeGreaterThan(0);
            for (const r of live)
              expect(await frame.locator(`tr[data-mint="${r.mintId}"] td.live`).isVisible(), r.mintId).toBe(
                true,
              );
            await shoot(page, `board-${tag}`);

            // Evidence: under the selected row, the row still on screen; back to the list returns to it.
            const row = frame.locator('table.board tbody tr').nth(6);
            await row.locator('button.token').click();
            await frame.waitForSelector('.evidence canvas');
            // The curve has its points (the evidence reads them whatever their names).
            expect(await frame.locator('.evidence').textContent()).toMatch(/Sampled: 200 points/);
            expect(await frame.locator('.evidence').textContent()).not.toContain('No data points');
            const placed = (await frame.evaluate(`(() => {
              const row = document.querySelectorAll('table.board tbody tr')[6];
              const ev = row.nextElementSibling;
              return { isEvidence: ev.classList.contains('evidence-row'), gap: ev.getBoundingClientRect().top - row.getBoundingClientRect().bottom };
            })()`)) as { isEvidence: boolean; gap: number };
            expect(placed.isEvidence).toBe(true);
            expect(Math.abs(placed.gap)).toBeLessThanOrEqual(2);
            const inView = async () => {
              const frameBox = await page.locator('iframe').boundingBox();
              const rowBox = await row.boundingBox();
              const scrollY = Number(await page.evaluate('window.scrollY'));
              // Playwright gives frame boxes in page coordinates: on screen means within the host's viewport.
              return (
                (rowBox?.y ?? -1) >= -1 && (rowBox?.y ?? 9e9) <= 1000 && frameBox !== null && scrollY >= 0
              );
            };
            expect(await inView()).toBe(true);
            const ev = await textContrast(frame, hostBg);
            expect(ev.ratio, `lowest contrast: "${ev.text}"`).toBeGreaterThanOrEqual(4.5);
            // The zone said once, in the header; each start on one line.
            expect(await frame.locator('.evidence table.sessions th').first().textContent()).toBe(
              'Start (UTC)',
            );
            const starts =
              (await frame.evaluate(`[...document.querySelectorAll('.evidence table.sessions tbody td:first-child')]
              .map((td) => ({ text: td.textContent, lines: td.getBoundingClientRect().height / parseFloat(getComputedStyle(td).lineHeight || '0') }))`)) as Array<{
                text: string;
                lines: number;
              }>;
            expect(starts.length).toBeGreaterThan(0);
            for (const s of starts) expect(s.text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
            const heights = (await frame.evaluate(
              `[...document.querySelectorAll('.evidence table.sessions tbody tr')].map((tr) => tr.getBoundingClientRect().height)`,
            )) as number[];
            for (const h of heights) expect(h).toBeLessThanOrEqual(30);
            const pixels = await axisPixels(frame, hostBg, '.evidence canvas');
            expect(pixels.yAxis).toBeGreaterThanOrEqual(4.5);
            expect(pixels.xAxis).toBeGreaterThanOrEqual(4.5);
            const e = await overflow(frame);
            expect(e.scroll).toBeLessThanOrEqual(e.client);
            await shoot(page, `evidence-${tag}`);
            await frame.locator('.evidence button.close').click();
            expect(await frame.locator('.evidence').count()).toBe(0);
            expect(await frame.evaluate('document.activeElement?.closest("tr")?.dataset.mint')).toBe(
              await row.getAttribute('data-mint'),
            );
            expect(await inView()).toBe(true);
          } finally {
            await page.close();
          }
        });

        it(`chart at ${width} px, ${theme}: axes drawn in the theme's colours, labels whole, series by symbol`, async () => {
          const page = await openHost(browser, callTool, width);
          try {
            const frame = await mount(page, html, chart, theme);
            expect(await frame.locator('body').innerText()).not.toContain('No numeric series');
            await frame.locator('select[aria-label="Field"]').selectOption(CAP_FIELD[dialect]);
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
            expect(series.map((s) => s.mintId)).toContain(rich);
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
            const again = await mount(page, html, twin, theme);
            const all = [
              ...(await again.locator('.u-legend .u-label').allTextContents()).slice(1),
              ...(await again.locator('.flat-series span[title]').allTextContents()),
            ];
            const [a, b] = all.filter((l) => l.startsWith(String(twins[0]?.symbol)));
            expect(a).toBeDefined();
            expect(a).not.toBe(b);
            expect(b?.startsWith(String(twins[0]?.symbol))).toBe(true);
          } finally {
            await page.close();
          }
        });

        it(`heatmap at ${width} px, ${theme}: every cell, fitting the panel`, async () => {
          const page = await openHost(browser, callTool, width);
          try {
            const frame = await mount(page, html, heat, theme);
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
          } finally {
            await page.close();
          }
        });
      }
  });
}

describe.skipIf(!executablePath)('a host page whose colours do not match the theme it sends', () => {
  for (const [theme, pageBg] of [
    ['dark', '#ffffff'],
    ['light', '#0b0b0c'],
  ] as Array<[Theme, string]>)
    it(`every view's text reads at 4.5:1 with the ${theme} theme on a ${pageBg} page`, async () => {
      const { client, html, close } = await appsClient('browser-host', {
        STREAMER_ANALYTICS_API_KEY: sim.apiKey,
        STREAMER_ANALYTICS_BASE_URL: sim.url,
      });
      const page = await openHost(browser, (params) => client.callTool(params), 400);
      try {
        const results = await Promise.all([
          client.callTool({
            name: 'investigate_botting',
            arguments: { mintIds: ids(sim, 'platform_a', 30) },
          }),
          client.callTool({
            name: 'get_streamers_analytics',
            arguments: { mintIds: ids(sim, 'platform_a', 4) },
          }),
          client.callTool({ name: 'get_activity_heatmap', arguments: {} }),
        ]);
        for (const result of results) {
          const frame = await mount(page, html, result, theme);
          await page.evaluate(`document.documentElement.style.background = ${JSON.stringify(pageBg)}`);
          if (viewOf(result).kind === 'board') {
            await frame.locator('table.board tbody tr button.token').first().click();
            await frame.waitForSelector('.evidence canvas');
          }
          const worst = await textContrast(frame, pageBg);
          expect(worst.ratio, `${String(viewOf(result).kind)}: "${worst.text}"`).toBeGreaterThanOrEqual(4.5);
          expect(await frame.evaluate('getComputedStyle(document.body).backgroundColor')).toBe(
            'rgba(0, 0, 0, 0)',
          );
          await shoot(page, `mismatch-${theme}-${String(viewOf(result).kind)}`);
        }
      } finally {
        await page.close();
        await close();
      }
    });
});

describe.skipIf(!executablePath)('a heatmap wider than the panel', () => {
  it('scrolls inside its own box, with a visible hint, and the page does not', async () => {
    const { client, html, close } = await appsClient('browser-host', {
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    });
    const page = await openHost(browser, (params) => client.callTool(params), 400);
    try {
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
    } finally {
      await page.close();
      await close();
    }
  });
});

describe.skipIf(!executablePath)('the board, as a person uses it', () => {
  let client: Client;
  let html: string;
  let close: () => Promise<void>;
  let page: Page;
  let board: Frame;
  let result: Result;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => {
    toolCalls.push(params.name);
    return client.callTool(params);
  };
  beforeAll(async () => {
    ({ client, html, close } = await appsClient('browser-host', {
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    }));
    page = await openHost(browser, callTool);
    result = await client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(sim, 'platform_a', 150) },
    });
    board = await mount(page, html, result);
  });
  afterAll(async () => {
    await page?.close();
    await close?.();
  });

  it('has every finding, 50 rows drawn at a time, the rest a click away', async () => {
    const rows = viewOf(result).rows as Array<{ level: string }>;
    const counts = (result.structuredContent as { counts: { analysed: number } }).counts;
    expect(rows).toHaveLength(counts.analysed);
    expect(await board.locator('table.board tbody tr').count()).toBe(50);
    await board.getByRole('button', { name: /^Show all/ }).click();
    expect(await board.locator('table.board tbody tr').count()).toBe(rows.length);
  });

  it('takes a 2,000-finding board by drawing 50 rows of it at a time', async () => {
    const view = viewOf(result) as { rows: Array<{ mintId: string }> };
    const rows = Array.from({ length: 2_000 }, (_, i) => ({
      ...view.rows[i % view.rows.length],
      mintId: `${i}`.padStart(44, 'B'),
    }));
    const big = { ...result, _meta: { [VIEW_DATA_KEY]: { ...view, rows, total: rows.length } } };
    const other = await openHost(browser, callTool, 400);
    try {
      const frame = await mount(other, html, big);
      expect(await frame.locator('table.board tbody tr').count()).toBe(50);
      expect(await frame.locator('p[aria-live]').textContent()).toBe('Showing 50 of 2,000 tokens');
    } finally {
      await other.close();
    }
  });

  it('orders levels by the data (HIGH first, then mean confidence) and styles a level of any name', async () => {
    const view = viewOf(result) as { rows: Array<Record<string, unknown>> };
    // Another upstream's levels, in an order no fixed list gives: NOMINAL and INCONCLUSIVE before ELEVATED.
    const verdicts: Array<[string, number]> = [
      ['NOMINAL', 0.2],
      ['INCONCLUSIVE', 0.05],
      ['ELEVATED', 0.6],
      ['HIGH', 0.9],
    ];
    const rows = verdicts.flatMap(([level, confidence], i) =>
      [0, 1].map((k) => ({
        ...view.rows[(2 * i + k) % view.rows.length],
        level,
        confidence: confidence - k / 100,
      })),
    );
    const custom = { ...result, _meta: { [VIEW_DATA_KEY]: { ...view, rows, total: rows.length } } };
    for (const width of [400, 960])
      for (const theme of ['light', 'dark'] as const) {
        const other = await openHost(browser, callTool, width);
        try {
          const frame = await mount(other, html, custom, theme);
          const order = ['HIGH', 'ELEVATED', 'NOMINAL', 'INCONCLUSIVE'];
          expect(await frame.locator('ul.chips li.level').allTextContents()).toEqual(
            order.map((l) => `${l}: 2`),
          );
          const options = await frame.locator('select[aria-label="Level"] option').allTextContents();
          expect(options.slice(1)).toEqual(order);
          const badges = await frame.locator('table.board tbody td.level span').allTextContents();
          expect(badges).toEqual(order.flatMap((l) => [l, l]));
          // Every badge has a style (no name-based class left unstyled); HIGH alone is marked.
          const styles = (await frame.evaluate(`[...document.querySelectorAll('span.level')].map((e) => [
            e.textContent, e.className, getComputedStyle(e).backgroundColor])`)) as Array<
            [string, string, string]
          >;
          for (const [level, cls, bg] of styles) {
            expect(cls).toBe(level === 'HIGH' ? 'level level-flagged' : 'level level-other');
            expect(bg).not.toBe('rgba(0, 0, 0, 0)');
          }
          expect((await textContrast(frame, HOST_BACKGROUND[theme])).ratio).toBeGreaterThanOrEqual(4.5);
          await shoot(other, `board-levels-${width}-${theme}`);
        } finally {
          await other.close();
        }
      }
  });

  it('sorts by viewers and filters by level, live and search', async () => {
    await board.locator('select[aria-label="Sort by"]').selectOption('viewers');
    const viewers = await board
      .locator('table.board tbody tr td.viewers')
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

  it('selecting a token calls the app-only evidence tool and draws its viewer curve, per period', async () => {
    const before = toolCalls.length;
    await board.locator('table.board tbody tr button.token').first().click();
    await board.waitForSelector('.evidence canvas');
    expect(toolCalls.slice(before)).toEqual(['get_token_evidence']);
    expect(await board.locator('.evidence table.sessions tbody tr').count()).toBeGreaterThan(0);
    await board.locator('.evidence select[aria-label="Period"]').selectOption('7d');
    await board.waitForSelector('.evidence canvas');
    expect(await board.locator('.evidence select[aria-label="Period"]').inputValue()).toBe('7d');
    expect(toolCalls.slice(before)).toEqual(['get_token_evidence', 'get_token_evidence']);
    expect(await board.locator('.evidence').count()).toBe(1);
  });

  it('at 30d asks for the documented 500 points, says the curve is sampled and marks each session peak', async () => {
    const token = (viewOf(result).rows as Array<{ mintId: string }>)[0]?.mintId ?? '';
    const evidence = await client.callTool({
      name: 'get_token_evidence',
      arguments: { mint: token, period: '30d', chain: 'chain_a', platform: 'platform_a' },
    });
    const data = viewOf(evidence) as { series: { series: Array<{ t: number[] }> } };
    expect(data.series.series[0]?.t).toHaveLength(500);
    if (!(await board.locator('.evidence').count())) {
      await board.locator('table.board tbody tr button.token').first().click();
      await board.waitForSelector('.evidence canvas');
    }
    await board.locator('.evidence select[aria-label="Period"]').selectOption('30d');
    await board.waitForSelector('.evidence .sampled');
    expect(await board.locator('.evidence .sampled').textContent()).toMatch(
      /^Sampled: 500 points, one every 86 min; a peak between two points shows only in the sessions table/,
    );
    const labels = await board.locator('.evidence .u-legend .u-label').allTextContents();
    expect(labels).toContain('session peak');
    await shoot(page, 'evidence-30d');
  });

  it('says why tokens failed, grouped by reason, in the summary of the failures', async () => {
    const failures = viewOf(result).failures as Array<{ error: string }>;
    expect(failures.length).toBeGreaterThan(0);
    const counts = new Map<string, number>();
    for (const f of failures) counts.set(f.error, (counts.get(f.error) ?? 0) + 1);
    expect(await board.locator('details > summary').textContent()).toBe(
      `${num(failures.length)} failed: ${[...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([why, c]) => `${why} (${num(c)})`)
        .join('; ')}`,
    );
  });

  it('says so when no token matches the search', async () => {
    await board.locator('input[type="search"]').fill('no-such-token');
    expect(await board.locator('table.board tbody tr').allTextContents()).toEqual([
      'No token matches "no-such-token".',
    ]);
    await board.locator('input[type="search"]').fill('');
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

describe.skipIf(!executablePath)('the views say what the call asked for and what failed', () => {
  let client: Client;
  let html: string;
  let close: () => Promise<void>;
  let page: Page;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params);
  const unknown = (count: number) =>
    Array.from({ length: count }, (_, i) => `Fk${String(i).padStart(4, '9')}${'Z'.repeat(38)}`);
  const shown = (frame: Frame) => frame.locator('p[aria-live]').textContent();
  beforeAll(async () => {
    ({ client, html, close } = await appsClient('browser-host', {
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    }));
    page = await openHost(browser, callTool, 960);
  });
  afterAll(async () => {
    await page?.close();
    await close?.();
  });

  it("opens the board with the call's levels, live filter and order, which the person can clear", async () => {
    const mintIds = ids(sim, 'platform_a', 25);
    const none = await callTool({
      name: 'investigate_botting',
      arguments: { mintIds, levels: ['CRITICAL'] },
    });
    let frame = await mount(page, html, none);
    expect(await frame.locator('select[aria-label="Level"]').inputValue()).toBe('CRITICAL');
    expect(await shown(frame)).toBe('0 of 25 tokens shown');
    await frame.getByRole('button', { name: 'Clear filters' }).click();
    expect(await shown(frame)).toBe('25 of 25 tokens shown');

    const live = await callTool({
      name: 'investigate_botting',
      arguments: { mintIds, sortBy: 'viewers', liveOnly: true },
    });
    const matching = (live.structuredContent as { counts: { matching: number } }).counts.matching;
    expect(matching).toBeGreaterThan(1);
    frame = await mount(page, html, live);
    expect(await frame.locator('#live-only').isChecked()).toBe(true);
    expect(await frame.locator('select[aria-label="Sort by"]').inputValue()).toBe('viewers');
    expect(await shown(frame)).toBe(`${matching} of 25 tokens shown`);
    const viewers = (await frame.locator('td.viewers').allTextContents()).map((t) =>
      Number(t.replace(/\D/g, '')),
    );
    expect(viewers).toEqual([...viewers].sort((a, b) => b - a));
    expect(await frame.locator('th[aria-sort="descending"] .arrow').textContent()).toBe(' ▼');

    const two = await callTool({ name: 'investigate_botting', arguments: { mintIds, levels: ['high'] } });
    frame = await mount(page, html, two);
    expect(await frame.locator('select[aria-label="Level"]').inputValue()).toBe('HIGH');
  });

  it('shows a failed call as an error, with what to change, in every view', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['investigate_botting', { mintIds: ids(sim, 'platform_a', 1), hours: 500 }],
      ['get_streamers_analytics', { mintIds: ids(sim, 'platform_a', 1), points: 5 }],
    ];
    for (const [name, args] of calls) {
      const result = await callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      const frame = await mount(page, html, result);
      const box = frame.locator('.error-box[role="alert"]');
      expect(await box.count()).toBe(1);
      expect(await box.textContent()).toMatch(name === 'investigate_botting' ? /hours: got 500/ : /points/);
      expect(await frame.locator('#root').innerText()).not.toContain('Nothing to show');
      // The machine tag small and dim, never the box's plain text.
      const tag = box.locator('.error-tag');
      expect(await tag.textContent()).toMatch(/^invalid_arguments/);
      expect(await box.locator('p:not(.error-tag)').allTextContents()).not.toContainEqual(
        expect.stringMatching(/\[error:/),
      );
      const size = (await frame.evaluate(
        `[...document.querySelectorAll('.error-box p')].map((p) => parseFloat(getComputedStyle(p).fontSize))`,
      )) as number[];
      expect(Math.min(...size)).toBeLessThan(Math.max(...size));
    }
  });

  it('says a demo failure once: the banner, not a second marker in the error box', async () => {
    const demo = await appsClient('demo-host');
    try {
      const result = await demo.client.callTool({
        name: 'investigate_botting',
        arguments: { mintIds: ids(sim, 'platform_a', 1), hours: 500 },
      });
      expect(result.isError).toBe(true);
      const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
      expect(text).toMatch(/^SIMULATED DATA/);
      const frame = await mount(page, demo.html, result);
      const all = await frame.locator('#root').innerText();
      expect(all.match(/simulated data/gi)).toHaveLength(1);
      expect(await frame.locator('.banner').count()).toBe(1);
      expect(await frame.locator('.error-box').innerText()).not.toMatch(/simulated/i);
    } finally {
      await demo.close();
    }
  });

  it('counts the failures in the header, folds their ids away, and gives the hint when all fail', async () => {
    const mixed = await callTool({
      name: 'investigate_botting',
      arguments: { mintIds: [...ids(sim, 'platform_a', 20), ...unknown(60)] },
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

  it('says one token, not "1 tokens"', async () => {
    const [one] = ids(sim, 'platform_a', 1);
    let frame = await mount(
      page,
      html,
      await callTool({ name: 'investigate_botting', arguments: { mintIds: [one] } }),
    );
    expect(await frame.locator('h1').textContent()).toBe('Botting investigation: 1 token analysed');
    expect(await shown(frame)).toBe('1 of 1 token shown');
    frame = await mount(
      page,
      html,
      await callTool({ name: 'get_streamers_analytics', arguments: { mintIds: [one, unknown(1)[0]] } }),
    );
    expect(await frame.locator('h1').textContent()).toBe('Streamer analytics: 1 token');
    expect(await frame.locator('.failures').textContent()).toMatch(/\(1 token\)/);
  });

  it('has a sortable fees column when the call joined creator fees', async () => {
    const result = await callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(sim, 'platform_a', 25), includeCreatorFees: true, sortBy: 'fees' },
    });
    const frame = await mount(page, html, result);
    expect(await frame.locator('th.fees button').textContent()).toContain('Fees');
    expect(await frame.locator('select[aria-label="Sort by"]').inputValue()).toBe('fees');
    const fees = (await frame.locator('td.fees .native').allTextContents())
      .map((t) => Number(t.replace(/[^\d.]/g, '')))
      .filter((v) => v > 0);
    expect(fees.length).toBeGreaterThan(3);
    expect(fees).toEqual([...fees].sort((a, b) => b - a));
    // The fiat total beside the native amount, as the text's fees column gives it.
    const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
    const structured = result.structuredContent as { columns: string[]; rows: unknown[][] };
    const at = (k: string) => structured.columns.indexOf(k);
    const paid = structured.rows.find((r) => typeof r[at('totalFees')] === 'number') ?? [];
    const fiat = await frame.locator(`tr[data-mint="${paid[at('mintId')]}"] td.fees .fiat`).textContent();
    expect(fiat?.replace(/\u2007|\u2008/g, '')).toBe(
      `${money(paid[at('totalFees')])} ${paid[at('currency')]}`,
    );
    expect(text).toContain(`${money(paid[at('totalFees')])} ${paid[at('currency')]}`);
    // Decimal points aligned: every amount's right edge and its point at one x (tabular figures, padded).
    const points =
      (await frame.evaluate(`[...document.querySelectorAll('td.fees .native')].filter((s) => s.textContent.includes('.')).map((s) => {
      const r = document.createRange(); const t = s.firstChild; const i = t.textContent.indexOf('.');
      r.setStart(t, i); r.setEnd(t, i + 1); return Math.round(r.getBoundingClientRect().left);
    })`)) as number[];
    expect(points.length).toBeGreaterThan(3);
    expect(new Set(points).size).toBe(1);
    // A token without fee data: a dash, explained on hover and under the table.
    const missing = frame.locator('td.fees', { hasText: /^—$/ });
    if ((await missing.count()) > 0) {
      expect(await missing.first().getAttribute('title')).toMatch(/no fee data from the upstream/);
      expect(await frame.locator('p.footnote').last().textContent()).toMatch(
        /^— in the fees column: no fee data/,
      );
    }
  });

  it("names the evidence verdict's window, and Escape closes the panel as soon as it opens", async () => {
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'investigate_botting', arguments: { mintIds: ids(sim, 'platform_a', 25) } }),
    );
    await frame.locator('table.board tbody tr button.token').first().click();
    await frame.waitForSelector('.evidence h3');
    await page.keyboard.press('Escape');
    expect(await frame.locator('.evidence').count()).toBe(0);
    await frame.locator('table.board tbody tr button.token').first().click();
    await frame.locator('.evidence select[aria-label="Period"]').selectOption('30d');
    await frame.waitForSelector('.evidence .split h3 + h3, .evidence .split div + div h3');
    const verdict = await frame.locator('.evidence .split > div:nth-child(2) h3').textContent();
    expect(verdict).toMatch(/^Botting over the last 168 h: /);
    expect(await frame.locator('.evidence .split > div:nth-child(2) p.muted').textContent()).toMatch(
      /^In the list, over the last 24 h: /,
    );
    await page.keyboard.press('Escape');
    expect(await frame.locator('.evidence').count()).toBe(0);
  });

  it("titles analyze_botting's board as the tool does, without columns or filters it has no data for", async () => {
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'analyze_botting', arguments: { mintIds: ids(sim, 'platform_a', 10) } }),
    );
    expect(await frame.locator('h1').textContent()).toMatch(/^Botting analysis: 10 tokens analysed/);
    expect(await frame.locator('th.fees').count()).toBe(0);
    expect(await frame.locator('select[aria-label="Sort by"] option[value="fees"]').count()).toBe(0);
    // Named on chain_a as on chain_b: name, symbol and a short id, with viewers (the view's own lookup).
    const first = await frame.locator('table.board tbody tr').first().getAttribute('data-mint');
    const token = sim.data.byMint.get(first ?? '');
    expect(await frame.locator('table.board tbody tr button.token').first().textContent()).toBe(
      `${token?.coinName}${token?.coinSymbol}${first?.slice(0, 4)}…${first?.slice(-4)}`,
    );
    expect(await frame.locator('th.viewers').count()).toBe(1);
  });

  it('counts tokens botting analysis does not cover apart, as the text does, on both boards', async () => {
    for (const [name, perPlatform] of [
      ['investigate_botting', 4],
      ['analyze_botting', 3],
    ] as const) {
      const mintIds = [...ids(sim, 'platform_b', perPlatform), ...ids(sim, 'platform_c', perPlatform)];
      const result = await callTool({ name, arguments: { mintIds, chain: 'chain_b' } });
      const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
      const said = `${2 * perPlatform} requested, 0 failed`;
      expect(text).toContain(`${perPlatform} not covered (platform_c) (${said}`);
      const frame = await mount(page, html, result);
      expect(await frame.locator('h1 + p').textContent()).toMatch(
        new RegExp(`^${said}; ${perPlatform} not covered \\(platform_c\\); chain_b`),
      );
      expect(await frame.locator('details.failures, p.hint').count(), name).toBe(0);
      expect(await shown(frame)).toBe(`${2 * perPlatform} of ${2 * perPlatform} tokens shown`);
      // Their rows last, greyed, "not covered", with their viewers.
      const rows = frame.locator('table.board tbody tr');
      const off = frame.locator('table.board tbody tr.not-covered');
      expect(await off.count()).toBe(perPlatform);
      expect(await rows.nth(perPlatform).getAttribute('class')).toBe('not-covered');
      expect(await off.locator('td.level').allTextContents()).toEqual(Array(perPlatform).fill('not covered'));
      const live = sim.data.tokens.find(
        (t) => mintIds.includes(t.mintId) && t.platform === 'platform_c' && t.isCurrentlyLive,
      );
      if (live)
        expect(await frame.locator(`tr[data-mint="${live.mintId}"] td.viewers`).textContent()).toBe(
          num(live.currentViewers),
        );
      const colours =
        (await frame.evaluate(`[getComputedStyle(document.querySelector('tr.not-covered td.score')).color,
        getComputedStyle(document.querySelector('p.muted')).color]`)) as string[];
      expect(colours[0]).toBe(colours[1]);
      expect(await frame.locator('.chips').textContent()).toContain(
        `not covered (platform_c): ${perPlatform}`,
      );
    }
  });

  it('tells tokens of one name apart by a short id, in the row and in its label', async () => {
    const byName = new Map<string, string[]>();
    for (const t of sim.data.tokens.filter((x) => x.platform === 'platform_a'))
      byName.set(t.coinName, [...(byName.get(t.coinName) ?? []), t.mintId]);
    const twins = [...byName.values()].find((list) => list.length > 1) ?? [];
    expect(twins.length).toBeGreaterThan(1);
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'investigate_botting', arguments: { mintIds: twins } }),
    );
    const labels = await frame
      .locator('button.token')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    expect(new Set(labels).size).toBe(twins.length);
    for (const id of twins) {
      const short = `${id.slice(0, 4)}…${id.slice(-4)}`;
      expect(await frame.locator(`tr[data-mint="${id}"] button.token .short-id`).textContent()).toBe(short);
      expect(await frame.locator(`tr[data-mint="${id}"] button.token`).getAttribute('aria-label')).toContain(
        short,
      );
    }
  });

  it('shows "Most suspicious" as the descending order it is, its header on one line', async () => {
    const frame = await mount(
      page,
      html,
      await callTool({
        name: 'investigate_botting',
        arguments: { mintIds: ids(sim, 'platform_a', 25), includeCreatorFees: true },
      }),
    );
    expect(await frame.locator('select[aria-label="Sort by"]').inputValue()).toBe('level');
    expect(await frame.locator('th.level').getAttribute('aria-sort')).toBe('descending');
    expect(await frame.locator('th.level .arrow').textContent()).toBe(' ▼');
    expect(await frame.locator('table.board tbody tr td.level').first().textContent()).toBe('HIGH');
    // A click turns it: least suspicious first, said as ascending.
    await frame.locator('th.level button').click();
    expect(await frame.locator('th.level').getAttribute('aria-sort')).toBe('ascending');
    expect(await frame.locator('table.board tbody tr td.level').first().textContent()).not.toBe('HIGH');
    // Every header label on one line, its arrow beside it.
    const lines = (await frame.evaluate(`[...document.querySelectorAll('table.board th')].map((th) => {
      const r = document.createRange(); r.selectNodeContents(th);
      const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.bottom)));
      return { text: th.textContent, lines: tops.size };
    })`)) as Array<{ text: string; lines: number }>;
    for (const l of lines) expect(l.lines, l.text).toBeLessThanOrEqual(1);
  });

  it('keeps every token name apart at 400 px: the name wraps, the symbol is whole, the full name on hover', async () => {
    const narrow = await openHost(browser, callTool, 400);
    try {
      const frame = await mount(
        narrow,
        html,
        await callTool({ name: 'investigate_botting', arguments: { mintIds: ids(sim, 'platform_a', 25) } }),
      );
      const cut = await frame.evaluate(`[...document.querySelectorAll('button.token')].filter((b) => {
        const s = b.querySelector('.symbol'), name = b.querySelector('.name');
        return (s && s.getBoundingClientRect().right > b.getBoundingClientRect().right + 1) ||
          (name && name.scrollWidth > name.clientWidth + 1);
      }).map((b) => b.textContent)`);
      expect(cut).toEqual([]);
      const title = await frame.locator('button.token').first().getAttribute('title');
      const name = await frame.locator('button.token .name').first().textContent();
      expect(title).toContain(name ?? '?');
    } finally {
      await narrow.close();
    }
  });

  it('says a token had no viewers instead of drawing a flat line on a made-up axis', async () => {
    const quiet = sim.data.tokens.find((t) => t.platform === 'platform_a' && t.sessions.length === 0);
    expect(quiet).toBeDefined();
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'investigate_botting', arguments: { mintIds: [quiet?.mintId ?? ''] } }),
    );
    await frame.locator('table.board tbody tr button.token').first().click();
    await frame.waitForSelector('.evidence table.sessions');
    expect(await frame.locator('.evidence .chart').textContent()).toContain('No viewers in this period.');
    expect(await frame.locator('.evidence canvas').count()).toBe(0);
    expect(await frame.locator('.evidence').textContent()).not.toContain('Dots:');
  });

  it('tells 25 series apart: past the palette each series is dashed', async () => {
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'get_streamers_analytics', arguments: { mintIds: ids(sim, 'platform_a', 25) } }),
    );
    const styles = await frame.evaluate(
      "[...document.querySelectorAll('.u-legend .u-series .u-marker')].map((m) => getComputedStyle(m).borderStyle + ' ' + getComputedStyle(m).borderColor)",
    );
    expect(new Set(styles as string[]).size).toBe((styles as string[]).length);
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
