// The MCP Apps views in headless Chromium (when there is one): how long a 500- and a 2,000-token board take to render,
// and whether 25 series × 500 points draw and follow the pointer without jank.
import { chromium, type Page } from 'playwright-core';
import { appsClient, chromiumPath, mount, openHost } from '../scripts/host/harness.js';
import { VIEW_DATA_KEY } from '../src/views.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const round = (n: number) => Math.round(n * 10) / 10;

export async function viewsBench(mints: string[]) {
  const executablePath = chromiumPath();
  if (!executablePath) return { skipped: 'no Chromium (apt-get install -y chromium)' };
  const { client, html } = await appsClient('bench');
  const board = await client.callTool({
    name: 'investigate_botting',
    arguments: { mintIds: mints.slice(0, 150) },
  });
  // 500 and 2,000 findings: the simulator's, repeated under new ids (it holds fewer tokens than that).
  const view = (board._meta as Record<string, { rows: Array<{ mintId: string }> }>)[VIEW_DATA_KEY];
  const base = view?.rows ?? [];
  const boardOf = (count: number) => {
    const rows = Array.from({ length: count }, (_, i) => ({
      ...base[i % base.length],
      mintId: `${i}`.padStart(44, 'B'),
    }));
    return { ...board, _meta: { [VIEW_DATA_KEY]: { ...view, rows, total: count } } };
  };
  const series = await client.callTool({
    name: 'get_streamers_analytics',
    arguments: { mintIds: mints.slice(0, 25), points: 500 },
  });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const call = (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params);
  /** Result handed to the loaded view → drawn and painted, in ms, timed in the browser. */
  const renderMs = async (result: unknown) => {
    const host = await openHost(browser, call);
    const frame = await mount(host, html, result);
    await frame.waitForSelector('body[data-painted-at]');
    const painted = Number(await frame.evaluate('document.body.dataset.paintedAt'));
    const ms = painted - Number(await host.evaluate('window.resultSentAt'));
    const own = Number(await frame.evaluate('document.body.dataset.renderMs'));
    return { ms, own, host, frame };
  };
  const boardRuns = async (count: number) => {
    const result = boardOf(count);
    const ms: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < 5; i++) {
      const run = await renderMs(result);
      ms.push(run.ms);
      own.push(run.own);
      await run.host.close();
    }
    return { ms: round(median(ms)), own: round(median(own)) };
  };
  const board500 = await boardRuns(500);
  const board2000 = await boardRuns(2_000);
  const chartMs: number[] = [];
  const chartOwn: number[] = [];
  let sweep = { frames: 0, worstFrameMs: 0, longTasks: 0 };
  for (let i = 0; i < 5; i++) {
    const { ms, own, host, frame } = await renderMs(series);
    chartMs.push(ms);
    chartOwn.push(own);
    if (i === 4) sweep = await pointerSweep(host, frame);
    await host.close();
  }
  await browser.close();
  await client.close();
  return {
    board500RenderMs: board500.ms,
    /** Of which the view's own drawing code (the rest: the message, layout and paint). */
    board500DrawMs: board500.own,
    board2000RenderMs: board2000.ms,
    board2000DrawMs: board2000.own,
    /** The view page's size (bytes of the resource's text). */
    pageBytes: Buffer.byteLength(html),
    chart25x500RenderMs: round(median(chartMs)),
    chart25x500DrawMs: round(median(chartOwn)),
    chartPointerSweep: sweep,
  };
}

/** Moves the pointer across the chart for a second: frames drawn, the longest frame, tasks over 50 ms. */
async function pointerSweep(page: Page, frame: Awaited<ReturnType<typeof mount>>) {
  await frame.evaluate(`(() => {
    window.__frames = []; window.__long = 0;
    new PerformanceObserver((l) => { window.__long += l.getEntries().length; }).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__frames.length < 1000) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  const box = await page.locator('iframe').boundingBox();
  if (box) {
    for (let x = 0; x < 60; x++) {
      await page.mouse.move(box.x + 80 + x * 12, box.y + 250);
      await page.waitForTimeout(16);
    }
  }
  const { frames, long } = (await frame.evaluate('({ frames: window.__frames, long: window.__long })')) as {
    frames: number[];
    long: number;
  };
  return { frames: frames.length, worstFrameMs: round(Math.max(...frames.slice(1))), longTasks: long };
}

// `node dist/bench/views.js`: this part of the bench alone, over the demo data, as JSON.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/dist\//, '/dist/'))) {
  const { createDataset } = await import('../src/simulator/data.js');
  const mints = createDataset()
    .tokens.filter((t) => t.chain === 'chain_a')
    .map((t) => t.mintId);
  console.log(JSON.stringify(await viewsBench(mints), null, 2));
}
