// A token's evidence panel in a real Chromium, from the real built server's results (test/browser/helpers.ts: a host on the
// App SDK's AppBridge renders each view in a sandboxed iframe and answers its app-only tool calls through
// the server). Without a Chromium these tests are skipped.
import type { Client } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mount } from '../../scripts/host/harness.js';
import { num } from '../../src/format/text.js';
import { ids } from '../helpers.js';
import { executablePath, type Result, shoot, useBrowser, viewOf } from './helpers.js';

const env = useBrowser();

describe.skipIf(!executablePath)('the evidence panel, opened from the board', () => {
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

  it('selecting a token calls the app-only evidence tool and draws its viewer curve, per period', async () => {
    const before = env.toolCalls.length;
    await board.locator('table.board tbody tr button.token').first().click();
    await board.waitForSelector('.evidence canvas');
    expect(env.toolCalls.slice(before)).toEqual(['get_token_evidence']);
    expect(await board.locator('.evidence table.sessions tbody tr').count()).toBeGreaterThan(0);
    await board.locator('.evidence select[aria-label="Period"]').selectOption('7d');
    await board.waitForSelector('.evidence canvas');
    expect(await board.locator('.evidence select[aria-label="Period"]').inputValue()).toBe('7d');
    expect(env.toolCalls.slice(before)).toEqual(['get_token_evidence', 'get_token_evidence']);
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

  it('shows a failed evidence call in place, not as a blank', async () => {
    env.sim.injectFor(/\/sessions|\/streamers\/analytics|\/botting\/bulk/, {
      status: 401,
      body: { error: 'bad key' },
    });
    await board.locator('table.board tbody tr button.token').nth(1).click();
    await board.waitForSelector('.evidence .error');
    expect(await board.locator('.evidence .error').first().textContent()).toMatch(/unavailable|Could not/);
    env.sim.reset();
  });
});

describe.skipIf(!executablePath)('the evidence panel says what it shows', () => {
  let client: Client;
  let html: string;
  let page: Page;
  const callTool = (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params);
  const _unknown = (count: number) =>
    Array.from({ length: count }, (_, i) => `Fk${String(i).padStart(4, '9')}${'Z'.repeat(38)}`);
  const _shown = (frame: Frame) => frame.locator('p[aria-live]').textContent();
  beforeAll(async () => {
    ({ client, html } = await env.apps());
    page = await env.page(callTool, 960);
  });

  it("names the evidence verdict's window, and Escape closes the panel as soon as it opens", async () => {
    const frame = await mount(
      page,
      html,
      await callTool({ name: 'investigate_botting', arguments: { mintIds: ids(env.sim, 'platform_a', 25) } }),
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

  it('says a token had no viewers instead of drawing a flat line on a made-up axis', async () => {
    const quiet = env.sim.data.tokens.find((t) => t.platform === 'platform_a' && t.sessions.length === 0);
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
});

// Session durations in seconds (the simulator's: end − start in every row): the evidence panel and
// get_streamer_sessions state the same unit, found by the server from the same rows.
describe.skipIf(!executablePath)('the unit of a session duration', () => {
  it('is the one get_streamer_sessions states, in the panel caption and its column header', async () => {
    const token = env.sim.data.tokens.find(
      (t) => t.platform === 'platform_a' && t.botting && t.sessions.length > 3,
    );
    if (!token) throw new Error('no analysed token with sessions');
    const { client, html } = await env.apps();
    const page = await env.host((p) => client.callTool(p), 960);
    const sessions = await client.callTool({
      name: 'get_streamer_sessions',
      arguments: { mint: token.mintId },
    });
    const unit = (sessions.structuredContent as { aggregates: { durationUnit?: string } }).aggregates
      .durationUnit;
    expect(unit).toBe('s');
    const text = String((sessions.content as Array<{ text: string }>)[0]?.text);
    expect(text).toContain('durations in s:');
    const result = await client.callTool({
      name: 'analyze_botting',
      arguments: { mintIds: [token.mintId] },
    });
    const frame = await mount(page, html, result);
    await frame.locator('table.board tbody tr button.token').first().click();
    await frame.waitForSelector('.evidence table.sessions tbody tr');
    expect(await frame.locator('.evidence table.sessions caption').textContent()).toContain(
      'duration in seconds',
    );
    expect(await frame.locator('.evidence table.sessions th').nth(1).textContent()).toBe(
      `Duration (${unit})`,
    );
    // The panel's durations are the rows' own numbers, in that unit.
    const first = await frame.locator('.evidence table.sessions tbody tr td').nth(1).textContent();
    expect(token.sessions.map((s) => num(s.duration))).toContain(first);
  }, 60_000);
});
