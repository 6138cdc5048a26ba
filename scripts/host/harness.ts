// Drives the MCP Apps views in a real Chromium (Debian's `chromium`, through playwright-core: no browser
// download): the test host page (host.ts, bundled here) renders a view from the real server's result.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { Browser, Frame, Page } from 'playwright-core';
import { VIEW_URI } from '../../src/views.js';
import { SERVER_ENTRY, startHttpServer } from '../http-server.js';
import { englishOnly, inlineScript } from '../view.js';

// From the sources (tests) or from dist/scripts (npm run preview, the bench).
const root = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../..' : '../..', import.meta.url),
);

/** What a client that renders MCP Apps views declares. */
export const APPS_CAPABILITIES = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

/** How a client reaches the server: its protocol era and the transport. */
export interface ClientMode {
  /** 2026-07-28: capabilities on every request; 2025: declared once, at initialize (the SDK's default). */
  era: '2025' | '2026-07-28';
  transport: 'stdio' | 'http';
}
export const MODES: Record<string, ClientMode> = {
  '2026-07-28 over stdio': { era: '2026-07-28', transport: 'stdio' },
  '2025 over --http': { era: '2025', transport: 'http' },
};

/**
 * An MCP Apps client of the built server (in demo mode unless `env` points it at an upstream), over stdio
 * or over `--http` on a free loopback port, in either protocol era; and the view page it serves.
 */
export async function appsClient(
  name: string,
  env?: Record<string, string>,
  mode: ClientMode = { era: '2026-07-28', transport: 'stdio' },
) {
  const client = new Client(
    { name, version: '1.0.0' },
    {
      capabilities: APPS_CAPABILITIES,
      ...(mode.era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
    },
  );
  const flags = env ? [] : ['--demo'];
  const childEnv = env ? { PATH: process.env.PATH ?? '', ...env } : undefined;
  let stop = async () => {};
  if (mode.transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SERVER_ENTRY, ...flags],
        ...(childEnv ? { env: childEnv } : {}),
      }),
    );
  } else {
    const server = await startHttpServer({ args: flags, env: childEnv ?? process.env });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    stop = () => server.stop();
  }
  const [page] = (await client.readResource({ uri: VIEW_URI })).contents as Array<{ text?: string }>;
  const close = async () => {
    await client.close();
    await stop();
  };
  return { client, html: page?.text ?? '', close };
}

/** The Chromium to drive: CHROMIUM_PATH, or Debian's; undefined when there is none. */
export function chromiumPath(): string | undefined {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && existsSync(p),
  );
}

let hostHtml: string | undefined;
/** The host page: the bundled AppBridge host, and nothing else. */
export async function hostPage(): Promise<string> {
  if (hostHtml) return hostHtml;
  // Minified and English only, as the view is: half the bytes for Chromium to parse on every page.
  const script = await inlineScript(join(root, 'scripts/host/host.ts'), {
    minify: true,
    plugins: [englishOnly],
  });
  hostHtml = `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body style="margin:0"><script type="module">${script}</script></body></html>`;
  return hostHtml;
}

/** What host.ts puts on the page's window. */
interface HostWindow {
  mountView(html: string, result: unknown, theme: 'light' | 'dark'): Promise<void>;
}

export type CallTool = (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>;

/** Opens a host page that answers the view's tool calls with `callTool`; returns the page. */
export async function openHost(browser: Browser, callTool: CallTool, width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  await page.exposeFunction('hostCallTool', callTool);
  await page.setContent(await hostPage());
  await page.waitForFunction(() => typeof (globalThis as unknown as HostWindow).mountView === 'function');
  return page;
}

/** Renders a view from `result` and returns its frame once the view says it is drawn. */
export async function mount(
  page: Page,
  html: string,
  result: unknown,
  theme: 'light' | 'dark' = 'light',
): Promise<Frame> {
  const before = new Set(page.frames());
  await page.evaluate(([h, r, t]) => (globalThis as unknown as HostWindow).mountView(h, r, t), [
    html,
    result,
    theme,
  ] as const);
  const frame = page.frames().find((f) => !before.has(f));
  if (!frame) throw new Error('the view did not open a frame');
  await frame.waitForSelector('body[data-ready]');
  return frame;
}
