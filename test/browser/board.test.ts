// The botting board in a real Chromium, from the real built server's results (test/browser/helpers.ts: a host on the
// App SDK's AppBridge renders each view in a sandboxed iframe and answers its app-only tool calls through
// the server). Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsClient, mount } from '../../scripts/host/harness.js';
import { HOST_BACKGROUND } from '../../scripts/host/theme.js';
import { type Finding, flagging, levelEntries, levelStats, rankFindings } from '../../src/format/botting.js';
import { money, num } from '../../src/format/text.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import { ids } from '../helpers.js';
import {
  axisPixels,
  describeViews,
  executablePath,
  HOSTILE,
  overflow,
  type Result,
  seenAt,
  shoot,
  type Theme,
  textContrast,
  useBrowser,
  viewOf,
} from './helpers.js';

const env = useBrowser();

// Each client mode meets one dialect, so that both dialects are drawn at every width and theme.
describeViews(env, 'board', (m) => {
  let board: Result;
  beforeAll(async () => {
    board = await m.client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(m.up, 'platform_a', 150) },
    });
  });

  it('gets the view data with the result', () => {
    expect(m.client.getProtocolEra()).toBe(m.mode.era === '2025' ? 'legacy' : 'modern');
    expect(m.html).toContain('<html');
    expect(viewOf(board).kind).toBe('board');
  });

  for (const width of [400, 960])
    for (const theme of ['light', 'dark'] as Theme[]) {
      const tag = `${m.mode.era}-${m.mode.transport}-${m.dialect}-${width}-${theme}`;
      const hostBg = HOST_BACKGROUND[theme];

      it(`board at ${width} px, ${theme}: readable, no sideways scroll, short rows, evidence inline under its row`, async () => {
        const page = await env.host(m.callTool, width);
        const frame = await mount(page, m.html, board, theme);
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
          expect(await frame.locator(`tr[data-mint="${r.mintId}"] td.live`).isVisible(), r.mintId).toBe(true);
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
          return (rowBox?.y ?? -1) >= -1 && (rowBox?.y ?? 9e9) <= 1000 && frameBox !== null && scrollY >= 0;
        };
        expect(await inView()).toBe(true);
        const ev = await textContrast(frame, hostBg);
        expect(ev.ratio, `lowest contrast: "${ev.text}"`).toBeGreaterThanOrEqual(4.5);
        // The zone said once, in the header; each start on one line.
        expect(await frame.locator('.evidence table.sessions th').first().textContent()).toBe('Start (UTC)');
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
      });
    }
});

describe.skipIf(!executablePath)('a host page whose colours do not match the theme it sends', () => {
  let client: Client;
  let html: string;
  let results: Result[];
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    results = await Promise.all([
      client.callTool({
        name: 'investigate_botting',
        arguments: { mintIds: ids(env.sim, 'platform_a', 30) },
      }),
      client.callTool({
        name: 'get_streamers_analytics',
        arguments: { mintIds: ids(env.sim, 'platform_a', 4) },
      }),
      client.callTool({ name: 'get_activity_heatmap', arguments: {} }),
    ]);
  });

  for (const [theme, pageBg] of [
    ['dark', '#ffffff'],
    ['light', '#0b0b0c'],
  ] as Array<[Theme, string]>)
    it(`every view's text reads at 4.5:1 with the ${theme} theme on a ${pageBg} page`, async () => {
      const page = await env.host((params) => client.callTool(params), 400);
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
    });
});
describe.skipIf(!executablePath)('the board, as a person uses it', () => {
  let client: Client;
  let html: string;
  let page: Page;
  let board: Frame;
  let result: Result;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => {
    env.toolCalls.push(params.name);
    return client.callTool(params);
  };
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    page = await env.page(callTool);
    result = await client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(env.sim, 'platform_a', 150) },
    });
    board = await mount(page, html, result);
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
    const other = await env.host(callTool, 400);
    const frame = await mount(other, html, big);
    expect(await frame.locator('table.board tbody tr').count()).toBe(50);
    expect(await frame.locator('p[aria-live]').textContent()).toBe('Showing 50 of 2,000 tokens');
  });

  // The level order and the flagged levels are the server's report (src/format/botting.ts, the rule the text
  // and structuredContent follow): the board is handed them with the rows and draws them as they are.
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
    const findings = rows.map((r) => ({ ...r, covered: true }) as unknown as Finding);
    const levels = levelEntries(levelStats(rankFindings(findings)), flagging(findings));
    const custom = { ...result, _meta: { [VIEW_DATA_KEY]: { ...view, rows, levels, total: rows.length } } };
    for (const width of [400, 960])
      for (const theme of ['light', 'dark'] as const) {
        const other = await env.host(callTool, width);
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
      }
    // Four mounts: over 20 s on a machine at load 24.
  }, 60_000);

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
    await board.locator('input[type="search"]').fill(ids(env.sim, 'platform_a', 150)[3]?.slice(0, 12) ?? '');
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

  it('says so when no token matches the search', async () => {
    await board.locator('input[type="search"]').fill('no-such-token');
    expect(await board.locator('table.board tbody tr').allTextContents()).toEqual([
      'No token matches "no-such-token".',
    ]);
    await board.locator('input[type="search"]').fill('');
  });
});

