// What the browser tests share: the Chromium they drive (skipped without one, failed under .ci/run's
// REQUIRE_BROWSER), a simulator of each dialect, and the measurements a person's eye makes: contrast from
// computed styles and from drawn pixels, overflow, screenshots (SCREENSHOTS=1, to .screenshots/).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  appsClient,
  type CallTool,
  type ClientMode,
  chromiumPath,
  MODES,
  openHost,
} from '../../scripts/host/harness.js';
import type { DialectName } from '../../src/simulator/dialect.js';
import { type Simulator, startSimulator } from '../../src/simulator/server.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import { SIM_KEY, startSim } from '../helpers.js';

export const SHOTS = fileURLToPath(new URL('../../.screenshots/', import.meta.url));
export const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';
export const executablePath = chromiumPath();
// .ci/run sets REQUIRE_BROWSER: there, a missing browser fails instead of skipping.
if (!executablePath && process.env.REQUIRE_BROWSER)
  throw new Error('REQUIRE_BROWSER is set, but no Chromium is installed');
if (!executablePath) {
  console.log(
    'Browser tests skipped: no Chromium. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run does.',
  );
}

export type Theme = 'light' | 'dark';
export type Result = Awaited<ReturnType<Client['callTool']>>;
type Call = (params: { name: string; arguments?: Record<string, unknown> }) => Promise<Result>;

/** An MCP Apps client of the built server, the view page it serves, and its tool calls recorded. */
export interface Apps {
  client: Client;
  html: string;
  /** Calls a tool through `client`, its name added to the file's `toolCalls` (what a view called). */
  callTool: Call;
}

/** What a test file's browser setup gives: both dialects' simulators, the browser, the tools the views called. */
export interface BrowserEnv {
  sim: Simulator;
  /** The same data named the other way (src/simulator/dialect.ts): each client mode meets one dialect. */
  simB: Simulator;
  browser: Browser;
  toolCalls: string[];
  /** A token worth 16,000,000: its market-cap axis labels are the widest the charts draw here. */
  rich: string;
  /**
   * The file's spare host page, for a test that wants a page of its own: sized to `width`, answering with
   * `callTool`, holding no earlier view. (A new page and its host cost seconds on a loaded machine: a file
   * has these two and no other.)
   */
  host(callTool: CallTool, width?: number): Promise<Page>;
  /** The file's second spare page, as `host`: for a block that keeps a view mounted while it uses `host`. */
  page(callTool: CallTool, width?: number): Promise<Page>;
  /**
   * The file's one server for the default client (2026-07-28 over stdio) on `sim`, started at its first use
   * and closed after the file: a spawned server costs a second or more of a loaded machine's CPU, and the
   * describe blocks of a file ask nothing of it that another block would see.
   */
  apps(): Promise<Apps>;
}

/**
 * Starts a simulator of each dialect and Chromium for the file (closed after it). A coin whose name is
 * markup (the view must show it as text) and a rich token are planted in both.
 */
export function useBrowser(): BrowserEnv {
  const env = { toolCalls: [] as string[] } as unknown as BrowserEnv;
  // Two pages, opened at their first use: a block may keep a view on the second while its tests use host().
  const spares: Array<{ page?: Promise<Page>; answer?: CallTool }> = [{}, {}];
  const spare = async (i: number, callTool: CallTool, width: number) => {
    const s = spares[i] as { page?: Promise<Page>; answer?: CallTool };
    s.answer = callTool;
    s.page ??= openHost(env.browser, (params) => (s.answer as CallTool)(params));
    const page = await s.page;
    await page.setViewportSize({ width, height: 1000 });
    await page.evaluate(`for (const f of document.querySelectorAll('iframe')) f.remove(); scrollTo(0, 0);`);
    return page;
  };
  env.host = (callTool, width = 1000) => spare(0, callTool, width);
  env.page = (callTool, width = 1000) => spare(1, callTool, width);
  let shared: Promise<Awaited<ReturnType<typeof appsClient>>> | undefined;
  env.apps = async () => {
    shared ??= appsClient('browser-host', {
      STREAMER_ANALYTICS_API_KEY: env.sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: env.sim.url,
    });
    const { client, html } = await shared;
    return { client, html, callTool: recorded(env, client) };
  };
  beforeAll(async () => {
    if (!executablePath) return;
    env.sim = await startSim();
    env.simB = await startSimulator({ apiKey: SIM_KEY, dialect: env.sim.dialect === 'b' ? 'a' : 'b' });
    for (const s of [env.sim, env.simB]) {
      const victim = s.data.tokens.find((t) => t.platform === 'platform_a' && t.botting);
      if (victim) victim.coinName = HOSTILE;
      const big = s.data.tokens.filter((t) => t.platform === 'platform_a')[2];
      if (big) {
        big.tokenMarketCap = 16_000_000;
        env.rich = big.mintId;
      }
    }
    env.browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await (await shared)?.close();
    await env.browser?.close();
    await env.sim?.close();
    await env.simB?.close();
  });
  return env;
}

