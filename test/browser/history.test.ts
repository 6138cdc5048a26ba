// History in the views, in a real Chromium, from the real built server's results on an SQLite file: the
// board's day strips (each token's recorded level per day), and check_watchlist's board marking exactly the
// changes its text lists. Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsClient, mount } from '../../scripts/host/harness.js';
import type { ViewHistory } from '../../src/report/view-types.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import { sqliteDatabase, type TestDatabase } from '../store/databases.js';
import { executablePath, type Result, shoot, useBrowser, viewOf } from './helpers.js';

const env = useBrowser();
/** The UTC date `offset` days from today. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!executablePath)('history in the board', () => {
  let client: Client;
  let html: string;
  let close: () => Promise<void>;
  let page: Page;
  let db: TestDatabase;
  let mints: string[];
  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }, { timeout: 60_000 });
  beforeAll(async () => {
    db = sqliteDatabase();
    ({ client, html, close } = await appsClient('browser-history', {
      HOME: '/nonexistent',
      STREAMER_ANALYTICS_API_KEY: env.sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: env.sim.url,
      STREAMER_ANALYTICS_DATABASE_URL: db.url,
    }));
    page = await env.page((params) => client.callTool(params));
    mints = env.sim.data.tokens
      .filter((t) => t.platform === 'platform_a' && t.botting && t.currentViewers >= 100)
      .slice(0, 4)
      .map((t) => t.mintId);
  });
  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  it("draws each token's recorded days as a strip, with the day and level said in text", async () => {
    const empty = await mount(page, html, await call('investigate_botting', { mintIds: mints }));
    expect(await empty.locator('.history-note').textContent()).toBe(
      'No history recorded for these tokens in the last 30 days.',
    );
    expect(await empty.locator('.history .day').count()).toBe(0);
    const board = await mount(page, html, await call('investigate_botting', { mintIds: mints }));
    expect(await board.locator('.history-note').textContent()).toMatch(
      /^Recorded level per day, last 30 days \(history, 4 tokens\), beside the upstream's last 24 h\.$/,
    );
    const today = new Date().toISOString().slice(0, 10);
    const first = day(-29);
    for (const m of mints) {
      const row = board.locator(`tr[data-mint="${m}"]`);
      // One cell per day of the window: today's recorded, the 29 before it empty.
      expect(await row.locator('.history .day').count()).toBe(30);
      expect(await row.locator('.history .day:not(.day-empty)').count()).toBe(1);
      const level = env.sim.data.byMint.get(m)?.botting?.confidenceLevel;
      expect(await row.locator('.history .day:not(.day-empty)').getAttribute('title')).toBe(
        `${today}: ${level}`,
      );
      expect(await row.locator('.history .day').last().getAttribute('title')).toBe(`${today}: ${level}`);
      expect(await row.locator('.history .sr-only').textContent()).toBe(
        `Recorded levels by day, ${first} to ${today} (today): ${first} to ${day(-1)} no record, ${today} ${level}`,
      );
    }
    await shoot(page, 'history-board');
  });

  it('draws one cell per day of the window: days with no record are empty cells, so cells line up with dates', async () => {
    const result = await call('investigate_botting', { mintIds: mints });
    const view = viewOf(result) as { history: Extract<ViewHistory, { tokens: unknown }> };
    const [a, b] = mints as [string, string];
    const level = view.history.levels[0]?.level ?? '';
    const other = view.history.levels.at(-1)?.level ?? '';
    // Two records a month apart (the trial's token: 2026-11-08 and 2026-12-07), a day with no verdict.
    const tokens = {
      ...view.history.tokens,
      [a]: [
        { date: day(-29), level },
        { date: day(-3), level: null },
        { date: day(0), level: other },
      ],
      [b]: [{ date: day(-1), level }],
    };
    const sparse: Result = {
      ...result,
      _meta: { [VIEW_DATA_KEY]: { ...view, history: { ...view.history, tokens } } },
    };
    const board = await mount(page, html, sparse);
    const cells = (m: string) =>
      board.locator(`tr[data-mint="${m}"] .history .day`).evaluateAll((els) =>
        els.map((e) => ({
          title: e.getAttribute('title'),
          empty: e.classList.contains('day-empty'),
          x: e.getBoundingClientRect().x,
        })),
      );
    const ca = await cells(a);
    const cb = await cells(b);
    expect(ca).toHaveLength(30);
    expect(cb).toHaveLength(30);
    expect(ca[0]).toMatchObject({ title: `${day(-29)}: ${level}`, empty: false });
    expect(ca[26]).toMatchObject({ title: `${day(-3)}: no verdict`, empty: false });
    expect(ca[29]).toMatchObject({ title: `${day(0)}: ${other}`, empty: false });
    for (const i of [1, 2, 14, 25, 27, 28])
      expect(ca[i]).toMatchObject({ title: `${day(i - 29)}: no record`, empty: true });
    expect(cb[28]).toMatchObject({ title: `${day(-1)}: ${level}`, empty: false });
    expect(cb[29]).toMatchObject({ title: `${day(0)}: no record`, empty: true });
    // A day is at one place in every row.
    for (let i = 0; i < 30; i++) expect(cb[i]?.x, `cell ${i}`).toBe(ca[i]?.x);
    expect(await board.locator(`tr[data-mint="${a}"] .history`).getAttribute('data-recorded')).toBe('3');
    expect(await board.locator(`tr[data-mint="${a}"] .history .sr-only`).textContent()).toBe(
      `Recorded levels by day, ${day(-29)} to ${day(0)} (today): ${day(-29)} ${level}, ${day(-28)} to ${day(-4)} no record, ${day(-3)} no verdict, ${day(-2)} to ${day(-1)} no record, ${day(0)} ${other}`,
    );
    // The key: which end is today, each level's colour, no verdict and no record.
    expect(await board.locator('.history-axis').textContent()).toBe(
      `One cell a day: ${day(-29)} on the left … today (${day(0)}, UTC) on the right.`,
    );
    const key = await board.locator('.history-key li').allTextContents();
    expect(key.map((k) => k.trim())).toEqual([
      ...view.history.levels.map((l) => (l.flagged ? `${l.level} (flagged)` : l.level)),
      'no verdict',
      'no record',
    ]);
    await shoot(page, 'history-sparse');
  });

  it("check_watchlist's board marks exactly the changes its text lists, and counts them", async () => {
    await call('watchlist', { action: 'save', name: 'browser', mintIds: mints });
    const firstCheck = await mount(page, html, await call('check_watchlist', { name: 'browser' }));
    expect(await firstCheck.locator('.changes-count').textContent()).toBe('4 changes (first check)');
    const [a, b] = mints;
    const ta = env.sim.data.byMint.get(a ?? '');
    const tb = env.sim.data.byMint.get(b ?? '');
    if (!ta?.botting || !tb) throw new Error('the simulator has too few tokens for this test');
    const before = { botting: ta.botting, live: tb.isCurrentlyLive };
    ta.botting = { ...ta.botting, confidenceLevel: ta.botting.confidenceLevel === 'HIGH' ? 'LOW' : 'HIGH' };
    tb.isCurrentlyLive = !tb.isCurrentlyLive;
    try {
      const result = await call('check_watchlist', { name: 'browser' });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
      const changes = (result.structuredContent as { changes: Array<{ mintId: string; kind: string }> })
        .changes;
      expect(changes).toHaveLength(2);
      const board = await mount(page, html, result);
      expect(await board.locator('h1').textContent()).toMatch(/^Watchlist "browser": 4 tokens analysed$/);
      const count = (await board.locator('.changes-count').textContent()) ?? '';
      expect(count).toMatch(/^2 changes since the previous check at /);
      // The views' one time format, not the raw ISO string.
      expect(count).toMatch(/ at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      expect(text).toContain(count.replace(/ at .*/, ''));
      const marks = await board
        .locator('li.change')
        .evaluateAll((els) => els.map((e) => ({ mintId: e.dataset.mint, kind: e.dataset.kind })));
      expect(marks).toEqual(changes.map(({ mintId, kind }) => ({ mintId, kind })));
      expect(await board.locator('tr.changed').count()).toBe(2);
      for (const c of changes)
        expect(await board.locator(`tr[data-mint="${c.mintId}"] li.change`).count()).toBe(1);
      await shoot(page, 'history-watchlist');
    } finally {
      ta.botting = before.botting;
      tb.isCurrentlyLive = before.live;
    }
  });
});