describe.skipIf(!executablePath)('the board says what the call asked for', () => {
  let client: Client;
  let html: string;
  let page: Page;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params);
  const unknown = (count: number) =>
    Array.from({ length: count }, (_, i) => `Fk${String(i).padStart(4, '9')}${'Z'.repeat(38)}`);
  const shown = (frame: Frame) => frame.locator('p[aria-live]').textContent();
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    page = await env.page(callTool, 960);
  });

  it("opens the board with the call's levels, live filter and order, which the person can clear", async () => {
    const mintIds = ids(env.sim, 'platform_a', 25);
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
      ['investigate_botting', { mintIds: ids(env.sim, 'platform_a', 1), hours: 500 }],
      ['get_streamers_analytics', { mintIds: ids(env.sim, 'platform_a', 1), points: 5 }],
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
        arguments: { mintIds: ids(env.sim, 'platform_a', 1), hours: 500 },
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

  it('says one token, not "1 tokens"', async () => {
    const [one] = ids(env.sim, 'platform_a', 1);
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
      arguments: { mintIds: ids(env.sim, 'platform_a', 25), includeCreatorFees: true, sortBy: 'fees' },
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

  it("titles analyze_botting's board as the tool does, without columns or filters it has no data for", async () => {
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'analyze_botting', arguments: { mintIds: ids(env.sim, 'platform_a', 10) } }),
    );
    expect(await frame.locator('h1').textContent()).toMatch(/^Botting analysis: 10 tokens analysed/);
    expect(await frame.locator('th.fees').count()).toBe(0);
    expect(await frame.locator('select[aria-label="Sort by"] option[value="fees"]').count()).toBe(0);
    // Named on chain_a as on chain_b: name, symbol and a short id, with viewers (the view's own lookup).
    const first = await frame.locator('table.board tbody tr').first().getAttribute('data-mint');
    const token = env.sim.data.byMint.get(first ?? '');
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
      const mintIds = [
        ...ids(env.sim, 'platform_b', perPlatform),
        ...ids(env.sim, 'platform_c', perPlatform),
      ];
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
      const live = env.sim.data.tokens.find(
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
    for (const t of env.sim.data.tokens.filter((x) => x.platform === 'platform_a'))
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
        arguments: { mintIds: ids(env.sim, 'platform_a', 25), includeCreatorFees: true },
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
    const narrow = await env.host(callTool, 400);
    const frame = await mount(
      narrow,
      html,
      await callTool({
        name: 'investigate_botting',
        arguments: { mintIds: ids(env.sim, 'platform_a', 25) },
      }),
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
  });
});

// An upstream whose levels include one above HIGH (CRITICAL, with a higher mean confidence): the report
// flags both and orders them by mean confidence; the text, structuredContent and the board drawn in
// Chromium must say the same levels, in the same order, with the same counts.
// (The file's last block: it may change the simulator's data for itself.)
describe.skipIf(!executablePath)('levels above HIGH, in every channel and on the board', () => {
  let client: Client;
  let html: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    if (!executablePath) return;
    const asked = ids(env.sim, 'platform_a', 50);
    const high = env.sim.data.tokens.filter(
      (t) => asked.includes(t.mintId) && t.botting?.confidenceLevel === 'HIGH',
    );
    if (high.length < 3) throw new Error('the simulator gave fewer than 3 HIGH tokens among 50');
    for (const t of high.slice(0, 2))
      if (t.botting) t.botting = { ...t.botting, confidenceLevel: 'CRITICAL', confidence: 0.99, score: 99 };
    // A server of its own, not env.apps(): one that kept an investigation of these tokens from before the
    // change would answer with the levels they had.
    ({ client, html, close } = await appsClient('browser-host', {
      STREAMER_ANALYTICS_API_KEY: env.sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: env.sim.url,
    }));
  });
  afterAll(() => close?.());

  for (const tool of ['analyze_botting', 'investigate_botting'])
    it(`${tool}: the text, structuredContent and the board flag CRITICAL and HIGH, in that order, with the same counts`, async () => {
      const result = await client.callTool({
        name: tool,
        arguments: { mintIds: ids(env.sim, 'platform_a', 50) },
      });
      const text = String((result.content as Array<{ text: string }>)[0]?.text);
      const counts = (result.structuredContent as { counts: Record<string, unknown> }).counts as {
        byLevel: Record<string, number>;
        flaggedLevels: string[];
        flagged: number;
      };
      // structuredContent: the levels by mean confidence, CRITICAL first; CRITICAL and HIGH flagged.
      expect(counts.flaggedLevels).toEqual(['CRITICAL', 'HIGH']);
      const levels = Object.entries(counts.byLevel);
      expect(levels[0]).toEqual(['CRITICAL', 2]);
      expect(counts.flagged).toBe((counts.byLevel.CRITICAL ?? 0) + (counts.byLevel.HIGH ?? 0));
      // The text: the same levels and counts in the same order, the same flagged levels.
      const line = text.split('\n').find((l) => l.startsWith('Confidence levels: ')) ?? '';
      const inText = [...line.replace(/ \(average.*$/, '').matchAll(/([A-Z]+) (\d+)/g)].map((m) => [
        m[1],
        Number(m[2]),
      ]);
      expect(inText).toEqual(levels);
      expect(text.split('\n')[0]).toContain(`${counts.flagged} of `);
      expect(text.split('\n')[0]).toContain('flagged CRITICAL or HIGH');
      // The board in Chromium: the same chips in the same order, the flagged ones marked.
      for (const theme of ['light', 'dark'] as const) {
        const page = await env.host((p) => client.callTool(p), 960);
        const frame = await mount(page, html, result, theme);
        const chips = (await frame.evaluate(`[...document.querySelectorAll('ul.chips li.level')].map((e) => [
            e.textContent, e.classList.contains('level-flagged')])`)) as Array<[string, boolean]>;
        expect(chips.map(([t]) => t)).toEqual(levels.map(([l, n]) => `${l}: ${n}`));
        expect(chips.filter(([, f]) => f).map(([t]) => t)).toEqual(
          counts.flaggedLevels.map((l) => `${l}: ${counts.byLevel[l]}`),
        );
        const options = await frame.locator('select[aria-label="Level"] option').allTextContents();
        expect(options.slice(1)).toEqual(levels.map(([l]) => l));
        // The rows in the report's order: every CRITICAL row before the first HIGH one.
        const badges = await frame.locator('table.board tbody td.level span.level').allTextContents();
        expect(badges.slice(0, 2)).toEqual(['CRITICAL', 'CRITICAL']);
        expect(badges.indexOf('HIGH')).toBe(2);
        const flaggedBadges = await frame.locator('table.board tbody span.level-flagged').allTextContents();
        expect(new Set(flaggedBadges)).toEqual(new Set(counts.flaggedLevels));
        expect((await textContrast(frame, HOST_BACKGROUND[theme])).ratio).toBeGreaterThanOrEqual(4.5);
      }
    }, 60_000);
});