const recorded =
  (env: BrowserEnv, client: Client): Call =>
  (params) => {
    env.toolCalls.push(params.name);
    return client.callTool(params);
  };

/** What a view's block for one client mode has, once its `beforeAll` has run. */
export interface ModeApps extends Apps {
  mode: ClientMode;
  /** The dialect this mode meets (each client mode meets one, so that both are drawn at every width). */
  dialect: DialectName;
  /** The simulator of that dialect. */
  up: Simulator;
}

/**
 * One describe block per client mode (scripts/host/harness.ts MODES), each meeting one dialect, with
 * a client of that mode on that dialect's simulator: the first mode's is the file's `env.apps()` when the
 * dialect is the file's simulator's, the other's a server of its own, closed after the block. `body`
 * registers the block's tests and hooks; `m` is filled before they run.
 */
export function describeViews(env: BrowserEnv, view: string, body: (m: ModeApps) => void) {
  for (const [index, [modeName, mode]] of Object.entries(MODES).entries()) {
    const dialect: DialectName = index % 2 === 0 ? 'a' : 'b';
    describe.skipIf(!executablePath)(
      `${view} for a ${modeName} client, dialect ${dialect.toUpperCase()}`,
      () => {
        const m = { mode, dialect } as ModeApps;
        let close: (() => Promise<void>) | undefined;
        beforeAll(async () => {
          m.up = env.sim.dialect === dialect ? env.sim : env.simB;
          const isDefault = mode.era === '2026-07-28' && mode.transport === 'stdio';
          if (isDefault && m.up === env.sim) Object.assign(m, await env.apps());
          else {
            const own = await appsClient(
              'browser-host',
              { STREAMER_ANALYTICS_API_KEY: m.up.apiKey, STREAMER_ANALYTICS_BASE_URL: m.up.url },
              mode,
            );
            close = own.close;
            Object.assign(m, { client: own.client, html: own.html, callTool: recorded(env, own.client) });
          }
        });
        afterAll(() => close?.());
        body(m);
      },
    );
  }
}

/** The market-cap field of each dialect's analytics points (the document does not name it). */
export const CAP_FIELD: Record<DialectName, string> = { a: 'marketCap', b: 'cap_usd' };

export const viewOf = (result: unknown) =>
  ((result as { _meta?: Record<string, unknown> })._meta?.[VIEW_DATA_KEY] ?? {}) as Record<string, unknown>;
/**
 * A screenshot of the whole host page. Chromium's full-page capture can miss a sandboxed frame's paint, so
 * the viewport is made as tall as the page for the shot (and restored after).
 */
export async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  const size = page.viewportSize() ?? { width: 960, height: 1000 };
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  await page.setViewportSize({ width: size.width, height: Math.min(height, 8000) });
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}${name}.png` });
  await page.setViewportSize(size);
}

// Page code as text: this file is typed for Node, without the DOM.
export const COLOR_FNS = `
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
export const textContrast = (frame: Frame, hostBg: string) =>
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
export const axisPixels = (frame: Frame, hostBg: string, selector: string) =>
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
export async function seenAt(page: Page, x: number, y: number): Promise<string> {
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
export const overflow = (frame: Frame) =>
  frame.evaluate(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  ) as Promise<{ scroll: number; client: number }>;
