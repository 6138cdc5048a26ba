// `npm run preview [-- --port 4173]`: every MCP Apps view over the simulator, in a plain browser, without
// an MCP client. The built server runs in demo mode over stdio; a page on 127.0.0.1 hosts the views (the
// same AppBridge host as the browser tests) and passes their tool calls to the server.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createDataset } from '../src/simulator/data.js';
import { appsClient, hostPage } from './host/harness.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4173' } } });

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
// The host page, then a script that mounts each view under its heading and routes tool calls here.
const page = (await hostPage()).replace(
  '</body>',
  () => `<script type="module">
const views = ${JSON.stringify({ html, results }).replaceAll('<', '\\u003c')};
window.hostCallTool = (params) =>
  fetch('/call', { method: 'POST', body: JSON.stringify(params) }).then((r) => r.json());
const dark = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
while (typeof window.mountView !== 'function') await new Promise((r) => setTimeout(r, 10));
for (const [title, result] of Object.entries(views.results)) {
  const section = document.createElement('section');
  const h = document.createElement('h2');
  h.textContent = title;
  h.style.cssText = 'font: 600 16px system-ui; margin: 16px 12px 4px;';
  section.append(h);
  document.body.append(section);
  await window.mountView(views.html, result, dark, section);
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
