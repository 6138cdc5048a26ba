// `npm run preview [-- --port 4173]`: every MCP Apps view over the simulator, in a plain browser, without
// an MCP client. The built server runs in demo mode over stdio; a page on 127.0.0.1 hosts the views (the
// same AppBridge host as the browser tests) and passes their tool calls to the server. The theme is the
// browser's (prefers-color-scheme) unless the address says `?theme=dark` or `?theme=light`; `?width=400`
// shows the views in a panel that narrow. `npm run preview -- --shots docs` writes the README's screenshots
// instead (headless Chromium) and exits.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createDataset } from '../src/simulator/data.js';
import { appsClient, chromiumPath, hostPage, mount, openHost } from './host/harness.js';

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
};
if (values.shots) {
  await screenshots(values.shots);
  await client.close();
  process.exit(0);
}

/** The README's screenshots: each view as a person sees it, wide and narrow, light and dark. */
async function screenshots(dir: string) {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const shots: Array<[string, keyof typeof results, number, 'light' | 'dark', number, boolean?]> = [
    ['view-board.png', 'Investigation board', 960, 'light', 720],
    ['view-board-narrow-dark.png', 'Investigation board', 400, 'dark', 900],
    ['view-evidence.png', 'Investigation board', 960, 'dark', 1000, true],
    ['view-evidence-narrow.png', 'Investigation board', 400, 'light', 1300, true],
    ['view-analytics.png', 'Analytics chart', 960, 'dark', 620],
    ['view-heatmap-narrow.png', 'Heatmap', 400, 'light', 420],
  ];
  for (const [file, view, width, theme, height, evidence] of shots) {
    const page = await openHost(browser, (params) => client.callTool(params), width);
    const frame = await mount(page, html, results[view], theme);
    if (evidence) {
      await frame.locator('table.board tbody tr button.token').nth(2).click();
      await frame.waitForSelector('.evidence canvas');
    }
    const top = evidence
      ? Math.round(
          await frame.evaluate(
            `document.querySelectorAll('table.board tbody tr')[1].getBoundingClientRect().top`,
          ),
        )
      : 0;
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
