// `npm run preview [-- --port 4173]`: every MCP Apps view over the simulator, in a plain browser, without
// an MCP client. The built server runs in demo mode over stdio; a page on 127.0.0.1 hosts the views (the
// same AppBridge host as the browser tests) and passes their tool calls to the server. The theme is the
// browser's (prefers-color-scheme) unless the address says `?theme=dark` or `?theme=light`; `?width=400`
// shows the views in a panel that narrow. `npm run preview -- --shots docs` writes the docs' screenshots
// (scripts/shots.ts) instead (headless Chromium) and exits.
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createDataset } from '../src/simulator/data.js';
import { appsClient, chromiumPath, hostPage, mount, openHost } from './host/harness.js';
import { SHOTS, type ShotView } from './shots.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '4173' }, shots: { type: 'string' } },
});

const { client, html } = await appsClient('preview');
const onA = createDataset()
  .tokens.filter((t) => t.chain === 'chain_a' && t.platform === 'platform_a')
  .map((t) => t.mintId);
const results = {
  'Investigation board': await client.callTool({
    name: 'investigate_botting',
    arguments: { mintIds: onA.slice(0, 150) },
  }),
  'Analytics chart': await client.callTool({
    name: 'get_streamers_analytics',
    arguments: { mintIds: onA.slice(0, 8), points: 200 },
  }),
  Heatmap: await client.callTool({ name: 'get_activity_heatmap', arguments: {} }),
  // Ids the service does not know: the board has nothing but its failures.
  'Failures only': await client.callTool({
    name: 'investigate_botting',
    arguments: {
      mintIds: ['UnknownMint1111111111111111111111111111111', 'UnknownMint2111111111111111111111111111111'],
    },
  }),
};
if (values.shots) {
  await screenshots(values.shots);
  await client.close();
  process.exit(0);
}

/** The docs' screenshots (scripts/shots.ts): every view as a person sees it, 400 and 960 px, light and dark. */
async function screenshots(dir: string) {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
  mkdirSync(dir, { recursive: true });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const source: Record<ShotView, keyof typeof results> = {
    board: 'Investigation board',
    evidence: 'Investigation board',
    failures: 'Failures only',
    chart: 'Analytics chart',
    heatmap: 'Heatmap',
  };
  for (const { file, view, width, theme } of SHOTS) {
    const page = await openHost(browser, (params) => client.callTool(params), width);
    const frame = await mount(page, html, results[source[view]], theme);
    if (view === 'evidence') {
      await frame.locator('table.board tbody tr button.token').nth(2).click();
      await frame.waitForSelector('.evidence canvas');
    }
    const top =
      view === 'evidence'
        ? Math.round(
            await frame.evaluate(
              `document.querySelectorAll('table.board tbody tr')[1].getBoundingClientRect().top`,
            ),
          )
        : 0;
    const full = Math.ceil(Number(await frame.evaluate('document.documentElement.scrollHeight')));
    const height = Math.min(full - top, view === 'evidence' ? (width < 640 ? 1300 : 1000) : 1100);
    // Taller than the shot, so that the frame is painted whole (Chromium's capture of a sandboxed frame).
    await page.setViewportSize({ width, height: top + height + 200 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(dir, file), clip: { x: 0, y: top, width, height } });
    await page.close();
    console.log(`${join(dir, file)}: ${width} px, ${theme}`);
  }
  await browser.close();
}

// The host page, then a script that mounts each view under its heading and routes tool calls here.
const page = (await hostPage()).replace(
  '</body>',
  () => `<script type="module">
const views = ${JSON.stringify({ html, results }).replaceAll('<', '\\u003c')};
window.hostCallTool = (params) =>
  fetch('/call', { method: 'POST', body: JSON.stringify(params) }).then((r) => r.json());
const query = new URLSearchParams(location.search);
const theme = ['dark', 'light'].includes(query.get('theme'))
  ? query.get('theme')
  : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
const width = Number(query.get('width')) || 0;
if (width) document.body.style.cssText = \`max-width: \${width}px; margin: 0 auto;\`;
while (typeof window.mountView !== 'function') await new Promise((r) => setTimeout(r, 10));
for (const [title, result] of Object.entries(views.results)) {
  const section = document.createElement('section');
  const h = document.createElement('h2');
  h.textContent = title;
  h.style.cssText = 'font: 600 16px system-ui; margin: 16px 12px 4px; color: inherit;';
  section.append(h);
  document.body.append(section);
  await window.mountView(views.html, result, theme, section);
}
</script></body>`,
);

createServer(async (req, res) => {
  if (req.method === 'POST' && req.url === '/call') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const result = await client.callTool(JSON.parse(body)).catch((e: Error) => ({
      isError: true,
      content: [{ type: 'text', text: e.message }],
    }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
}).listen(Number(values.port), '127.0.0.1', () => {
  console.log(`Views over the simulator at http://127.0.0.1:${values.port}/ (Ctrl-C to stop)`);
});
