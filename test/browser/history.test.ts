// History in the views, in a real Chromium, from the real built server's results on an SQLite file: the
// board's day strips (each token's recorded level per day), and check_watchlist's board marking exactly the
// changes its text lists. Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsClient, mount } from '../../scripts/host/harness.js';
import { sqliteDatabase, type TestDatabase } from '../store/databases.js';
import { executablePath, shoot, useBrowser } from './helpers.js';

const env = useBrowser();

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
    for (const m of mints) {
      const row = board.locator(`tr[data-mint="${m}"]`);
      expect(await row.locator('.history .day').count()).toBe(1);
      const level = env.sim.data.byMint.get(m)?.botting?.confidenceLevel;
      expect(await row.locator('.history .day').getAttribute('title')).toBe(`${today}: ${level}`);
      expect(await row.locator('.history .sr-only').textContent()).toBe(
        `Recorded levels by day: ${today} ${level}`,
      );
    }
    await shoot(page, 'history-board');
  });

  it("check_watchlist's board marks exactly the changes its text lists, and counts them", async () => {
    await call('watchlist', { action: 'save', name: 'browser', mintIds: mints });
    await call('check_watchlist', { name: 'browser' });
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
